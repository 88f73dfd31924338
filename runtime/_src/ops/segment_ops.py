"""Segment reductions and counting: `math.segment_sum/mean/max/min/prod`,
`math.unsorted_segment_sum/mean/max/min/prod/sqrt_n`, `math.bincount`,
`math.confusion_matrix`.

Row i of `data` goes to segment `segment_ids[i]` (for `unsorted_*`, ids may
have several dimensions, covering data's leading ones, and negative ids are
dropped); each output row reduces its segment's rows:

    segment_sum(constant([1, 2, 3]), constant([0, 0, 2]))        # [3, 0, 3]
    unsorted_segment_max(constant([1., 2.]), constant([1, 1]), 3)
    # [-3.4e38, 2, -3.4e38]: an empty segment holds the dtype's lowest value

As TensorFlow: `segment_*` need sorted ids (InvalidArgumentError otherwise)
and give 0 for an empty segment (1 for a product); an unsorted empty segment
holds the dtype's lowest (max), highest (min), 1 (prod) or 0; an id >=
num_segments is an InvalidArgumentError. Sums, products, maxima and minima
are one op (`SegmentReduce`) with TF's gradients (a maximum's is shared among
the tied rows; a product's is finite with zeros); means and sqrt_n divide the
sum by the counts (or their square root).
"""

import numpy as np

from runtime._src.core.composite import dispatch_api
from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import ones_like, reshape, zeros_like
from runtime._src.ops.manipulation_ops import gather, stack
from runtime._src.ops.scatter_ops import gather_nd
from runtime._src.ops.array_ops import shape as shape_of
from runtime._src.ops.base_ops import FLOATS, NUMERIC, dtype_error
from runtime._src.ops.math_ops import (cast, equal, greater, greater_equal, maximum, rsqrt,
                                       truediv, where)

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
           "unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max",
           "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n",
           "bincount", "confusion_matrix"]


def _infer_segment(inputs, attrs):
    data, ids = inputs[0], inputs[1]
    num = rules.constant_value(inputs[2]) if len(inputs) > 2 else None
    if data.shape.rank is None or ids.shape.rank is None:
        return [(data.dtype, TensorShape(None))]
    if ids.shape.rank > data.shape.rank:
        raise ValueError(f"segment_ids of rank {ids.shape.rank} cannot cover data of rank "
                         f"{data.shape.rank}")
    lead = None if num is None else int(num)
    return [(data.dtype, TensorShape([lead] + list(data.shape.dims[ids.shape.rank:])))]


def _lowest(dtype):
    return dtypes.as_dtype(dtype).min


def _highest(dtype):
    return dtypes.as_dtype(dtype).max


# kind -> (numpy's accumulating ufunc, an empty unsorted segment's value)
_KINDS = {"sum": (np.add, lambda dt: 0), "prod": (np.multiply, lambda dt: 1),
          "max": (np.maximum, _lowest), "min": (np.minimum, _highest)}


@define_op("SegmentReduce", infer=_infer_segment)
def _segment_reduce(data, ids, *num, kind, sorted_ids):
    ids = np.asarray(ids)
    if sorted_ids:
        if ids.size and np.any(np.diff(ids) < 0):
            raise InvalidArgumentError("segment ids are not increasing", "SegmentReduce")
        if ids.size and ids[0] < 0:
            raise InvalidArgumentError(f"segment ids must be >= 0, got {ids[0]}", "SegmentReduce")
        n = int(ids[-1]) + 1 if ids.size else 0
    else:
        n = int(num[0])
    if ids.size and ids.max() >= n:
        raise InvalidArgumentError(f"segment_ids[{int(np.argmax(ids))}] = {ids.max()} is out "
                                   f"of range [0, {n})", "SegmentReduce")
    keep = ids >= 0
    rows = data[keep] if ids.ndim else data
    ufunc, empty = _KINDS[kind]
    out = np.full((n,) + data.shape[ids.ndim:], empty(data.dtype), data.dtype)
    ufunc.at(out, ids[keep], rows)
    if sorted_ids and kind in ("max", "min"):    # TF's sorted max/min: 0 when empty
        seen = np.zeros(n, bool)
        seen[ids[keep]] = True
        out[~seen] = 0
    return out


