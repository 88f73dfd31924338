"""Complex numbers: `tf.complex`, `tf.math.real`, `imag`, `conj`, `angle`.

complex64 tensors have float32 parts, complex128 float64 parts (a Python
`complex` converts to complex128). Arithmetic (`+ - * / **`, `matmul`,
`abs`, `sqrt`, `exp`, `log`) accepts them in math_ops.

    >>> c = complex(constant([1.0]), constant([2.0]))   # complex64
    >>> real(c), imag(c), conj(c), abs(c)
    (... [1.], ... [2.], ... [1.-2.j], ... [2.236068])

On a real tensor, `real` and `conj` return it and `imag` returns zeros, as
in TensorFlow. Their gradients follow TensorFlow's convention for complex
values (dL/da + i dL/db for z = a + bi).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import ones_like, zeros_like
from runtime._src.ops.gradient_ops import unbroadcast
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
define_op("ComplexAbs", infer=_real_part)(np.abs)     # tf.abs of a complex tensor
define_op("Imag", infer=_real_part)(np.imag)
define_op("Angle", infer=_real_part)(np.angle)
define_op("Conj", infer=rules.same_as_first)(np.conj)


@define_op("Complex", infer=_complex_shape)
def _complex(real_part, imag_part):
    out = np.asarray(real_part) + 1j * np.asarray(imag_part)
    return out.astype(np.complex64 if np.asarray(real_part).dtype == np.float32
                      else np.complex128)


# Gradients, in TensorFlow's convention: a complex value z = a + bi gets the
# gradient dL/da + i dL/db (runtime/_src/autodiff/backprop.py).

@define_grad("Complex")
def _complex_grad(op, grad):
    real_part, imag_part = op.inputs
    return [unbroadcast(apply("Real", (grad,)), real_part),
            unbroadcast(apply("Imag", (grad,)), imag_part)]


@define_grad("Real")
def _real_grad(op, grad):
    return [apply("Complex", (grad, zeros_like(grad)))]


@define_grad("Imag")
def _imag_grad(op, grad):
    return [apply("Complex", (zeros_like(grad), grad))]


@define_grad("Conj")
def _conj_grad(op, grad):
    return [apply("Conj", (grad,))]


@define_grad("ComplexAbs")
def _complex_abs_grad(op, grad):
    # d|z|/da = a / |z|, d|z|/db = b / |z|: z * grad / |z| (0 at z = 0, as TF)
    z, magnitude = op.inputs[0], op.outputs[0]
    zero = math_ops.equal(magnitude, 0)
    scale = math_ops.where(zero, zeros_like(grad),
                           math_ops.truediv(grad, math_ops.where(zero, ones_like(grad), magnitude)))
    return [math_ops.multiply(z, apply("Complex", (scale, zeros_like(scale))))]


@define_grad("Angle")
def _angle_grad(op, grad):
    # angle = atan2(b, a): d/da = -b / |z|^2, d/db = a / |z|^2
    z = op.inputs[0]
    a, b = apply("Real", (z,)), apply("Imag", (z,))
    scale = math_ops.truediv(grad, math_ops.add(math_ops.square(a), math_ops.square(b)))
    return [apply("Complex", (math_ops.negative(math_ops.multiply(b, scale)),
                              math_ops.multiply(a, scale)))]


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
