"""Backends that ship with autograph, peers of any outside one (runtime):
each implements the contract of autograph/backend.py and imports autograph
through `autograph.integration` only.

- `autograph.backends.jax`: JAX's lax.cond / lax.while_loop / lax.scan.
  Imported (and registered) the first time a JAX value reaches converted
  code, so autograph never imports JAX by itself.
"""

from ..integration import register_lazy_backend

__all__ = []


def _load_jax():
    from . import jax  # noqa: F401 - registers the JAX backend


register_lazy_backend("jax", _load_jax)
register_lazy_backend("jaxlib", _load_jax)
