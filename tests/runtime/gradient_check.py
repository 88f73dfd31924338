"""Checking gradients against central finite differences (float64).

`check_gradients(fn, args)` weighs `fn(*args)`'s output with fixed random
weights (so every output element counts), takes the tape's gradient with
respect to each float argument, eagerly and inside `tf.function`, and compares
both with central differences of the same weighted sum.
"""

import numpy as np

import runtime as tf

EPS = 1e-6


def _weighted(fn, args, weights):
    out = fn(*args)
    return tf.reduce_sum(out * weights) if weights is not None else out


def _numeric(fn, values, weights, index):
    x = values[index]
    grad = np.zeros_like(x)
    flat = x.reshape(-1)
    out = grad.reshape(-1)
    for k in range(flat.size):
        old = flat[k]
        flat[k] = old + EPS
        up = _value(fn, values, weights)
        flat[k] = old - EPS
        down = _value(fn, values, weights)
        flat[k] = old
        out[k] = (up - down) / (2 * EPS)
    return grad


def _value(fn, values, weights):
    args = [tf.constant(v) for v in values]
    return float(_weighted(fn, args, weights).numpy())


def _tape_grads(fn, args, weights, wrt):
    with tf.GradientTape() as tape:
        for i in wrt:
            tape.watch(args[i])
        y = _weighted(fn, args, weights)
    return tape.gradient(y, [args[i] for i in wrt])


def check_gradients(fn, values, wrt=None, rtol=1e-5, atol=1e-7, graph=True, graph_only=False):
    """Assert that the tape's gradients of `fn` at `values` (numpy arrays;
    float64 ones are differentiated unless `wrt` lists indices) match finite
    differences, eagerly (unless `graph_only`) and (if `graph`) in tf.function."""
    values = [np.array(v) for v in values]
    if wrt is None:
        wrt = [i for i, v in enumerate(values) if v.dtype == np.float64]
    out = fn(*[tf.constant(v) for v in values])
    rng = np.random.default_rng(0)
    weights = tf.constant(rng.uniform(0.5, 1.5, out.shape.dims).astype(np.float64)) \
        if out.shape.rank else None
    expected = [_numeric(fn, values, weights, i) for i in wrt]
    args = [tf.constant(v) for v in values]
    eager = [] if graph_only else _tape_grads(fn, args, weights, wrt)
    for e, g, i in zip(expected, eager, wrt):
        assert g is not None, f"eager gradient for argument {i} is None"
        np.testing.assert_allclose(g.numpy(), e, rtol=rtol, atol=atol,
                                   err_msg=f"eager, argument {i}")
    if graph:
        staged = tf.function(lambda *a: _tape_grads(fn, list(a), weights, wrt))(*args)
        for e, g, i in zip(expected, staged, wrt):
            assert g is not None, f"graph gradient for argument {i} is None"
            np.testing.assert_allclose(g.numpy(), e, rtol=rtol, atol=atol,
                                       err_msg=f"tf.function, argument {i}")


def check_second_order(fn, values, rtol=1e-5, atol=1e-7):
    """Assert that the gradient of (a weighted sum of) the tape's gradient of
    `fn` matches finite differences of that gradient, eagerly and in
    tf.function: gradients of gradients through nested tapes."""
    values = [np.array(v) for v in values]
    rng = np.random.default_rng(1)
    out = fn(*[tf.constant(v) for v in values])
    w1 = tf.constant(rng.uniform(0.5, 1.5, out.shape.dims))
    w2 = [tf.constant(rng.uniform(0.5, 1.5, v.shape)) for v in values]

    def first_weighted(*args):
        with tf.GradientTape() as inner:
            inner.watch(list(args))
            y = tf.reduce_sum(fn(*args) * w1)
        grads = inner.gradient(y, list(args))
        return tf.add_n([tf.reduce_sum(g * w) for g, w in zip(grads, w2)])

    def second(*args):
        with tf.GradientTape() as outer:
            outer.watch(list(args))
            s = first_weighted(*args)
        return outer.gradient(s, list(args))

    expected = [_numeric(first_weighted, values, None, i) for i in range(len(values))]
    args = [tf.constant(v) for v in values]
    for label, found in (("eager", second(*args)), ("tf.function", tf.function(second)(*args))):
        for e, g, i in zip(expected, found, range(len(values))):
            assert g is not None, f"{label}: second-order gradient for argument {i} is None"
            np.testing.assert_allclose(g.numpy(), e, rtol=rtol, atol=atol,
                                       err_msg=f"{label}, argument {i}")
