"""`tf.keras.backend`'s Keras 2 convolutions, pools, resizes, random draws
and functional loops (Keras 3.15's legacy backend on TF 2.21).

    conv1d / conv2d / conv3d(x, kernel, strides, padding, data_format,
                             dilation_rate)      ("causal" padding for conv1d)
    conv2d_transpose(x, kernel, output_shape, strides, padding, data_format,
                     dilation_rate)
    depthwise_conv2d, separable_conv2d, pool2d / pool3d (pool_mode max, avg)
    resize_images (tf.image.resize by integer factors), resize_volumes
        (repeat_elements on each side)
    random_normal / random_uniform / truncated_normal / random_bernoulli,
    random_normal_variable / random_uniform_variable, dropout
        a seed drawn from numpy's global RNG when none is given, as Keras 2
    map_fn, foldl, foldr, gradients (tf.gradients: inside tf.function)
    ctc_label_dense_to_sparse(labels, label_lengths), ctc_batch_cost(y_true,
        y_pred, input_length, label_length), ctc_decode(y_pred, input_length,
        greedy=True, beam_width=100, top_paths=1): softmax outputs, blank last

channels_first inputs are moved to channels last for the op and back.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.autodiff import tape as _tape
from runtime._src.function import higher_order
from runtime._src.keras.backend import config
from runtime._src.keras.legacy.backend import repeat_elements, temporal_padding, variable
from runtime._src.ops import (arithmetic_ops, array_ops, comparison_ops, conv3d_ops, conv_family_ops,
                              conv_more_ops, conv_ops, image_resize, manipulation_ops,
                              ctc_ops, random_ops, scatter_ops, where_cast_ops)
from runtime._src.sparse import ctc_decode as _ctc_decode
from runtime._src.sparse import sparse_ops

__all__ = ["ctc_batch_cost", "ctc_decode", "ctc_label_dense_to_sparse", "gradients", "conv1d", "conv2d", "conv2d_transpose", "conv3d", "depthwise_conv2d", "dropout",
           "foldl", "foldr", "map_fn", "pool2d", "pool3d", "random_bernoulli", "random_normal",
           "random_normal_variable", "random_uniform", "random_uniform_variable",
           "resize_images", "resize_volumes", "separable_conv2d", "truncated_normal"]

_LAST = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _format(data_format):
    data_format = data_format or config.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


def _padding(padding):
    if padding in ("same", "valid"):
        return padding.upper()
    raise ValueError(f"Invalid padding: {padding}")


def _to_last(x, data_format):
    x = convert_to_tensor(x)
    if data_format == "channels_first":
        rank = x.shape.rank
        return manipulation_ops.transpose(x, [0] + list(range(2, rank)) + [1])
    return x


def _from_last(x, data_format):
    if data_format == "channels_first":
        rank = x.shape.rank
        return manipulation_ops.transpose(x, [0, rank - 1] + list(range(1, rank - 1)))
    return x


def _conv(x, kernel, strides, padding, data_format, dilation_rate):
    data_format = _format(data_format)
    x = _to_last(x, data_format)
    if x.shape.rank == 5:
        out = conv3d_ops.conv3d(x, kernel, (1,) + tuple(strides) + (1,), _padding(padding),
                                dilations=(1,) + tuple(dilation_rate) + (1,))
    else:
        out = conv_ops.convolution(x, kernel, strides=strides, padding=_padding(padding),
                                   data_format=_LAST[x.shape.rank], dilations=dilation_rate)
    return _from_last(out, data_format)


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution; padding "causal" pads dilation_rate * (k - 1) on the left."""
    data_format = _format(data_format)
    if padding == "causal":
        k = convert_to_tensor(kernel).shape.as_list()[0]
        x = _from_last(temporal_padding(_to_last(x, data_format),
                                        (dilation_rate * (k - 1), 0)), data_format)
        padding = "valid"
    return _conv(x, kernel, strides, padding, data_format, dilation_rate)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1)):
    return _conv(x, kernel, strides, padding, data_format, dilation_rate)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1, 1)):
    return _conv(x, kernel, strides, padding, data_format, dilation_rate)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    """The transpose of conv2d, to `output_shape` (in data_format's layout)."""
    data_format = _format(data_format)
    x = _to_last(x, data_format)
    shape = list(output_shape)
    if data_format == "channels_first":
        shape = [shape[0], shape[2], shape[3], shape[1]]
    if shape[0] is None:
        shape[0] = x.shape.as_list()[0]
    padding = _padding(padding)
    if tuple(dilation_rate) == (1, 1):
        out = conv_more_ops.conv2d_transpose(x, kernel, shape, (1,) + tuple(strides) + (1,),
                                             padding=padding, data_format="NHWC")
    else:
        if dilation_rate[0] != dilation_rate[1]:
            raise ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be "
                             f"equal to each other. Received: dilation_rate={dilation_rate}")
        out = conv_family_ops.atrous_conv2d_transpose(x, kernel, shape, rate=dilation_rate[0],
                                                      padding=padding)
    return _from_last(out, data_format)


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    data_format = _format(data_format)
    out = conv_more_ops.depthwise_conv2d(_to_last(x, data_format), depthwise_kernel,
                                         (1,) + tuple(strides) + (1,), _padding(padding),
                                         data_format="NHWC", dilations=dilation_rate)
    return _from_last(out, data_format)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    data_format = _format(data_format)
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    out = conv_more_ops.separable_conv2d(_to_last(x, data_format), depthwise_kernel,
                                         pointwise_kernel, (1,) + tuple(strides) + (1,),
                                         _padding(padding), data_format="NHWC",
                                         dilations=dilation_rate)
    return _from_last(out, data_format)


