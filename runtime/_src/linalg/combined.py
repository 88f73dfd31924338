"""The LinearOperators made of other operators: `LinearOperatorKronecker`
(a Kronecker product), `LinearOperatorBlockDiag` (a direct sum),
`LinearOperatorBlockLowerTriangular` and `LinearOperatorLowRankUpdate`
(`L + U D V^H`, solved with Woodbury's identity and the determinant lemma).

    >>> import runtime as tf
    >>> a = tf.linalg.LinearOperatorDiag([1.0, 2.0])
    >>> float(tf.linalg.LinearOperatorBlockDiag([a, a]).determinant())
    4.0
"""

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.linalg.basic import (LinearOperatorDiag, LinearOperatorFullMatrix as _FULL,
                                       LinearOperatorIdentity)
from runtime._src.linalg.linear_operator import (LinearOperator, _check_same_dtype,
                                                 broadcast_batch, dense_solve, matrix_adjoint)
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import reshape, zeros
from runtime._src.ops.complex_ops import conj
from runtime._src.ops.linalg_ops import cholesky, det
from runtime._src.ops.linalg_solve_ops import cholesky_solve
from runtime._src.ops.manipulation_ops import concat, expand_dims
from runtime._src.ops.matrix_diag_ops import diag_part
from runtime._src.ops.reduction_ops import reduce_sum
from runtime._src.ops.shape_ops import broadcast_static_shape, broadcast_to, split

__all__ = ["LinearOperatorKronecker", "LinearOperatorBlockDiag",
           "LinearOperatorBlockLowerTriangular", "LinearOperatorLowRankUpdate"]


def _forced_hint(operators, hint, given, message):
    """True when every operator has `hint` True (a False `given` raises);
    else `given`."""
    if all(getattr(op, hint) for op in operators):
        if given is False:
            raise ValueError(message)
        return True
    return given


def _hints(operators, kind, is_non_singular, is_self_adjoint, is_positive_definite):
    out = {}
    for hint, given, what in (("is_non_singular", is_non_singular, "non-singular"),
                              ("is_self_adjoint", is_self_adjoint, "self-adjoint"),
                              ("is_positive_definite", is_positive_definite,
                               "positive definite")):
        out[hint] = _forced_hint(operators, hint, given,
                                 f"The {kind} of {what} operators is always {what}.")
    return out


def _batch_of(operators):
    batch = TensorShape([])
    for op in operators:
        batch = broadcast_static_shape(batch, op.batch_shape)
    return batch


def _check_operators(operators, who):
    operators = list(operators)
    if not operators:
        raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
    _check_same_dtype(operators, who)
    return operators


def _product(values):
    out = values[0]
    for v in values[1:]:
        out = math_ops.multiply(out, v)
    return out


def _total(values):
    out = values[0]
    for v in values[1:]:
        out = math_ops.add(out, v)
    return out


# --- Kronecker ------------------------------------------------------------------------------

def _kron_dense(a, b):
    """The Kronecker product of [batch] matrices a [.., m, n] and b [.., p, q]."""
    a, b = broadcast_batch(a, b)
    m, n = a.shape[-2:]
    p, q = b.shape[-2:]
    batch = a.shape[:-2].as_list()
    outer = math_ops.multiply(expand_dims(expand_dims(a, -1), -3),     # [.., m, 1, n, 1]
                              expand_dims(expand_dims(b, -2), -4))     # [.., 1, p, 1, q]
    return reshape(outer, batch + [m * p, n * q])


