"""`keras.ops.linalg`: norms, inverses, decompositions and solves over the
runtime's `tf.linalg` ops; int inputs give float32."""

import numpy as np

from runtime._src.keras.ops.operation import cast_to, keras_op, tensor, to_float
from runtime._src.keras.ops.tfops import tf
from runtime._src.ops import linalg_more_ops, math_more_ops

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


@_export
@keras_op
def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (Keras's name)
    """`keras.ops.norm(x, ord=None, axis=None, keepdims=False)`: the 2-norm of
    the flattened x by default; vector orders on one axis, "fro" on two."""
    x = to_float(x)
    if axis is None:
        axis = list(range(len(x.shape)))
        if ord is None or len(axis) != 2:
            x, axis = tf.reshape(x, [-1]), 0
            if keepdims:
                raise ValueError("keepdims with axis=None needs a matrix")
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        if ord in (None, "fro"):
            return tf.sqrt(tf.reduce_sum(tf.square(x), axis=list(axis), keepdims=keepdims))
        if ord == 1:
            return tf.reduce_max(tf.reduce_sum(tf.abs(x), axis=axis[0], keepdims=True),
                                 axis=axis[1], keepdims=True) if keepdims else \
                tf.reduce_max(tf.reduce_sum(tf.abs(x), axis=axis[0]), axis=axis[1] - 1
                              if axis[1] > axis[0] else axis[1])
        raise ValueError(f"Unsupported matrix norm order {ord!r}")
    if isinstance(axis, (list, tuple)):
        axis = axis[0]
    if ord is None or ord == 2:
        return tf.sqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=keepdims))
    if ord == 1:
        return tf.reduce_sum(tf.abs(x), axis=axis, keepdims=keepdims)
    if ord == float("inf"):
        return tf.reduce_max(tf.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return tf.reduce_sum(tf.cast(tf.not_equal(x, 0.0), x.dtype), axis=axis,
                             keepdims=keepdims)
    return tf.pow(tf.reduce_sum(tf.pow(tf.abs(x), float(ord)), axis=axis, keepdims=keepdims),
                  1.0 / ord)


def _wrap(name, tf_fn):
    def fn(x):
        return tf_fn(to_float(x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x)`."
    return _export(keras_op(fn))


inv = _wrap("inv", tf.inv)
det = _wrap("det", tf.det)
cholesky = _wrap("cholesky", tf.cholesky)


@_export
@keras_op
def solve(a, b):
    """`keras.ops.solve(a, b)`: x with a @ x = b."""
    return tf.solve(to_float(a), to_float(b))



@_export
@keras_op
def qr(x, mode="reduced"):
    """`keras.ops.qr(x, mode="reduced")`: (q, r)."""
    return tuple(tf.qr(to_float(x), full_matrices=mode == "complete"))


@_export
@keras_op
def svd(x, full_matrices=True, compute_uv=True):
    """`keras.ops.svd(x, full_matrices=True, compute_uv=True)`: (u, s, vh)."""
    x = to_float(x)
    if not compute_uv:
        return tf.svd(x, compute_uv=False)
    s, u, v = tf.svd(x, full_matrices=full_matrices)
    return u, s, tf.transpose(v, _swap_last(len(v.shape)))


def _swap_last(rank):
    return list(range(rank - 2)) + [rank - 1, rank - 2]


@_export
@keras_op
def solve_triangular(a, b, lower=False):
    """`keras.ops.solve_triangular(a, b, lower=False)`."""
    a, b = to_float(a), to_float(b)
    vec = len(b.shape) == len(a.shape) - 1
    if vec:
        b = tf.expand_dims(b, -1)
    out = tf.triangular_solve(a, b, lower=lower)
    return tf.squeeze(out, [-1]) if vec else out


@_export
@keras_op
def lstsq(a, b, rcond=None):
    """`keras.ops.lstsq(a, b, rcond=None)`: the least-squares x of a @ x = b."""
    a, b = to_float(a), to_float(b)
    vec = len(b.shape) == 1
    if vec:
        b = tf.expand_dims(b, -1)
    out = tf.matmul(pinv(a), b)
    return tf.squeeze(out, [-1]) if vec else out


@_export
@keras_op
def pinv(x, rcond=1e-15):
    """`keras.ops.pinv(x)`: the pseudo-inverse by SVD."""
    x = to_float(x)
    s, u, v = tf.svd(x, full_matrices=False)
    cutoff = rcond * tf.reduce_max(s, axis=-1, keepdims=True)
    s_inv = tf.where(s > cutoff, 1.0 / tf.where(s > cutoff, s, tf.ones_like(s)),
                     tf.zeros_like(s))
    return tf.matmul(v * tf.expand_dims(s_inv, -2), u, transpose_b=True)


@_export
@keras_op
def matrix_rank(x, tol=None):
    """`keras.ops.matrix_rank(x)`: int32 count of singular values over tol."""
    x = to_float(x)
    s = tf.svd(x, compute_uv=False)
    if tol is None:
        m, n = x.shape.as_list()[-2:]
        tol = tf.reduce_max(s, axis=-1, keepdims=True) * float(max(m, n)) * \
            float(np.finfo(x.dtype.np_dtype).eps)
    return tf.reduce_sum(tf.cast(s > tol, "int32"), axis=-1)


@_export
@keras_op
def cholesky_inverse(x, upper=False):
    """`keras.ops.cholesky_inverse(x, upper=False)`: inv(L @ L^T) from its factor."""
    x = to_float(x)
    factor = tf.transpose(x, _swap_last(len(x.shape))) if upper else x
    rows, cols = factor.shape.as_list()[-2:]
    factor = factor * tf.cast(np.tri(rows, cols), factor.dtype)
    return tf.inv(tf.matmul(factor, factor, transpose_b=True))


__all__.sort()


@_export
@keras_op
def eigh(x):
    """`keras.ops.eigh(x)`: (eigenvalues ascending, eigenvectors) of a
    symmetric matrix, as `tf.linalg.eigh`."""
    return tf.eigh(to_float(x))


@_export
def jvp(fun, primals, tangents, has_aux=False):
    """`keras.ops.jvp(fun, primals, tangents, has_aux=False)`: `(fun(*primals),
    its derivative along tangents)` (and `aux` with `has_aux`), by forward
    accumulation (runtime/_src/autodiff/forward.py)."""
    from runtime._src.autodiff.forward import ForwardAccumulator
    from runtime._src.core import nest
    flat_primals = [tensor(p) for p in nest.flatten(primals)]
    flat_tangents = [cast_to(t, p.dtype.name) for t, p in zip(nest.flatten(tangents),
                                                             flat_primals)]
    args = nest.pack_sequence_as(primals, flat_primals)
    with ForwardAccumulator(flat_primals, flat_tangents) as acc:
        out = fun(*args)
        out, aux = out if has_aux else (out, None)
    tangents_out = acc.jvp(out, unconnected_gradients="zero")
    return (out, tangents_out, aux) if has_aux else (out, tangents_out)


def _square_matrices(x):
    """x as float, checked as Keras checks: rank >= 2, square."""
    x = to_float(x)
    shape = tuple(x.shape.as_list())
    if len(shape) < 2:
        raise ValueError(f"Expected input to have rank >= 2. Received input with shape {shape}.")
    if shape[-1] != shape[-2]:
        raise ValueError(f"Expected a square matrix. Received non-square input with shape "
                         f"{shape}")
    return x


@_export
@keras_op
def eig(x):
    """`keras.ops.eig(x)`: (eigenvalues, eigenvectors) of square matrices,
    complex (complex64 for float32), as `tf.linalg.eig`."""
    return tuple(linalg_more_ops.eig(_square_matrices(x)))


@_export
@keras_op
def lu_factor(x):
    """`keras.ops.lu_factor(x)`: (lu, pivots) of square matrices: L (unit diagonal,
    below) and U packed in one matrix, and the inverse of `tf.linalg.lu`'s int32
    row permutation, as Keras on TF returns it (batches too, where TF's
    invert_permutation takes only vectors)."""
    lu, perm = linalg_more_ops.lu(_square_matrices(x))
    if len(perm.shape) == 1:
        return lu, math_more_ops.invert_permutation(perm)
    return lu, tf.cast(tf.argsort(perm, axis=-1), perm.dtype)
