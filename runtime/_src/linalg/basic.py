"""The LinearOperators given by their entries: `LinearOperatorFullMatrix`,
`LinearOperatorDiag`, `LinearOperatorIdentity`,
`LinearOperatorScaledIdentity`, `LinearOperatorLowerTriangular` and
`LinearOperatorZeros`, each computing with its structure (a diagonal's
solve divides, a triangle's solve substitutes).

    >>> import runtime as tf
    >>> float(tf.linalg.LinearOperatorScaledIdentity(3, 2.0).determinant())
    8.0
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.linalg.linear_operator import (LinearOperator, as_operand, broadcast_batch,
                                                 matrix_adjoint, reciprocal, register_made)
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import eye, ones, zeros
from runtime._src.ops.complex_ops import conj
from runtime._src.ops.linalg_solve_ops import triangular_solve
from runtime._src.ops.manipulation_ops import expand_dims
from runtime._src.ops.matrix_diag_ops import band_part, diag, diag_part, set_diag
from runtime._src.ops.reduction_ops import reduce_max, reduce_min, reduce_prod, reduce_sum
from runtime._src.ops.shape_ops import broadcast_static_shape, broadcast_to

__all__ = ["LinearOperatorFullMatrix", "LinearOperatorDiag", "LinearOperatorIdentity",
           "LinearOperatorScaledIdentity", "LinearOperatorLowerTriangular",
           "LinearOperatorZeros"]

_FLOATING = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
             dtypes.complex128)


def _operand(value, name, min_rank, dtype=None):
    """`value` as a tensor of a floating or complex dtype with at least `min_rank` dims."""
    t = as_operand(value, dtype=dtype, name=name)
    if t.dtype not in _FLOATING:
        raise TypeError(f"Argument `{name}` must have dtype in "
                        f"{[d.name for d in _FLOATING]}. Received: {t.dtype.name}.")
    if t.shape.rank is not None and t.shape.rank < min_rank:
        raise ValueError(f"Argument `{name}` must have at least {min_rank} dimension"
                         f"{'s' if min_rank > 1 else ''}. Found: {t.shape}")
    return t


def _real_self_adjoint(values, is_self_adjoint):
    """TF's hint for a real diagonal: always self-adjoint."""
    if values.dtype.is_complex:
        return is_self_adjoint
    if is_self_adjoint is False:
        raise ValueError("A real diagonal operator is always self adjoint.")
    return True


def _conj_if(x, flag):
    return conj(x) if flag and x.dtype.is_complex else x


def _adjoint_if(x, flag):
    return matrix_adjoint(x) if flag else x


def _params(**kw):
    return kw


