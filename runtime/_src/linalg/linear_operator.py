"""`tf.linalg.LinearOperator`: the base class of the operator family, and the
three operators its methods return by default: `LinearOperatorAdjoint`
(`adjoint()`), `LinearOperatorInversion` (`inverse()`) and
`LinearOperatorComposition` (`matmul` of two operators).

A subclass defines `_shape()` (a TensorShape: batch dims, then rows and
columns) and `_matmul(x, adjoint, adjoint_arg)`; every other method has a
dense default (`to_dense` multiplies an identity, `solve` solves the dense
matrix, `determinant` takes its determinant) that subclasses replace with
what their structure allows. The hints (`is_non_singular`,
`is_self_adjoint`, `is_positive_definite`, `is_square`) are checked as TF
checks them: a positive definite operator is non-singular, a non-singular
or self-adjoint one square.

    >>> import runtime as tf
    >>> op = tf.linalg.LinearOperatorDiag([1.0, 2.0])
    >>> op.matvec([3.0, 4.0]).numpy()
    array([3., 8.], dtype=float32)
    >>> op.inverse().to_dense().numpy()
    array([[1. , 0. ],
           [0. , 0.5]], dtype=float32)

Methods returning operators dispatch on the operator's class as TF's
registries do: a class may define `_linop_adjoint`, `_linop_inverse`,
`_linop_cholesky` and `_linop_matmul_with(other)` to return a structured
result (the inverse of a diagonal is a diagonal).
"""

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.module import Module
from runtime._src.function.variables import Variable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import eye
from runtime._src.ops.check_ops import assert_equal, assert_positive
from runtime._src.ops.complex_ops import conj, real
from runtime._src.ops.linalg_ops import cholesky, det, eigvalsh, slogdet, svd
from runtime._src.ops.linalg_solve_ops import cholesky_solve, solve
from runtime._src.ops.manipulation_ops import expand_dims, squeeze
from runtime._src.ops.matrix_diag_ops import adjoint as matrix_adjoint, diag_part
from runtime._src.ops.reduction_ops import reduce_max, reduce_min, reduce_sum
from runtime._src.ops.shape_ops import broadcast_static_shape, broadcast_to

__all__ = ["LinearOperator", "LinearOperatorAdjoint", "LinearOperatorInversion",
           "LinearOperatorComposition", "as_operand", "broadcast_batch", "dense_solve",
           "matrix_adjoint"]


# --- helpers the operator modules share ---------------------------------------------------

def as_operand(value, dtype=None, name="value"):
    """A tensor of `value` (a Variable is kept, so operators read its current
    value), with `dtype` when given (TF's convert_nonref_to_tensor)."""
    if isinstance(value, Variable):
        if dtype is not None and value.dtype != dtypes.as_dtype(dtype):
            raise TypeError(f"{name}: expected a {dtypes.as_dtype(dtype).name} variable, got "
                            f"{value.dtype.name}")
        return value
    return convert_to_tensor(value, dtype=dtype)


def broadcast_batch(*matrices):
    """The matrices with their batch dimensions broadcast against each other."""
    batch = TensorShape([])
    for m in matrices:
        batch = broadcast_static_shape(batch, m.shape[:-2])
    return [m if m.shape[:-2] == batch else
            broadcast_to(m, batch.concatenate(m.shape[-2:])) for m in matrices]


def dense_solve(matrix, rhs, adjoint=False):
    """`matrix^{-1} rhs` (or `matrix^{-H} rhs`), batch dimensions broadcast."""
    matrix, rhs = broadcast_batch(convert_to_tensor(matrix), convert_to_tensor(rhs))
    return solve(matrix, rhs, adjoint=adjoint)


def reciprocal(x):
    """`1 / x`, complex too."""
    x = convert_to_tensor(x)
    return math_ops.truediv(math_ops.cast(1.0, x.dtype), x)


def _adjoint_if(x, flag):
    return matrix_adjoint(x) if flag else x


def _hint_and(*hints):
    """True when every hint is True, None otherwise (TF's combined hints)."""
    return True if all(h is True for h in hints) else None


# --- the base class -------------------------------------------------------------------------