def _spread(grad, ids):
    """grad (per segment) gathered back to the rows; 0 for dropped (negative) ids."""
    keep = greater_equal(ids, 0)
    picked = gather(grad, maximum(ids, 0))
    mask = reshape(keep, _mask_shape(ids, picked))
    return where(mask, picked, zeros_like(picked))


def _mask_shape(ids, picked):
    """ids' shape with a 1 for each further dimension of picked (a tensor when
    the number of ids is known only when the graph runs)."""
    rank_ids, rank = ids.shape.rank, picked.shape.rank
    if None not in ids.shape.dims:
        return list(ids.shape.dims) + [1] * (rank - rank_ids)
    from runtime._src.ops.array_ops import shape
    from runtime._src.ops.manipulation_ops import concat
    return concat([shape(ids), convert_to_tensor([1] * (rank - rank_ids), dtypes.int32)], 0)


@define_grad("SegmentReduce")
def _segment_reduce_grad(op, grad):
    data, ids = op.inputs[0], op.inputs[1]
    nones = [None] * (len(op.inputs) - 1)
    kind = op.attrs["kind"]
    if kind == "sum":
        return [_spread(grad, ids)] + nones
    if kind == "prod":
        return [_prod_grad(op, grad)] + nones
    out = op.outputs[0]
    is_pick = equal(data, gather(out, maximum(ids, 0)))
    counts = _reduce("sum", cast(is_pick, grad.dtype), ids, op.inputs[2:], op.attrs["sorted_ids"])
    share = _spread(truediv(grad, maximum(counts, 1)), ids)
    return [where(is_pick, share, zeros_like(share))] + nones


def _prod_grad(op, grad):
    """As TF: prod / x for a nonzero x; for the zero of a segment with one zero,
    the product of the segment's other (nonzero) rows; 0 with two zeros or more."""
    data, ids, num = op.inputs[0], op.inputs[1], op.inputs[2:]
    sorted_ids = op.attrs["sorted_ids"]
    is_zero = equal(data, zeros_like(data))
    zeros = _reduce("sum", cast(is_zero, dtypes.int32), ids, num, sorted_ids)
    grad = where(greater(zeros, 1), zeros_like(grad), grad)
    nonzero_prod = _reduce("prod", where(is_zero, ones_like(data), data), ids, num, sorted_ids)
    clipped = maximum(ids, 0)
    partial = where(is_zero, gather(nonzero_prod, clipped),
                    truediv(gather(op.outputs[0], clipped), data))
    return _spread(grad, ids) * partial


def _reduce(kind, data, ids, num, sorted_ids, name="segment"):
    if num:                           # an unsorted segment op of a tf.RaggedTensor
        out = dispatch_api("segment_reduce", (data,), kind, data, ids, num[0])
        if out is not NotImplemented:
            return out
    data = convert_to_tensor(data)
    ids = convert_to_tensor(ids)
    if data.dtype not in NUMERIC:
        raise dtype_error(f"{name}_{kind}", data.dtype, NUMERIC)
    if not ids.dtype.is_integer:
        raise TypeError(f"{name}_{kind}: segment_ids must be int32 or int64, got "
                        f"{ids.dtype.name}")
    inputs = [data, ids] + [convert_to_tensor(n, ids.dtype) for n in num]
    return apply("SegmentReduce", inputs, {"kind": kind, "sorted_ids": sorted_ids})


def _counts(data, ids, num, sorted_ids, name):
    """The rows in each segment, in data's dtype, shaped to divide the sums."""
    counts = _reduce("sum", ones_like(ids, dtype=data.dtype), ids, num, sorted_ids, name)
    extra = (data.shape.rank or 0) - (ids.shape.rank or 0)
    return reshape(counts, [-1] + [1] * extra)


