"""JAX workloads: converted + jitted against hand-written lax.

"graph" is jax.jit(autograph.to_graph(f)), "numpy" the same computation
written by hand with lax (the ratio is converted / hand-written); the note
gives both jaxprs' equation counts (all nesting levels; after dead-code
elimination in brackets, what XLA compiles)."""

import time

import numpy as np

from tools.bench_recipes import base
from tools.bench_recipes.base import Unavailable, best_of_pair
from tools.bench_recipes.transpiler import generated_module


# --- JAX: converted + jitted against hand-written lax ---------------------------------
# "graph" is jax.jit(autograph.to_graph(f)), "numpy" the same computation
# written by hand with lax (the ratio is converted / hand-written); the note
# gives both jaxprs' equation counts (all nesting levels; after dead-code
# elimination in brackets, what XLA compiles).

def _jax():
    try:
        import jax
    except ImportError:
        raise Unavailable("JAX is not installed (pip install -e '.[jax]')") from None
    import autograph
    return jax, autograph


def count_eqns(jaxpr):
    """Equations of a jaxpr and of every jaxpr nested in its equations."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for param in eqn.params.values():
            for sub in param if isinstance(param, (tuple, list)) else (param,):
                if hasattr(sub, "eqns") or hasattr(getattr(sub, "jaxpr", None), "eqns"):
                    total += count_eqns(sub)
    return total


def _live_eqns(closed):
    try:
        from jax._src.interpreters.partial_eval import dce_jaxpr
    except ImportError:
        return None
    jaxpr, _ = dce_jaxpr(closed.jaxpr, [True] * len(closed.jaxpr.outvars))
    return count_eqns(jaxpr)


def _jax_pair(converted, hand, args, expected_check):
    jax, _ = _jax()
    f, g = jax.jit(converted), jax.jit(hand)
    expected_check(f(*args), g(*args))
    # Microsecond calls on a thread pool: time both orders, keep each best.
    run_f, run_g = (lambda: f(*args).block_until_ready()), (lambda: g(*args).block_until_ready())
    t_conv, t_hand = best_of_pair(run_f, run_g)
    t_hand2, t_conv2 = best_of_pair(run_g, run_f)
    t_conv, t_hand = min(t_conv, t_conv2), min(t_hand, t_hand2)
    jc, jh = jax.make_jaxpr(converted)(*args), jax.make_jaxpr(hand)(*args)
    ec, eh = count_eqns(jc), count_eqns(jh)
    lc, lh = _live_eqns(jc), _live_eqns(jh)
    same = _program_text(f, args) == _program_text(g, args)
    return dict(eager=None, graph=t_conv, numpy=t_hand, ratio_target=1.05,
                extra={"eqns_converted": ec, "eqns_hand": eh, "live_eqns_converted": lc,
                       "live_eqns_hand": lh, "same_stablehlo": same},
                note=f"jit(converted) vs jit(hand lax); jaxpr eqns {ec} [{lc}] vs {eh} [{lh}]; "
                     f"{'the same' if same else 'a different'} StableHLO program")


def _program_text(jitted, args):
    """The lowered StableHLO without the module's name (the function's name)."""
    text = jitted.lower(*args).as_text()
    return text.split("\n", 1)[1] if "\n" in text else text


def bench_jax_collatz():
    jax, autograph = _jax()
    from jax import lax

    def collatz(n):
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    def hand(n):
        def body(c):
            n, steps = c
            n = lax.cond(n % 2 == 0, lambda m: m // 2, lambda m: 3 * m + 1, n)
            return n, steps + 1
        return lax.while_loop(lambda c: c[0] != 1, body, (n, 0))[1]

    def check(a, b):
        assert int(a) == int(b) == 111, (a, b)
    return _jax_pair(autograph.to_graph(collatz), hand, (jax.numpy.int32(27),), check)


def bench_jax_power():
    jax, autograph = _jax()
    from jax import lax
    jnp = jax.numpy
    xv = np.random.default_rng(0).integers(-1, 2, size=(10, 10)).astype(np.int32)

    def power(x, n):
        result = jnp.eye(10, dtype=jnp.int32)
        for _ in range(n):
            result = x @ result
        return result

    def hand(x, n):
        return lax.fori_loop(0, n, lambda i, r: x @ r, jnp.eye(10, dtype=jnp.int32))

    def check(a, b):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    return _jax_pair(autograph.to_graph(power), hand, (jnp.asarray(xv), jnp.int32(100)), check)


def bench_jax_nested():
    jax, autograph = _jax()
    from jax import lax
    jnp = jax.numpy

    def nested(x):
        for i in range(6):
            for j in range(6):
                if x[i] > x[j]:
                    x = x * 0.5 + j
                else:
                    x = x + i
        return x

    def hand(x):
        for i in range(6):
            for j in range(6):
                x = lax.cond(x[i] > x[j], lambda y: y * 0.5 + j, lambda y: y + i, x)
        return x

    def check(a, b):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
    xv = jnp.asarray(np.random.default_rng(2).normal(size=8).astype(np.float32))
    return _jax_pair(autograph.to_graph(nested), hand, (xv,), check)


def bench_jax_conversion():
    jax, autograph = _jax()
    jnp = jax.numpy
    fns, _ = generated_module(base.REPEAT)
    x, n = jnp.int32(3), jnp.int32(5)
    converts, firsts = [], []
    for fn in fns:   # a fresh function each time: the first call converts, traces, compiles
        start = time.perf_counter()
        g = autograph.to_graph(fn)
        converted = time.perf_counter()
        jax.jit(g)(x, n).block_until_ready()
        converts.append(converted - start)
        firsts.append(time.perf_counter() - start)
    convert = min(converts)
    return dict(eager=None, graph=min(firsts), numpy=None,
                extra={"convert_30_lines": convert, "first_call_30_lines": min(firsts)},
                ok=convert < 2e-3,
                note=f"conversion {convert * 1e3:.2f} ms of a first jit call of "
                     f"{min(firsts) * 1e3:.1f} ms (conversion target < 2 ms)")
