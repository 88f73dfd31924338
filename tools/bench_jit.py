"""Benchmark rows: model train steps with `tf.function(jit_compile=True)`
(XLA through JAX, runtime/_src/jit) against the same step on our executor,
and the same step written by hand in JAX (the README's jit_compile table).

Workloads (one tf.function each: forward, tape gradient, optimizer update):
  CNN  Conv2D 32 - MaxPool - Conv2D 64 - MaxPool - Dense 10, batch 32 of
       28x28x1, sparse cross-entropy from logits, SGD(0.01)
  MLP  784 - 256 relu - 256 relu - 10, batch 128, sparse cross-entropy, Adam
  LSTM LSTM(64) - Dense(1), batch 32 x 20 steps x 16 features, mse, SGD(0.01)
       (the time loops, TensorArrays and the fused LSTM step in the program)

The executor and the compiled step start from the same weights; their losses
after three steps must agree to 1e-5. Times are interleaved best-of-N (the
ratio is what matters on a shared machine).

    python tools/bench.py --only jit_compile
    python tools/bench_jit.py            # the same rows, alone
"""

import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import runtime as tf  # noqa: E402


def _cnn(keras):
    return keras.Sequential([
        keras.Input((28, 28, 1)), keras.layers.Conv2D(32, 3, activation="relu"),
        keras.layers.MaxPooling2D(2), keras.layers.Conv2D(64, 3, activation="relu"),
        keras.layers.MaxPooling2D(2), keras.layers.Flatten(), keras.layers.Dense(10)])


def _mlp(keras):
    return keras.Sequential([
        keras.Input((784,)), keras.layers.Dense(256, activation="relu"),
        keras.layers.Dense(256, activation="relu"), keras.layers.Dense(10)])


def _lstm(keras):
    return keras.Sequential([keras.Input((20, 16)), keras.layers.LSTM(64),
                             keras.layers.Dense(1)])


WORKLOADS = {
    "cnn": (_cnn, lambda keras: keras.optimizers.SGD(0.01), (32, 28, 28, 1)),
    "mlp": (_mlp, lambda keras: keras.optimizers.Adam(0.001), (128, 784)),
    "lstm": (_lstm, lambda keras: keras.optimizers.SGD(0.01), (32, 20, 16)),
}


def keras_step(kind, jit, weights=None):
    """(step, x, y, model) for workload `kind`; `jit`: jit_compile."""
    build, optimizer, shape = WORKLOADS[kind]
    keras = tf.keras
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal(shape).astype(np.float32))
    if kind == "lstm":
        y = tf.constant(rng.standard_normal((shape[0], 1)).astype(np.float32))
        loss_fn = keras.losses.MeanSquaredError()
    else:
        y = tf.constant(rng.integers(0, 10, shape[0]).astype(np.int32))
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model, opt = build(keras), optimizer(keras)
    if weights is not None:
        model.set_weights(weights)

    @tf.function(jit_compile=jit)
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        return loss
    return step, x, y, model


