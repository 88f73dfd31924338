"""jax.grad / jax.vmap through converted control flow: a staged if, loops
with a trip count known when tracing (an array's first axis: lax.scan; a
Python range: unrolled), checked against finite differences and against a
Python loop over the batch. A while whose trip count depends on the data is
forward-mode only: jax.jvp works, jax.grad under jit is an error naming
the loop (without jit, grad's values are concrete and the loop runs as
Python, as in plain JAX)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
jnp = pytest.importorskip("jax.numpy")

import autograph


def piecewise(x):
    if x > 1.0:
        y = x * x
    elif x > -1.0:
        y = 3.0 * x + 1.0
    else:
        y = -x
    return y


def scan_rows(xs, w):
    acc = 0.0
    for row in xs:
        acc = acc * 0.5 + jnp.sum(row * w)
        if acc > 2.0:
            acc = acc - 1.0
    return acc


def python_range(x):
    for i in range(4):
        x = jnp.sin(x) + i * x
    return x


def data_dependent(x):
    while x < 10.0:
        x = x * 1.5 + 0.1
    return x


def _finite_difference(f, x, eps=1e-3):
    x = np.asarray(x, np.float64)
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        grad[idx] = (f(up) - f(down)) / (2 * eps)
    return grad


@pytest.mark.parametrize("x", [-2.0, 0.3, 2.5])
def test_grad_through_if_matches_finite_differences(x):
    g = jax.jit(jax.grad(autograph.to_graph(piecewise)))(jnp.float32(x))
    want = _finite_difference(lambda v: piecewise(float(v)), x)
    np.testing.assert_allclose(float(g), float(want), rtol=1e-3)


def test_grad_through_scan_over_rows_matches_finite_differences():
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(5, 3)).astype(np.float32)
    w = rng.normal(size=3).astype(np.float32)
    converted = autograph.to_graph(scan_rows)
    jaxpr = str(jax.make_jaxpr(converted)(xs, w))
    assert "scan[" in jaxpr and "while[" not in jaxpr
    gx, gw = jax.jit(jax.grad(converted, argnums=(0, 1)))(xs, w)
    f64 = lambda a, b: float(scan_rows(np.asarray(a, np.float64), np.asarray(b, np.float64)))
    np.testing.assert_allclose(gx, _finite_difference(lambda a: f64(a, w), xs), rtol=1e-2,
                               atol=1e-3)
    np.testing.assert_allclose(gw, _finite_difference(lambda b: f64(xs, b), w), rtol=1e-2,
                               atol=1e-3)


def test_grad_through_python_range_loop():
    g = jax.grad(autograph.to_graph(python_range))(jnp.float32(0.7))
    want = _finite_difference(lambda v: float(python_range(np.float64(v))), 0.7)
    np.testing.assert_allclose(float(g), float(want), rtol=1e-3)


def test_vmap_matches_a_python_loop_over_the_batch():
    xs = np.array([-2.0, -0.5, 0.0, 0.9, 1.5, 4.0], np.float32)
    got = jax.vmap(autograph.to_graph(piecewise))(xs)
    np.testing.assert_allclose(got, [piecewise(float(x)) for x in xs], rtol=1e-6)
    got = jax.vmap(autograph.to_graph(data_dependent))(jnp.asarray([0.5, 3.0, 12.0]))
    want = [data_dependent(x) for x in (0.5, 3.0, 12.0)]
    np.testing.assert_allclose(got, want, rtol=1e-5)
    batch = np.random.default_rng(1).normal(size=(4, 5, 3)).astype(np.float32)
    w = np.ones(3, np.float32)
    got = jax.vmap(autograph.to_graph(scan_rows), in_axes=(0, None))(batch, w)
    np.testing.assert_allclose(got, [scan_rows(b, w) for b in batch], rtol=1e-5)


def test_grad_of_vmap_through_if():
    xs = jnp.asarray([-2.0, 0.3, 2.5])
    g = jax.grad(lambda v: jnp.sum(jax.vmap(autograph.to_graph(piecewise))(v)))(xs)
    np.testing.assert_allclose(g, [-1.0, 3.0, 5.0], rtol=1e-6)


def test_data_dependent_while_is_forward_mode_only():
    converted = autograph.to_graph(data_dependent)
    primal, tangent = jax.jvp(converted, (jnp.float32(1.0),), (jnp.float32(1.0),))
    assert float(primal) == pytest.approx(data_dependent(1.0), rel=1e-5)
    assert float(tangent) == pytest.approx(1.5 ** 6, rel=1e-5)   # six iterations
    # Without jit, jax.grad's values are concrete: the loop runs as Python.
    assert float(jax.grad(converted)(jnp.float32(1.0))) == pytest.approx(1.5 ** 6, rel=1e-5)
    for grad in (jax.grad(jax.jit(converted)), jax.jit(jax.grad(converted))):
        with pytest.raises(ValueError, match=r"jax.grad cannot differentiate through the while "
                                             r"loop \(.*test_jax_autodiff.py:\d+: while x < "
                                             r"10.0:\).*maximum_iterations"):
            grad(jnp.float32(1.0))


def bounded(x):
    i = 0
    while x < 10.0:
        autograph.experimental.set_loop_options(maximum_iterations=8)
        x = x * 1.5 + 0.1
        i += 1
    return x * i


def bounded_with_break(xs):
    total = 0.0
    for x in xs:
        autograph.experimental.set_loop_options(maximum_iterations=3)
        if total > 4.0:
            break
        total = total + x * x
    return total


@pytest.mark.parametrize("x", [0.3, 1.0, 4.0, 12.0])
def test_bounded_while_is_a_scan_and_differentiable(x):
    converted = autograph.to_graph(bounded)
    jaxpr = str(jax.make_jaxpr(converted)(jnp.float32(x)))
    assert "scan[" in jaxpr and "while[" not in jaxpr
    assert float(jax.jit(converted)(x)) == pytest.approx(bounded(x), rel=1e-5)
    g = jax.jit(jax.grad(converted))(jnp.float32(x))
    want = _finite_difference(lambda v: bounded(float(v)), x, eps=1e-4)
    np.testing.assert_allclose(float(g), float(want), rtol=1e-3)


def test_maximum_iterations_stops_the_staged_loop_as_tf_while_loop_does():
    x = 0.01                       # Python (which ignores the option) takes 10 steps
    capped = x
    for _ in range(8):
        capped = capped * 1.5 + 0.1
    assert bounded(x) == pytest.approx(((capped * 1.5 + 0.1) * 1.5 + 0.1) * 10)
    assert float(jax.jit(autograph.to_graph(bounded))(x)) == pytest.approx(capped * 8, rel=1e-5)


def test_maximum_iterations_on_a_loop_over_rows_with_break():
    xs = jnp.asarray([1.0, 2.0, 0.5, 3.0, 1.0])
    converted = autograph.to_graph(bounded_with_break)
    assert float(jax.jit(converted)(xs)) == pytest.approx(1.0 + 4.0)
    g = jax.jit(jax.grad(converted))(xs)
    np.testing.assert_allclose(g, [2.0, 4.0, 0.0, 0.0, 0.0])
    batch = jnp.asarray([[1.0, 2.0, 0.5, 3.0], [0.1, 0.2, 0.3, 0.4]])
    got = jax.vmap(converted)(batch)
    np.testing.assert_allclose(got, [5.0, 0.1 ** 2 + 0.2 ** 2 + 0.3 ** 2], rtol=1e-6)
