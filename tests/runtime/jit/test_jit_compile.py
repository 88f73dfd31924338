"""`tf.function(jit_compile=True)`: the graph compiled with XLA through JAX
(runtime/_src/jit) gives the executor's values; Variables are written back;
an op without a JAX rule runs on the executor after one warning naming it."""

import warnings

import numpy as np
import pytest

pytest.importorskip("jax")

import runtime as tf  # noqa: E402
from runtime._src.jit.program import JitCompileWarning  # noqa: E402

# A function here that falls back to the executor fails its test (but the one
# that expects the warning).
pytestmark = pytest.mark.filterwarnings("error::runtime._src.jit.program.JitCompileWarning")

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 5)).astype(np.float32)
W = RNG.standard_normal((5, 3)).astype(np.float32)
IMG = RNG.standard_normal((2, 8, 8, 3)).astype(np.float32)
FILT = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
FILT_2X3 = RNG.standard_normal((2, 3, 2, 5)).astype(np.float32)


def _collatz(n):
    steps = tf.constant(0)
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _branchy(x):
    if tf.reduce_sum(x) > 0:
        y = tf.nn.relu(x) * 2.0
    else:
        y = tf.abs(x) - 1.0
    return y


def _loop_sum(x):
    total = tf.zeros_like(x[0])
    for i in tf.range(tf.shape(x)[0]):
        total += x[i] * tf.cast(i, tf.float32)
    return total


def _range_n(n, x):
    total = tf.zeros_like(x)
    for i in range(n):          # n known only at run time: a lazily lowered Range
        total = total + x * tf.cast(i, tf.float32)
    return total


def _shapes(x):
    y = tf.reshape(tf.transpose(x), [-1, 2])
    z = tf.concat([y, y * 2.0], axis=1)
    return tf.reduce_mean(z, axis=0), tf.gather(x, [2, 0, 1], axis=1), x[1:, ::2]


def _softmaxes(x):
    return (tf.nn.softmax(x), tf.nn.log_softmax(x, axis=0),
            tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(x * 0.5), logits=x))


def _grads(x, w):
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.reduce_sum(tf.tanh(tf.matmul(x, w)) ** 2 + tf.sigmoid(tf.matmul(x, w)))
    return tape.gradient(y, [x, w])


def _conv_grads(img, f):
    with tf.GradientTape() as tape:
        tape.watch([img, f])
        y = tf.nn.conv2d(img, f, 1, "SAME")
        y = tf.nn.max_pool2d(tf.nn.relu(y), 2, 2, "VALID") + tf.nn.avg_pool2d(y, 2, 2, "SAME")
        loss = tf.reduce_sum(tf.nn.bias_add(y, tf.ones([4])) ** 2)
    return [loss] + tape.gradient(loss, [img, f])


def _narrow_conv_grads(img, f):
    """A non-square window over two channels, SAME padding: the filter
    gradient's (KH*KW*C, N*OH*OW) windows in (row, column, channel) order."""
    with tf.GradientTape() as tape:
        tape.watch([img, f])
        loss = tf.reduce_sum(tf.nn.conv2d(img, f, 1, "SAME") ** 2)
    return [loss] + tape.gradient(loss, [img, f])


def _strided_conv(img, f):
    return tf.nn.conv2d(img, f, 2, "VALID"), tf.nn.max_pool2d(img, 3, 2, "SAME")


def _reductions(x):
    return (tf.reduce_max(x, axis=1), tf.reduce_min(x), tf.reduce_prod(x[:2], axis=0),
            tf.argmax(x, axis=1), tf.reduce_any(x > 1.0), tf.math.cumsum(x, axis=1))


def _elementwise(x):
    a = tf.abs(x) + 0.5
    return (tf.sqrt(a), tf.math.rsqrt(a), tf.exp(-a), tf.math.log1p(a), tf.maximum(x, 0.1),
            tf.where(x > 0, x, -x), tf.math.floordiv(x, 0.3), tf.math.floormod(x, 0.7),
            tf.math.squared_difference(x, 1.0), tf.cast(x * 10, tf.int32), tf.nn.elu(x),
            tf.nn.leaky_relu(x), tf.nn.softplus(x), tf.math.erf(x))