class LinearOperator(Module):
    """A [batch of] linear operator(s) `A` acting as `M x N` matrices."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        super().__init__(name=name or type(self).__name__)
        self._square_hint = is_square
        self._graph_parents = list(graph_parents or [])
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = dict(parameters or {})

    # --- properties -------------------------------------------------------------------------

    @property
    def parameters(self):
        """The arguments the operator was made with."""
        return dict(self._parameters)

    @property
    def dtype(self):
        return self._dtype

    @property
    def graph_parents(self):
        return list(self._graph_parents)

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """The is_square hint, else whether the rows equal the columns."""
        square = self.domain_dimension == self.range_dimension
        if self._square_hint is False and square:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        return square if self._square_hint is None else self._square_hint

    @property
    def shape(self):
        """TensorShape `batch_shape + [range_dimension, domain_dimension]`."""
        return self._shape()

    def _shape(self):
        raise NotImplementedError(f"{type(self).__name__} must define _shape")

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def domain_dimension(self):
        """The number of columns (an int; None when unknown)."""
        return self.shape[-1] if self.shape.rank is not None else None

    @property
    def range_dimension(self):
        """The number of rows (an int; None when unknown)."""
        return self.shape[-2] if self.shape.rank is not None else None

    def shape_tensor(self, name="shape_tensor"):
        return convert_to_tensor(self.shape.as_list(), dtype=dtypes.int32)

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return convert_to_tensor(self.batch_shape.as_list(), dtype=dtypes.int32)

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return convert_to_tensor(self.tensor_rank, dtype=dtypes.int32)

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return convert_to_tensor(self.domain_dimension, dtype=dtypes.int32)

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return convert_to_tensor(self.range_dimension, dtype=dtypes.int32)

    # --- assertions ---------------------------------------------------------------------------

    def assert_non_singular(self, name="assert_non_singular"):
        """An op raising InvalidArgumentError when some determinant is 0 (TF
        checks the condition number against 1/eps in its default)."""
        return assert_positive(math_ops.abs(self._assert_det()),
                               message="Singular matrix up to precision epsilon.")

    def _assert_det(self):
        return self.determinant()

    def assert_positive_definite(self, name="assert_positive_definite"):
        """An op raising when the Hermitian part is not positive definite."""
        dense = self.to_dense()
        herm = math_ops.multiply(math_ops.add(dense, matrix_adjoint(dense)), 0.5)
        return assert_positive(real(diag_part(cholesky(herm))),
                               message="Matrix was not positive definite.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        dense = self.to_dense()
        return assert_equal(dense, matrix_adjoint(dense),
                            message="Matrix was not equal to its adjoint.")

    # --- products and solves ------------------------------------------------------------------

    def _check_input_dtype(self, arg):
        if arg.dtype != self.dtype:
            raise TypeError(f"Expected argument to have dtype {self.dtype.name}.  Found: "
                            f"{arg.dtype.name} in tensor {arg!r}")

    def _check_dim(self, own, given, what):
        if own is not None and given is not None and own != given:
            raise ValueError(f"{type(self).__name__}.{what}: dimension {own} of the operator "
                             f"does not match dimension {given} of the argument")

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """`A x` (`A^H x` with adjoint, `A x^H` with adjoint_arg); a
        LinearOperator `x` gives an operator."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            if (right.range_dimension is not None and left.domain_dimension is not None
                    and right.range_dimension != left.domain_dimension):
                raise ValueError("Operators are incompatible. Expected `x` to have dimension "
                                 f"{left.domain_dimension} but got {right.range_dimension}.")
            return left._linop_matmul(right)
        x = convert_to_tensor(x)
        self._check_input_dtype(x)
        self._check_dim(self.shape[-2 if adjoint else -1], x.shape[-1 if adjoint_arg else -2],
                        "matmul")
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        raise NotImplementedError(f"{type(self).__name__} must define _matmul")

    def _linop_matmul(self, right):
        """`self @ right` as an operator: an identity factor drops out, a
        zeros factor wins, a class's `_linop_matmul_with` may structure it,
        else a LinearOperatorComposition."""
        if getattr(right, "_is_identity", False):
            return self
        if getattr(right, "_is_zeros", False):
            if not right.is_square or not self.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                                 "`LinearOperatorZeros` not supported at this time.")
            return right
        special = self._linop_matmul_with(right)
        if special is not None:
            return special
        square = _square_pair(self, right)
        singular = _hint_and(self.is_non_singular, right.is_non_singular) if square else None
        no = False if square is False else None
        return LinearOperatorComposition([self, right], is_non_singular=no if no is False
                                         else singular, is_self_adjoint=no,
                                         is_positive_definite=no, is_square=square)

    def _linop_matmul_with(self, right):
        return None

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        """`A x` for a [batch] vector `x`."""
        x = convert_to_tensor(x)
        self._check_input_dtype(x)
        self._check_dim(self.shape[-2 if adjoint else -1], x.shape[-1], "matvec")
        return self._matvec(x, adjoint=adjoint)

    def _matvec(self, x, adjoint=False):
        return squeeze(self.matmul(expand_dims(x, -1), adjoint=adjoint), -1)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """`X` with `A X = rhs` (`A^H X = rhs` with adjoint; `rhs^H` with adjoint_arg)."""
        self._check_solvable("solve")
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            return left.inverse().matmul(right)
        rhs = convert_to_tensor(rhs)
        self._check_input_dtype(rhs)
        self._check_dim(self.shape[-1 if adjoint else -2], rhs.shape[-1 if adjoint_arg else -2],
                        "solve")
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _check_solvable(self, what):
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to not be square.")

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint_if(rhs, adjoint_arg)
        if self._can_use_cholesky():
            dense, rhs = broadcast_batch(self.to_dense(), rhs)
            return cholesky_solve(cholesky(dense), rhs)
        return dense_solve(self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        """`x` with `A x = rhs` for a [batch] vector `rhs`."""
        self._check_solvable("solvevec")
        rhs = convert_to_tensor(rhs)
        self._check_input_dtype(rhs)
        self._check_dim(self.shape[-1 if adjoint else -2], rhs.shape[-1], "solvevec")
        return self._solvevec(rhs, adjoint=adjoint)

    def _solvevec(self, rhs, adjoint=False):
        return squeeze(self.solve(expand_dims(rhs, -1), adjoint=adjoint), -1)

    # --- determinants -------------------------------------------------------------------------

    def _check_square(self):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")

    def determinant(self, name="det"):
        """The determinant of each batch member."""
        self._check_square()
        return self._determinant()

    def _determinant(self):
        if self._can_use_cholesky():
            return math_ops.exp(self.log_abs_determinant())
        return det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        """`log|det A|` of each batch member."""
        self._check_square()
        return self._log_abs_determinant()

    def _log_abs_determinant(self):
        if self._can_use_cholesky():
            d = diag_part(cholesky(self.to_dense()))
            return math_ops.multiply(2.0, reduce_sum(math_ops.log(d), axis=-1))
        return slogdet(self.to_dense())[1]

    def _can_use_cholesky(self):
        return bool(self.is_self_adjoint and self.is_positive_definite)

    # --- derived operators --------------------------------------------------------------------

    def adjoint(self, name="adjoint"):
        """The adjoint `A^H` as an operator (self when self-adjoint)."""
        if self.is_self_adjoint is True:
            return self
        return self._linop_adjoint()

    H = property(adjoint, None)

    def _linop_adjoint(self):
        return LinearOperatorAdjoint(self, is_non_singular=self.is_non_singular,
                                     is_self_adjoint=self.is_self_adjoint,
                                     is_positive_definite=self.is_positive_definite,
                                     is_square=self.is_square)

    def inverse(self, name="inverse"):
        """The inverse `A^{-1}` as an operator."""
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square "
                             "matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular "
                             "matrix.")
        return self._linop_inverse()

    def _linop_inverse(self):
        return LinearOperatorInversion(self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=self.is_square)

    def cholesky(self, name="cholesky"):
        """The lower triangular `L` with `A = L L^H`, as an operator."""
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite "
                             "self adjoint matrix.")
        return self._linop_cholesky()

    def _linop_cholesky(self):
        return _MADE["lower_triangular"](cholesky(self.to_dense()), is_non_singular=True,
                                         is_self_adjoint=False, is_square=True)

    # --- dense views --------------------------------------------------------------------------

    def to_dense(self, name="to_dense"):
        """The dense [batch] matrix."""
        return self._to_dense()

    def _to_dense(self):
        n = self.domain_dimension
        return self.matmul(eye(n, batch_shape=self.batch_shape.as_list(), dtype=self.dtype))

    def diag_part(self, name="diag_part"):
        """The [batch] main diagonal."""
        return self._diag_part()

    def _diag_part(self):
        return diag_part(self.to_dense())

    def trace(self, name="trace"):
        """The sum of the main diagonal."""
        return self._trace()

    def _trace(self):
        return reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor"):
        """`A + x` as a dense tensor."""
        x = convert_to_tensor(x)
        self._check_input_dtype(x)
        return self._add_to_tensor(x)

    def _add_to_tensor(self, x):
        return math_ops.add(self.to_dense(), x)

    def eigvals(self, name="eigvals"):
        """The eigenvalues (self-adjoint operators only)."""
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def _eigvals(self):
        return eigvalsh(self.to_dense())

    def cond(self, name="cond"):
        """The condition number: largest over smallest singular value."""
        return self._cond()

    def _cond(self):
        if not self.is_self_adjoint:
            values = svd(self.to_dense(), compute_uv=False)
        else:
            values = math_ops.abs(self._eigvals())
        return math_ops.truediv(reduce_max(values, axis=-1), reduce_min(values, axis=-1))

    # --- a composite value: tf.function traces once per spec ---------------------------

    # parameter name -> the attribute holding its tensor(s) or operator(s)
    _component_attrs = {}

    @property
    def _type_spec(self):
        return LinearOperatorSpec(type(self), tuple(
            (key, _field_spec(getattr(self, self._component_attrs[key]))
             if key in self._component_attrs else ("py", _static_param(value)))
            for key, value in sorted(self._parameters.items())))

    def __repr__(self):
        return (f"<tf.linalg.{type(self).__name__} '{self.name}' shape={self.shape} "
                f"dtype={self.dtype.name if self.dtype else None}>")


