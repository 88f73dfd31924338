"""`keras.backend`'s global numbers: the fuzz factor `epsilon()` (1e-07) and
the default float type `floatx()` ("float32"), with their setters (`set_floatx` accepts only
"float32": the layers' default dtype is fixed), and `version()`, the Keras
version whose API `runtime.keras` follows ("3.15.1").

    keras.backend.epsilon()            # 1e-07, used by normalize and some losses
    keras.backend.set_epsilon(1e-5)
"""

__all__ = ["epsilon", "set_epsilon", "floatx", "set_floatx", "version", "KERAS_VERSION"]

KERAS_VERSION = "3.15.1"

_STATE = {"epsilon": 1e-7, "floatx": "float32"}
_FLOATS = ("bfloat16", "float16", "float32", "float64")


def epsilon():
    """The fuzz factor used in numeric expressions (Keras's default 1e-07)."""
    return _STATE["epsilon"]


def set_epsilon(value):
    """Set the value `epsilon()` returns."""
    _STATE["epsilon"] = float(value)


def floatx():
    """The default float type as a string ("float32")."""
    return _STATE["floatx"]


def set_floatx(value):
    """Set the default float type name. Only "float32" is accepted: the
    layers here default to float32 (pass `dtype=` to a layer for another)."""
    value = str(value)
    if value not in _FLOATS:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_FLOATS)}")
    if value != "float32":
        raise NotImplementedError(f"set_floatx({value!r}): runtime.keras layers default to "
                                  f"float32; pass dtype={value!r} to the layers instead")
    _STATE["floatx"] = value


def version():
    """`keras.version()`: the Keras version whose API this follows, "3.15.1"."""
    return KERAS_VERSION
