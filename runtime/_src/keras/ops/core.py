"""`keras.ops` core: conversion, casting, slicing, scatter and control
flow (`cond`, `while_loop`, `fori_loop`, `scan`, `vectorized_map`) over the
runtime's ops, so they run eagerly and inside `tf.function`."""

import numpy as np

from runtime._src.keras.ops.operation import cast_to, keras_op, standardize_dtype, tensor
from runtime._src.keras.ops.tfops import tf

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


@_export
def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """`keras.ops.convert_to_tensor(x, dtype=None)`: Python floats float32, ints int32."""
    return tensor(x, standardize_dtype(dtype) if dtype is not None else None)


@_export
def convert_to_numpy(x):
    """`keras.ops.convert_to_numpy(x)`: a NumPy array."""
    return np.asarray(tensor(x).numpy())


@_export
@keras_op
def cast(x, dtype):
    """`keras.ops.cast(x, dtype)`."""
    return cast_to(tensor(x), standardize_dtype(dtype))


@_export
def dtype(x):
    """`keras.ops.dtype(x)`: the dtype's name ("float32")."""
    return standardize_dtype(x.dtype if hasattr(x, "dtype") else tensor(x).dtype)


@_export
def is_tensor(x):
    """`keras.ops.is_tensor(x)`: whether x is a backend tensor."""
    from runtime._src.core.tensor import Tensor
    return isinstance(x, Tensor)


@_export
@keras_op
def stop_gradient(variable):
    """`keras.ops.stop_gradient(variable)`."""
    return tf.stop_gradient(tensor(variable))


@_export
def cond(pred, true_fn, false_fn):
    """`keras.ops.cond(pred, true_fn, false_fn)`."""
    return tf.cond(pred, true_fn, false_fn)


@_export
def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """`keras.ops.while_loop(cond, body, loop_vars)`: a single loop var need not
    be a tuple; the result matches loop_vars' structure."""
    single = not isinstance(loop_vars, (list, tuple))
    vars_ = (loop_vars,) if single else tuple(loop_vars)

    def body_fn(*args):
        out = body(*args)
        return (out,) if single else tuple(out)
    out = tf.while_loop(cond, body_fn, vars_, maximum_iterations=maximum_iterations)
    return out[0] if single else tuple(out) if isinstance(loop_vars, tuple) else list(out)


@_export
def fori_loop(lower, upper, body_fun, init_val):
    """`keras.ops.fori_loop(lower, upper, body_fun, init_val)`."""
    def body(i, val):
        return i + 1, body_fun(i, val)
    return tf.while_loop(lambda i, _: i < upper, body, (lower, init_val))[1]


@_export
def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """`keras.ops.scan(f, init, xs)`: f(carry, x) -> (carry, y); returns
    (final carry, stacked ys), as JAX's."""
    xs_t = tensor(xs) if xs is not None else tf.zeros([length])
    n = xs_t.shape.as_list()[0]
    order = range(n - 1, -1, -1) if reverse else range(n)
    carry, ys = init, []
    for i in order:
        carry, y = f(carry, xs_t[i] if xs is not None else None)
        ys.append(y)
    if reverse:
        ys = ys[::-1]
    return carry, tf.stack([tensor(y) for y in ys]) if ys else xs_t


@_export
def vectorized_map(function, elements):
    """`keras.ops.vectorized_map(function, elements)`: function over the first axis."""
    return tf.vectorized_map(function, elements)


@_export
def map(f, xs):  # noqa: A001 (Keras's name)
    """`keras.ops.map(f, xs)`: f over the first axis of xs, stacked."""
    return tf.map_fn(f, xs)


@_export
@keras_op
def slice(inputs, start_indices, shape):  # noqa: A001
    """`keras.ops.slice(inputs, start_indices, shape)`."""
    return tf.slice(tensor(inputs), list(start_indices), list(shape))


@_export
@keras_op
def slice_update(inputs, start_indices, updates):
    """`keras.ops.slice_update(inputs, start_indices, updates)`: updates written
    at start_indices."""
    inputs, updates = tensor(inputs), tensor(updates)
    updates = cast_to(updates, inputs.dtype)
    grids = np.meshgrid(*[np.arange(s) + int(o) for s, o in
                          zip(updates.shape.as_list(), start_indices)], indexing="ij")
    idx = np.stack(grids, axis=-1).astype(np.int32)
    return tf.tensor_scatter_nd_update(inputs, tensor(idx), updates)


@_export
@keras_op
def scatter(indices, values, shape):
    """`keras.ops.scatter(indices, values, shape)`: zeros with values added at indices."""
    return tf.scatter_nd(cast_to(tensor(indices), "int32"), tensor(values), list(shape))


@_export
@keras_op
def scatter_update(inputs, indices, updates):
    """`keras.ops.scatter_update(inputs, indices, updates)`."""
    inputs = tensor(inputs)
    return tf.tensor_scatter_nd_update(inputs, cast_to(tensor(indices), "int32"),
                                       cast_to(tensor(updates), inputs.dtype))


@_export
@keras_op
def unstack(x, num=None, axis=0):
    """`keras.ops.unstack(x, num=None, axis=0)`: a list."""
    return list(tf.unstack(tensor(x), num=num, axis=axis))


@_export
def shape(x):
    """`keras.ops.shape(x)`: a tuple of ints; inside a traced function a size
    unknown until run time is a scalar int32 tensor (Keras's on TF), and on a
    KerasTensor None."""
    if hasattr(x, "shape") and isinstance(x.shape, tuple):
        return x.shape
    x = tensor(x)
    dims = x.shape.as_list()
    if all(d is not None for d in dims):
        return tuple(dims)
    dynamic = tf.shape(x)
    return tuple(d if d is not None else dynamic[i] for i, d in enumerate(dims))



@_export
def custom_gradient(f):
    """`keras.ops.custom_gradient(f)`: f returns (output, grad_fn), as
    `tf.custom_gradient`; grad_fn takes the upstream gradient."""
    return tf.custom_gradient(f)


@_export
def associative_scan(f, elems, reverse=False, axis=0):
    """`keras.ops.associative_scan(f, elems, reverse=False, axis=0)`: the
    inclusive scan of an associative f along axis (elems a tensor or a
    structure of tensors), computed in order."""
    from runtime._src.core import nest
    leaves = [tensor(e) for e in nest.flatten(elems)]
    n = leaves[0].shape.as_list()[axis]
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))

    def take(i):
        parts = [tf.gather(t, i, axis=axis) for t in leaves]
        return nest.pack_sequence_as(elems, parts)
    carry, outs = None, [None] * n
    for i in order:
        carry = take(i) if carry is None else f(carry, take(i))
        outs[i] = nest.flatten(carry)
    stacked = [tf.stack([o[j] for o in outs], axis=axis) for j in range(len(leaves))]
    return nest.pack_sequence_as(elems, stacked)


__all__.sort()
