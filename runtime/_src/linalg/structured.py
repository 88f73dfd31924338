"""The LinearOperators given by a few vectors: `LinearOperatorCirculant`
(and its 2D and 3D block forms, diagonal in the Fourier basis),
`LinearOperatorToeplitz`, `LinearOperatorHouseholder`,
`LinearOperatorPermutation` and `LinearOperatorTridiag`.

    >>> import runtime as tf
    >>> tf.linalg.LinearOperatorPermutation([2, 0, 1]).matvec([1.0, 2.0, 3.0]).numpy()
    array([3., 1., 2.], dtype=float32)
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.linalg.linear_operator import (LinearOperator, as_operand, broadcast_batch,
                                                 matrix_adjoint, reciprocal)
from runtime._src.linalg.basic import _operand, _params
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import ones, reshape, zeros
from runtime._src.ops.complex_ops import complex as make_complex, conj, imag, real
from runtime._src.ops.fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d
from runtime._src.ops.linalg_more_ops import tridiagonal_matmul, tridiagonal_solve
from runtime._src.ops.check_ops import assert_less_equal
from runtime._src.ops.manipulation_ops import concat, expand_dims, gather, stack, transpose
from runtime._src.ops.matrix_diag_ops import diag, diag_part, set_diag
from runtime._src.ops.reduction_ops import (l2_normalize, reduce_max, reduce_min, reduce_prod,
                                            reduce_sum)
from runtime._src.ops.shape_ops import broadcast_static_shape, broadcast_to, reverse
from runtime._src.ops.sort_ops import argsort

__all__ = ["LinearOperatorCirculant", "LinearOperatorCirculant2D",
           "LinearOperatorCirculant3D", "LinearOperatorToeplitz", "LinearOperatorHouseholder",
           "LinearOperatorPermutation", "LinearOperatorTridiag"]

_FFT = {1: (fft, ifft), 2: (fft2d, ifft2d), 3: (fft3d, ifft3d)}


def _to_complex(x):
    if x.dtype.is_complex:
        return convert_to_tensor(x)
    return math_ops.cast(x, dtypes.complex128 if x.dtype == dtypes.float64
                         else dtypes.complex64)


def _batch_ones(shape, dtype):
    return ones(shape.as_list(), dtype=dtype)


def _adjoint_if(x, flag):
    return matrix_adjoint(x) if flag else x


# --- circulants ----------------------------------------------------------------------------

class _BaseCirculant(LinearOperator):
    """A [nested block] circulant `F^H diag(spectrum) F`, with `F` the DFT of
    `block_depth` dimensions: `spectrum` has shape `batch + block_shape`."""

    _component_attrs = {"spectrum": "_spectrum"}

    _depth = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True, name=None):
        params = _params(spectrum=spectrum, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        self._spectrum = as_operand(spectrum, name="spectrum")
        if self._spectrum.shape.rank is not None and self._spectrum.shape.rank < self._depth:
            raise ValueError(f"Argument `spectrum` must have at least {self._depth} "
                             f"dimensions. Received: {self._spectrum.shape}.")
        if not self._spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real spectrum always corresponds to a self-adjoint "
                                 "operator. Expected argument `is_self_adjoint` to be True "
                                 f"when `spectrum.dtype.is_complex` = True. Received: "
                                 f"{is_self_adjoint}.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("A [[nested] block] circulant operator is always square. "
                             f"Expected argument `is_square` to be True. Received: {is_square}.")
        super().__init__(dtype=dtypes.as_dtype(input_output_dtype),
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name or type(self).__name__, parameters=params)

    @property
    def spectrum(self):
        return self._spectrum

    @property
    def block_depth(self):
        return self._depth

    @property
    def block_shape(self):
        return self._spectrum.shape[-self._depth:]

    def block_shape_tensor(self):
        return convert_to_tensor(self.block_shape.as_list(), dtype=dtypes.int32)

    def _size(self):
        return int(np.prod(self.block_shape.as_list()))

    def _shape(self):
        s = self._spectrum.shape
        n = self._size()
        return s[:-self._depth].concatenate([n, n])

    def _flat_spectrum(self):
        s = self._spectrum.shape.as_list()
        return reshape(self._spectrum, s[:-self._depth] + [self._size()])

    def _apply(self, x, spectrum, divide):
        """`F^H (spectrum * F x)` (or `/ spectrum`) for x [..., N, R]."""
        forward, inverse = _FFT[self._depth]
        block = self.block_shape.as_list()
        x = math_ops.cast(x, spectrum.dtype)
        batch = broadcast_static_shape(x.shape[:-2], spectrum.shape[:-self._depth])
        cols = x.shape[-1]
        x = broadcast_to(x, batch.concatenate(x.shape[-2:]))
        rank = batch.rank
        blocks = reshape(transpose(x, list(range(rank)) + [rank + 1, rank]),
                         batch.as_list() + [cols] + block)
        spec = expand_dims(spectrum, -self._depth - 1)
        mixed = forward(blocks)
        mixed = math_ops.truediv(mixed, spec) if divide else math_ops.multiply(spec, mixed)
        out = reshape(inverse(mixed), batch.as_list() + [cols, self._size()])
        return math_ops.cast(transpose(out, list(range(rank)) + [rank + 1, rank]), self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        spectrum = _to_complex(self._spectrum)
        spectrum = conj(spectrum) if adjoint else spectrum
        return self._apply(_adjoint_if(x, adjoint_arg), spectrum, divide=False)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        spectrum = _to_complex(self._spectrum)
        spectrum = conj(spectrum) if adjoint else spectrum
        return self._apply(_adjoint_if(rhs, adjoint_arg), spectrum, divide=True)

    def _axes(self):
        return list(range(-self._depth, 0))

    def _determinant(self):
        return math_ops.cast(reduce_prod(self._spectrum, axis=self._axes()), self.dtype)

    def _log_abs_determinant(self):
        total = reduce_sum(math_ops.log(math_ops.abs(self._spectrum)), axis=self._axes())
        return math_ops.cast(total, self.dtype)

    def _trace(self):
        re = reduce_sum(real(self._spectrum), axis=self._axes())
        if not self.dtype.is_complex:
            return math_ops.cast(re, self.dtype)
        im = (math_ops.multiply(re, 0.0) if self.is_self_adjoint
              else reduce_sum(imag(self._spectrum), axis=self._axes()))
        return math_ops.cast(make_complex(re, im), self.dtype)

    def _diag_part(self):
        value = math_ops.truediv(self.trace(), math_ops.cast(self._size(), self.dtype))
        return math_ops.multiply(expand_dims(value, -1), _batch_ones(self.shape[:-1],
                                                                     self.dtype))

    def _eigvals(self):
        return self._flat_spectrum()

    def _cond(self):
        a = math_ops.abs(self._flat_spectrum())
        return math_ops.truediv(reduce_max(a, axis=-1), reduce_min(a, axis=-1))

    def convolution_kernel(self, name="convolution_kernel"):
        """The kernel `h` whose circular convolution this operator is: the
        inverse DFT of the spectrum."""
        return math_ops.cast(_FFT[self._depth][1](_to_complex(self._spectrum)), self.dtype)

    def assert_hermitian_spectrum(self, name="assert_hermitian_spectrum"):
        """An op raising unless the spectrum is Hermitian (its kernel real)."""
        kernel = _FFT[self._depth][1](_to_complex(self._spectrum))
        return assert_less_equal(math_ops.abs(imag(kernel)),
                                 math_ops.cast(1e-5 if kernel.dtype == dtypes.complex64
                                               else 1e-12, kernel.dtype.real_dtype),
                                 message="Spectrum was not Hermitian")

    def _similar(self, spectrum, **hints):
        return type(self)(spectrum, input_output_dtype=self.dtype, is_square=True, **hints)

    def _linop_adjoint(self):
        return self._similar(conj(self._spectrum) if self._spectrum.dtype.is_complex
                             else self._spectrum, is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint,
                             is_positive_definite=self.is_positive_definite)

    def _linop_inverse(self):
        return self._similar(reciprocal(self._spectrum),
                             is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint,
                             is_positive_definite=self.is_positive_definite)

    def _linop_matmul_with(self, right):
        if type(right) is type(self):
            return self._similar(math_ops.multiply(self._spectrum, right.spectrum),
                                 is_non_singular=_both(self, right, "is_non_singular"),
                                 is_self_adjoint=_both(self, right, "is_self_adjoint"),
                                 is_positive_definite=_both(self, right,
                                                            "is_positive_definite"))
        return None


def _both(left, right, hint):
    return True if getattr(left, hint) and getattr(right, hint) else None


class LinearOperatorCirculant(_BaseCirculant):
    """The circulant matrix `F^H diag(spectrum) F` (F the DFT)."""

    _depth = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)


class LinearOperatorCirculant2D(_BaseCirculant):
    """The block circulant matrix with circulant blocks of a 2-D spectrum."""

    _depth = 2

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)


class LinearOperatorCirculant3D(_BaseCirculant):
    """The doubly nested block circulant matrix of a 3-D spectrum."""

    _depth = 3

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)


# --- Toeplitz -------------------------------------------------------------------------------

class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column `col` and first row `row`
    (`row[0]` is ignored: the diagonal is `col[0]`)."""

    _component_attrs = {"col": "_col", "row": "_row"}

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
        params = _params(col=col, row=row, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        self._row = _operand(row, "row", 1)
        self._col = _operand(col, "col", 1, dtype=self._row.dtype)
        if self._row.shape[-1] != self._col.shape[-1]:
            raise ValueError(f"Expected square matrix, got row and col with mismatched "
                             f"dimensions {self._row.shape[-1]} and {self._col.shape[-1]}.")
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(dtype=self._row.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=params)

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        batch = broadcast_static_shape(self._row.shape[:-1], self._col.shape[:-1])
        n = self._row.shape[-1]
        return batch.concatenate([n, n])

    def _to_dense(self):
        n = self._row.shape[-1]
        batch = self.batch_shape
        row = broadcast_to(self._row, batch.concatenate([n]))
        col = broadcast_to(self._col, batch.concatenate([n]))
        both = concat([reverse(row[..., 1:], [-1]), col], -1)      # v[n-1+i-j] = T[i, j]
        index = (n - 1) + np.arange(n)[:, None] - np.arange(n)[None, :]
        return gather(both, convert_to_tensor(index.astype(np.int32)), axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        dense, x = broadcast_batch(self._to_dense(), x)
        return math_ops.matmul(dense, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _diag_part(self):
        return math_ops.multiply(self._col[..., :1], _batch_ones(self.shape[:-1], self.dtype))

    def _trace(self):
        return math_ops.multiply(math_ops.cast(self._row.shape[-1], self.dtype),
                                 math_ops.multiply(self._col[..., 0],
                                                   _batch_ones(self.batch_shape, self.dtype)))


# --- Householder ----------------------------------------------------------------------------

class LinearOperatorHouseholder(LinearOperator):
    """The reflection `I - 2 v v^H / |v|^2` about the hyperplane orthogonal
    to `reflection_axis` (v)."""

    _component_attrs = {"reflection_axis": "_axis"}

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
        params = _params(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        self._axis = as_operand(reflection_axis, name="reflection_axis")
        if self._axis.shape.rank is not None and self._axis.shape.rank < 1:
            raise ValueError("Argument reflection_axis must have at least 1 dimension.  "
                             f"Found: {self._axis}")
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        super().__init__(dtype=self._axis.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=True, is_positive_definite=False, is_square=True,
                         name=name, parameters=params)

    @property
    def reflection_axis(self):
        return self._axis

    def _shape(self):
        s = self._axis.shape
        return s.concatenate([s[-1]])

    def _unit(self):
        return expand_dims(l2_normalize(self._axis, axis=-1), -1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        v = self._unit()
        along = math_ops.matmul(v, x, adjoint_a=True)
        return math_ops.subtract(x, math_ops.multiply(math_ops.multiply(2.0, v), along)
                                 if not self.dtype.is_complex else
                                 math_ops.multiply(math_ops.cast(2.0, self.dtype),
                                                   math_ops.multiply(v, along)))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _determinant(self):
        return math_ops.negative(_batch_ones(self.batch_shape, self.dtype))

    def _log_abs_determinant(self):
        return zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _to_dense(self):
        v = self._unit()
        two = math_ops.cast(2.0, self.dtype)
        outer = math_ops.multiply(math_ops.negative(two), math_ops.matmul(v, v, adjoint_b=True))
        return set_diag(outer, math_ops.add(math_ops.cast(1.0, self.dtype), diag_part(outer)))

    def _diag_part(self):
        u = l2_normalize(self._axis, axis=-1)
        two = math_ops.cast(2.0, self.dtype)
        return math_ops.subtract(math_ops.cast(1.0, self.dtype),
                                 math_ops.multiply(two, math_ops.multiply(u, conj(u))
                                                   if self.dtype.is_complex
                                                   else math_ops.multiply(u, u)))

    def _trace(self):
        n = math_ops.cast(self.domain_dimension - 2, self.dtype)
        return math_ops.multiply(n, _batch_ones(self.batch_shape, self.dtype))

    def _eigvals(self):
        batch = self._axis.shape[:-1].as_list()
        n = self._axis.shape[-1]
        return concat([math_ops.negative(ones(batch + [1], dtype=self.dtype)),
                       ones(batch + [n - 1], dtype=self.dtype)], -1)

    def _cond(self):
        return _batch_ones(self.batch_shape, self.dtype)

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self


# --- permutations ---------------------------------------------------------------------------

class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix `P` with `P[i, perm[i]] = 1`: `(P x)[i] = x[perm[i]]`."""

    _component_attrs = {"perm": "_perm"}

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        params = _params(perm=perm, dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        self._perm = as_operand(perm, name="perm")
        self._check_perm()
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular. Expected "
                             f"argument `is_non_singular` to be True. Received: "
                             f"{is_non_singular}.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square. Expected argument "
                             f"`is_square` to be True. Received: {is_square}.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=params)

    def _check_perm(self):
        perm = self._perm
        if perm.shape.rank is not None and perm.shape.rank < 1:
            raise ValueError(f"Argument `perm` must have at least 1 dimension. Received: "
                             f"{perm}.")
        if not perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: {perm}.")
        value = _static(perm)
        if value is not None and np.any(np.sort(value, axis=-1)
                                        != np.arange(value.shape[-1])):
            raise ValueError("Argument `perm` must be a vector of unique integers from 0 to "
                             f"{value.shape[-1] - 1}.")

    @property
    def perm(self):
        return self._perm

    def _shape(self):
        s = self._perm.shape
        return s.concatenate([s[-1]])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        perm = convert_to_tensor(self._perm)
        if adjoint and not self.is_self_adjoint:
            perm = argsort(perm, axis=-1)
        x = _adjoint_if(x, adjoint_arg)
        batch = broadcast_static_shape(x.shape[:-2], perm.shape[:-1])
        x = broadcast_to(x, batch.concatenate(x.shape[-2:]))
        perm = broadcast_to(perm, batch.concatenate(perm.shape[-1:]))
        return gather(x, perm, axis=-2, batch_dims=batch.rank)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _log_abs_determinant(self):
        return zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _to_dense(self):
        n = self.domain_dimension
        hit = math_ops.equal(convert_to_tensor(np.arange(n, dtype=self._perm.dtype.as_numpy_dtype)),
                             expand_dims(self._perm, -1))
        return math_ops.cast(hit, self.dtype)

    def _diag_part(self):
        n = self.domain_dimension
        hit = math_ops.equal(convert_to_tensor(np.arange(n, dtype=self._perm.dtype.as_numpy_dtype)),
                             self._perm)
        return math_ops.cast(hit, self.dtype)

    def _cond(self):
        return _batch_ones(self.batch_shape, self.dtype)


def _static(x):
    try:
        return np.asarray(x.numpy())
    except (AttributeError, TypeError, ValueError, NotImplementedError):
        return None


# --- tridiagonal ----------------------------------------------------------------------------

_FORMATS = ("compact", "matrix", "sequence")


class LinearOperatorTridiag(LinearOperator):
    """The tridiagonal matrix of `diagonals`, in tf.linalg.tridiagonal_solve's
    formats: "compact" `[..., 3, N]` (superdiagonal, diagonal, subdiagonal;
    the superdiagonal's last and the subdiagonal's first entries ignored),
    "matrix" `[..., N, N]` or "sequence" (a list of those three vectors)."""

    _component_attrs = {"diagonals": "_diagonals"}

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorTridiag"):
        params = _params(diagonals=diagonals, diagonals_format=diagonals_format,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        if diagonals_format not in _FORMATS:
            raise ValueError("Argument `diagonals_format` must be one of compact, matrix, or "
                             f"sequence. Received : {diagonals_format}.")
        if diagonals_format == "sequence":
            self._diagonals = [as_operand(d, name=f"diag_{i}") for i, d in enumerate(diagonals)]
            dtype = self._diagonals[0].dtype
        else:
            self._diagonals = as_operand(diagonals, name="diagonals")
            dtype = self._diagonals.dtype
        self._format = diagonals_format
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=params)

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._format

    def _shape(self):
        if self._format == "matrix":
            return self._diagonals.shape
        if self._format == "compact":
            s = self._diagonals.shape
            return s[:-2].concatenate([s[-1], s[-1]])
        batch = TensorShape([])
        for d in self._diagonals:
            batch = broadcast_static_shape(batch, d.shape[:-1])
        n = self._diagonals[1].shape[-1]
        return batch.concatenate([n, n])

    def _compact(self):
        if self._format == "compact":
            return convert_to_tensor(self._diagonals)
        if self._format == "matrix":
            m = self._diagonals
            return diag_part(m, k=(-1, 1), align="LEFT_RIGHT")
        n = self.domain_dimension
        parts = [broadcast_to(d, self.batch_shape.concatenate([n])) for d in self._diagonals]
        return stack(parts, axis=-2)

    def _to_dense(self):
        if self._format == "matrix":
            return convert_to_tensor(self._diagonals)
        n = self.domain_dimension
        return diag(self._compact(), k=(-1, 1), num_rows=n, num_cols=n, align="LEFT_RIGHT")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        if adjoint:
            dense, x = broadcast_batch(self._to_dense(), x)
            return math_ops.matmul(dense, x, adjoint_a=True)
        compact = self._compact()
        batch = broadcast_static_shape(compact.shape[:-2], x.shape[:-2])
        compact = broadcast_to(compact, batch.concatenate(compact.shape[-2:]))
        x = broadcast_to(x, batch.concatenate(x.shape[-2:]))
        return tridiagonal_matmul(compact, x)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint_if(rhs, adjoint_arg)
        if adjoint:
            matrix, rhs = broadcast_batch(matrix_adjoint(self._to_dense()), rhs)
            return tridiagonal_solve(matrix, rhs, diagonals_format="matrix")
        compact = self._compact()
        batch = broadcast_static_shape(compact.shape[:-2], rhs.shape[:-2])
        compact = broadcast_to(compact, batch.concatenate(compact.shape[-2:]))
        rhs = broadcast_to(rhs, batch.concatenate(rhs.shape[-2:]))
        return tridiagonal_solve(compact, rhs)

    def _diag_part(self):
        if self._format == "matrix":
            return diag_part(self._diagonals)
        if self._format == "sequence":
            return broadcast_to(self._diagonals[1], self.shape[:-1])
        return self._diagonals[..., 1, :]
