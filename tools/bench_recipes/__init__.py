"""tools/bench.py's workloads, one module per family (base.py: timing,
tracing, `Unavailable`). `WORKLOADS` lists (title, workload) in the table's
order; a workload returns a dict: eager, graph, numpy (seconds or None),
ratio_target, and optional extra figures / a check of its own ("ok", "note")."""

from tools.bench_distribute import bench_distribute_row
from tools.bench_jit import bench_jit_rows
from tools.bench_keras import bench_keras_fit
from tools.bench_recipes import base
from tools.bench_recipes.base import Unavailable, best_of, best_of_pair
from tools.bench_recipes.data import bench_data_pipeline
from tools.bench_recipes.executor import (bench_call_forms, bench_collatz, bench_eager_op,
                                          bench_long_loop, bench_mlp, bench_power,
                                          bench_scaling, bench_tiny_call)
from tools.bench_recipes.jax_pairs import (bench_jax_collatz, bench_jax_conversion,
                                           bench_jax_nested, bench_jax_power)
from tools.bench_recipes.models import bench_lstm_step, bench_model, tf_step_versus
from tools.bench_recipes.onnx_export import bench_onnx
from tools.bench_recipes.training import bench_taped_call, bench_train_step, bench_while_grad
from tools.bench_recipes.transpiler import bench_transpiler


def _keras_fit(kind="readme"):
    """bench_keras_fit's row for `kind`, at the run's best-of-N."""
    return bench_keras_fit(Unavailable, base.REPEAT, kind)


WORKLOADS = [
    ("eager tf.add on int32[10] vs np.add", bench_eager_op),
    ("power(x, 100): 100 chained 10x10 int32 matmuls", bench_power),
    ("Collatz steps, n=27 (while + if on int32 scalar)", bench_collatz),
    ("tiny a + b, cached signature", bench_tiny_call),
    ("call forms vs positional (keyword, signature, ...)", bench_call_forms),
    ("MLP [60,784] -> 128 relu -> 10, float32", bench_mlp),
    ("MLP training step 784-128-10, b64, tape+SGD", bench_train_step),
    ("gradient of a 10,000-iteration while_loop", bench_while_grad),
    ("taped call of a 20-op tf.function vs untaped", bench_taped_call),
    ("LSTM(64) train step b32x20x16 vs TF Keras", bench_lstm_step),
    ("CNN train step b32 28x28, SGD, vs TF Keras", lambda: bench_model("cnn")),
    ("CNN inference b16 28x28 vs TF Keras", lambda: bench_model("cnn_inference")),
    ("MLP 784-256-256-10 train step b128, Adam, vs TF Keras", lambda: bench_model("mlp")),
    ("tf.data epoch: slices.shuffle.map.batch(64).prefetch", bench_data_pipeline),
    ("while_loop counting to 1,000,000", bench_long_loop),
    ("convert+trace 30-line fn; to_code 1,000 lines", bench_transpiler),
    ("scaling: trace + first run, 100/1k/10k ops", bench_scaling),
    ("JAX Collatz(27): jit(converted) vs hand lax", bench_jax_collatz),
    ("JAX power(x, n=100) 10x10 int32: vs fori_loop", bench_jax_power),
    ("JAX nested Python-range loops 6x6 with if", bench_jax_nested),
    ("JAX first call of a 30-line fn: conversion", bench_jax_conversion),
    ("Keras fit per epoch, README classifier, vs TF", _keras_fit),
    ("Keras fit per epoch, CNN 2,048 images b32, vs TF", lambda: _keras_fit("cnn")),
    ("Keras fit per epoch, CNN, jit_compile=True, vs TF", lambda: _keras_fit("cnn_jit")),
    ("ONNX Runtime vs ours: Keras MLP, conv net; export", bench_onnx),
    ("jit_compile=True (XLA via JAX) vs executor: CNN, MLP, LSTM", lambda: bench_jit_rows(
        Unavailable, best_of_pair, best_of, tf_step_versus)),
    ("tf.distribute per example: 4 CPU replicas vs 1 (MLP)", lambda: bench_distribute_row(
        Unavailable, base.REPEAT)),
]

__all__ = ["WORKLOADS", "Unavailable"]
