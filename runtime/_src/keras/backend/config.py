"""`keras.backend`'s (and `keras.config`'s) global numbers: the fuzz factor
`epsilon()` (1e-07), the default float type `floatx()` ("float32"; a layer
without `dtype` takes it, through `keras.config.dtype_policy()`), the image
layout `image_data_format()` ("channels_last"), with their setters, and
`version()`, the Keras version whose API `runtime.keras` follows ("3.15.1").

    keras.backend.epsilon()            # 1e-07, used by normalize and some losses
    keras.backend.set_epsilon(1e-5)
"""

__all__ = ["epsilon", "set_epsilon", "floatx", "set_floatx", "image_data_format",
           "set_image_data_format", "version", "KERAS_VERSION"]

KERAS_VERSION = "3.15.1"

_STATE = {"epsilon": 1e-7, "floatx": "float32", "image_data_format": "channels_last"}
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
    """Set the default float type name: "bfloat16", "float16", "float32" or
    "float64". Layers made afterwards take it, unless a global dtype policy
    was already fixed (`keras.config.dtype_policy()` fixes it when first read,
    as Keras's does)."""
    if value not in _FLOATS:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_FLOATS)}")
    _STATE["floatx"] = str(value)


def image_data_format():
    """The default layout of images: "channels_last" (NHWC) or "channels_first"."""
    return _STATE["image_data_format"]


def set_image_data_format(data_format):
    """Set the value `image_data_format()` returns."""
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _STATE["image_data_format"] = data_format


def version():
    """`keras.version()`: the Keras version whose API this follows, "3.15.1"."""
    return KERAS_VERSION