def _pool(x, pool_size, strides, padding, data_format, pool_mode, ops):
    data_format = _format(data_format)
    x = _to_last(x, data_format)
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pooling mode: {pool_mode}")
    size, step = (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,)
    out = ops[pool_mode](x, size, step, _padding(padding), data_format=_LAST[x.shape.rank])
    return _from_last(out, data_format)


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    _format(data_format)
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode,
                 {"max": conv_ops.max_pool2d, "avg": conv_ops.avg_pool2d})


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None,
           pool_mode="max"):
    return _pool(x, pool_size, strides, padding, data_format, pool_mode,
                 {"max": conv3d_ops.max_pool3d, "avg": conv3d_ops.avg_pool3d})


_RESIZE = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5", "mitchellcubic",
           "nearest")


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """x's rows and columns scaled by integer factors with tf.image.resize."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    if interpolation not in _RESIZE:
        names = '"' + '", "'.join(_RESIZE) + '"'
        raise ValueError(f"`interpolation` argument should be one of: {names}. Received: "
                         f'"{interpolation}".')
    x = _to_last(x, data_format)
    h, w = x.shape.as_list()[1:3]
    out = image_resize.resize(x, [h * int(height_factor), w * int(width_factor)],
                              method=interpolation)
    return _from_last(out, data_format)


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """Each voxel repeated (depth, height, width)_factor times."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid data_format: {data_format}")
    first = 2 if data_format == "channels_first" else 1
    for axis, factor in zip(range(first, first + 3), (depth_factor, height_factor,
                                                      width_factor)):
        x = repeat_elements(x, factor, axis=axis)
    return x


def _seed(seed):
    return np.random.randint(10e6) if seed is None else seed


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.normal(shape, mean=mean, stddev=stddev,
                             dtype=dtypes.as_dtype(dtype or config.floatx()), seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return random_ops.uniform(shape, minval=minval, maxval=maxval,
                              dtype=dtypes.as_dtype(dtype or config.floatx()),
                              seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.truncated_normal(shape, mean, stddev,
                                       dtype=dtypes.as_dtype(dtype or config.floatx()),
                                       seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """1 where a uniform draw is <= p, else 0."""
    dtype = dtypes.as_dtype(dtype or config.floatx())
    draw = random_ops.uniform(shape, dtype=dtype, seed=_seed(seed))
    return scatter_ops.where(comparison_ops.less_equal(draw, convert_to_tensor(p, dtype)),
                             array_ops.ones(shape, dtype=dtype),
                             array_ops.zeros(shape, dtype=dtype))


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    dtype = dtype or config.floatx()
    return variable(random_uniform(shape, low, high, dtype, seed), dtype=dtype, name=name)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    dtype = dtype or config.floatx()
    return variable(random_normal(shape, mean, scale, dtype, seed), dtype=dtype, name=name)


def dropout(x, level, noise_shape=None, seed=None):
    return random_ops.dropout(x, rate=level, noise_shape=noise_shape, seed=_seed(seed))


def map_fn(fn, elems, name=None, dtype=None):
    return higher_order.map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return higher_order.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    return higher_order.foldr(fn, elems, initializer=initializer, name=name)


def gradients(loss, variables):
    return _tape.gradients(loss, variables)


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first label_lengths[i] labels of each row of `labels` as a SparseTensor."""
    labels = convert_to_tensor(labels)
    rows, width = labels.shape.as_list()
    lengths = manipulation_ops.expand_dims(convert_to_tensor(label_lengths), 1)
    steps = manipulation_ops.expand_dims(array_ops.range(width), 0)
    mask = comparison_ops.less(steps, where_cast_ops.cast(lengths, dtypes.int32))
    indices = scatter_ops.where(mask)
    values = scatter_ops.gather_nd(labels, indices)
    return sparse_ops.SparseTensor(indices, values, [rows, width])


def _time_major_log(y_pred):
    y = manipulation_ops.transpose(convert_to_tensor(y_pred), [1, 0, 2])
    return arithmetic_ops.log(y + config.epsilon())


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """CTC loss per batch entry, shape (batch, 1); y_pred holds softmax outputs."""
    label_length = where_cast_ops.cast(manipulation_ops.squeeze(label_length, axis=-1),
                                       dtypes.int32)
    input_length = where_cast_ops.cast(manipulation_ops.squeeze(input_length, axis=-1),
                                       dtypes.int32)
    labels = where_cast_ops.cast(y_true, dtypes.int32)
    loss = ctc_ops.ctc_loss(labels, _time_major_log(y_pred), label_length, input_length,
                            blank_index=-1)
    return manipulation_ops.expand_dims(loss, 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """([decoded paths, dense, -1 padded to the time steps], log probabilities)."""
    y_pred = convert_to_tensor(y_pred)
    samples, steps = y_pred.shape.as_list()[:2]
    logits = _time_major_log(y_pred)
    lengths = where_cast_ops.cast(input_length, dtypes.int32)
    if greedy:
        decoded, log_prob = _ctc_decode.ctc_greedy_decoder(logits, lengths)
    else:
        decoded, log_prob = _ctc_decode.ctc_beam_search_decoder(
            logits, lengths, beam_width=beam_width, top_paths=top_paths)
    dense = [sparse_ops.to_dense(sparse_ops.SparseTensor(d.indices, d.values,
                                                         [samples, steps]),
                                 default_value=-1) for d in decoded]
    return dense, log_prob
