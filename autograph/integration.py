"""What a tensor library needs to plug into autograph, in one place.

A backend (runtime, `autograph.backends.jax`, a test's fake) imports this
module and autograph's public top level only; everything else in autograph
is private to it (the import-linter contract "runtime uses autograph through
autograph.integration" in .importlinter keeps runtime to that).

    from autograph import integration as ag

    class MyBackend(ag.Backend):           # the contract: autograph/backend.py
        def is_tensor(self, value): ...
        def cond(self, pred, branches, names): ...
        def while_loop(self, cond_fn, body_fn, loop_vars, names, opts=None): ...
    ag.register_backend(MyBackend())

    ag.converted_callable(fn)             # fn as converted code would call it
    ag.user_location(filename, line)      # generated code's line -> the user's
    ag.filtered(error)                    # the error without autograph's frames

The names, by what they are for:
- the backend contract: `Backend`, `Branches`, `register_backend`,
  `unregister_backend`, `register_lazy_backend`;
- calling user code: `converted_callable` (a function converted as
  `tf.function` would), `call` (what converted code's `ag__.call` does: a
  callee converted when it is the user's), `optional_features` (checks a
  tf.function's `experimental_autograph_options`), `UNCONVERTED_MARK` (the
  attribute autograph sets on an error raised by code it left unconverted:
  its value says why);
- source locations: `user_location`, `current_location`, `describe`;
- tracebacks: `filtered`, `enable_traceback_filtering`,
  `disable_traceback_filtering`, `is_traceback_filtering_enabled`,
  `register_internal_path`, `register_internal_prefix`;
- code generation: `paused_gc` (the collector paused while a graph is
  lowered to Python; shared with conversion, so nested pauses count).
"""

from .backend import (Backend, Branches, register_backend, register_lazy_backend,
                      unregister_backend)
from .impl.api import UNCONVERTED_MARK, converted_callable, optional_features
from .operators.calls import call
from .pyct.pauses import paused_gc
from .source_map import current_location, describe, user_location
from .tracebacks import (disable_traceback_filtering, enable_traceback_filtering, filtered,
                         is_traceback_filtering_enabled, register_internal_path,
                         register_internal_prefix)

__all__ = ["Backend", "Branches", "register_backend", "unregister_backend",
           "register_lazy_backend", "converted_callable", "call", "optional_features",
           "UNCONVERTED_MARK", "user_location", "current_location", "describe", "filtered",
           "enable_traceback_filtering", "disable_traceback_filtering",
           "is_traceback_filtering_enabled", "register_internal_path",
           "register_internal_prefix", "paused_gc"]
