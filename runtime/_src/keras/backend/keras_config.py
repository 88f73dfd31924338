"""`keras.config`: Keras's global settings.

    keras.config.floatx(), keras.config.epsilon()      # "float32", 1e-07
    keras.config.set_dtype_policy("float64")           # layers made after: float64
    keras.config.set_max_epochs(2)                     # fit runs at most 2 epochs
    keras.config.disable_interactive_logging()         # progress -> logging.info

The numbers live in backend_config (also `keras.backend`'s), the logging
switch in io_utils; this module holds the rest. `backend()` is always
"tensorflow": `set_backend` accepts only that name. The traceback-filtering
and flash-attention switches are recorded and read back as Keras's are;
runtime.keras neither filters tracebacks nor has a separate flash-attention
kernel, so they change no result. `enable_unsafe_deserialization()` turns
Keras's safe mode off: here no loader ever runs code from a file (a lambda
cannot be saved), so it only changes `is_safe_mode_enabled`'s answer.
"""

from runtime._src.keras.dtype_policies import dtype_policy as dtype_policies
from runtime._src.keras.backend.config import (epsilon, floatx, image_data_format, set_epsilon,
                                               set_floatx, set_image_data_format)
from runtime._src.keras.utils.io_utils import (disable_interactive_logging,
                                               enable_interactive_logging,
                                               is_interactive_logging_enabled)

__all__ = ["backend", "disable_flash_attention", "disable_interactive_logging",
           "disable_traceback_filtering", "dtype_policy", "enable_flash_attention",
           "enable_interactive_logging", "enable_traceback_filtering",
           "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
           "is_flash_attention_enabled", "is_interactive_logging_enabled", "is_nnx_enabled",
           "is_safe_mode_enabled", "is_traceback_filtering_enabled", "max_epochs",
           "max_steps_per_epoch", "set_backend", "set_dtype_policy", "set_epsilon",
           "set_floatx", "set_image_data_format", "set_max_epochs", "set_max_steps_per_epoch"]

_STATE = {"traceback_filtering": True, "max_epochs": None,
          "max_steps_per_epoch": None, "flash_attention": None, "safe_mode": True}


def backend():
    """The name of the backend: "tensorflow" (runtime plays TensorFlow's part)."""
    return "tensorflow"


def set_backend(backend):
    """Keras reloads itself on another backend; runtime.keras has only
    "tensorflow", so that is the one name accepted."""
    if backend != "tensorflow":
        raise ValueError(f"set_backend: runtime.keras runs only on the 'tensorflow' backend "
                         f"(runtime plays TensorFlow's part). Received: backend={backend!r}")


def is_nnx_enabled():
    """False: Flax NNX belongs to the JAX backend."""
    return False


dtype_policy = dtype_policies.global_policy
set_dtype_policy = dtype_policies.set_global_policy


def enable_traceback_filtering():
    """Record that Keras's traceback filtering is on (the default)."""
    _STATE["traceback_filtering"] = True


def disable_traceback_filtering():
    """Record that Keras's traceback filtering is off."""
    _STATE["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    """Whether traceback filtering is on (True unless disabled)."""
    return _STATE["traceback_filtering"]


def max_epochs():
    """The most epochs `fit` runs (None: no limit)."""
    return _STATE["max_epochs"]


def set_max_epochs(max_epochs):
    """Cap every `fit`'s `epochs` (None lifts the cap); fit warns when it cuts."""
    _STATE["max_epochs"] = max_epochs


def max_steps_per_epoch():
    """The most steps an epoch of `fit` runs (None: no limit)."""
    return _STATE["max_steps_per_epoch"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Cap the steps of every epoch (None lifts the cap); fit warns when it cuts."""
    _STATE["max_steps_per_epoch"] = max_steps_per_epoch


def enable_flash_attention():
    """Ask attention layers for flash attention (recorded: same results here)."""
    _STATE["flash_attention"] = True


def disable_flash_attention():
    """Ask attention layers not to use flash attention."""
    _STATE["flash_attention"] = False


def is_flash_attention_enabled():
    """None (let the layer choose, the default), True or False as last set."""
    return _STATE["flash_attention"]


def enable_unsafe_deserialization():
    """Turn Keras's safe mode off globally (see the module's docstring)."""
    _STATE["safe_mode"] = False


def is_safe_mode_enabled():
    """False once `enable_unsafe_deserialization()` ran."""
    return _STATE["safe_mode"]
