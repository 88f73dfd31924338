"""DLPack capsules at the byte level (core/dlpack.py is the public side):
the element type code a "dltensor" capsule carries, read and rewritten, and
the capsule of a numpy array, bfloat16 included (numpy's own DLPack export
has no bfloat16: it goes as uint16 with bfloat's type code, as TF's and JAX's
capsules carry it)."""

import ctypes

import numpy as np

__all__ = ["BFLOAT", "UINT", "dtype_code", "set_dtype_code", "array_capsule"]

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

# A "dltensor" capsule points at a DLManagedTensor, which starts with its
# DLTensor: data (8 bytes), device (8), ndim (4), then the dtype's code, bits
# and lanes (1, 1, 2 bytes).
_CODE_OFFSET = 20
UINT, BFLOAT = 1, 4


def dtype_code(capsule):
    """The (code, bits) of a "dltensor" capsule's element type."""
    address = _capsule_pointer(capsule, b"dltensor") + _CODE_OFFSET
    return ctypes.c_uint8.from_address(address).value, \
        ctypes.c_uint8.from_address(address + 1).value


def set_dtype_code(capsule, code):
    address = _capsule_pointer(capsule, b"dltensor") + _CODE_OFFSET
    ctypes.c_uint8.from_address(address).value = code


def array_capsule(value, **kwargs):
    """The DLPack capsule of a numpy array's memory (BufferError or TypeError
    for a dtype DLPack lacks)."""
    if value.dtype.name == "bfloat16":
        capsule = value.view(np.uint16).__dlpack__(**kwargs)
        set_dtype_code(capsule, BFLOAT)
        return capsule
    return value.__dlpack__(**kwargs)