def _field_spec(value):
    """A parameter's spec: ("op", spec) of an operator, ("seq", specs) of a
    list, ("t", TensorSpec) of a tensor, ("py", None) of None."""
    if value is None:
        return ("py", None)
    if isinstance(value, LinearOperator):
        return ("op", value._type_spec)
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_field_spec(v) for v in value))
    return ("t", TensorSpec(value.shape, value.dtype))


def _static_param(value):
    """A static parameter, hashable (lists as tuples; a dtype as itself)."""
    if isinstance(value, (list, tuple)):
        return tuple(_static_param(v) for v in value)
    if hasattr(value, "numpy"):
        return _static_param(value.numpy().tolist())
    return value


def _field_parts(field, value):
    """The component tensors of one parameter's value, in the spec's order."""
    kind, spec = field
    if kind == "t":
        return [convert_to_tensor(value)]
    if kind == "op":
        return spec._to_components(value)
    if kind == "seq":
        return [t for f, v in zip(spec, value) for t in _field_parts(f, v)]
    return []


def _field_value(field, parts):
    """One parameter's value rebuilt from the `parts` iterator."""
    kind, spec = field
    if kind == "t":
        return next(parts)
    if kind == "op":
        return spec._from_components([next(parts) for _ in spec._component_specs])
    if kind == "seq":
        return [_field_value(f, parts) for f in spec]
    return spec


