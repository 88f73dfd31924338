"""Training workloads: a train step with a tape against its backward pass by
hand in numpy (and JAX's jit(value_and_grad) when installed), a taped call of
a tf.function, and the gradient of a long while_loop (time and memory)."""

import time
import tracemalloc

import numpy as np

import runtime as tf
from tools.bench_recipes.base import Unavailable, best_of, best_of_pair, constant, fmt


def bench_train_step():
    """A training step: a 784-128-10 MLP, batch 64, sparse softmax
    cross-entropy, SGD; a tape inside one tf.function vs the same step with
    its backward pass written by hand in numpy (and JAX's jit(value_and_grad)
    when JAX is installed). Both update their weights in place every call."""
    if not hasattr(tf, "GradientTape"):
        raise Unavailable("tf.GradientTape is not available")
    rng = np.random.default_rng(2)
    xv = rng.standard_normal((64, 784)).astype(np.float32)
    yv = rng.integers(0, 10, 64).astype(np.int32)
    init = [(rng.standard_normal((784, 128)) * 0.05).astype(np.float32),
            np.zeros(128, np.float32),
            (rng.standard_normal((128, 10)) * 0.05).astype(np.float32),
            np.zeros(10, np.float32)]
    lr = 0.01
    params = [tf.Variable(v) for v in init]

    def step_fn(x, y):
        w1, b1, w2, b2 = params
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        for v, g in zip(params, tape.gradient(loss, params)):
            v.assign_sub(lr * g)
        return loss

    weights = [v.copy() for v in init]
    rows = np.arange(64)

    def step_np(x, y):
        w1, b1, w2, b2 = weights
        z1 = x @ w1 + b1
        h = np.maximum(z1, 0)
        logits = h @ w2 + b2
        top = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - top)
        total = e.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) + top[:, 0] - logits[rows, y])
        d = e / total
        d[rows, y] -= 1
        d /= len(y)
        dh = d @ w2.T
        dh *= z1 > 0
        w2 -= lr * (h.T @ d)
        b2 -= lr * d.sum(0)
        w1 -= lr * (x.T @ dh)
        b1 -= lr * dh.sum(0)
        return loss

    x, y = constant(xv), constant(yv)
    start = time.perf_counter()
    step = tf.function(step_fn)
    step.get_concrete_function(x, y)
    trace_t = time.perf_counter() - start
    got, want = float(step(x, y)), float(step_np(xv, yv))
    np.testing.assert_allclose(got, want, rtol=1e-4)
    np.testing.assert_allclose(params[0].numpy(), weights[0], rtol=1e-4, atol=1e-6)
    graph_t, numpy_t = best_of_pair(lambda: step(x, y), lambda: step_np(xv, yv))
    note = f"tracing the step with its gradient: {trace_t * 1e3:.1f} ms (target < 50 ms)"
    extra = {"trace": trace_t}
    jax_t = _jax_train_step(init, xv, yv, lr)
    if jax_t is not None:
        extra["jax_jit_value_and_grad"] = jax_t
        note += f"; JAX jit(value_and_grad) step {fmt(jax_t)} ({jax_t / numpy_t:.2f}x numpy)"
    return dict(eager=best_of(lambda: step_fn(x, y), repeat=3), graph=graph_t, numpy=numpy_t,
                ratio_target=1.0, note=note, extra=extra)


