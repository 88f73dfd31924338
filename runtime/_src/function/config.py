"""Process-wide switches (`tf.config`): eager debugging and optimizer options.

`run_functions_eagerly(True)` makes every `function` call run its Python
function directly (no tracing, no graph), which is the quickest way to check
that a traced function and its Python original agree:

    >>> import runtime as tf
    >>> tf.config.run_functions_eagerly(True)
    >>> tf.config.functions_run_eagerly()
    True
    >>> tf.config.run_functions_eagerly(False)

`optimizer.set_experimental_options({...})` stores options for the graph
optimizer (option names as in `runtime._src.optimizer`, e.g.
`{"constant_folding": False}`); `optimizer.get_experimental_options()` returns
a copy of what was set. Options apply to graphs traced after they are set.

`call_hook`, when set, takes every `function` call instead of the graph:
the check layer installs its eager-vs-graph comparison there
(`config.experimental_check_equivalence(True)`, see check/equivalence.py), so
this layer never imports it.
"""

import builtins
import threading
import types

__all__ = ["run_functions_eagerly", "functions_run_eagerly", "set_call_hook", "bool_arg",
           "optimizer"]

_lock = threading.Lock()
_eager_requested = False     # run_functions_eagerly(True)
call_hook = None             # fn(function, args, kwargs), set by the check layer
_run_eagerly = False         # either of them: `function` calls take the Python path
_optimizer_options = {}


def bool_arg(name, value):
    if not isinstance(value, (builtins.bool, int)):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__} {value!r}")
    return builtins.bool(value)


def run_functions_eagerly(run_eagerly):
    """Make `function` calls run the Python function directly (True) or as graphs."""
    global _eager_requested, _run_eagerly
    _eager_requested = bool_arg("run_functions_eagerly", run_eagerly)
    _run_eagerly = _eager_requested or call_hook is not None


def functions_run_eagerly():
    """True when `run_functions_eagerly(True)` is in effect."""
    return _eager_requested


def set_call_hook(hook):
    """Route every `function` call through `hook(function, args, kwargs)`
    (None: back to graphs). `run_functions_eagerly(True)` takes precedence."""
    global call_hook, _run_eagerly
    call_hook = hook
    _run_eagerly = _eager_requested or call_hook is not None


def _set_experimental_options(options):
    """Merge `options` (a dict of option name -> value) into the stored options."""
    if not isinstance(options, dict):
        raise TypeError("optimizer.set_experimental_options: expected a dict of "
                        f"option name -> value, got {type(options).__name__}")
    bad = [k for k in options if not isinstance(k, str)]
    if bad:
        raise TypeError("optimizer.set_experimental_options: option names must be "
                        f"strings, got {bad!r}")
    with _lock:
        _optimizer_options.update(options)


def _get_experimental_options():
    """The optimizer options set so far, then TF's two defaults
    (disable_model_pruning and disable_meta_optimizer, False) unless set."""
    with _lock:
        options = dict(_optimizer_options)
    options.setdefault("disable_model_pruning", False)
    options.setdefault("disable_meta_optimizer", False)
    return options


_jit = {"value": ""}


def _set_jit(enabled):
    """`tf.config.optimizer.set_jit`: XLA auto-clustering on (True or
    'autoclustering') or off; recorded (jit_compile is per function here)."""
    _jit["value"] = "autoclustering" if enabled is True or enabled == "autoclustering" else ""


def _get_jit():
    return _jit["value"]


def _reset_experimental_options():
    """Forget every optimizer option (tests use this to restore defaults)."""
    with _lock:
        _optimizer_options.clear()


optimizer = types.SimpleNamespace(
    set_experimental_options=_set_experimental_options,
    get_experimental_options=_get_experimental_options,
    reset_experimental_options=_reset_experimental_options,
    set_jit=_set_jit,
    get_jit=_get_jit,
)
