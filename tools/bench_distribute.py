"""Benchmark row: the per-example cost of a data-parallel training step on N
simulated devices (MirroredStrategy over the CPU split into N logical
devices, one XLA program run by jax.shard_map) against the same step on one
device (`tf.function(jit_compile=True)`, the same XLA path); the
goal: at most 1.2x.

Workload: MLP 784-256-256-10, Adam, sparse cross-entropy from logits,
64 examples per replica (N * 64 per distributed step); the custom loop of
TF's tutorial (compute_average_loss, strategy.run, reduce SUM).

The times are the best of many short interleaved rounds (one device, then
N, in each round: a load that comes and goes on a shared machine falls on
both, and the best round is one it spared), in wall time; the process's
CPU time (all its threads, XLA's devices' too) is given beside it.

JAX fixes its device count when it starts, so the row runs in its own
process:

    python tools/bench_distribute.py [N]     # N = 4
    python tools/bench.py --only distribute
"""

import json
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

PER_REPLICA = 64


def _model(tf):
    keras = tf.keras
    return keras.Sequential([
        keras.Input((784,)), keras.layers.Dense(256, activation="relu"),
        keras.layers.Dense(256, activation="relu"), keras.layers.Dense(10)])


def _step(tf, strategy, jit):
    """(one step on a global batch, model) under `strategy`."""
    with strategy.scope():
        model = _model(tf)
        opt = tf.keras.optimizers.Adam(0.001)
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                    reduction=None)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_object(y, model(x, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    if jit:
        return tf.function(train_step, jit_compile=True), model

    @tf.function
    def distributed(x, y):
        per_replica = strategy.run(train_step, args=(x, y))
        return strategy.reduce("SUM", per_replica, axis=None)
    return distributed, model


def _interleaved(fns, repeat=35, number=2):
    """{name: (wall, cpu)}: the best of `repeat` rounds of seconds per call,
    the functions taking turns in each round (so a load that comes and goes
    on a shared machine falls on both). cpu is the process's CPU time (all
    its threads: XLA's devices' too), which other processes' load does not
    inflate as it does the wall time."""
    best = {name: [float("inf"), float("inf")] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(number):
                fn()
            cpu = (time.process_time() - cpu) / number
            wall = (time.perf_counter() - wall) / number
            best[name] = [min(best[name][0], wall), min(best[name][1], cpu)]
    return best


def measure(n, repeat=7):
    """{'one', 'many' (wall s/step), 'cpu_one', 'cpu_many' (CPU s/step),
    'per_example_one', 'per_example_many' (wall s/example), 'ratio' (theirs),
    'cpu_ratio', 'weights_diff'}."""
    import runtime as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * n)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n * PER_REPLICA, 784)).astype(np.float32)
    y = rng.integers(0, 10, n * PER_REPLICA).astype(np.int64)
    strategy = tf.distribute.MirroredStrategy()
    one, one_model = _step(tf, tf.distribute.get_strategy(), jit=True)
    many, many_model = _step(tf, strategy, jit=False)
    many_model.set_weights(one_model.get_weights())
    dist = next(iter(strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(n * PER_REPLICA))))
    xs, ys = tf.constant(x), tf.constant(y)
    one(xs, ys)          # the same global batch once on each: the same weights
    many(*dist)
    diff = max(float(np.abs(a - b).max()) for a, b in zip(one_model.get_weights(),
                                                          many_model.get_weights()))
    x1, y1 = tf.constant(x[:PER_REPLICA]), tf.constant(y[:PER_REPLICA])
    one(x1, y1)          # its trace for PER_REPLICA rows
    best = _interleaved({"one": lambda: one(x1, y1), "many": lambda: many(*dist)}, 5 * repeat)
    (t_one, c_one), (t_many, c_many) = best["one"], best["many"]
    per_one, per_many = t_one / PER_REPLICA, t_many / (n * PER_REPLICA)
    return {"n": n, "one": t_one, "many": t_many, "cpu_one": c_one, "cpu_many": c_many,
            "per_example_one": per_one, "per_example_many": per_many,
            "ratio": per_many / per_one,
            "cpu_ratio": (c_many / (n * PER_REPLICA)) / (c_one / PER_REPLICA),
            "weights_diff": diff}


def bench_distribute_row(unavailable, repeat=7, n=4):
    """A bench.py row (run in a subprocess): graph = N replicas' per-example
    time, numpy column = one device's (the CPU-time ratio in the note)."""
    try:
        import jax  # noqa: F401
    except ImportError:
        raise unavailable("JAX is not installed (pip install -e '.[jax]')") from None
    run = subprocess.run([sys.executable, os.path.abspath(__file__), str(n), "--json",
                          f"--repeat={repeat}"],
                         capture_output=True, text=True, timeout=900)
    lines = [x for x in run.stdout.splitlines() if x.startswith("{")]
    if run.returncode or not lines:
        raise RuntimeError(run.stderr.strip().splitlines()[-1] if run.stderr else "no output")
    f = json.loads(lines[-1])
    note = (f"{n} replicas x {PER_REPLICA}: {f['many'] * 1e3:.2f} ms/step "
            f"({f['cpu_many'] * 1e3:.2f} ms CPU), one device x {PER_REPLICA}: "
            f"{f['one'] * 1e3:.2f} ms/step ({f['cpu_one'] * 1e3:.2f} ms CPU); per example "
            f"{f['per_example_many'] * 1e6:.2f} us vs {f['per_example_one'] * 1e6:.2f} us "
            f"(in CPU time {f['cpu_ratio']:.2f}x); "
            f"weights after one global step differ by {f['weights_diff']:.1e}")
    return dict(eager=None, graph=f["per_example_many"], numpy=f["per_example_one"],
                ratio_target=1.2, extra=f, note=note)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    repeat = [int(a.split("=")[1]) for a in sys.argv[1:] if a.startswith("--repeat=")]
    f = measure(int(args[0]) if args else 4, *repeat)
    if "--json" in sys.argv:
        print(json.dumps(f))
    else:
        print({k: (f"{v * 1e6:.2f} us" if k.startswith("per_") else v) for k, v in f.items()})


if __name__ == "__main__":
    main()