def _field_component_specs(field):
    kind, spec = field
    if kind == "t":
        return [spec]
    if kind == "op":
        return list(spec._component_specs)
    if kind == "seq":
        return [s for f in spec for s in _field_component_specs(f)]
    return []


class LinearOperatorSpec(CompositeSpec):
    """The spec of a LinearOperator: its class, and for each parameter a
    TensorSpec, a nested operator's spec, or the static value."""

    __slots__ = ("_cls", "_fields")

    def __init__(self, cls, fields):
        self._cls = cls
        self._fields = tuple(fields)

    @property
    def value_type(self):
        return self._cls

    @property
    def _component_specs(self):
        return [s for _, field in self._fields for s in _field_component_specs(field)]

    def _to_components(self, value):
        attrs = value._component_attrs
        return [t for key, field in self._fields if key in attrs
                for t in _field_parts(field, getattr(value, attrs[key]))]

    def _from_components(self, components):
        parts = iter(components)
        params = {key: _field_value(field, parts) for key, field in self._fields}
        return self._cls(**params)

    def _serialize(self):
        return (self._cls, self._fields)

    def __repr__(self):
        return f"LinearOperatorSpec({self._cls.__name__})"


def _square_pair(left, right):
    """TF's is_square hint of a product: known from the outer dimensions."""
    if left.range_dimension is not None and right.domain_dimension is not None:
        return left.range_dimension == right.domain_dimension
    return None


# Operators defined in the sibling modules that the base class's methods make
# (the Cholesky factor is a LinearOperatorLowerTriangular); basic.py registers them.
_MADE = {}


def register_made(kind):
    def register(cls):
        _MADE[kind] = cls
        return cls
    return register


# --- operators of operators that the base class returns --------------------------------------

