"""Suite-wide switches, off unless their environment variable is set.

`AUTOGRAPH_COND_ORDER=else-first`: runtime's autograph backend traces the
else branch of every staged `if` before the if branch (the backend contract
allows either order; tests/autograph/test_backend_contract.py runs the
equivalence corpus this way)."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _cond_order():
    order = os.environ.get("AUTOGRAPH_COND_ORDER")
    if order is None:
        yield
        return
    if order != "else-first":
        raise pytest.UsageError(f"AUTOGRAPH_COND_ORDER={order!r}: only 'else-first' is known")
    from autograph import backend as ag_backend
    from runtime._src.function import autograph_backend as rt
    from runtime._src.function.control_flow import cond_branches

    class ElseFirst(rt.AutographBackend):
        def cond(self, pred, branches, names):
            return cond_branches(rt._truth(pred), branches, tuple(names), order=(False, True))

    swapped = ElseFirst()
    ag_backend.unregister_backend(rt.BACKEND)
    ag_backend.register_backend(swapped)
    yield
    ag_backend.unregister_backend(swapped)
    ag_backend.register_backend(rt.BACKEND)
