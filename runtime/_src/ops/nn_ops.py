"""Neural-network activations (`tf.nn.*`): `relu`, `relu6`, `elu`,
`selu`, `gelu`, `leaky_relu`, `silu`/`swish`, `sigmoid`, `softplus`, `softsign`,
`softmax`, `log_softmax`, `bias_add`, `l2_loss`, `embedding_lookup` and
`batch_normalization`; the cross-entropy family is in cross_entropy_ops.py.
Ops TensorFlow composes in Python (gelu, silu, l2_loss) are composed here the
same way; the others are kernels.

    >>> relu(constant([-1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>

`dropout` lives with the random ops (runtime/_src/ops/random_ops.py), convolutions
and pooling in conv_ops.py.
"""

import numpy as np

from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.core.composite import dispatch_api
from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops import array_ops, math_ops
from runtime._src.ops.manipulation_ops import concat, gather
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import FLOATS, NUMERIC, dtype_error, map_composite_values
from runtime._src.ops.reduction_ops import reduce_sum
from runtime._src.ops.gradient_ops import broadcast_like

__all__ = ["relu", "sigmoid", "softplus", "softsign", "softmax", "relu6", "elu", "selu",
           "gelu", "leaky_relu", "silu", "swish", "log_softmax", "bias_add", "l2_loss",
           "embedding_lookup", "batch_normalization"]


@define_op("Relu", infer=rules.same_as_first)
def _relu(x):
    return np.maximum(x, x.dtype.type(0))


@define_grad("Relu")
def _relu_grad(op, grad):
    return [apply("ReluGrad", (grad, op.outputs[0]))]


@define_op("ReluGrad", infer=rules.same_as_first)
def _relu_grad_kernel(grad, y):
    """grad where the Relu's output is positive, else 0; as TensorFlow's kernel it
    multiplies by the mask, so a NaN or infinite grad stays NaN where y <= 0."""
    return np.multiply(grad, y > 0, dtype=grad.dtype)


@define_grad("ReluGrad")
def _relu_grad_grad(op, grad):
    # zeros (not None) for the features, as TF: a second-order gradient is a tensor
    return [apply("ReluGrad", (grad, op.inputs[1])), array_ops.zeros_like(op.inputs[1])]


@define_op("Sigmoid", infer=rules.same_as_first)
def _sigmoid(x):
    if x.dtype == dtypes.bfloat16.np_dtype:
        return _sigmoid_bfloat16(x)
    y = np.multiply(x.dtype.type(0.5), x)
    if not isinstance(y, np.ndarray) or y.dtype.kind not in "fc":
        half = x.dtype.type(0.5)
        return half * np.tanh(y) + half
    return sigmoid_of_half(y)


def sigmoid_of_half(y):
    """sigmoid(x) computed in place in `y`, a float array holding x * 0.5:
    1 / (1 + exp(-x)) written as 0.5 * tanh(0.5 * x) + 0.5 (no overflow for
    large |x|), and below x = -4, where that form loses relative precision, as
    exp(x) / (1 + exp(x)), as TF keeps it (sigmoid(-30) = 9.357624e-14 in
    float32, where the tanh form rounds to 0). The Sigmoid kernel and the fused
    LSTM step (rnn_ops.py) share it."""
    half = y.dtype.type(0.5)
    low = np.flatnonzero(np.less(y, y.dtype.type(-2)))      # x < -4: usually few
    if low.size:
        e = np.exp(np.take(y, low) * y.dtype.type(2))
        tail = e / (e + y.dtype.type(1))
    np.tanh(y, out=y)
    np.multiply(half, y, out=y)
    np.add(y, half, out=y)
    if low.size:
        np.put(y, low, tail)
    return y


def _sigmoid_bfloat16(x):
    """TF's bfloat16 sigmoid: exp(x) / (exp(x) + 1), each step rounded to
    bfloat16 (Eigen's), 1 where exp(x) overflows."""
    e = np.exp(x)
    with np.errstate(invalid="ignore"):
        return np.where(np.isinf(e), x.dtype.type(1), e / (e + x.dtype.type(1)))