class LinearOperatorAdjoint(LinearOperator):
    """`A^H` of a LinearOperator `A`, computed with `A`'s own methods."""

    _component_attrs = {"operator": "_operator"}

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        params = dict(operator=operator, is_non_singular=is_non_singular,
                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                      is_square=is_square, name=name)
        hints = _inherited_hints(operator, "adjoint", is_non_singular=is_non_singular,
                                 is_self_adjoint=is_self_adjoint,
                                 is_positive_definite=is_positive_definite, is_square=is_square)
        self._operator = operator
        super().__init__(dtype=operator.dtype, name=name or operator.name + "_adjoint",
                         parameters=params, **hints)

    @property
    def operator(self):
        return self._operator

    def _shape(self):
        s = self._operator.shape
        return s[:-2].concatenate([s[-1], s[-2]])

    def _linop_adjoint(self):
        return self._operator

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self._operator.matvec(x, adjoint=not adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self._operator.solvevec(rhs, adjoint=not adjoint)

    def _determinant(self):
        d = self._operator.determinant()
        return conj(d) if self.dtype.is_complex else d

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _to_dense(self):
        return matrix_adjoint(self._operator.to_dense())

    def _diag_part(self):
        d = self._operator.diag_part()
        return conj(d) if self.dtype.is_complex else d

    def _trace(self):
        t = self._operator.trace()
        return conj(t) if self.dtype.is_complex else t

    def _eigvals(self):
        e = self._operator.eigvals()
        return conj(e) if self.dtype.is_complex else e

    def _cond(self):
        return self._operator.cond()


class LinearOperatorInversion(LinearOperator):
    """`A^{-1}` of a square, non-singular LinearOperator `A`: its matmul is
    `A`'s solve and its solve `A`'s matmul."""

    _component_attrs = {"operator": "_operator"}

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        params = dict(operator=operator, is_non_singular=is_non_singular,
                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                      is_square=is_square, name=name)
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"operator and supplied hints must have is_non_singular equal "
                             f"to True or None. Found {operator.is_non_singular}, "
                             f"{is_non_singular}")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"operator and supplied hints must have is_square equal to True "
                             f"or None. Found {operator.is_square}, {is_square}")
        hints = _inherited_hints(operator, "inverse", is_non_singular=is_non_singular,
                                 is_self_adjoint=is_self_adjoint,
                                 is_positive_definite=is_positive_definite, is_square=is_square)
        self._operator = operator
        super().__init__(dtype=operator.dtype, name=name or operator.name + "_inv",
                         parameters=params, **hints)

    @property
    def operator(self):
        return self._operator

    def _shape(self):
        return self._operator.shape

    def _linop_inverse(self):
        return self._operator

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self._operator.solvevec(x, adjoint=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self._operator.matvec(rhs, adjoint=adjoint)

    def _determinant(self):
        return reciprocal(self._operator.determinant())

    def _log_abs_determinant(self):
        return math_ops.negative(self._operator.log_abs_determinant())


def _inherited_hints(operator, kind, **given):
    """The hints of a wrapper of `operator` (its adjoint or inverse keeps
    each hint): a given hint contradicting the operator's raises."""
    out = {}
    for key, value in given.items():
        own = getattr(operator, key)
        if own is not None and value is not None and own != value:
            what = key[3:].replace("_", "-")
            raise ValueError(f"An operator is {what} if and only if its {kind} is {what}.")
        out[key] = own if own is not None else value
    return out


class LinearOperatorComposition(LinearOperator):
    """The product `A1 A2 ... An` of operators, applied right to left."""

    _component_attrs = {"operators": "_operators"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = list(operators)
        params = dict(operators=operators, is_non_singular=is_non_singular,
                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                      is_square=is_square, name=name)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        _check_same_dtype(operators, "LinearOperatorComposition")
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always "
                                 "non-singular.")
            is_non_singular = True
        for left, right in zip(operators, operators[1:]):
            if (left.domain_dimension is not None and right.range_dimension is not None
                    and left.domain_dimension != right.range_dimension):
                raise ValueError(f"LinearOperatorComposition: operator {left.name} has "
                                 f"{left.domain_dimension} columns but the next, {right.name}, "
                                 f"has {right.range_dimension} rows")
        self._operators = operators
        super().__init__(dtype=operators[0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_o_".join(op.name for op in operators),
                         parameters=params)

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        batch = TensorShape([])
        for op in self._operators:
            batch = broadcast_static_shape(batch, op.batch_shape)
        return batch.concatenate([self._operators[0].range_dimension,
                                  self._operators[-1].domain_dimension])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        ops = self._operators if adjoint else self._operators[::-1]
        result = ops[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            result = op.matmul(result, adjoint=adjoint)
        return result

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        ops = self._operators[::-1] if adjoint else self._operators
        result = ops[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            result = op.solve(result, adjoint=adjoint)
        return result

    def _determinant(self):
        result = self._operators[0].determinant()
        for op in self._operators[1:]:
            result = math_ops.multiply(result, op.determinant())
        return result

    def _log_abs_determinant(self):
        result = self._operators[0].log_abs_determinant()
        for op in self._operators[1:]:
            result = math_ops.add(result, op.log_abs_determinant())
        return result


def _check_same_dtype(operators, who):
    dts = {op.dtype for op in operators}
    if len(dts) > 1:
        raise TypeError(f"{who}: expected all operators to have the same dtype, found "
                        f"{sorted(d.name for d in dts)}")