def _nested_cond_in_loop(x):
    i = tf.constant(0)
    acc = x
    while i < 5:
        if i % 2 == 0:
            acc = acc * 1.5
        else:
            acc = acc - tf.reduce_mean(acc)
        i += 1
    return acc, i


def _one_hot_stack(x):
    labels = tf.argmax(x, axis=1, output_type=tf.int32)
    hot = tf.one_hot(labels, 5)
    return tf.stack([hot, tf.ones_like(hot)], axis=1), tf.unstack(x, axis=1)[1], tf.tile(x, [1, 2])


def _more_ops(x, xi):
    return (tf.reverse(x, [1]), tf.pad(x, [[1, 0], [0, 2]], constant_values=2.0),
            tf.pad(x, [[1, 1], [1, 1]], mode="REFLECT"), tf.split(x, [1, -1], axis=1),
            tf.roll(x, 1, axis=0), tf.math.cumprod(x, axis=1, reverse=True),
            tf.linalg.band_part(x, 1, 0), tf.truncatediv(x, 0.3), tf.truncatemod(x, 0.3),
            tf.truncatediv(xi, 2), tf.truncatemod(xi, -3), tf.math.lgamma(tf.abs(x) + 0.1),
            tf.math.erfc(x), tf.math.multiply_no_nan(x, x - x),
            tf.argmax(tf.where(x > 1.0, np.nan, x), axis=1), tf.nn.leaky_relu(tf.cast(x, tf.float64)))


CASES = [
    (_collatz, lambda: (tf.constant(27),)),
    (_branchy, lambda: (tf.constant(X),)),
    (_branchy, lambda: (tf.constant(-np.abs(X)),)),
    (_loop_sum, lambda: (tf.constant(X),)),
    (_range_n, lambda: (tf.constant(4), tf.constant(X))),
    (_range_n, lambda: (tf.constant(0), tf.constant(X))),
    (_shapes, lambda: (tf.constant(X),)),
    (_softmaxes, lambda: (tf.constant(X),)),
    (_grads, lambda: (tf.constant(X), tf.constant(W))),
    (_conv_grads, lambda: (tf.constant(IMG), tf.constant(FILT))),
    (_strided_conv, lambda: (tf.constant(IMG), tf.constant(FILT))),
    (_narrow_conv_grads, lambda: (tf.constant(IMG[:, :7, :5, :2]), tf.constant(FILT_2X3))),
    (_reductions, lambda: (tf.constant(X),)),
    (_elementwise, lambda: (tf.constant(X),)),
    (_nested_cond_in_loop, lambda: (tf.constant(X),)),
    (_one_hot_stack, lambda: (tf.constant(X),)),
    (_more_ops, lambda: (tf.constant(X), tf.constant(np.array([[-7, 7, -8, 9]], np.int32)))),
]


def _numpy(result):
    return [np.asarray(t) for t in tf.nest.flatten(result)]


@pytest.mark.parametrize("fn, args", CASES, ids=[f"{c[0].__name__}{i}" for i, c in
                                                 enumerate(CASES)])
def test_jit_compile_gives_the_executors_values(fn, args):
    want = _numpy(tf.function(fn)(*args()))
    got = _numpy(tf.function(fn, jit_compile=True)(*args()))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        scale = float(np.max(np.abs(w), initial=1.0)) if w.dtype.kind == "f" else 0.0
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6 * scale)


