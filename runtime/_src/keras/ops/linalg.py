"""`keras.ops.linalg`: norms, inverses, decompositions and solves over the
runtime's `tf.linalg` ops; int inputs give float32."""

from runtime._src.keras.ops.operation import keras_op, to_float
from runtime._src.keras.ops.tfops import tf

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


__all__.sort()
