"""A compiled graph's runs reuse their large arrays (runtime/_src/core/workspace.py).

After its first run of generated code (its second run: the first is
interpreted), a Keras CNN or MLP training step allocates no new large
array: each line of the generated code, measured with tracemalloc while it
runs, takes at most numpy's own ufunc buffers (as much as one fully
buffered ufunc call takes, for each thread of a split kernel), where the first
run takes megabytes. And the reuse never touches an array anyone can still
see: returned outputs (and views of them), Variables' values, what an outer
tape holds, another thread's run.
"""

import sys
import threading
import tracemalloc

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import parallel, workspace

def _ufunc_buffers():
    """The most numpy's own ufunc buffers take in one call of a float32 kernel:
    measured on a product whose three operands are all buffered (a bool cast,
    a broadcast and a strided output), as the max-pool gradient's routing
    (runtime/_src/ops/pool_ops.py) is; their size depends on numpy's version."""
    match = np.ones((64, 2, 64, 2, 16), bool)[:, :, ::2]
    dy = np.ones((64, 1, 32, 2, 16), np.float32)
    out = np.empty((64, 2, 64, 2, 16), np.float32)[:, :, ::2]
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        np.multiply(match, dy, out=out)
        return tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()


# numpy's ufunc buffers and a line's own Python objects, for each thread a
# kernel's work is split over (runtime/_src/core/parallel.py)
LINE_LIMIT = (_ufunc_buffers() + 16 * 1024) * parallel.threads_for(1 << 40)


def _worst_line(call):
    """The most memory one line of a graph's generated code allocated above
    its start (tracemalloc's peak, reset at every line) during `call()`."""
    state = {"start": None, "worst": 0}

    def on_line(frame, event, arg):
        current, peak = tracemalloc.get_traced_memory()
        if state["start"] is not None:
            state["worst"] = max(state["worst"], peak - state["start"])
        tracemalloc.reset_peak()
        state["start"] = tracemalloc.get_traced_memory()[0]
        return on_line

    def on_call(frame, event, arg):
        return on_line if frame.f_code.co_filename.startswith("<graph ") else None

    tracemalloc.start()
    sys.settrace(on_call)
    try:
        call()
    finally:
        sys.settrace(None)
        tracemalloc.stop()
    return state["worst"]


def _step(kind):
    rng = np.random.default_rng(34)
    layers = tf.keras.layers
    if kind == "cnn":
        x = rng.standard_normal((32, 28, 28, 1)).astype(np.float32)
        model = tf.keras.Sequential([
            layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(2),
            layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(2),
            layers.Flatten(), layers.Dense(10)])
        optimizer = tf.keras.optimizers.SGD(0.01)
    else:
        x = rng.standard_normal((128, 784)).astype(np.float32)
        model = tf.keras.Sequential([layers.Dense(256, activation="relu"),
                                     layers.Dense(256, activation="relu"), layers.Dense(10)])
        optimizer = tf.keras.optimizers.Adam(1e-3)
    y = rng.integers(0, 10, len(x)).astype(np.int32)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        return loss
    return step, tf.constant(x), tf.constant(y)


@pytest.mark.parametrize("kind", ["cnn", "mlp"])
def test_a_training_step_allocates_no_large_array_after_its_first_run(kind):
    step, x, y = _step(kind)
    step(x, y)                                         # interpreted (exec/interpreter.py)
    first = _worst_line(lambda: step(x, y))            # the first run of the generated code
    losses = [float(step(x, y)) for _ in range(2)]
    later = _worst_line(lambda: step(x, y))
    assert first > 512 * 1024, first                  # the measure sees the first run's arrays
    assert later <= LINE_LIMIT, later
    assert losses[1] < losses[0]                      # still training


