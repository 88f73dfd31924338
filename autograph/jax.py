"""autograph for JAX users: convert and `jax.jit` in one decorator.

    import autograph.jax

    @autograph.jax.jit
    def collatz(n):
        steps = 0
        while n != 1:                # -> lax.while_loop
            if n % 2 == 0:           # -> lax.cond
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    collatz(27)                      # Array(111, dtype=int32)

`jit(fun, **kwargs)` is `jax.jit(autograph.to_graph(fun), **kwargs)`: every
`jax.jit` argument (static_argnums, static_argnames, donate_argnums,
in_shardings, out_shardings, ...) is passed on. `jax.grad`, `jax.vmap` and
`jax.make_jaxpr` apply to `autograph.to_graph(fun)` (or to the jitted
function) the same way; nothing else needs importing: the JAX backend
registers itself the first time a JAX value reaches converted code.

`checkify=True` stages `assert` statements on traced values with
`jax.experimental.checkify`: a failing assert raises
`jax.experimental.checkify.JaxRuntimeError` with the assert's message and line
when the function returns. Without it such an assert is a TypeError at trace
time that says so.

Printing: `print(x)` of a traced value prints once, while tracing (as
TensorFlow's graph functions do); use `jax.debug.print("x = {}", x)` to print
each time the compiled function runs.
"""

import functools

from .impl.api import to_graph

__all__ = ["jit"]


def jit(fun=None, *, checkify=False, **jit_kwargs):
    """Convert `fun`'s control flow and `jax.jit` it (a decorator, with or
    without arguments); `jit_kwargs` go to `jax.jit` unchanged."""
    if fun is None:
        return functools.partial(jit, checkify=checkify, **jit_kwargs)
    import jax
    converted = to_graph(fun)
    if not checkify:
        return jax.jit(converted, **jit_kwargs)
    from jax.experimental import checkify as jax_checkify

    from .backends.jax import checks_enabled

    @functools.wraps(fun)
    def traced(*args, **kwargs):
        with checks_enabled():
            return converted(*args, **kwargs)

    checked = jax.jit(jax_checkify.checkify(traced), **jit_kwargs)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        error, out = checked(*args, **kwargs)
        error.throw()
        return out
    run.lower = checked.lower
    return run