@define_grad("Sigmoid")
def _sigmoid_grad(op, grad):
    y = op.outputs[0]
    return [math_ops.multiply(grad, math_ops.multiply(y, math_ops.subtract(1, y)))]


@define_op("Softplus", infer=rules.same_as_first)
def _softplus(x):
    if x.dtype == dtypes.bfloat16.np_dtype:
        return _softplus_bfloat16(x)
    # log(1 + exp(x)) as logaddexp(0, x): no overflow for large x, exact for small.
    return np.logaddexp(x.dtype.type(0), x)


def _softplus_bfloat16(x):
    """TF's bfloat16 softplus, each step rounded to bfloat16: x above
    2 - log(eps) (eps = 2**-7), exp(x) below log(eps) - 2, else log1p(exp(x))."""
    bound = x.dtype.type(2.0 - np.log(2.0 ** -7))
    with np.errstate(over="ignore"):
        return np.where(x > bound, x, np.where(x < -bound, np.exp(x), np.log1p(np.exp(x))))


@define_grad("Softplus")
def _softplus_grad(op, grad):
    return [math_ops.multiply(grad, sigmoid(op.inputs[0]))]


@define_op("Softsign", infer=rules.same_as_first)
def _softsign(x):
    return x / (x.dtype.type(1) + np.abs(x))


@define_grad("Softsign")
def _softsign_grad(op, grad):
    x = op.inputs[0]
    return [math_ops.truediv(grad, math_ops.square(math_ops.add(1, math_ops.abs(x))))]


def _infer_softmax(inputs, attrs):
    x = inputs[0]
    if x.shape.rank == 0:
        raise ValueError("softmax needs a tensor of rank >= 1, got a scalar")
    rules.normalize_axis(attrs["axis"], x.shape.rank)
    return [(x.dtype, x.shape)]


@define_op("Softmax", infer=_infer_softmax)
def _softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


@define_grad("Softmax")
def _softmax_grad(op, grad):
    y, axis = op.outputs[0], op.attrs["axis"]
    inner = reduce_sum(math_ops.multiply(grad, y), axis, keepdims=True)
    return [math_ops.multiply(math_ops.subtract(grad, inner), y)]


def _checked(op_name, x, allowed):
    x = convert_to_tensor(x)
    if x.dtype not in allowed:
        raise dtype_error(op_name, x.dtype, allowed)
    return x


