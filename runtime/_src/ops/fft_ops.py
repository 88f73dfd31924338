"""Fast Fourier transforms: `tf.signal.fft`, `ifft`, `rfft`, `irfft` in 1, 2, 3
and N dimensions, with TensorFlow's dtype rules and gradients.

    >>> fft([1.0, 0.0, -1.0, 0.0])                # Python floats: complex64
    <tf.Tensor: shape=(4,), dtype=complex64, numpy=array([0.+0.j, 2.+0.j, 0.+0.j, 2.+0.j], dtype=complex64)>
    >>> rfft(constant([1.0, 2.0, 3.0, 4.0]))      # float32 -> complex64
    <tf.Tensor: shape=(3,), dtype=complex64, numpy=array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex64)>

The ops and their numpy kernels (numpy.fft, computed in double precision and
rounded to the tensor's dtype):

    FFT, FFT2D, FFT3D    complex -> complex over the last 1, 2, 3 axes
    IFFT, IFFT2D, IFFT3D the inverses (divided by the transform's size)
    RFFT*(x, fft_length)  real -> complex, the fft_length[-1] // 2 + 1 first
                         frequencies of x cropped or zero-padded to fft_length
    IRFFT*(y, fft_length) complex -> real, the inverse (y cropped or padded
                         to fft_length[:-1] + [fft_length[-1] // 2 + 1]); the
                         imaginary parts of the zero (and Nyquist) frequencies
                         are ignored, as TF's kernels do
    FFTND, IFFTND, RFFTND, IRFFTND(x, fft_length, axes): over any axes

Gradients follow TensorFlow's conventions (for a complex z = a + bi the
gradient is dL/da + i dL/db): FFT's is IFFT times the size, IFFT's is FFT over
the size; RFFT's is the real part of the (zero-padded) inverse transform of
the gradient times the size; IRFFT's is the RFFT of the gradient over the
size, doubled for the frequencies that stand for two (all but the zero and
Nyquist ones). The N-dimensional ops have no gradient, as in TF.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import (fill, ones_like, range as range_, rank as rank_of, shape,
                                        zeros_like)
from runtime._src.ops.base_ops import COMPLEX, dtype_error
from runtime._src.ops.complex_ops import real
from runtime._src.ops.manipulation_ops import concat, gather, stack
from runtime._src.ops.math_ops import (cast, equal, floordiv, logical_or, maximum, minimum,
                                       multiply, negative, subtract, truediv, where)
from runtime._src.ops.reduction_ops import reduce_prod
from runtime._src.ops.shape_ops import pad, roll, slice as slice_

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "fftnd", "ifftnd",
           "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d", "rfftnd", "irfftnd",
           "fftshift", "ifftshift"]

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}
_C2C = {"FFT": 1, "FFT2D": 2, "FFT3D": 3}          # forward op -> rank
_R2C = {"RFFT": 1, "RFFT2D": 2, "RFFT3D": 3}
_INVERSE = {"FFT": "IFFT", "FFT2D": "IFFT2D", "FFT3D": "IFFT3D",
            "RFFT": "IRFFT", "RFFT2D": "IRFFT2D", "RFFT3D": "IRFFT3D"}


# --- shape rules -----------------------------------------------------------------

def _check_rank(name, x, rank):
    if x.shape.rank is not None and x.shape.rank < rank:
        raise ValueError(f"{name}: the input must have rank at least {rank}, got shape "
                         f"{rules.dims_text(x.shape)}")


def _c2c_rule(rank):
    def infer(inputs, attrs):
        (x,) = inputs
        _check_rank("FFT", x, rank)
        return [(x.dtype, x.shape)]
    return infer


def _lengths(t, count):
    """The fft_length tensor's values, as a list of ints (None where unknown)."""
    value = rules.constant_value(t)
    if value is None:
        return [None] * count
    return [int(v) for v in np.reshape(value, -1)]


def _half(n):
    """The number of frequencies an RFFT of length n keeps (none for n = 0, as TF)."""
    return n // 2 + 1 if n else 0


def _real_rule(rank, inverse):
    """Shape rule of RFFT*/IRFFT*: the last `rank` dims become fft_length
    (the last one fft_length // 2 + 1 for RFFT)."""
    def infer(inputs, attrs):
        x, fft_length = inputs
        _check_rank("IRFFT" if inverse else "RFFT", x, rank)
        dims = _lengths(fft_length, rank)
        if not inverse and dims[-1] is not None:
            dims[-1] = _half(dims[-1])
        dtype = x.dtype.real_dtype if inverse else _COMPLEX_OF[x.dtype]
        if x.shape.rank is None:
            return [(dtype, TensorShape(None))]
        return [(dtype, TensorShape(list(x.shape.dims[:-rank]) + dims))]
    return infer