def _kron_vec(a, b):
    """The Kronecker product of [batch] vectors."""
    outer = math_ops.multiply(expand_dims(a, -1), expand_dims(b, -2))
    batch = broadcast_static_shape(a.shape[:-1], b.shape[:-1]).as_list()
    return reshape(outer, batch + [a.shape[-1] * b.shape[-1]])


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product `A1 x A2 x ... x An` of operators."""

    _component_attrs = {"operators": "_operators"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = _check_operators(operators, "LinearOperatorKronecker")
        params = dict(operators=operators, is_non_singular=is_non_singular,
                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                      is_square=is_square, name=name)
        hints = _hints(operators, "Kronecker product", is_non_singular, is_self_adjoint,
                       is_positive_definite)
        self._operators = operators
        super().__init__(dtype=operators[0].dtype, is_square=is_square,
                         name=name or "_x_".join(op.name for op in operators),
                         parameters=params, **hints)

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        rows = cols = 1
        for op in self._operators:
            rows, cols = rows * op.range_dimension, cols * op.domain_dimension
        return _batch_of(self._operators).concatenate([rows, cols])

    def _to_dense(self):
        out = self._operators[0].to_dense()
        for op in self._operators[1:]:
            out = _kron_dense(out, op.to_dense())
        return out

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        dense, x = broadcast_batch(self.to_dense(), x)
        return math_ops.matmul(dense, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.inverse().matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        n = self.domain_dimension
        return _product([math_ops.pow(op.determinant(),
                                      math_ops.cast(n // op.domain_dimension, op.dtype))
                         for op in self._operators])

    def _log_abs_determinant(self):
        n = self.domain_dimension
        return _total([math_ops.multiply(math_ops.cast(n // op.domain_dimension, op.dtype),
                                         op.log_abs_determinant()) for op in self._operators])

    def _diag_part(self):
        out = self._operators[0].diag_part()
        for op in self._operators[1:]:
            out = _kron_vec(out, op.diag_part())
        return out

    def _trace(self):
        return _product([op.trace() for op in self._operators])

    def _eigvals(self):
        out = self._operators[0].eigvals()
        for op in self._operators[1:]:
            out = _kron_vec(out, op.eigvals())
        return out

    def _similar(self, operators, **hints):
        return LinearOperatorKronecker(operators, is_square=True, **hints)

    def _linop_adjoint(self):
        return LinearOperatorKronecker([op.adjoint() for op in self._operators],
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=self.is_square)

    def _linop_inverse(self):
        return self._similar([op.inverse() for op in self._operators],
                             is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint,
                             is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return self._similar([op.cholesky() for op in self._operators], is_non_singular=True,
                             is_self_adjoint=None, is_positive_definite=None)


# --- block diagonal -------------------------------------------------------------------------

def _blocks(x, sizes, axis):
    """`x` split into pieces of `sizes` along `axis` (a list passes through)."""
    if isinstance(x, (list, tuple)):
        return list(x)
    return split(x, sizes, axis=axis)


class LinearOperatorBlockDiag(LinearOperator):
    """The block diagonal operator (direct sum) of square operators."""

    _component_attrs = {"operators": "_operators"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        operators = _check_operators(operators, "LinearOperatorBlockDiag")
        params = dict(operators=operators, is_non_singular=is_non_singular,
                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                      is_square=is_square, name=name)
        hints = _hints(operators, "direct sum", is_non_singular, is_self_adjoint,
                       is_positive_definite)
        if not is_square:
            raise ValueError("A block diagonal operator is always square.")
        self._operators = operators
        super().__init__(dtype=operators[0].dtype, is_square=True,
                         name=name or "_ds_".join(op.name for op in operators),
                         parameters=params, **hints)

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        rows = sum(op.range_dimension for op in self._operators)
        cols = sum(op.domain_dimension for op in self._operators)
        return _batch_of(self._operators).concatenate([rows, cols])

    def _sizes(self, adjoint):
        return [op.range_dimension if adjoint else op.domain_dimension
                for op in self._operators]

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """As LinearOperator.matmul; `x` may also be a list of blocks, giving one."""
        if isinstance(x, (list, tuple)):
            return [op.matmul(b, adjoint=adjoint, adjoint_arg=adjoint_arg)
                    for op, b in zip(self._operators, x)]
        return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg, name=name)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """As LinearOperator.solve; `rhs` may also be a list of blocks."""
        if isinstance(rhs, (list, tuple)):
            return [op.solve(b, adjoint=adjoint, adjoint_arg=adjoint_arg)
                    for op, b in zip(self._operators, rhs)]
        return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg, name=name)

    def _joined(self, parts, axis):
        batch = TensorShape([])
        for p in parts:
            batch = broadcast_static_shape(batch, p.shape[:axis] if axis == -2 else
                                           p.shape[:-1])
        tail = 2 if axis == -2 else 1
        return concat([broadcast_to(p, batch.concatenate(p.shape[-tail:])) for p in parts], axis)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = matrix_adjoint(x) if adjoint_arg else x
        parts = _blocks(x, self._sizes(adjoint), -2)
        return self._joined([op.matmul(b, adjoint=adjoint)
                             for op, b in zip(self._operators, parts)], -2)

    def _matvec(self, x, adjoint=False):
        parts = _blocks(x, self._sizes(adjoint), -1)
        return self._joined([op.matvec(b, adjoint=adjoint)
                             for op, b in zip(self._operators, parts)], -1)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = matrix_adjoint(rhs) if adjoint_arg else rhs
        parts = _blocks(rhs, self._sizes(not adjoint), -2)
        return self._joined([op.solve(b, adjoint=adjoint)
                             for op, b in zip(self._operators, parts)], -2)

    def _solvevec(self, rhs, adjoint=False):
        parts = _blocks(rhs, self._sizes(not adjoint), -1)
        return self._joined([op.solvevec(b, adjoint=adjoint)
                             for op, b in zip(self._operators, parts)], -1)

    def _to_dense(self):
        batch = self.batch_shape
        rows = []
        for i, op in enumerate(self._operators):
            row = []
            for j, other in enumerate(self._operators):
                if i == j:
                    block = op.to_dense()
                    row.append(broadcast_to(block, batch.concatenate(block.shape[-2:])))
                else:
                    row.append(zeros(batch.as_list() + [op.range_dimension,
                                                        other.domain_dimension],
                                     dtype=self.dtype))
            rows.append(concat(row, -1))
        return concat(rows, -2)

    def _determinant(self):
        return _product([op.determinant() for op in self._operators])

    def _log_abs_determinant(self):
        return _total([op.log_abs_determinant() for op in self._operators])

    def _diag_part(self):
        return self._joined([op.diag_part() for op in self._operators], -1)

    def _trace(self):
        return _total([op.trace() for op in self._operators])

    def _eigvals(self):
        return self._joined([op.eigvals() for op in self._operators], -1)

    def _similar(self, operators, **hints):
        return LinearOperatorBlockDiag(operators, is_square=True, **hints)

    def _linop_adjoint(self):
        return self._similar([op.adjoint() for op in self._operators],
                             is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint,
                             is_positive_definite=self.is_positive_definite)

    def _linop_inverse(self):
        return self._similar([op.inverse() for op in self._operators],
                             is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint,
                             is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return self._similar([op.cholesky() for op in self._operators], is_non_singular=True)

    def _linop_matmul_with(self, right):
        if (type(right) is LinearOperatorBlockDiag
                and len(right.operators) == len(self._operators)
                and all(a.domain_dimension == b.range_dimension
                        for a, b in zip(self._operators, right.operators))):
            return self._similar([a.matmul(b) for a, b in zip(self._operators,
                                                              right.operators)])
        return None


# --- block lower triangular -----------------------------------------------------------------

class LinearOperatorBlockLowerTriangular(LinearOperator):
    """The block lower triangular operator of `operators`, a list of rows:
    row i holds the i+1 blocks `L_i0 ... L_ii`, the diagonal ones square."""

    _component_attrs = {"operators": "_rows"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorBlockLowerTriangular"):
        rows = [list(row) for row in operators]
        params = dict(operators=rows, is_non_singular=is_non_singular,
                      is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                      is_square=is_square, name=name)
        if not rows:
            raise ValueError(f"Argument `operators` must be a list of >=1 operators. "
                             f"Received: {rows}.")
        for i, row in enumerate(rows):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain `{i + 1}` blocks. "
                                 f"Received: {len(row)} blocks.")
        flat = [op for row in rows for op in row]
        _check_same_dtype(flat, "LinearOperatorBlockLowerTriangular")
        self._rows = rows
        self._diagonal = [row[-1] for row in rows]
        is_non_singular = self._non_singular_hint(is_non_singular)
        self._check_dimensions()
        if is_square is False:
            raise ValueError("Argument `is_square` must be True or None. A block lower "
                             "triangular operator is always square.")
        super().__init__(dtype=flat[0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name, parameters=params)

    def _non_singular_hint(self, given):
        if all(op.is_non_singular for op in self._diagonal):
            if given is False:
                raise ValueError("A blockwise lower-triangular operator with non-singular "
                                 "operators on the main diagonal is always non-singular.")
            return True
        if any(op.is_non_singular is False for op in self._diagonal):
            if given is True:
                raise ValueError("A blockwise lower-triangular operator with a singular "
                                 "operator on the main diagonal is always singular.")
            return False
        return given

    def _check_dimensions(self):
        for i, row in enumerate(self._rows):
            for j, op in enumerate(row):
                if op.range_dimension != self._diagonal[i].range_dimension:
                    raise ValueError(f"Argument `operators[{i}][{j}]` must have the same "
                                     "`range_dimension` as the diagonal block in its row.")
                if op.domain_dimension != self._diagonal[j].domain_dimension:
                    raise ValueError(f"Argument `operators[{i}][{j}]` must have the same "
                                     "`domain_dimension` as the diagonal block in its column.")

    @property
    def operators(self):
        return self._rows

    def _shape(self):
        n = sum(op.domain_dimension for op in self._diagonal)
        return _batch_of([op for row in self._rows for op in row]).concatenate([n, n])

    def _sizes(self):
        return [op.domain_dimension for op in self._diagonal]

    def _joined(self, parts, axis):
        batch = TensorShape([])
        tail = 2 if axis == -2 else 1
        for p in parts:
            batch = broadcast_static_shape(batch, p.shape[:-tail])
        return concat([broadcast_to(p, batch.concatenate(p.shape[-tail:])) for p in parts], axis)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = matrix_adjoint(x) if adjoint_arg else x
        blocks = _blocks(x, self._sizes(), -2)
        n = len(self._rows)
        out = []
        for i in range(n):
            if adjoint:        # row i of L^H: blocks L_ji^H for j >= i
                terms = [self._rows[j][i].matmul(blocks[j], adjoint=True) for j in range(i, n)]
            else:
                terms = [self._rows[i][j].matmul(blocks[j]) for j in range(i + 1)]
            out.append(_total(terms))
        return self._joined(out, -2)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = matrix_adjoint(rhs) if adjoint_arg else rhs
        blocks = _blocks(rhs, self._sizes(), -2)
        n = len(self._rows)
        found = [None] * n
        order = range(n - 1, -1, -1) if adjoint else range(n)
        for i in order:         # forward (backward for L^H) substitution, block by block
            rest = blocks[i]
            others = range(i + 1, n) if adjoint else range(i)
            for j in others:
                op = self._rows[j][i] if adjoint else self._rows[i][j]
                rest = math_ops.subtract(rest, op.matmul(found[j], adjoint=adjoint))
            found[i] = self._diagonal[i].solve(rest, adjoint=adjoint)
        return self._joined(found, -2)

    def _to_dense(self):
        batch = self.batch_shape
        dense_rows = []
        for i, row in enumerate(self._rows):
            parts = []
            for j in range(len(self._rows)):
                if j <= i:
                    block = row[j].to_dense()
                    parts.append(broadcast_to(block, batch.concatenate(block.shape[-2:])))
                else:
                    parts.append(zeros(batch.as_list() + [self._diagonal[i].range_dimension,
                                                          self._diagonal[j].domain_dimension],
                                       dtype=self.dtype))
            dense_rows.append(concat(parts, -1))
        return concat(dense_rows, -2)

    def _linop_inverse(self):
        """Block lower triangular too: the diagonal blocks inverted, block
        (i, j) below them `-D_i^{-1} sum_k L_ik M_kj` (M the inverse's
        blocks, found row by row), dense."""
        found = []
        for i, row in enumerate(self._rows):
            inv_diag = self._diagonal[i].inverse()
            new_row = []
            for j in range(i):
                total = _total([math_ops.matmul(row[k].to_dense(), found[k][j].to_dense())
                                for k in range(j, i)])
                new_row.append(_FULL(math_ops.negative(inv_diag.matmul(total))))
            found.append(new_row + [inv_diag])
        return LinearOperatorBlockLowerTriangular(
            found, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _determinant(self):
        return _product([op.determinant() for op in self._diagonal])

    def _log_abs_determinant(self):
        return _total([op.log_abs_determinant() for op in self._diagonal])

    def _diag_part(self):
        return self._joined([op.diag_part() for op in self._diagonal], -1)

    def _trace(self):
        return _total([op.trace() for op in self._diagonal])

    def _eigvals(self):
        return self._joined([op.eigvals() for op in self._diagonal], -1)


# --- low-rank update ------------------------------------------------------------------------

class LinearOperatorLowRankUpdate(LinearOperator):
    """`A = L + U D V^H`: a base operator L (M x N), U (M x K), V (N x K)
    (V = U when None) and a diagonal D (K; the identity when None)."""

    _component_attrs = {"base_operator": "_base", "u": "_u", "diag_update": "_diag_update", "v": "_v_param"}

    def __init__(self, base_operator, u, diag_update=None, v=None,
                 is_diag_update_positive=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorLowRankUpdate"):
        params = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                      is_diag_update_positive=is_diag_update_positive,
                      is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                      is_positive_definite=is_positive_definite, is_square=is_square,
                      name=name)
        dtype = base_operator.dtype
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  "
                                 "However, user set 'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        self._use_cholesky = bool(base_operator.is_positive_definite
                                  and base_operator.is_self_adjoint
                                  and is_diag_update_positive and v is None)
        if base_operator.is_self_adjoint and v is None and not dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  "
                                 "Since UDU^H is self-adjoint, this must be a self-adjoint "
                                 "operator.")
            is_self_adjoint = True
        if self._use_cholesky:
            if False in (is_positive_definite, is_self_adjoint, is_non_singular):
                raise ValueError("Arguments imply this is self-adjoint positive-definite "
                                 "operator.")
            is_positive_definite = is_self_adjoint = True
        self._u = convert_to_tensor(u, dtype=dtype)
        self._v = self._u if v is None else convert_to_tensor(v, dtype=dtype)
        self._v_param = None if v is None else self._v
        self._diag_update = None if diag_update is None else convert_to_tensor(diag_update,
                                                                               dtype=dtype)
        self._base = base_operator
        self._is_diag_update_positive = is_diag_update_positive
        self._diag_op = (LinearOperatorDiag(self._diag_update,
                                            is_positive_definite=is_diag_update_positive)
                         if diag_update is not None else
                         LinearOperatorIdentity(self._u.shape[-1], dtype=dtype))
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=params)

    @property
    def u(self):
        return self._u

    @property
    def v(self):
        return self._v

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def diag_operator(self):
        return self._diag_op

    @property
    def base_operator(self):
        return self._base

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    def _shape(self):
        batch = broadcast_static_shape(self._base.batch_shape, self._diag_op.batch_shape)
        batch = broadcast_static_shape(batch, self._u.shape[:-2])
        batch = broadcast_static_shape(batch, self._v.shape[:-2])
        return batch.concatenate(self._base.shape[-2:])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        left, right = (self._v, self._u) if adjoint else (self._u, self._v)
        first = self._base.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        inner = math_ops.matmul(right, x, adjoint_a=True, adjoint_b=adjoint_arg)
        low = math_ops.matmul(left, self._diag_op.matmul(inner, adjoint=adjoint))
        return math_ops.add(first, low)

    def _capacitance(self, u, v):
        """`D^{-1} + V^H L^{-1} U`, the small K x K system of both identities."""
        inner = math_ops.matmul(v, self._base.solve(u), adjoint_a=True)
        return self._diag_op.inverse().add_to_tensor(inner)

    def _determinant(self):
        if self.is_positive_definite:
            return math_ops.exp(self.log_abs_determinant())
        cap = det(self._capacitance(self._u, self._v))
        return _product([cap, self._diag_op.determinant(), self._base.determinant()])

    def _log_abs_determinant(self):
        cap = self._capacitance(self._u, self._v)
        if self._use_cholesky:
            log_cap = math_ops.multiply(2.0, reduce_sum(math_ops.log(diag_part(cholesky(cap))),
                                                        axis=-1))
        else:
            log_cap = math_ops.log(math_ops.abs(det(cap)))
            if self.dtype.is_complex:
                log_cap = math_ops.cast(log_cap, self.dtype)
        return _total([log_cap, self._diag_op.log_abs_determinant(),
                       self._base.log_abs_determinant()])

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self._base.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a "
                             "non-singular LinearOperator.")
        # A^H = L^H + V D^H U^H: the same capacitance C, solved as C^H
        outer, inner = (self._v, self._u) if adjoint else (self._u, self._v)
        cap = self._capacitance(self._u, self._v)
        base_rhs = self._base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        small = math_ops.matmul(inner, base_rhs, adjoint_a=True)
        if self._use_cholesky:
            cap, small = broadcast_batch(cap, small)
            small = cholesky_solve(cholesky(cap), small)
        else:
            small = dense_solve(cap, small, adjoint=adjoint)
        correction = self._base.solve(math_ops.matmul(outer, small), adjoint=adjoint)
        return math_ops.subtract(base_rhs, correction)

    def _diag_part(self):
        product = math_ops.multiply(self._u, conj(self._v) if self.dtype.is_complex
                                    else self._v)
        if self._diag_update is not None:
            product = math_ops.multiply(product, expand_dims(self._diag_update, -2))
        return math_ops.add(reduce_sum(product, axis=-1), self._base.diag_part())