def relu(features, name=None):
    """max(features, 0) elementwise."""
    mapped = map_composite_values(features, "Relu", lambda v: relu(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Relu", (_checked("Relu", features, NUMERIC),))


def sigmoid(x, name=None):
    """1 / (1 + exp(-x)); floating-point inputs only."""
    mapped = map_composite_values(x, "Sigmoid", lambda v: sigmoid(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Sigmoid", (_checked("Sigmoid", x, FLOATS),))


def softplus(features, name=None):
    """log(exp(features) + 1); floating-point inputs only."""
    mapped = map_composite_values(features, "Softplus", lambda v: softplus(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Softplus", (_checked("Softplus", features, FLOATS),))


def log_sigmoid(x, name=None):
    """`tf.math.log_sigmoid`: log(1 / (1 + exp(-x))), computed as TF does, as
    -softplus(-x) (stable for large |x|); floating-point inputs only."""
    x = _checked("Softplus", x, FLOATS)
    return math_ops.negative(softplus(math_ops.negative(x)))


def softsign(features, name=None):
    """features / (abs(features) + 1); floating-point inputs only."""
    mapped = map_composite_values(features, "Softsign", lambda v: softsign(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Softsign", (_checked("Softsign", features, FLOATS),))


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along `axis` (the last one when None)."""
    out = dispatch_api("softmax", (logits,), logits, axis)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    logits = _checked("Softmax", logits, FLOATS)
    axis = -1 if axis is None else rules.static_int(axis, "Softmax", "axis")
    return apply("Softmax", (logits,), {"axis": axis})


# --- more activations ------------------------------------------------------------

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@define_op("Relu6", infer=rules.same_as_first)
def _relu6(x):
    return np.minimum(np.maximum(x, x.dtype.type(0)), x.dtype.type(6))


@define_grad("Relu6")
def _relu6_grad(op, grad):
    x = op.inputs[0]
    inside = math_ops.logical_and(math_ops.greater(x, 0), math_ops.less(x, 6))
    return [math_ops.where(inside, grad, 0)]


# Elu and Selu are TensorFlow's kernels: exp(x) - 1 (not expm1: TF rounds
# small negative inputs to 0 there), and gradients chosen by the sign of the
# output (a tiny negative input whose output rounds to 0 takes the positive
# side's gradient).

def _exp_minus_one(x):
    """exp(x) - 1 in x's dtype, exp rounded once from float64 (numpy's own
    float32 exp can be an ulp off where TF's is not: exp(-1))."""
    with np.errstate(over="ignore"):
        e = np.exp(x.astype(np.float64)).astype(x.dtype) if x.dtype.itemsize < 8 else np.exp(x)
    return e - x.dtype.type(1)


@define_op("Elu", infer=rules.same_as_first)
def _elu(x):
    return np.where(x < 0, _exp_minus_one(x), x).astype(x.dtype)


@define_grad("Elu")
def _elu_grad(op, grad):
    y = op.outputs[0]
    return [math_ops.where(math_ops.less(y, 0), math_ops.multiply(grad, math_ops.add(y, 1)),
                           grad)]


_SELU_SCALE_ALPHA = 1.7580993408473768599402175208123     # TF's literal, not the product


@define_op("Selu", infer=rules.same_as_first)
def _selu(x):
    scale, scale_alpha = x.dtype.type(_SELU_SCALE), x.dtype.type(_SELU_SCALE_ALPHA)
    return np.where(x < 0, scale_alpha * _exp_minus_one(x), scale * x).astype(x.dtype)


@define_grad("Selu")
def _selu_grad(op, grad):
    y = op.outputs[0]
    negative_part = math_ops.multiply(grad, math_ops.add(y, _SELU_SCALE_ALPHA))
    return [math_ops.where(math_ops.less(y, 0), negative_part,
                           math_ops.multiply(grad, _SELU_SCALE))]


def _through_float32(value):
    """A Python float as TensorFlow's `tf.cast(value, dtype)` makes it: a
    float32 constant first, so float64 sees it rounded."""
    return float(np.float32(value))


def _alpha(alpha):
    """LeakyRelu's alpha as TensorFlow's kernel uses it: a float attribute
    (float32) cast to the input's dtype, so float64 inputs see 0.2 as
    0.20000000298023224."""
    return _through_float32(alpha)


@define_op("LeakyRelu", infer=rules.same_as_first)
def _leaky_relu(x, alpha):
    return np.where(x > 0, x, x * x.dtype.type(_alpha(alpha))).astype(x.dtype)


@define_grad("LeakyRelu")
def _leaky_relu_grad(op, grad):
    x = op.inputs[0]
    return [math_ops.where(math_ops.greater(x, 0), grad,
                           math_ops.multiply(grad, _alpha(op.attrs["alpha"])))]


@define_op("LogSoftmax", infer=_infer_softmax)
def _log_softmax(x, axis):
    if x.ndim == 0:
        raise InvalidArgumentError("LogSoftmax: logits must have >= 1 dimension, got []",
                                   "LogSoftmax")
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


@define_grad("LogSoftmax")
def _log_softmax_grad(op, grad):
    y, axis = op.outputs[0], op.attrs["axis"]
    total = reduce_sum(grad, axis, keepdims=True)
    return [math_ops.subtract(grad, math_ops.multiply(math_ops.exp(y), total))]


def _const(value, dtype):
    """A Python number as a constant of `dtype` (no float32 rounding on the way)."""
    return convert_to_tensor(np.asarray(value, dtype.np_dtype))


def relu6(features, name=None):
    """min(max(features, 0), 6) elementwise."""
    mapped = map_composite_values(features, "Relu6", lambda v: relu6(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Relu6", (_checked("Relu6", features, NUMERIC),))


def elu(features, name=None):
    """features if > 0, else exp(features) - 1; floating-point inputs only."""
    mapped = map_composite_values(features, "Elu", lambda v: elu(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Elu", (_checked("Elu", features, FLOATS),))


def selu(features, name=None):
    """scale * elu-like(features) with TF's fixed alpha and scale; floats only."""
    mapped = map_composite_values(features, "Selu", lambda v: selu(v))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    return apply("Selu", (_checked("Selu", features, FLOATS),))


def leaky_relu(features, alpha=0.2, name=None):
    """features if > 0, else alpha * features. Integers are cast to float32, as in TF."""
    mapped = map_composite_values(features, "LeakyRelu", lambda v: leaky_relu(v, alpha))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    features = convert_to_tensor(features)
    if features.dtype.is_integer:
        features = math_ops.cast(features, dtypes.float32)
    features = _checked("LeakyRelu", features, FLOATS)
    if isinstance(alpha, np.ndarray):
        alpha = alpha.item()
    alpha = rules.static_value(alpha, "LeakyRelu", "alpha") \
        if not isinstance(alpha, (int, float, np.number)) else alpha
    return apply("LeakyRelu", (features,), {"alpha": float(alpha)})


def gelu(features, approximate=False, name=None):
    """x * Phi(x): TF's erfc form (exact far into the negative tail), or with
    `approximate=True` its tanh form. Not a float: ValueError, as in TF."""
    mapped = map_composite_values(features, "Gelu", lambda v: gelu(v, approximate))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    x = convert_to_tensor(features)
    if not x.dtype.is_floating:
        raise ValueError(f"`features.dtype` must be a floating point tensor. Received: "
                         f"features.dtype={x.dtype}")
    half, one = _const(0.5, x.dtype), _const(1.0, x.dtype)
    if approximate:
        coeff = _const(_through_float32(0.044715), x.dtype)      # TF: tf.cast of a float
        inner = math_ops.multiply(
            _const(0.7978845608028654, x.dtype),
            math_ops.add(x, math_ops.multiply(coeff, math_ops.pow(x, _const(3, x.dtype)))))
        return math_ops.multiply(math_ops.multiply(half, x), math_ops.add(one, math_ops.tanh(inner)))
    scaled = math_ops.multiply(math_ops.negative(x),
                               _const(_through_float32(0.7071067811865476), x.dtype))
    return math_ops.multiply(math_ops.multiply(half, x), math_ops.erfc(scaled))


def silu(features, beta=1.0, name=None):
    """features * sigmoid(beta * features); floating-point inputs only."""
    mapped = map_composite_values(features, "Silu", lambda v: silu(v, beta))    # a RaggedTensor
    if mapped is not NotImplemented:
        return mapped
    x = _checked("Silu", features, FLOATS)
    beta = math_ops.cast(beta, x.dtype) if hasattr(beta, "dtype") else _const(beta, x.dtype)
    return math_ops.multiply(x, sigmoid(math_ops.multiply(beta, x)))


swish = silu


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits))) along `axis` (the last one when None), stably."""
    logits = _checked("LogSoftmax", logits, FLOATS)
    axis = -1 if axis is None else rules.static_int(axis, "LogSoftmax", "axis")
    return apply("LogSoftmax", (logits,), {"axis": axis})


# --- bias_add and l2_loss --------------------------------------------------------

def _bias_axis(data_format, rank):
    return 1 if data_format.startswith("NC") else rank - 1


def _bias_problem(value_shape, bias_shape, data_format):
    """What is wrong with a BiasAdd's shapes, or None (unknown dims pass)."""
    if value_shape.rank is not None and value_shape.rank < 2:
        return f"Input tensor must be at least 2D: {rules.dims_text(value_shape)}"
    if bias_shape.rank is not None and bias_shape.rank != 1:
        return f"Biases must be 1D: {rules.dims_text(bias_shape)}"
    if value_shape.rank is None or bias_shape.rank is None:
        return None
    n = value_shape.dims[_bias_axis(data_format, value_shape.rank)]
    b = bias_shape.dims[0]
    if n is not None and b is not None and n != b:
        return (f"Must provide as many biases as the {'channel' if data_format.startswith('NC') else 'last'} "
                f"dimension of the input tensor: {rules.dims_text(bias_shape)} vs. "
                f"{rules.dims_text(value_shape)}")
    return None


def _infer_bias_add(inputs, attrs):
    value, bias = inputs
    rules.check_same_dtype(value, bias)
    problem = _bias_problem(value.shape, bias.shape, attrs["data_format"])
    if problem:
        raise ValueError(problem)
    return [(value.dtype, value.shape)]


@define_op("BiasAdd", infer=_infer_bias_add)
def _bias_add(value, bias, data_format):
    if (bias.ndim == 1 and value.ndim >= 2 and value.shape[-1] == bias.shape[0]
            and not data_format.startswith("NC")):
        return value + bias                     # the usual case, checked without TensorShapes
    problem = _bias_problem(TensorShape(value.shape), TensorShape(bias.shape), data_format)
    if problem:
        raise InvalidArgumentError(f"BiasAdd: {problem}", "BiasAdd")
    shape = [1] * value.ndim
    shape[_bias_axis(data_format, value.ndim)] = bias.shape[0]
    return value + bias.reshape(shape)


@define_grad("BiasAdd")
def _bias_add_grad(op, grad):
    value = op.inputs[0]
    rank = value.shape.rank if value.shape.rank is not None else grad.shape.rank
    if rank is None or grad.dtype is dtypes.bfloat16:     # TF's sums bfloat16 in bfloat16
        return [grad, apply("BiasAddGrad", (grad,), {"data_format": op.attrs["data_format"]})]
    keep = _bias_axis(op.attrs["data_format"], rank)
    axes = tuple(i for i in range(rank) if i != keep)
    return [grad, apply("Sum", (grad,), {"axis": axes, "keepdims": False})]


def _infer_bias_add_grad(inputs, attrs):
    g = inputs[0]
    if g.shape.dims is None:
        return [(g.dtype, TensorShape([None]))]
    return [(g.dtype, TensorShape([g.shape.dims[_bias_axis(attrs["data_format"], g.shape.rank)]]))]


@define_op("BiasAddGrad", infer=_infer_bias_add_grad)
def _bias_add_grad_kernel(grad, data_format):
    keep = _bias_axis(data_format, grad.ndim)
    return np.sum(grad, axis=tuple(i for i in range(grad.ndim) if i != keep), dtype=grad.dtype)


@define_grad("BiasAddGrad")
def _bias_add_grad_grad(op, grad):
    g = op.inputs[0]
    rank = g.shape.rank
    keep = _bias_axis(op.attrs["data_format"], rank)
    return [broadcast_like(grad, g, tuple(i for i in range(rank) if i != keep))]


def bias_add(value, bias, data_format=None, name=None):
    """value + bias, bias (1-D) along the last axis (NHWC, the default) or along
    axis 1 for an 'NC...' data_format."""
    value = _checked("BiasAdd", value, NUMERIC)
    bias = convert_to_tensor(bias, value.dtype) if not hasattr(bias, "dtype") \
        else convert_to_tensor(bias)
    if bias.dtype != value.dtype:
        raise TypeError(f"BiasAdd: value and bias must have the same dtype, got "
                        f"{value.dtype.name} and {bias.dtype.name}; use tf.cast to convert one")
    if data_format is None:
        data_format = "NHWC"
    if not isinstance(data_format, str) or not (data_format.startswith("NC")
                                                 or data_format.endswith("C")):
        raise ValueError(f"BiasAdd: data_format must be 'N...C' or 'NC...', got {data_format!r}")
    data_format = "NCHW" if data_format.startswith("NC") else "NHWC"
    return apply("BiasAdd", (value, bias), {"data_format": data_format})


def _infer_l2_loss(inputs, attrs):
    return [(inputs[0].dtype, TensorShape([]))]


@define_op("L2Loss", infer=_infer_l2_loss)
def _l2_loss(x):
    return np.asarray(np.sum(np.square(x)) / x.dtype.type(2), dtype=x.dtype)


@define_grad("L2Loss")
def _l2_loss_grad(op, grad):
    return [math_ops.multiply(op.inputs[0], grad)]


def l2_loss(t, name=None):
    """sum(t ** 2) / 2, a scalar; floating-point inputs only."""
    return apply("L2Loss", (_checked("L2Loss", t, FLOATS),))


# --- embedding_lookup and batch_normalization (composed, as in TF) ------------------

def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of `params` at `ids`: `gather(params, ids)`. `params` may be a list
    of tensors sharded along dimension 0 the way TF2 shards them ('div': the
    first `total % n` shards hold one row more); with `max_norm`, each looked-up
    embedding whose L2 norm exceeds it is scaled down to it."""
    out = dispatch_api("embedding_lookup", (ids,), params, ids, max_norm)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    shards = [convert_to_tensor(p) for p in params] if isinstance(params, (list, tuple)) \
        else [convert_to_tensor(params)]
    if not shards:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    ids = convert_to_tensor(ids)
    if len(shards) == 1:
        result = gather(shards[0], ids)
    else:
        result = gather(concat(shards, 0), _sharded_rows(shards, ids))
    if max_norm is None:
        return result
    return _clip_embeddings(result, max_norm, ids.shape.rank)


def _sharded_rows(shards, ids):
    """The row of the concatenated shards that TF's 'div' sharding reads for each
    id: id p of shard s (s chosen as TF chooses it) is row offset[s] + p. An id
    past its shard's end gets an out-of-range row, so the gather fails as TF's does."""
    sizes = [s.shape.dims[0] if s.shape.rank else None for s in shards]
    if None in sizes:
        raise ValueError(f"embedding_lookup: sharded params need a known first dimension, got "
                         f"shapes {[rules.dims_text(s.shape) for s in shards]}")
    n, total = len(sizes), sum(sizes)
    per, extras = total // n, total % n
    if sizes == [per + 1] * extras + [per] * (n - extras):
        return ids                               # the usual layout: row == id
    big, per = _const(per + 1, ids.dtype), max(per, 1)
    rest = math_ops.subtract(ids, extras)
    shard = math_ops.maximum(math_ops.floordiv(ids, big), math_ops.floordiv(rest, per))
    within = math_ops.where(math_ops.less(shard, extras), math_ops.floormod(ids, big),
                            math_ops.floormod(rest, per))
    np_dtype = ids.dtype.np_dtype
    offsets = convert_to_tensor(np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np_dtype))
    rows = math_ops.add(gather(offsets, shard), within)
    fits = math_ops.less(within, gather(convert_to_tensor(np.array(sizes, np_dtype)), shard))
    return math_ops.where(fits, rows, _const(total, ids.dtype))


def _clip_embeddings(x, max_norm, ids_rank):
    """TF's clip_by_norm of each embedding (the axes after the ids' ones)."""
    if ids_rank is None or x.shape.rank is None:
        raise ValueError("embedding_lookup: max_norm needs ids and params of known rank")
    axes = list(range(ids_rank, x.shape.rank))
    square = math_ops.multiply(x, x)
    l2sum = reduce_sum(square, axes, keepdims=True) if axes else square
    positive = math_ops.greater(l2sum, _const(0, l2sum.dtype))
    safe = math_ops.where(positive, l2sum, _const(1, l2sum.dtype))
    l2norm = math_ops.where(positive, math_ops.sqrt(safe), l2sum)
    clip = math_ops.cast(max_norm, x.dtype)
    return math_ops.truediv(math_ops.multiply(x, clip), math_ops.maximum(l2norm, clip))


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset, computed as
    TF computes it: x * inv + (offset - mean * inv) with inv = scale * rsqrt(...);
    `offset` and `scale` may be None."""
    x = convert_to_tensor(x)
    numbers = (int, float, np.number)
    total = variance + variance_epsilon if isinstance(variance, numbers) and \
        isinstance(variance_epsilon, numbers) else math_ops.add(variance, variance_epsilon)
    inv = math_ops.rsqrt(total)
    if scale is not None:
        inv = math_ops.multiply(inv, scale)
    shift = math_ops.negative(math_ops.multiply(mean, inv)) if offset is None \
        else math_ops.subtract(offset, math_ops.multiply(mean, inv))
    return math_ops.add(math_ops.multiply(x, math_ops.cast(inv, x.dtype)),
                        math_ops.cast(shift, x.dtype))
