"""`assert` statements.

    assert_stmt(x > 0, lambda: "x must be positive")
    # means: assert x > 0, "x must be positive"

With a tensor condition the assertion is staged (the backend's `assert_`):
it fails when the graph runs, in program order with other side effects.
"""

from .. import source_map
from ..backend import backend_of

__all__ = ["assert_stmt"]


def assert_stmt(test, message=None):
    backend = backend_of(test)
    if backend is None:
        if not test:
            if message is None:
                raise AssertionError()
            raise AssertionError(message())
        return None
    text = str(message()) if message is not None else "Assertion failed"
    where = source_map.current_location()
    if where:
        text = f"{text}{source_map.describe(where)}"
    return backend.assert_(test, text)