def _nd_rule(real_in, real_out):
    """Shape rule of FFTND/IFFTND/RFFTND/IRFFTND(x, fft_length, axes)."""
    def infer(inputs, attrs):
        x, fft_length, axes = inputs
        dtype = (_COMPLEX_OF[x.dtype] if real_in else
                 x.dtype.real_dtype if real_out else x.dtype)
        axes_value = rules.constant_value(axes)
        if x.shape.rank is None or axes_value is None:
            return [(dtype, TensorShape(None))]
        dims = list(x.shape.dims)
        lengths = _lengths(fft_length, np.size(axes_value))
        for i, (axis, n) in enumerate(zip(np.reshape(axes_value, -1), lengths)):
            last = i == len(lengths) - 1
            dims[int(axis)] = _half(n) if (real_in and last and n is not None) else n
        return [(dtype, TensorShape(dims))]
    return infer


# --- kernels ---------------------------------------------------------------------

def _axes(rank):
    return tuple(range(-rank, 0))


def _c2c_kernel(rank, inverse):
    def kernel(x):
        if x.size == 0:                  # numpy refuses length-0 transforms
            return x
        transform = np.fft.ifftn if inverse else np.fft.fftn
        return transform(x, axes=_axes(rank)).astype(x.dtype)
    return kernel


def _rfft_out(x, lengths, axes):
    shape = list(x.shape)
    for axis, n in zip(axes, lengths):
        shape[axis] = n
    shape[axes[-1]] = _half(lengths[-1])
    return shape


def _rfftn(x, lengths, axes):
    dtype = _COMPLEX_OF[dtypes.as_dtype(x.dtype)].np_dtype
    if 0 in lengths or x.size == 0:
        return np.zeros(_rfft_out(x, lengths, axes), dtype)
    return np.fft.rfftn(x, s=lengths, axes=axes).astype(dtype)


