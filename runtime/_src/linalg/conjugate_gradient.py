"""`tf.linalg.experimental.conjugate_gradient`: solve A x = rhs for a
self-adjoint positive definite LinearOperator A, matrix-free.

    A = tf.linalg.LinearOperatorFullMatrix(m, is_self_adjoint=True,
                                           is_positive_definite=True)
    state = tf.linalg.experimental.conjugate_gradient(A, rhs)
    state.x        # the solution; state.i the iterations run

The iteration (a `while_loop`, so it also runs inside `tf.function`) stops
after `max_iter` steps or once every residual's norm is within `tol` times
its rhs's norm. It returns TF's `CGState(i, x, r, p, gamma)`.
"""

import collections

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.function.control_flow import while_loop
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import shape as shape_of, zeros
from runtime._src.ops.comparison_ops import logical_and
from runtime._src.ops.manipulation_ops import concat
from runtime._src.ops.reduction_ops import norm, reduce_any, reduce_sum
from runtime._src.ops.shape_ops import broadcast_dynamic_shape, broadcast_to

__all__ = ["conjugate_gradient"]

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x, y):
    """The batched inner product conj(x) . y over the last axis."""
    if x.dtype.is_complex:
        x = math_ops.conj(x)
    return reduce_sum(x * y, axis=-1)


def _batch_shape(rhs, *operators):
    shape = shape_of(rhs)[:-1]
    for op in operators:
        if op is not None:
            shape = broadcast_dynamic_shape(shape, op.batch_shape_tensor())
    return concat([shape, shape_of(rhs)[-1:]], 0)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """TF's CGState(i, x, r, p, gamma) after solving operator @ x = rhs (see the module)."""
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    rhs = convert_to_tensor(rhs)
    r0 = broadcast_to(rhs, _batch_shape(rhs, operator, preconditioner))
    tol = tol * norm(r0, axis=-1)
    if x is None:
        x = zeros(shape_of(r0), rhs.dtype)
    else:
        x = convert_to_tensor(x, rhs.dtype)
        r0 = rhs - operator.matvec(x)
    p0 = r0 if preconditioner is None else preconditioner.matvec(r0)
    start = CGState(convert_to_tensor(0, dtypes.int32), x, r0, p0, _dot(r0, p0))

    def keep_going(state):
        return logical_and(state.i < max_iter, reduce_any(norm(state.r, axis=-1) > tol))

    def step(state):
        z = operator.matvec(state.p)
        alpha = (state.gamma / _dot(state.p, z))[..., None]
        x = state.x + alpha * state.p
        r = state.r - alpha * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = _dot(r, q)
        p = q + (gamma / state.gamma)[..., None] * state.p
        return (CGState(state.i + 1, x, r, p, gamma),)

    (state,) = while_loop(lambda s: keep_going(s), step, (start,))
    return state
