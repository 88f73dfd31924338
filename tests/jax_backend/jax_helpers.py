"""Shared by the JAX backend's tests: inputs as JAX arrays, results compared
with plain Python's."""

import numpy as np


def to_jax(jnp, value):
    """A corpus input as JAX sees it: Python ints int32, floats float32,
    lists int32 vectors, bools bool scalars."""
    if isinstance(value, bool):
        return jnp.asarray(value)
    if isinstance(value, int):
        return jnp.asarray(value, jnp.int32)
    if isinstance(value, float):
        return jnp.asarray(value, jnp.float32)
    if isinstance(value, list):
        return jnp.asarray(np.array(value, dtype=np.int32))
    return value


def assert_same_values(jax, got, expected):
    """`got` (arrays) equals `expected` (Python values), leaf by leaf."""
    g = jax.tree_util.tree_leaves(got)
    e = jax.tree_util.tree_leaves(expected)
    assert len(g) == len(e), (got, expected)
    for a, b in zip(g, e):
        np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                   rtol=1e-6)