def jax_step(kind, weights, x, y):
    """The same step written by hand in JAX (jit(value_and_grad) + the
    optimizer), or None without JAX; returns a function running one step."""
    try:
        import jax
    except ImportError:
        return None
    if kind == "lstm":
        return None
    jnp, lax = jax.numpy, jax.lax

    def logits_of(params, x):
        if kind == "cnn":
            k1, b1, k2, b2, w, b = params
            for k, bias in ((k1, b1), (k2, b2)):
                x = lax.conv_general_dilated(x, k, (1, 1), "VALID",
                                             dimension_numbers=("NHWC", "HWIO", "NHWC"))
                x = jnp.maximum(x + bias, 0)
                x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
            return x.reshape(x.shape[0], -1) @ w + b
        w1, b1, w2, b2, w3, b3 = params
        h = jnp.maximum(x @ w1 + b1, 0)
        h = jnp.maximum(h @ w2 + b2, 0)
        return h @ w3 + b3

    def loss_fn(params, x, y):
        logits = logits_of(params, x)
        return jnp.mean(jax.nn.logsumexp(logits, axis=1) - logits[jnp.arange(len(y)), y])

    @jax.jit
    def sgd(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return loss, [p - 0.01 * g for p, g in zip(params, grads)]

    @jax.jit
    def adam(state, x, y):
        params, m, v, t = state
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        t = t + 1
        lr = 0.001 * jnp.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        m = [0.9 * a + 0.1 * g for a, g in zip(m, grads)]
        v = [0.999 * a + 0.001 * g * g for a, g in zip(v, grads)]
        params = [p - lr * a / (jnp.sqrt(b) + 1e-7) for p, a, b in zip(params, m, v)]
        return loss, (params, m, v, t)

    params = [jnp.asarray(w) for w in weights]
    xs, ys = jnp.asarray(x.numpy()), jnp.asarray(y.numpy())
    box = {"state": params if kind == "cnn" else
           (params, [jnp.zeros_like(p) for p in params], [jnp.zeros_like(p) for p in params],
            jnp.asarray(0.0))}
    update = sgd if kind == "cnn" else adam

    def run():
        loss, box["state"] = update(box["state"], xs, ys)
        loss.block_until_ready()
        return float(loss)
    return run


def measure(kind, best_of_pair, best_of):
    """{'executor', 'jit', 'jax', 'losses'} for workload `kind`."""
    step0, x, y, model0 = keras_step(kind, False)
    weights = model0.get_weights()
    step1, _, _, _ = keras_step(kind, True, weights)
    hand = jax_step(kind, weights, x, y)
    losses = [[float(s(x, y)) for _ in range(3)] for s in (step0, step1)]
    if hand is not None:
        losses.append([hand() for _ in range(3)])
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)
    executor_t, jit_t = best_of_pair(lambda: step0(x, y), lambda: step1(x, y))
    figures = {"executor": executor_t, "jit": jit_t, "losses": losses,
               "jit_step": lambda: step1(x, y)}
    if hand is not None:
        figures["jax"] = best_of(hand)
    return figures


def bench_jit_rows(unavailable, best_of_pair, best_of, tf_versus=None):
    """A bench.py row: graph = jit_compile=True, numpy column = the executor.
    `tf_versus(kind, step)`: (the compiled step's, TensorFlow's) best times for
    the same step in interleaved rounds (TF's None: not reachable), shown in
    the note with the jit/TF ratio (the goal: at most 1.0)."""
    try:
        import jax  # noqa: F401
    except ImportError:
        raise unavailable("JAX is not installed (pip install -e '.[jax]')") from None
    extra, notes = {}, []
    for kind in WORKLOADS:
        f = measure(kind, best_of_pair, best_of)
        extra.update({f"{kind}_{k}": v for k, v in f.items() if k not in ("losses", "jit_step")})
        hand = f" (JAX by hand {f['jax'] * 1e3:.2f} ms)" if "jax" in f else ""
        mine, theirs = tf_versus(kind, f["jit_step"]) if tf_versus is not None else (None, None)
        if theirs:
            extra[f"{kind}_tf"], extra[f"{kind}_jit_vs_tf"] = theirs, mine
            hand += (f"; interleaved with TF: jit {mine * 1e3:.2f} ms, TF {theirs * 1e3:.2f} ms, "
                     f"jit/TF {mine / theirs:.2f}")
        notes.append(f"{kind}: executor {f['executor'] * 1e3:.2f} ms, jit_compile "
                     f"{f['jit'] * 1e3:.2f} ms, ratio {f['jit'] / f['executor']:.2f}{hand}")
    return dict(eager=None, graph=extra["cnn_jit"], numpy=extra["cnn_executor"], extra=extra,
                ok=None, note="; ".join(notes))


def main():
    from tools.bench_recipes import base
    for kind in WORKLOADS:
        f = measure(kind, base.best_of_pair, base.best_of)
        print(kind, {k: (f"{v * 1e3:.3f} ms" if k != "losses" else v) for k, v in f.items()
                     if k != "jit_step"})


if __name__ == "__main__":
    main()
