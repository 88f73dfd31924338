"""Complex numbers: `tf.complex`, `tf.math.real`, `imag`, `conj`, `angle`.

complex64 tensors have float32 parts, complex128 float64 parts (a Python
`complex` converts to complex128). Arithmetic (`+ - * / **`, `matmul`,
`abs`, `sqrt`, `exp`, `log`) accepts them in math_ops.

    >>> c = complex(constant([1.0]), constant([2.0]))   # complex64
    >>> real(c), imag(c), conj(c), abs(c)
    (... [1.], ... [2.], ... [1.-2.j], ... [2.236068])

On a real tensor, `real` and `conj` return it and `imag` returns zeros, as
in TensorFlow.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import zeros_like
from runtime._src.ops.base_ops import COMPLEX, FLOATS, dtype_error

__all__ = ["complex", "real", "imag", "conj", "angle"]

_PARTS = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _real_part(inputs, attrs):
    return [(inputs[0].dtype.real_dtype, inputs[0].shape)]


def _complex_shape(inputs, attrs):
    real_part, imag_part = inputs
    (_, shape), = rules.elementwise(inputs, attrs)
    return [(_PARTS[real_part.dtype], shape)]


define_op("Real", infer=_real_part)(np.real)
define_op("Imag", infer=_real_part)(np.imag)
define_op("Angle", infer=_real_part)(np.angle)
define_op("Conj", infer=rules.same_as_first)(np.conj)


@define_op("Complex", infer=_complex_shape)
def _complex(real_part, imag_part):
    out = np.asarray(real_part) + 1j * np.asarray(imag_part)
    return out.astype(np.complex64 if np.asarray(real_part).dtype == np.float32
                      else np.complex128)


# Gradients through complex values are not supported here (docs/tf_differences.md).
not_differentiable("Real", "Imag", "Angle", "Conj", "Complex", "ComplexAbs")


def complex(real, imag, name=None):  # TensorFlow's public name
    """`real + imag * 1j`: float32 parts make complex64, float64 parts complex128."""
    real = convert_to_tensor(real)
    imag = convert_to_tensor(imag, real.dtype)
    if real.dtype not in _PARTS:
        raise TypeError(f"Complex: the real and imaginary parts must be float32 or float64 "
                        f"tensors of one dtype, got {real.dtype.name}; use tf.cast")
    return apply("Complex", (real, imag))


def real(input, name=None):  # TensorFlow's argument name
    """The real part of a complex tensor (a real tensor is returned as it is)."""
    input = convert_to_tensor(input)
    return apply("Real", (input,)) if input.dtype in COMPLEX else input


def imag(input, name=None):  # TensorFlow's argument name
    """The imaginary part of a complex tensor (zeros for a real tensor)."""
    input = convert_to_tensor(input)
    if input.dtype in COMPLEX:
        return apply("Imag", (input,))
    if not input.dtype.is_numeric:
        raise dtype_error("Imag", input.dtype, COMPLEX)
    return zeros_like(input)


def conj(x, name=None):
    """The complex conjugate (a real tensor is returned as it is)."""
    x = convert_to_tensor(x)
    if x.dtype in COMPLEX:
        return apply("Conj", (x,))
    if not x.dtype.is_numeric:
        raise TypeError(f"Conj: expected a numeric tensor, got a {x.dtype.name} tensor")
    return x


def angle(input, name=None):  # TensorFlow's argument name
    """The argument (phase) of each element, in radians (0 or pi for a real one)."""
    input = convert_to_tensor(input)
    if input.dtype not in COMPLEX | FLOATS:
        raise dtype_error("Angle", input.dtype, COMPLEX | FLOATS)
    return apply("Angle", (input,))