def _irfftn(y, lengths, axes):
    dtype = y.real.dtype
    if 0 in lengths or y.size == 0:
        shape = list(y.shape)
        for axis, n in zip(axes, lengths):
            shape[axis] = n
        return np.zeros(shape, dtype)
    half = list(lengths[:-1]) + [lengths[-1] // 2 + 1]
    y = _fit(y, half, axes)                 # numpy would pad the last axis to the wrong size
    return np.fft.irfftn(y, s=lengths, axes=axes).astype(dtype)


def _fit(x, lengths, axes):
    """x cropped or zero-padded along `axes` to `lengths`."""
    index = [slice(None)] * x.ndim
    pads = [(0, 0)] * x.ndim
    for axis, n in zip(axes, lengths):
        index[axis] = slice(0, n)
        pads[axis] = (0, max(0, n - x.shape[axis]))
    return np.pad(x[tuple(index)], pads)


def _check_lengths(name, lengths, count):
    lengths = [int(v) for v in np.reshape(lengths, -1)]
    if len(lengths) != count:
        raise ValueError(f"{name}: fft_length must have {count} element(s), got {lengths}")
    if any(n < 0 for n in lengths):
        raise ValueError(f"{name}: fft_length must not be negative, got {lengths}")
    return lengths


def _real_kernel(name, rank, inverse):
    def kernel(x, fft_length):
        lengths = _check_lengths(name, fft_length, rank)
        return (_irfftn if inverse else _rfftn)(x, lengths, _axes(rank))
    return kernel


def _nd_kernel(name, kind):
    def kernel(x, fft_length, axes):
        axes = tuple(int(a) for a in np.reshape(axes, -1))
        lengths = _check_lengths(name, fft_length, len(axes))
        if kind == "r2c":
            return _rfftn(x, lengths, axes)
        if kind == "c2r":
            return _irfftn(x, lengths, axes)
        x = _fit(x, lengths, axes)
        if 0 in lengths or x.size == 0:
            return x
        transform = np.fft.ifftn if kind == "inverse" else np.fft.fftn
        return transform(x, axes=axes).astype(x.dtype)
    return kernel


for _name, _rank in _C2C.items():
    define_op(_name, infer=_c2c_rule(_rank))(_c2c_kernel(_rank, False))
    define_op(_INVERSE[_name], infer=_c2c_rule(_rank))(_c2c_kernel(_rank, True))
for _name, _rank in _R2C.items():
    define_op(_name, infer=_real_rule(_rank, False))(_real_kernel(_name, _rank, False))
    define_op(_INVERSE[_name], infer=_real_rule(_rank, True))(
        _real_kernel(_INVERSE[_name], _rank, True))
define_op("FFTND", infer=_nd_rule(False, False))(_nd_kernel("FFTND", "forward"))
define_op("IFFTND", infer=_nd_rule(False, False))(_nd_kernel("IFFTND", "inverse"))
define_op("RFFTND", infer=_nd_rule(True, False))(_nd_kernel("RFFTND", "r2c"))
define_op("IRFFTND", infer=_nd_rule(False, True))(_nd_kernel("IRFFTND", "c2r"))
# FFTND and friends have no gradient, as in TF: a gradient through them is an error.


# --- gradients -------------------------------------------------------------------

def _last_dims(t, rank):
    """The last `rank` dims of t, as an int32 tensor (a constant when known)."""
    dims = t.shape.dims
    if dims is not None and all(d is not None for d in dims[-rank:]):
        return convert_to_tensor(np.array(dims[-rank:], np.int32))
    return shape(t)[-rank:]


def _size(dims, dtype):
    """The product of the int32 tensor `dims`, as a scalar of `dtype`."""
    return cast(reduce_prod(dims), dtype)


def _fit_last(t, dims, rank):
    """t cropped or zero-padded on its last `rank` axes to `dims` (int32 tensor)."""
    have = _last_dims(t, rank)
    known_have, known_want = rules.constant_value(have), rules.constant_value(dims)
    if known_have is not None and known_want is not None and \
            list(known_have) == list(np.reshape(known_want, -1)):
        return t
    if t.shape.rank is not None:
        lead = convert_to_tensor(np.array([t.shape.rank - rank], np.int32))
    else:                              # the rank is only known when the graph runs
        lead = subtract(rank_of(t), rank)[None]
    keep = minimum(have, dims)
    begin = zeros_like(concat([fill(lead, 0), keep], 0))
    t = slice_(t, begin, concat([fill(lead, -1), keep], 0))
    after = concat([fill(lead, 0), subtract(dims, keep)], 0)
    return pad(t, stack([zeros_like(after), after], axis=1))


def _define_c2c_grads(forward, rank):
    inverse = _INVERSE[forward]

    @define_grad(forward)
    def _forward_grad(op, grad):
        return [multiply(apply(inverse, (grad,)), _size(_last_dims(grad, rank), grad.dtype))]

    @define_grad(inverse)
    def _inverse_grad(op, grad):
        return [truediv(apply(forward, (grad,)), _size(_last_dims(grad, rank), grad.dtype))]


def _define_real_grads(forward, rank):
    inverse, c2c_inverse = _INVERSE[forward], _INVERSE[_C2C_OF_RANK[rank]]

    @define_grad(forward)
    def _rfft_grad(op, grad):
        # x -> sum_n x_n e^(-2 pi i k n / N) for the kept k: the adjoint is the real
        # part of the full-length inverse transform of grad (zero at the dropped k).
        x, fft_length = op.inputs
        full = apply(c2c_inverse, (_fit_last(grad, fft_length, rank),))
        back = multiply(real(full), _size(fft_length, x.dtype))
        return [_fit_last(back, _last_dims(x, rank), rank), None]

    @define_grad(inverse)
    def _irfft_grad(op, grad):
        y, fft_length = op.inputs
        spectrum = apply(forward, (grad, fft_length))
        weights = truediv(_hermitian_weights(fft_length, grad.dtype), _size(fft_length, grad.dtype))
        out = multiply(spectrum, cast(weights, spectrum.dtype))
        return [_fit_last(out, _last_dims(y, rank), rank), None]


def _hermitian_weights(fft_length, dtype):
    """[1, 2, ..., 2, 1]: 1 for the zero and Nyquist frequencies of a length
    fft_length[-1] signal, 2 for the others (each stands for itself and its mirror)."""
    n = fft_length[-1]
    k = range_(floordiv(n, 2) + 1)
    single = logical_or(equal(k, 0), equal(multiply(k, 2), n))
    return where(single, ones_like(k, dtype=dtype), fill(shape(k), convert_to_tensor(2, dtype)))


_C2C_OF_RANK = {rank: name for name, rank in _C2C.items()}
for _name, _rank in _C2C.items():
    _define_c2c_grads(_name, _rank)
for _name, _rank in _R2C.items():
    _define_real_grads(_name, _rank)


# --- public functions ------------------------------------------------------------

def _complex_input(op_name, input, prefer_complex64=False):
    """A complex input. As TF, which tries the op's dtypes in order: a numpy
    array and Python real numbers convert to complex64, Python complex numbers
    to complex128 (complex64 too where TF's wrapper prefers it: the irfft and
    N-D functions); a real tensor is an error."""
    if not isinstance(input, Tensor) and not reads_as_tensor(input):
        array = np.asarray(input)
        numpy_input = isinstance(input, (np.ndarray, np.generic))
        if array.dtype.kind in "biuf" or (array.dtype.kind == "c" and
                                          (numpy_input or prefer_complex64)):
            input = convert_to_tensor(array.astype(np.complex64))
        else:
            input = convert_to_tensor(array)
    x = convert_to_tensor(input)
    if x.dtype not in COMPLEX:
        raise dtype_error(op_name, x.dtype, COMPLEX)
    return x


def _float_input(op_name, input):
    """A real input: Python numbers and numpy arrays convert to float32 (TF's
    preferred dtype)."""
    if not isinstance(input, Tensor) and not reads_as_tensor(input):
        kind = np.asarray(input).dtype.kind
        input = convert_to_tensor(input, dtypes.float32 if kind in "biuf" else None)
    x = convert_to_tensor(input)
    if x.dtype not in _COMPLEX_OF:
        raise ValueError(f"{op_name} requires tf.float32 or tf.float64 inputs, got: {x!r}")
    return x


def _check_input_rank(op_name, x, rank):
    if x.shape.rank is not None and x.shape.rank < rank:
        raise ValueError(f"{op_name}: Shape must be at least rank {rank} but is rank "
                         f"{x.shape.rank}")


def _lengths_tensor(fft_length, x, rank, inverse):
    """fft_length as an int32 tensor; by default the input's last `rank` dims
    (for an inverse real transform the last one is 2 * (m - 1))."""
    if fft_length is not None:
        if isinstance(fft_length, Tensor):
            return cast(fft_length, dtypes.int32)
        return convert_to_tensor(fft_length, dtypes.int32)
    dims = _last_dims(x, rank)
    if not inverse:
        return dims
    known = rules.constant_value(dims)
    if known is not None:
        known = np.array(known, np.int32)
        known[-1] = max(0, 2 * (known[-1] - 1))
        return convert_to_tensor(known)
    last = maximum(0, multiply(subtract(dims[-1:], 1), 2))
    return concat([dims[:-1], last], 0)


def _c2c(op_name, rank):
    def transform(input, name=None):  # TensorFlow's argument name
        x = _complex_input(op_name, input)
        _check_input_rank(op_name, x, rank)
        return apply(op_name, (x,))
    transform.__name__ = op_name.lower()
    transform.__doc__ = (f"`tf.signal.{op_name.lower()}`: the {'inverse ' * (op_name[0] == 'I')}"
                         f"discrete Fourier transform over the last {rank} axes of a complex "
                         "tensor (complex64 or complex128, kept).")
    return transform


def _r2c(op_name, rank):
    def transform(input_tensor, fft_length=None, name=None):
        x = _float_input("RFFT", input_tensor)
        _check_input_rank(op_name, x, rank)
        return apply(op_name, (x, _lengths_tensor(fft_length, x, rank, False)))
    transform.__name__ = op_name.lower()
    transform.__doc__ = (f"`tf.signal.{op_name.lower()}`: the {rank}-D FFT of a real tensor "
                         "(float32 -> complex64, float64 -> complex128) over its last axes, "
                         "cropped or zero-padded to `fft_length`; of the last axis only the "
                         "fft_length[-1] // 2 + 1 non-negative frequencies.")
    return transform


def _c2r(op_name, rank):
    def transform(input_tensor, fft_length=None, name=None):
        x = _complex_input(op_name, input_tensor, prefer_complex64=True)
        _check_input_rank(op_name, x, rank)
        return apply(op_name, (x, _lengths_tensor(fft_length, x, rank, True)))
    transform.__name__ = op_name.lower()
    transform.__doc__ = (f"`tf.signal.{op_name.lower()}`: the real signal (of shape fft_length "
                         f"on the last {rank} axes; by default 2 * (m - 1) on the last) whose "
                         f"rfft{'' if rank == 1 else f'{rank}d'} is the input.")
    return transform


fft, ifft = _c2c("FFT", 1), _c2c("IFFT", 1)
fft2d, ifft2d = _c2c("FFT2D", 2), _c2c("IFFT2D", 2)
fft3d, ifft3d = _c2c("FFT3D", 3), _c2c("IFFT3D", 3)
rfft, irfft = _r2c("RFFT", 1), _c2r("IRFFT", 1)
rfft2d, irfft2d = _r2c("RFFT2D", 2), _c2r("IRFFT2D", 2)
rfft3d, irfft3d = _r2c("RFFT3D", 3), _c2r("IRFFT3D", 3)


_NORMS = ("backward", "forward", "ortho")


def _nd_lengths(x, fft_length, axes, inverse_real):
    """(fft_length, axes) as int32 tensors; by default all axes, at their sizes."""
    if axes is None:
        if x.shape.rank is None:
            raise ValueError("fftnd: the input's rank must be known when `axes` is not given")
        axes = list(range(x.shape.rank))
    axes = convert_to_tensor(axes, dtypes.int32) if not isinstance(axes, Tensor) else axes
    if fft_length is not None:
        return _lengths_tensor(fft_length, x, 1, False), axes
    dims = apply("Shape", (x,), {"out_type": dtypes.int32})
    known, axes_value = rules.constant_value(dims), rules.constant_value(axes)
    if known is not None and axes_value is not None:
        lengths = np.array(known, np.int32)[np.reshape(axes_value, -1)]
        if inverse_real and lengths.size:
            lengths[-1] = max(0, 2 * (lengths[-1] - 1))
        return convert_to_tensor(lengths), axes
    lengths = gather(dims, axes)
    if inverse_real:
        last = maximum(0, multiply(subtract(lengths[-1:], 1), 2))
        lengths = concat([lengths[:-1], last], 0)
    return lengths, axes


def _nd(op_name, kind):
    """fftnd / ifftnd / rfftnd / irfftnd. `norm` scales the input as TF does:
    "forward" divides a forward transform by the size (an inverse one is then
    not divided), "ortho" by its square root, "backward" (the default) leaves
    the division to the inverse."""
    inverse = op_name.startswith("I")

    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        x = (_float_input("RFFT", input_tensor) if kind == "r2c"
             else _complex_input(op_name, input_tensor, prefer_complex64=True))
        if norm not in (None,) + _NORMS:
            raise ValueError(f"{op_name.lower()}: norm must be one of {', '.join(_NORMS)} or "
                             f"None, got {norm!r}")
        lengths, axes = _nd_lengths(x, fft_length, axes, kind == "c2r")
        if norm in ("forward", "ortho"):
            size = cast(reduce_prod(lengths), x.dtype.real_dtype)
            if norm == "ortho":
                size = apply("Sqrt", (size,))
            size = cast(size, x.dtype)
            x = multiply(x, size) if inverse else truediv(x, size)
        return apply(op_name, (x, lengths, axes))
    transform.__name__ = op_name.lower()
    transform.__doc__ = (f"`tf.signal.{op_name.lower()}(input_tensor, fft_length=None, axes=None, "
                         "norm=None)`: as its 1-D form over `axes` (all by default), each "
                         "cropped or zero-padded to `fft_length`.")
    return transform


fftnd, ifftnd = _nd("FFTND", "c2c"), _nd("IFFTND", "c2c")
rfftnd, irfftnd = _nd("RFFTND", "r2c"), _nd("IRFFTND", "c2r")


def _shift(x, axes, sign):
    x = convert_to_tensor(x)
    if axes is None:
        if x.shape.rank is None:
            raise ValueError("fftshift: the input's rank must be known when `axes` is not given")
        axes = list(range(x.shape.rank))
    dims = apply("Shape", (x,), {"out_type": dtypes.int32})
    shift = floordiv(gather(dims, axes), 2)
    if sign < 0:
        shift = negative(shift)
    return roll(x, shift, axes)


def fftshift(x, axes=None, name=None):
    """`tf.signal.fftshift`: the zero frequency moved to the center (numpy's
    fftshift), over `axes` (an int or a tuple; all axes by default)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    """`tf.signal.ifftshift`: the inverse of fftshift (they differ by one for odd lengths)."""
    return _shift(x, axes, -1)