def bench_taped_call():
    """A tf.function of 20 elementwise ops called under an eager
    GradientTape (one recorded call of its graph) against the same call
    untaped (the baseline column); the note adds the taped call with its
    gradient. The eager column is the same Python run op by op under a tape."""
    if not hasattr(tf, "GradientTape"):
        raise Unavailable("tf.GradientTape is not available")

    def body(x):
        y = x
        for _ in range(5):
            y = tf.sin(y) * x + y * 0.5 - x
        return tf.reduce_sum(y)

    f = tf.function(body)
    x = constant(np.linspace(0, 1, 16).astype(np.float32))

    def taped(fn):
        with tf.GradientTape() as tape:
            tape.watch(x)
            fn(x)

    def taped_gradient():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    f(x)
    taped_gradient()
    untaped_t, taped_t = best_of_pair(lambda: f(x), lambda: taped(f))
    gradient_t = best_of(taped_gradient)
    return dict(eager=best_of(lambda: taped(body)), graph=taped_t, numpy=untaped_t,
                ratio_target=3.0, extra={"taped_with_gradient": gradient_t},
                note=f"baseline column: the untaped call; taped call + tape.gradient "
                     f"{fmt(gradient_t)} ({gradient_t / untaped_t:.2f}x the untaped call)")


def _jax_train_step(init, xv, yv, lr):
    """The same step as jit(value_and_grad) + SGD in JAX, or None without JAX."""
    try:
        import jax
    except ImportError:
        return None
    jnp = jax.numpy

    def loss_fn(params, x, y):
        w1, b1, w2, b2 = params
        logits = jnp.maximum(x @ w1 + b1, 0) @ w2 + b2
        return jnp.mean(jax.nn.logsumexp(logits, axis=1) - logits[jnp.arange(len(y)), y])

    @jax.jit
    def step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return loss, [p - lr * g for p, g in zip(params, grads)]

    state = {"params": [jnp.asarray(v) for v in init]}
    x, y = jnp.asarray(xv), jnp.asarray(yv)

    def run():
        loss, state["params"] = step(state["params"], x, y)
        loss.block_until_ready()
    run()
    return best_of(run)


def bench_while_grad():
    """The gradient of a 10,000-iteration while_loop (state: 16 float64)
    should take at most 3x the forward loop's time, and its memory grows linearly with
    the iterations (the per-iteration values the backward loop needs, and no
    per-iteration graph copies): peak(10,000) / peak(5,000) near 2."""
    if not hasattr(tf, "GradientTape"):
        raise Unavailable("tf.GradientTape is not available")
    x0 = constant(np.linspace(0.0, 1.0, 16))

    def loop(x, n):
        return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, tf.sin(y) * 0.5 + x),
                             [0, x])[1]

    forward = tf.function(loop)

    @tf.function
    def gradient(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(loop(x, n))
        return tape.gradient(y, x)

    def peak(n):
        gradient(x0, n)                   # traced and compiled outside the measurement
        tracemalloc.start()
        gradient(x0, n)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    n = constant(10_000)
    forward(x0, n)
    got = gradient(x0, constant(3)).numpy()
    want = _while_grad_numpy(x0.numpy(), 3)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    grad_t, forward_t = best_of_pair(lambda: gradient(x0, n), lambda: forward(x0, n),
                                     repeat=3, min_batch=0)
    half, full = peak(constant(5_000)), peak(n)
    state = x0.numpy().nbytes
    ratio = grad_t / forward_t
    return dict(eager=None, graph=grad_t, numpy=None,
                extra={"forward": forward_t, "peak_5000": half, "peak_10000": full},
                ok=ratio <= 3.0 and full / half < 2.5,
                note=f"forward {fmt(forward_t)}, forward+gradient {fmt(grad_t)}: "
                     f"{ratio:.2f}x (target <= 3x); tracemalloc peak {full / 2**20:.2f} MiB "
                     f"at 10,000 iterations = {full / 10_000 / state:.1f}x the 128-byte "
                     f"state per iteration, {full / half:.2f}x the peak at 5,000 (linear: 2)")


def _while_grad_numpy(x, n):
    """d/dx sum(y_n) for y_{k+1} = sin(y_k) / 2 + x, y_0 = x, by hand."""
    ys = [x]
    for _ in range(n):
        ys.append(np.sin(ys[-1]) * 0.5 + x)
    g_y, g_x = np.ones_like(x), np.zeros_like(x)
    for k in range(n, 0, -1):
        g_x += g_y
        g_y = g_y * np.cos(ys[k - 1]) * 0.5
    return g_x + g_y
