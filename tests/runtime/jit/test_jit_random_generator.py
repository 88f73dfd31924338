"""`jit_compile=True` draws of `tf.random.Generator` (StatefulPhiloxDraw's
JAX rule, rules_random.py: TF's Philox in uint32 words) give the
executor's values bit for bit, which are TF's (tests/runtime/function/
test_random_generator.py), and advance the state as the executor does: four
distributions and dtypes in one compiled function, from a counter about to
carry into its high 64 bits (each draw's key hashed per replica under a
strategy: tests/runtime/distribute, against TF 2.21's recorded values)."""

import numpy as np
import pytest

pytest.importorskip("jax")

import runtime as tf  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error::runtime._src.jit.program.JitCompileWarning")

DRAWS = [("normal", tf.float64, [7]), ("uniform", tf.float16, []),
         ("truncated_normal", tf.float32, [6, 7]), ("bounded", tf.int64, [5])]


def _draw(g, dist, dtype, shape):
    if dist == "bounded":
        return g.uniform(shape, minval=-5, maxval=1000, dtype=dtype)
    if dist == "full":
        return g.uniform_full_int(shape, dtype=dtype)
    return getattr(g, dist)(shape, dtype=dtype)


def _all(g):
    return [_draw(g, *case) for case in DRAWS]


def test_compiled_draws_are_the_executors():
    state = [-300, 5, 7]
    eager, compiled = tf.random.Generator(state=state, alg="philox"), \
        tf.random.Generator(state=state, alg="philox")
    step = tf.function(lambda: _all(compiled), jit_compile=True)
    for _ in range(2):                  # the second call draws from the advanced state
        want = [v.numpy() for v in _all(eager)]
        got = [v.numpy() for v in step()]
        for case, w, g in zip(DRAWS, want, got):
            assert g.dtype == w.dtype and g.shape == w.shape, case
            np.testing.assert_array_equal(g, w, err_msg=str(case))
        np.testing.assert_array_equal(compiled.state.numpy(), eager.state.numpy())
