"""`tf.experimental.dlpack`: tensors to and from DLPack capsules, sharing
memory with the other framework (numpy and JAX are tested; any DLPack
producer on the CPU).

    capsule = to_dlpack(tensor)       # a PyCapsule named "dltensor"
    tensor = from_dlpack(capsule)     # the capsule's memory as an eager tensor

A capsule is consumed once (its name becomes "used_dltensor"). Eager tensors
also speak the DLPack protocol themselves (`__dlpack__`, `__dlpack_device__`),
so `np.from_dlpack(t)` and `jax.numpy.from_dlpack(t)` take them directly.
numpy is the exchange: bool, the integers, the floats and complex go as
numpy sends them; bfloat16 (which numpy's DLPack lacks) goes as 16-bit
unsigned integers whose DLPack type code is set to bfloat's, as TF's and
JAX's capsules carry it. Strings and variants have no DLPack type.
"""

import ctypes

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.dlpack_capsule import BFLOAT, UINT, dtype_code, set_dtype_code
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor

__all__ = ["to_dlpack", "from_dlpack"]

_CPU = (1, 0)        # DLPack's (kDLCPU, device 0)

_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]
def to_dlpack(tf_tensor):
    """`tf.experimental.dlpack.to_dlpack`: a DLPack capsule of an eager
    tensor's memory."""
    if not isinstance(tf_tensor, EagerTensor):
        raise InvalidArgumentError("The argument to `to_dlpack` must be a TF tensor, not "
                                   "Python object")
    return tf_tensor.__dlpack__()


class _Capsule:
    """A capsule dressed as a DLPack producer, for `np.from_dlpack`."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return _CPU


def from_dlpack(dlcapsule):
    """`tf.experimental.dlpack.from_dlpack`: the eager tensor whose memory is
    the capsule's (consuming the capsule)."""
    if type(dlcapsule).__name__ != "PyCapsule":
        raise TypeError(f"from_dlpack() expects a PyCapsule named \"dltensor\", got "
                        f"{type(dlcapsule).__name__}")
    name = (_capsule_name(dlcapsule) or b"").decode()
    if name != "dltensor":
        raise InvalidArgumentError(f"DLPack tensor must be a capsule with name \"dltensor\", "
                                   f"got \"{name}\". Note that a DLPack tensor may be consumed "
                                   f"at most once.")
    bfloat16 = dtype_code(dlcapsule) == (BFLOAT, 16)
    if bfloat16:
        set_dtype_code(dlcapsule, UINT)        # numpy reads it as uint16
    try:
        value = np.from_dlpack(_Capsule(dlcapsule))
    except (BufferError, TypeError, ValueError, RuntimeError) as e:
        raise InvalidArgumentError(f"from_dlpack: the capsule's tensor cannot be read: "
                                   f"{e}") from None
    if bfloat16:
        return EagerTensor(value.view(dtypes.bfloat16.as_numpy_dtype))
    return EagerTensor(value)