def test_a_train_step_updates_variables_as_the_executor_does():
    rng = np.random.default_rng(3)
    init = [rng.standard_normal((5, 8)).astype(np.float32) * 0.3, np.zeros(8, np.float32),
            rng.standard_normal((8, 3)).astype(np.float32) * 0.3]
    x, y = tf.constant(X), tf.constant(np.array([0, 2, 1, 2], np.int32))
    results = []
    for jit in (False, True):
        params = [tf.Variable(v) for v in init]
        opt = tf.keras.optimizers.Adam(0.05)
        steps = tf.Variable(0)

        def step(x, y, params=params, opt=opt, steps=steps):
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(x, params[0]) + params[1])
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=y, logits=tf.matmul(h, params[2])))
            opt.apply_gradients(zip(tape.gradient(loss, params), params))
            steps.assign_add(1)
            return loss

        f = tf.function(step, jit_compile=jit)
        losses = [float(f(x, y)) for _ in range(3)]
        results.append((losses, [p.numpy() for p in params], int(steps.numpy())))
    (l0, p0, s0), (l1, p1, s1) = results
    np.testing.assert_allclose(l1, l0, rtol=1e-5)
    assert s0 == s1 == 3
    for a, b in zip(p1, p0):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert l0[2] < l0[0]


def test_keras_compile_jit_compile_true_trains_as_the_executor():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((16, 6, 6, 1)).astype(np.float32)
    y = rng.integers(0, 3, 16)
    models = []
    for jit in (False, True):
        m = tf.keras.Sequential([tf.keras.Input((6, 6, 1)),
                                 tf.keras.layers.Conv2D(4, 3, activation="relu"),
                                 tf.keras.layers.MaxPooling2D(2), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(3)])
        m.compile(optimizer="sgd", jit_compile=jit,
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        models.append(m)
    models[1].set_weights(models[0].get_weights())
    losses = [[float(m.train_on_batch(x, y)) for _ in range(3)] for m in models]
    preds = [m.predict(x, verbose=0) for m in models]
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)
    np.testing.assert_allclose(preds[1], preds[0], rtol=1e-4, atol=1e-5)
    for a, b in zip(models[1].get_weights(), models[0].get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_an_op_without_a_jax_rule_warns_once_and_runs_on_the_executor():
    def noisy(x):
        return tf.strings.length(tf.strings.as_string(x))

    f = tf.function(noisy, jit_compile=True)
    with pytest.warns(JitCompileWarning) as record:
        got = f(tf.constant([1, 22, 333]))
    messages = [str(w.message) for w in record if w.category is JitCompileWarning]
    assert len(messages) == 1
    assert "'noisy'" in messages[0] and "AsString" in messages[0]
    assert "test_jit_compile.py" in messages[0]
    np.testing.assert_array_equal(got.numpy(), [1, 2, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error", JitCompileWarning)
        np.testing.assert_array_equal(f(tf.constant([4, 55, 666])).numpy(), [1, 2, 3])


def test_variables_in_loops_branches_and_arguments():
    def bump(v, x):
        for _ in tf.range(3):
            v.assign_add(x)
        if tf.reduce_sum(v) > 0:
            v.assign(v * 2.0)
        else:
            v.assign_sub(tf.ones_like(v))
        return v.read_value()

    results = []
    for jit in (False, True):
        f = tf.function(bump, jit_compile=jit)
        a, b = tf.Variable([1.0, -2.0]), tf.Variable([-5.0, 0.5])
        outs = [f(a, tf.constant([0.5, 0.25])), f(b, tf.constant([0.5, 0.25])),
                f(a, tf.constant([-3.0, 0.0]))]
        results.append(([o.numpy() for o in outs], a.numpy(), b.numpy()))
    for got, want in zip(tf.nest.flatten(results[1]), tf.nest.flatten(results[0])):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_random_ops_draw_the_executors_values():
    def noisy(x):
        acc, i = tf.zeros([2]), tf.constant(0)
        while i < 3:
            acc += tf.random.uniform([2])
            i += 1
        return (tf.nn.dropout(x, 0.5), tf.random.normal([2], mean=1.0, stddev=0.5), acc)

    x = tf.constant(np.ones((50, 4), np.float32))
    runs = []
    for jit in (False, True):
        tf.random.set_seed(4)
        f = tf.function(noisy, jit_compile=jit)
        runs.append([_numpy(f(x)) for _ in range(2)])
    for got, want in zip(tf.nest.flatten(runs[1]), tf.nest.flatten(runs[0])):
        np.testing.assert_array_equal(got, want)
    first, second = runs[1]
    assert not np.array_equal(first[0], second[0])           # a new draw each call
    assert set(np.unique(first[0])) <= {0.0, 2.0}