class LinearOperatorFullMatrix(LinearOperator):
    """The operator of a dense [batch] matrix."""

    _component_attrs = {"matrix": "_matrix"}

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorFullMatrix"):
        params = _params(matrix=matrix, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        self._matrix = _operand(matrix, "matrix", 2)
        super().__init__(dtype=self._matrix.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=params)

    @property
    def matrix(self):
        return self._matrix

    def _shape(self):
        return self._matrix.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return convert_to_tensor(self._matrix)


@register_made("diag")
class LinearOperatorDiag(LinearOperator):
    """The diagonal [batch] matrix of `diag` (shape `batch + [N]`)."""

    _component_attrs = {"diag": "_diag"}

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorDiag"):
        params = _params(diag=diag, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        self._diag = _operand(diag, "diag", 1)
        is_self_adjoint = _real_self_adjoint(self._diag, is_self_adjoint)
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(dtype=self._diag.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=params)

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        s = self._diag.shape
        return s.concatenate([s[-1]])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        d = _conj_if(self._diag, adjoint)
        return math_ops.multiply(expand_dims(d, -1), _adjoint_if(x, adjoint_arg))

    def _matvec(self, x, adjoint=False):
        return math_ops.multiply(_conj_if(self._diag, adjoint), x)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        d = _conj_if(self._diag, adjoint)
        return math_ops.truediv(_adjoint_if(rhs, adjoint_arg), expand_dims(d, -1))

    def _determinant(self):
        return reduce_prod(self._diag, axis=-1)

    def _log_abs_determinant(self):
        total = reduce_sum(math_ops.log(math_ops.abs(self._diag)), axis=-1)
        return math_ops.cast(total, self.dtype) if self.dtype.is_complex else total

    def _to_dense(self):
        return diag(self._diag)

    def _diag_part(self):
        return convert_to_tensor(self._diag)

    def _add_to_tensor(self, x):
        return set_diag(x, math_ops.add(self._diag, diag_part(x)))

    def _eigvals(self):
        return convert_to_tensor(self._diag)

    def _cond(self):
        a = math_ops.abs(self._diag)
        return math_ops.truediv(reduce_max(a, axis=-1), reduce_min(a, axis=-1))

    def _linop_adjoint(self):
        return LinearOperatorDiag(_conj_if(self._diag, True), is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorDiag(reciprocal(self._diag),
                                  is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorDiag(math_ops.sqrt(self._diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True,
                                  is_square=True)

    def _linop_matmul_with(self, right):
        if type(right) is LinearOperatorDiag:
            return LinearOperatorDiag(math_ops.multiply(self._diag, right.diag),
                                      is_non_singular=_both(self, right, "is_non_singular"),
                                      is_self_adjoint=_both(self, right, "is_self_adjoint"),
                                      is_positive_definite=_both(self, right,
                                                                 "is_positive_definite"),
                                      is_square=True)
        return None


def _both(left, right, hint):
    return True if getattr(left, hint) and getattr(right, hint) else None


def _num_rows(value, name):
    """A non-negative Python int from `num_rows` (an int or integer scalar tensor)."""
    if hasattr(value, "dtype") and not value.dtype.is_integer:
        raise TypeError(f"Argument {name} must be integer type.  Found: {value}")
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, float):
        raise TypeError(f"Argument {name} must be integer type.  Found: {value}")
    if getattr(value, "ndim", 0) != 0:
        raise ValueError(f"Argument {name} must be a 0-D Tensor.  Found: {value}")
    value = int(value)
    if value < 0:
        raise ValueError(f"Argument {name} must be non-negative.  Found: {value}")
    return value


def _batch_shape_arg(batch_shape):
    if batch_shape is None:
        return None
    values = [int(v) for v in (batch_shape.numpy() if hasattr(batch_shape, "numpy")
                               else batch_shape)]
    if any(v < 0 for v in values):
        raise ValueError(f"Argument batch_shape must be non-negative.  Found: {values}")
    return values


class _BaseIdentity(LinearOperator):
    """What the identity operators share: `num_rows`, an optional batch
    shape, and broadcasting a product's batch dimensions to it."""

    def _broadcast_batch(self, x):
        """`x` broadcast to this operator's batch shape (TF broadcasts a
        product of a batched identity)."""
        if not self._batch:
            return x
        batch = broadcast_static_shape(x.shape[:-2], TensorShape(self._batch))
        if batch == x.shape[:-2]:
            return x
        return broadcast_to(x, batch.concatenate(x.shape[-2:]))


@register_made("identity")
class LinearOperatorIdentity(_BaseIdentity):
    """The [batch] identity matrix of `num_rows` rows."""

    _is_identity = True

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name="LinearOperatorIdentity"):
        params = _params(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         assert_proper_shapes=assert_proper_shapes, name=name)
        for hint, what in ((is_self_adjoint, "self adjoint"), (is_non_singular, "non-singular"),
                           (is_positive_definite, "positive-definite"), (is_square, "square")):
            if not hint:
                raise ValueError(f"An identity operator is always {what}.")
        self._n = _num_rows(num_rows, "num_rows")
        self._batch = _batch_shape_arg(batch_shape)
        self._assert_proper_shapes = assert_proper_shapes
        super().__init__(dtype=dtype or dtypes.float32, is_non_singular=True,
                         is_self_adjoint=True, is_positive_definite=True, is_square=True,
                         name=name, parameters=params)

    def _shape(self):
        return TensorShape((self._batch or []) + [self._n, self._n])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._broadcast_batch(_adjoint_if(x, adjoint_arg))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return ones(self._batch or [], dtype=self.dtype)

    def _log_abs_determinant(self):
        return zeros(self._batch or [], dtype=self.dtype)

    def _trace(self):
        return math_ops.cast(math_ops.multiply(ones(self._batch or [], dtype=self.dtype),
                                               math_ops.cast(self._n, self.dtype)), self.dtype)

    def _diag_part(self):
        return ones((self._batch or []) + [self._n], dtype=self.dtype)

    def _eigvals(self):
        return self._diag_part()

    def _cond(self):
        return ones(self._batch or [], dtype=self.dtype)

    def _to_dense(self):
        return eye(self._n, batch_shape=self._batch, dtype=self.dtype)

    def _add_to_tensor(self, x):
        x = self._broadcast_batch(x)
        return set_diag(x, math_ops.add(diag_part(x), 1))

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _linop_cholesky(self):
        return self

    def _linop_matmul_with(self, right):
        return right                 # I @ B is B


@register_made("scaled_identity")
class LinearOperatorScaledIdentity(_BaseIdentity):
    """`multiplier` (shape `batch`) times the `num_rows` identity."""

    _component_attrs = {"multiplier": "_multiplier"}

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        params = _params(num_rows=num_rows, multiplier=multiplier,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         assert_proper_shapes=assert_proper_shapes, name=name)
        self._multiplier = _operand(multiplier, "multiplier", 0)
        is_self_adjoint = _real_self_adjoint(self._multiplier, is_self_adjoint)
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        self._n = _num_rows(num_rows, "num_rows")
        self._batch = self._multiplier.shape.as_list()
        self._assert_proper_shapes = assert_proper_shapes
        super().__init__(dtype=self._multiplier.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=params)

    @property
    def multiplier(self):
        return self._multiplier

    def _shape(self):
        return self._multiplier.shape.concatenate([self._n, self._n])

    def _scale(self, conjugate=False):
        m = _conj_if(self._multiplier, conjugate)
        return expand_dims(expand_dims(m, -1), -1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.multiply(self._scale(adjoint), _adjoint_if(x, adjoint_arg))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return math_ops.truediv(_adjoint_if(rhs, adjoint_arg), self._scale(adjoint))

    def _determinant(self):
        return math_ops.pow(self._multiplier, math_ops.cast(self._n, self.dtype))

    def _log_abs_determinant(self):
        n = math_ops.cast(self._n, self._multiplier.dtype.real_dtype)
        out = math_ops.multiply(n, math_ops.log(math_ops.abs(self._multiplier)))
        return math_ops.cast(out, self.dtype) if self.dtype.is_complex else out

    def _trace(self):
        return math_ops.multiply(self._multiplier, math_ops.cast(self._n, self.dtype))

    def _diag_part(self):
        return math_ops.multiply(expand_dims(self._multiplier, -1),
                                 ones([self._n], dtype=self.dtype))

    def _eigvals(self):
        return self._diag_part()

    def _cond(self):
        return ones(self._batch, dtype=self.dtype)

    def _to_dense(self):
        return math_ops.multiply(self._scale(), eye(self._n, dtype=self.dtype))

    def _add_to_tensor(self, x):
        x = self._broadcast_batch(x)
        return set_diag(x, math_ops.add(diag_part(x), expand_dims(self._multiplier, -1)))

    def _linop_adjoint(self):
        return LinearOperatorScaledIdentity(self._n, _conj_if(self._multiplier, True),
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)

    def _linop_inverse(self):
        return LinearOperatorScaledIdentity(self._n, reciprocal(self._multiplier),
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return LinearOperatorScaledIdentity(self._n, math_ops.sqrt(self._multiplier),
                                            is_non_singular=True, is_self_adjoint=True,
                                            is_positive_definite=True)

    def _linop_matmul_with(self, right):
        if type(right) is LinearOperatorScaledIdentity:
            return LinearOperatorScaledIdentity(
                self._n, math_ops.multiply(self._multiplier, right.multiplier),
                is_non_singular=_both(self, right, "is_non_singular"),
                is_self_adjoint=_both(self, right, "is_self_adjoint"),
                is_positive_definite=_both(self, right, "is_positive_definite"))
        return None


@register_made("lower_triangular")
class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of `tril` (entries above the diagonal are ignored)."""

    _component_attrs = {"tril": "_tril"}

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        params = _params(tril=tril, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril = _operand(tril, "tril", 2)
        super().__init__(dtype=self._tril.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=params)

    @property
    def tril(self):
        return self._tril

    def _lower(self):
        return band_part(self._tril, -1, 0)

    def _shape(self):
        return self._tril.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self._lower(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        lower, rhs = broadcast_batch(self._lower(), _adjoint_if(rhs, adjoint_arg))
        return triangular_solve(lower, rhs, lower=True, adjoint=adjoint)

    def _determinant(self):
        return reduce_prod(diag_part(self._tril), axis=-1)

    def _log_abs_determinant(self):
        total = reduce_sum(math_ops.log(math_ops.abs(diag_part(self._tril))), axis=-1)
        return math_ops.cast(total, self.dtype) if self.dtype.is_complex else total

    def _diag_part(self):
        return diag_part(self._tril)

    def _eigvals(self):
        return diag_part(self._tril)

    def _to_dense(self):
        return self._lower()


@register_made("zeros")
class LinearOperatorZeros(LinearOperator):
    """The [batch] `num_rows x num_columns` zero matrix."""

    _is_zeros = True

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
                 is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorZeros"):
        params = _params(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape,
                         dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         assert_proper_shapes=assert_proper_shapes, name=name)
        if not is_self_adjoint and is_square:
            raise ValueError("A zero operator is always self adjoint.")
        if is_non_singular:
            raise ValueError("A zero operator is always singular.")
        if is_positive_definite:
            raise ValueError("A zero operator is always not positive-definite.")
        self._rows = _num_rows(num_rows, "num_rows")
        self._cols = self._rows if num_columns is None else _num_rows(num_columns, "num_columns")
        if is_square and self._rows != self._cols:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got "
                             f"num_rows({self._rows}) != num_columns({self._cols})")
        self._batch = _batch_shape_arg(batch_shape)
        self._assert_proper_shapes = assert_proper_shapes
        super().__init__(dtype=dtype or dtypes.float32, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=params)

    def _shape(self):
        return TensorShape((self._batch or []) + [self._rows, self._cols])

    def _broadcast_batch(self, x):
        return _BaseIdentity._broadcast_batch(self, x)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        s = x.shape.as_list()
        cols = s[-2] if adjoint_arg else s[-1]
        rows = self._cols if adjoint else self._rows
        return self._broadcast_batch(zeros(s[:-2] + [rows, cols], dtype=x.dtype))

    def _determinant(self):
        return zeros(self._batch or [], dtype=self.dtype)

    def _trace(self):
        return zeros(self._batch or [], dtype=self.dtype)

    def _diag_part(self):
        return zeros((self._batch or []) + [min(self._rows, self._cols)], dtype=self.dtype)

    def _eigvals(self):
        return self._diag_part()

    def _to_dense(self):
        return zeros((self._batch or []) + [self._rows, self._cols], dtype=self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """`mat` broadcast to this operator's batch shape (adding zeros)."""
        return self._broadcast_batch(convert_to_tensor(mat))

    def _linop_matmul_with(self, right):
        if not self.is_square or not right.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                             "`LinearOperatorZeros` not supported at this time.")
        return self