def _held_values():
    """A function whose large intermediates escape in every way a caller can see."""
    w = tf.Variable(np.linspace(-1, 1, 64 * 64, dtype=np.float32).reshape(64, 64))
    keep = tf.Variable(np.zeros((256, 64), np.float32))

    @tf.function
    def f(x):
        h = tf.nn.relu(tf.matmul(x, w))               # 64 KiB: pooled when dead
        keep.assign(h * 2.0)                          # a Variable's value
        g = tf.matmul(h, w) + 1.0
        return tf.reshape(g, [-1]), tf.reduce_sum(tf.square(g - h))
    return f, w, keep


def test_outputs_views_and_variable_values_are_never_reused():
    f, w, keep = _held_values()
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((256, 64)).astype(np.float32) for _ in range(3)]
    results, kept = [], []
    for x in xs:
        flat, total = f(tf.constant(x))
        results.append((flat.numpy(), float(total)))
        kept.append(keep.numpy())
    for x, (flat, total), value in zip(xs, results, kept):
        h = np.maximum(x @ w.numpy(), 0)
        g = h @ w.numpy() + 1.0
        np.testing.assert_allclose(flat, g.reshape(-1), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(total, np.sum(np.square(g - h)), rtol=1e-4)
        np.testing.assert_allclose(value, h * 2, rtol=1e-5, atol=1e-6)   # each run's own


def test_an_outer_tape_and_concurrent_runs_see_their_own_values():
    w = tf.Variable(np.linspace(-1, 1, 128 * 128, dtype=np.float32).reshape(128, 128))
    f = tf.function(lambda x: tf.reduce_sum(tf.nn.relu(tf.matmul(tf.matmul(x, w), w))))
    rng = np.random.default_rng(1)
    xs = [tf.constant(rng.standard_normal((128, 128)).astype(np.float32)) for _ in range(4)]

    def eager_grad(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.relu(tf.matmul(tf.matmul(x, w), w)))
        return tape.gradient(loss, w).numpy()

    for x in xs[:2]:
        with tf.GradientTape() as tape:
            loss = f(x)
        np.testing.assert_allclose(tape.gradient(loss, w).numpy(), eager_grad(x), rtol=1e-5,
                                   atol=1e-3)
    want = [float(f(x)) for x in xs]
    got = [None] * len(xs)

    def worker(i):
        for _ in range(20):
            value = float(f(xs[i]))
            if got[i] is None or value != want[i]:
                got[i] = value
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


def test_the_pool_takes_only_arrays_no_one_else_holds():
    pool = {}
    previous = workspace.activate(pool)
    try:
        alone = np.ones((64, 64), np.float32)             # 16 KiB
        workspace.give(alone)
        del alone
        held = np.ones((64, 64), np.float32)
        others = [held, held[1:]]
        workspace.give(held)
        small = np.ones(8, np.float32)
        workspace.give(small)
        assert [len(v) for k, v in pool.items() if k is not None] == [1]
        reused = workspace.empty((32, 128), np.float32)
        assert reused.shape == (32, 128) and not pool[(4096, np.dtype(np.float32))]
        np.testing.assert_array_equal(others[0], 1.0)
    finally:
        workspace.activate(previous)
    assert workspace.out_for((64, 64), np.float32) is None    # no pool outside a run


def test_a_pool_keeps_no_more_than_about_one_run_of_arrays_when_shapes_change():
    w = tf.Variable(np.full((256, 256), 0.01, np.float32))
    f = tf.function(lambda x: tf.reduce_sum(tf.nn.relu(tf.matmul(tf.matmul(x, w), w))),
                    input_signature=[tf.TensorSpec([None, 256], tf.float32)])
    rng = np.random.default_rng(2)
    for batch in range(199, 240):                # a new size every run (the first: interpreted)
        x = rng.standard_normal((batch, 256)).astype(np.float32)
        np.testing.assert_allclose(float(f(x)), np.maximum(x @ w.numpy() @ w.numpy(), 0).sum(),
                                   rtol=1e-4)
    compiled = f.get_concrete_function().graph._compiled
    held = sum(a.nbytes for pool in compiled.pools for k, arrays in pool.items()
               if k is not None for a in arrays)
    assert 0 < held <= 3 * 240 * 256 * 4, held   # a run's arrays, not 40 runs'
