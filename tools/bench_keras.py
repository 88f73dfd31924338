"""Benchmark rows: `fit` per epoch vs TensorFlow's Keras, on the README's
classifier and on the CNN of the model rows.

The goal: `model.fit` on the README's first model (Dense(16, relu) ->
Dense(2), Adam, sparse cross-entropy from logits, accuracy; 512 samples,
batch 64, so 8 steps an epoch) is no slower per epoch than TensorFlow's Keras
on this machine. Each side runs in its own process: a warm-up `fit` (which
traces the step), then the best of N rounds of `fit(epochs=5)`, divided by
5. TensorFlow runs from the interpreter named by $BENCH_TF_PYTHON (as tools/bench.py's
other TensorFlow rows); without it the row says n/a. The two processes take
turns in interleaved rounds (tools/bench_recipes/interleave.py), so that
both see the same machine.

The CNN row: one epoch of `fit` on the CNN of tools/bench.py's model rows
(Conv2D 32 - MaxPool - Conv2D 64 - MaxPool - Dense 10, SGD(0.01), sparse
cross-entropy from logits) over 2,048 images of 28x28x1, batch 32 (64 steps),
the same seeded weights on both sides; the best of N (at most 5) interleaved
rounds of one epoch each. Its goal: within 1.5x of TensorFlow. With `--jit` in the
script ours compiles with `jit_compile=True` (TensorFlow's Keras keeps its
default, which on a CPU-only machine does not use XLA).

    python tools/bench.py --only "fit per epoch"
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tools.bench_recipes.interleave import Worker, interleaved  # noqa: E402 - after the path

TF_PYTHON = os.environ.get("BENCH_TF_PYTHON", "")

_SCRIPT = r'''
import os, sys, time, json
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
if sys.argv[1] == "ours":
    import runtime as tf
    keras = tf.keras
else:
    import keras
kind = sys.argv[2]
if kind == "readme":
    x = np.random.default_rng(0).normal(size=(512, 2)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] > 0).astype(np.int32)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(16, activation="relu"),
                              keras.layers.Dense(2)])
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    batch, epochs, warm = 64, 5, 2
else:
    rng = np.random.default_rng(34)
    x = rng.standard_normal((2048, 28, 28, 1)).astype(np.float32)
    y = rng.integers(0, 10, 2048).astype(np.int32)
    layers = keras.layers
    model = keras.Sequential([
        keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"),
        layers.MaxPooling2D(2), layers.Conv2D(64, 3, activation="relu"),
        layers.MaxPooling2D(2), layers.Flatten(), layers.Dense(10)])
    model.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.05
                       for w in model.get_weights()])
    extra = {"jit_compile": True} if kind == "cnn_jit" else {}
    model.compile(optimizer=keras.optimizers.SGD(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), **extra)
    batch, epochs, warm = 32, 1, 1
model.fit(x, y, batch_size=batch, epochs=warm, verbose=0, shuffle=False)


def run():
    model.fit(x, y, batch_size=batch, epochs=epochs, verbose=0, shuffle=False)
'''
EPOCHS = {"readme": 5, "cnn": 1, "cnn_jit": 1}     # epochs per call of `run`


def _worker(python, which, kind):
    """A Worker whose `run()` is `fit` of `EPOCHS[kind]` epochs."""
    env = {"PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return Worker(python, _SCRIPT, args=(which, kind), env=env)


def seconds_per_epoch(repeat, kind="readme"):
    """[ours, TF Keras's] (wall, CPU) seconds per epoch of `kind`: each in its worker
    process, the two taking turns in interleaved rounds (`repeat` of them,
    at most 5 for the CNN's long epochs), the best round of each counting."""
    rounds = min(repeat, 5) if kind.startswith("cnn") else repeat
    with _worker(sys.executable, "ours", kind) as ours, \
            _worker(TF_PYTHON, "tf", "cnn" if kind == "cnn_jit" else kind) as theirs:
        best = interleaved([ours, theirs], rounds, min_batch=0)
    return [(wall / EPOCHS[kind], cpu / EPOCHS[kind]) for wall, cpu in best]


def bench_keras_fit(unavailable, repeat, kind="readme"):
    """A bench.py row: graph = our fit per epoch, numpy column = TF Keras's.
    `kind`: "readme" (the README classifier, goal 1.0x), "cnn" (the model
    rows' CNN, goal 1.5x) or "cnn_jit" (ours with jit_compile=True, goal 1.0x)."""
    if not TF_PYTHON or not os.path.exists(TF_PYTHON):
        raise unavailable("TensorFlow's Keras not found (set BENCH_TF_PYTHON to a python with "
                          f"tensorflow; it is {TF_PYTHON!r})")
    ours, theirs = seconds_per_epoch(repeat, kind)
    note = (f"ours {ours[0] * 1e3:.2f} ms/epoch vs TF Keras {theirs[0] * 1e3:.2f} ms/epoch "
            f"(the numpy column is TF Keras); CPU time per epoch (all threads) ours "
            f"{ours[1] * 1e3:.2f} ms, TF {theirs[1] * 1e3:.2f} ms")
    return dict(graph=ours[0], numpy=theirs[0], ratio_target=1.5 if kind == "cnn" else 1.0,
                extra={"cpu": ours[1], "tf_cpu": theirs[1]}, note=note)