def _mean(data, ids, num, sorted_ids, name):
    data = convert_to_tensor(data)
    ids = convert_to_tensor(ids)
    total = _reduce("sum", data, ids, num, sorted_ids, name)
    counts = _counts(data, ids, num, sorted_ids, name)
    if data.dtype.is_integer and sorted_ids:   # TF's segment_mean truncates integers;
        return where(equal(counts, 0), zeros_like(total), total // maximum(counts, 1))
    return truediv(total, maximum(counts, 1))  # unsorted: true division (int32 -> float64)


def segment_sum(data, segment_ids, name=None):
    """`tf.math.segment_sum`: sums of the rows of each segment (ids sorted)."""
    return _reduce("sum", data, segment_ids, (), True)


def segment_max(data, segment_ids, name=None):
    """`tf.math.segment_max`: maxima of each segment (ids sorted; 0 when empty)."""
    return _reduce("max", data, segment_ids, (), True)


def segment_mean(data, segment_ids, name=None):
    """`tf.math.segment_mean`: means of each segment (ids sorted; 0 when empty)."""
    return _mean(data, segment_ids, (), True, "segment")


def segment_min(data, segment_ids, name=None):
    """`tf.math.segment_min`: minima of each segment (ids sorted; 0 when empty)."""
    return _reduce("min", data, segment_ids, (), True)


def segment_prod(data, segment_ids, name=None):
    """`tf.math.segment_prod`: products of each segment (ids sorted; 1 when empty)."""
    return _reduce("prod", data, segment_ids, (), True)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_sum`: sums into `num_segments` rows."""
    return _reduce("sum", data, segment_ids, (num_segments,), False, "unsorted_segment")


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_max`: maxima (the dtype's lowest when empty)."""
    return _reduce("max", data, segment_ids, (num_segments,), False, "unsorted_segment")


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_mean`: means (0 when empty)."""
    return _mean(data, segment_ids, (num_segments,), False, "unsorted_segment")


# --- counting -------------------------------------------------------------------------

def _infer_bincount(inputs, attrs):
    lead = [inputs[0].shape.dims[0]] if attrs["axis"] == -1 and inputs[0].shape.rank else []
    return [(attrs["dtype"], TensorShape(lead + [None]))]


@define_op("Bincount", infer=_infer_bincount)
def _bincount(arr, *weights, minlength, maxlength, axis, dtype, binary):
    arr = np.asarray(arr)
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError(f"bincount: input arr must be non-negative, got {arr.min()}",
                                   "Bincount")
    size = max(int(arr.max()) + 1 if arr.size else 0, minlength or 0)
    if maxlength is not None:
        size = min(size, maxlength)
    w = weights[0] if weights else None
    rows = arr.reshape(-1, arr.shape[-1]) if axis == -1 else arr.reshape(1, -1)
    wrows = None if w is None else np.asarray(w).reshape(rows.shape)
    out = np.zeros((rows.shape[0], size), dtype.np_dtype)
    for r in range(rows.shape[0]):
        keep = rows[r] < size
        if binary:
            out[r, rows[r][keep]] = 1
        else:
            np.add.at(out[r], rows[r][keep], 1 if w is None else wrows[r][keep])
    return out if axis == -1 else out[0]


# Bincount has no gradient, as in TF: a gradient reaching its weights is an error.


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """`tf.math.bincount`: how often each value 0..max(arr) occurs (weighted:
    the sum of the weights); `axis=-1` counts each row of a 2-D `arr`."""
    arr = convert_to_tensor(arr)
    if not arr.dtype.is_integer:
        raise TypeError(f"bincount: arr must be an integer tensor, got {arr.dtype.name}")
    if axis not in (None, 0, -1):
        raise ValueError(f"bincount: axis must be None, 0 or -1, got {axis}")
    inputs = [arr]
    if weights is not None:
        weights = convert_to_tensor(weights)
        dtype = weights.dtype
        inputs.append(weights)
    attrs = {"minlength": None if minlength is None else rules.static_int(
                 minlength, "bincount", "minlength"),
             "maxlength": None if maxlength is None else rules.static_int(
                 maxlength, "bincount", "maxlength"),
             "axis": -1 if axis == -1 else None, "dtype": dtypes.as_dtype(dtype),
             "binary": bool(binary_output)}
    return apply("Bincount", inputs, attrs)


def _infer_confusion(inputs, attrs):
    n = attrs["num_classes"]
    return [(attrs["dtype"], TensorShape([n, n]))]


@define_op("ConfusionMatrix", infer=_infer_confusion)
def _confusion(labels, predictions, *weights, num_classes, dtype):
    labels, predictions = np.asarray(labels).ravel(), np.asarray(predictions).ravel()
    if labels.shape != predictions.shape:
        raise InvalidArgumentError(f"confusion_matrix: labels ({labels.size} values) and "
                                   f"predictions ({predictions.size}) differ in size",
                                   "ConfusionMatrix")
    for what, v in (("labels", labels), ("predictions", predictions)):
        if v.size and v.min() < 0:
            raise InvalidArgumentError(f"confusion_matrix: `{what}` contains negative values",
                                       "ConfusionMatrix")
    n = num_classes
    if n is None:
        n = int(max(labels.max(initial=-1), predictions.max(initial=-1))) + 1
    elif labels.size and max(labels.max(), predictions.max()) >= n:
        raise InvalidArgumentError(f"confusion_matrix: values must be < num_classes {n}",
                                   "ConfusionMatrix")
    out = np.zeros((n, n), dtype.np_dtype)
    w = 1 if not weights else np.asarray(weights[0]).ravel().astype(dtype.np_dtype)
    np.add.at(out, (labels, predictions), w)
    return out


@define_grad("ConfusionMatrix")
def _confusion_grad(op, grad):
    """Each weight's gradient is the output cell it was added to."""
    if len(op.inputs) < 3:
        return [None, None]
    labels, predictions, weights = op.inputs
    cells = stack([reshape(labels, [-1]), reshape(predictions, [-1])], 1)
    picked = cast(gather_nd(grad, cells), weights.dtype)
    return [None, None, reshape(picked, shape_of(weights))]


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """`tf.math.confusion_matrix`: out[i, j] counts (or weighs) the examples with
    label i predicted as j; `num_classes` defaults to the largest value + 1."""
    labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
    if not labels.dtype.is_integer or not predictions.dtype.is_integer:
        raise TypeError("confusion_matrix: labels and predictions must be integer tensors")
    inputs = [labels, cast(predictions, labels.dtype)]
    if weights is not None:
        inputs.append(convert_to_tensor(weights))
    n = None if num_classes is None else rules.static_int(num_classes, "confusion_matrix",
                                                          "num_classes")
    return apply("ConfusionMatrix", inputs, {"num_classes": n, "dtype": dtypes.as_dtype(dtype)})


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_min`: minima (the dtype's highest when empty)."""
    return _reduce("min", data, segment_ids, (num_segments,), False, "unsorted_segment")


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_prod`: products (1 when empty)."""
    return _reduce("prod", data, segment_ids, (num_segments,), False, "unsorted_segment")


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_sqrt_n`: sums divided by the square root of the
    segment's row count (0 when empty); floating-point data only, as TF."""
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    if data.dtype not in FLOATS:
        raise dtype_error("unsorted_segment_sqrt_n", data.dtype, FLOATS)
    total = _reduce("sum", data, ids, (num_segments,), False, "unsorted_segment")
    counts = _counts(data, ids, (num_segments,), False, "unsorted_segment")
    return total * rsqrt(maximum(counts, 1))
