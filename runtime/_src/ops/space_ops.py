"""Block rearrangements between space, depth and batch: `space_to_depth`,
`depth_to_space`, `space_to_batch(_nd)`, `batch_to_space(_nd)` and
`required_space_to_batch_paddings`.

    x = reshape(range(16), [1, 4, 4, 1])
    space_to_depth(x, 2)       # [1, 2, 2, 4]: each 2x2 block becomes 4 channels
    depth_to_space(that, 2)    # x again

Each op moves elements without arithmetic, so its gradient is its inverse
applied to the incoming gradient (`depth_to_space` for `space_to_depth`,
`batch_to_space_nd` with the paddings as crops for `space_to_batch_nd`).
Block sizes, paddings and crops must be known when the op is built (Python
values or constant tensors), as the shapes they give depend on them.
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import constant

__all__ = ["space_to_depth", "depth_to_space", "space_to_batch", "space_to_batch_nd",
           "batch_to_space", "batch_to_space_nd", "required_space_to_batch_paddings"]


def _known(value, what, op_name):
    """`value` (a Python value or a tensor known while building) as an int64 array."""
    if hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(value, np.ndarray):
        known = rules.constant_value(convert_to_tensor(value))
        if known is None:
            raise ValueError(f"{op_name}: `{what}` must be known when the op is built (a "
                             "Python value or a constant tensor); its shape depends on it")
        value = known
    return np.asarray(value, np.int64)


def _fail(op_name, message):
    raise InvalidArgumentError(message, op_name)


# --- space_to_depth / depth_to_space ---------------------------------------------

def _nhwc_dims(shape, data_format):
    dims = list(shape.dims) if shape.rank is not None else [None] * 4
    return dims if data_format == "NHWC" else [dims[0], dims[2], dims[3], dims[1]]


def _as_format(dims, data_format):
    return dims if data_format == "NHWC" else [dims[0], dims[3], dims[1], dims[2]]


def _scaled(d, factor):
    return None if d is None else d * factor


def _infer_space_to_depth(inputs, attrs):
    b, fmt = attrs["block_size"], attrs["data_format"]
    n, h, w, c = _nhwc_dims(inputs[0].shape, fmt)
    out = [n, None if h is None else h // b, None if w is None else w // b, _scaled(c, b * b)]
    return [(inputs[0].dtype, TensorShape(_as_format(out, fmt)))]


def _infer_depth_to_space(inputs, attrs):
    b, fmt = attrs["block_size"], attrs["data_format"]
    n, h, w, c = _nhwc_dims(inputs[0].shape, fmt)
    out = [n, _scaled(h, b), _scaled(w, b), None if c is None else c // (b * b)]
    return [(inputs[0].dtype, TensorShape(_as_format(out, fmt)))]


def _in_nhwc(kernel):
    """Run an NHWC kernel on an NCHW value by transposing around it."""
    def run(x, *, block_size, data_format):
        if data_format == "NHWC":
            return kernel(x, block_size)
        return kernel(x.transpose(0, 2, 3, 1), block_size).transpose(0, 3, 1, 2)
    return run


@define_op("SpaceToDepth", infer=_infer_space_to_depth)
@_in_nhwc
def _space_to_depth(x, b):
    n, h, w, c = x.shape
    if h % b or w % b:
        _fail("SpaceToDepth", f"Image width {w} and height {h} should be divisible by "
                              f"block_size: {b}")
    blocks = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(blocks).reshape(n, h // b, w // b, b * b * c)


@define_op("DepthToSpace", infer=_infer_depth_to_space)
@_in_nhwc
def _depth_to_space(x, b):
    n, h, w, c = x.shape
    if c % (b * b):
        _fail("DepthToSpace", f"Input depth dimension {c} should be divisible by: {b * b}")
    blocks = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(blocks).reshape(n, h * b, w * b, c // (b * b))


@define_grad("SpaceToDepth")
def _space_to_depth_grad(op, grad):
    return [apply("DepthToSpace", [grad], dict(op.attrs))]


@define_grad("DepthToSpace")
def _depth_to_space_grad(op, grad):
    return [apply("SpaceToDepth", [grad], dict(op.attrs))]


def _block_op(op_name, input, block_size, data_format):
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"{op_name}: data_format must be 'NHWC' or 'NCHW', got "
                         f"{data_format!r}")
    block_size = int(block_size)
    if block_size < 2:
        raise InvalidArgumentError(f"Value for attr 'block_size' of {block_size} must be at "
                                   "least minimum 2", op_name)
    x = convert_to_tensor(input)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise ValueError(f"{op_name}: input must be 4-D, got shape {x.shape}")
    return apply(op_name, [x], {"block_size": block_size, "data_format": data_format})


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # TF's names
    """`tf.nn.space_to_depth`: each `block_size` x `block_size` spatial block
    becomes `block_size**2` times the channels (in row-major block order)."""
    return _block_op("SpaceToDepth", input, block_size, data_format)


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # TF's names
    """`tf.nn.depth_to_space`: the inverse of `space_to_depth`."""
    return _block_op("DepthToSpace", input, block_size, data_format)


# --- space_to_batch / batch_to_space ------------------------------------------------

def _infer_to_batch(inputs, attrs):
    block, pads = attrs["block_shape"], attrs["paddings"]
    dims = list(inputs[0].shape.dims) if inputs[0].shape.rank is not None else None
    if dims is None:
        return [(inputs[0].dtype, TensorShape(None))]
    out = [_scaled(dims[0], int(np.prod(block)))]
    for i, b in enumerate(block):
        d = dims[1 + i]
        out.append(None if d is None else (d + int(pads[i].sum())) // int(b))
    return [(inputs[0].dtype, TensorShape(out + dims[1 + len(block):]))]


def _infer_to_space(inputs, attrs):
    block, crops = attrs["block_shape"], attrs["crops"]
    dims = list(inputs[0].shape.dims) if inputs[0].shape.rank is not None else None
    if dims is None:
        return [(inputs[0].dtype, TensorShape(None))]
    out = [None if dims[0] is None else dims[0] // int(np.prod(block))]
    for i, b in enumerate(block):
        d = dims[1 + i]
        out.append(None if d is None else d * int(b) - int(crops[i].sum()))
    return [(inputs[0].dtype, TensorShape(out + dims[1 + len(block):]))]


@define_op("SpaceToBatchND", infer=_infer_to_batch)
def _space_to_batch_nd(x, *, block_shape, paddings):
    m = len(block_shape)
    widths = [(0, 0)] + [tuple(p) for p in paddings] + [(0, 0)] * (x.ndim - 1 - m)
    padded = np.pad(x, widths)
    for i, b in enumerate(block_shape):
        if padded.shape[1 + i] % b:
            _fail("SpaceToBatchND", f"padded_shape[{i}]={padded.shape[1 + i]} is not "
                                    f"divisible by block_shape[{i}]={b}")
    n, rest = x.shape[0], padded.shape[1 + m:]
    split = [n]
    for i, b in enumerate(block_shape):
        split += [padded.shape[1 + i] // b, b]
    blocks = padded.reshape(split + list(rest))
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    order += list(range(1 + 2 * m, blocks.ndim))
    moved = np.ascontiguousarray(blocks.transpose(order))
    return moved.reshape([n * int(np.prod(block_shape))] + split[1::2] + list(rest))


@define_op("BatchToSpaceND", infer=_infer_to_space)
def _batch_to_space_nd(x, *, block_shape, crops):
    m, total = len(block_shape), int(np.prod(block_shape))
    if x.shape[0] % total:
        _fail("BatchToSpaceND", f"Input batch dimension ({x.shape[0]}) is not divisible by "
                                f"product of block sizes ({total})")
    n, spatial, rest = x.shape[0] // total, x.shape[1:1 + m], x.shape[1 + m:]
    blocks = x.reshape(list(block_shape) + [n] + list(spatial) + list(rest))
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, blocks.ndim))
    merged = np.ascontiguousarray(blocks.transpose(order)).reshape(
        [n] + [s * b for s, b in zip(spatial, block_shape)] + list(rest))
    window = [slice(None)] + [slice(c[0], merged.shape[1 + i] - c[1])
                              for i, c in enumerate(crops)]
    return merged[tuple(window)]


@define_grad("SpaceToBatchND")
def _space_to_batch_grad(op, grad):
    return [apply("BatchToSpaceND", [grad], {"block_shape": op.attrs["block_shape"],
                                             "crops": op.attrs["paddings"]})]


@define_grad("BatchToSpaceND")
def _batch_to_space_grad(op, grad):
    return [apply("SpaceToBatchND", [grad], {"block_shape": op.attrs["block_shape"],
                                             "paddings": op.attrs["crops"]})]


def _batch_args(op_name, input, block_shape, amounts, what):
    x = convert_to_tensor(input)
    block = _known(block_shape, "block_shape", op_name).reshape(-1)
    amounts = _known(amounts, what, op_name).reshape(-1, 2)
    if (block < 1).any():
        raise InvalidArgumentError(f"block_shape must be positive, got {block.tolist()}",
                                   op_name)
    if len(amounts) != len(block):
        raise ValueError(f"{op_name}: `{what}` must have shape [{len(block)}, 2] for a "
                         f"block_shape of {len(block)} dimensions, got {len(amounts)} rows")
    if (amounts < 0).any():
        raise InvalidArgumentError(f"{what} must be non-negative, got {amounts.tolist()}",
                                   op_name)
    if x.shape.rank is not None and x.shape.rank < 1 + len(block):
        raise ValueError(f"{op_name}: input of rank {x.shape.rank} has fewer than "
                         f"{len(block)} spatial dimensions after the batch")
    return x, tuple(int(b) for b in block), amounts


def space_to_batch_nd(input, block_shape, paddings, name=None):  # TF's names
    """`tf.space_to_batch_nd`: pad the spatial dimensions, then move each
    block's positions into the batch (batch-major within a block offset)."""
    x, block, pads = _batch_args("SpaceToBatchND", input, block_shape, paddings, "paddings")
    return apply("SpaceToBatchND", [x], {"block_shape": block, "paddings": pads})


def batch_to_space_nd(input, block_shape, crops, name=None):  # TF's names
    """`tf.compat.v1.batch_to_space_nd`: the inverse of `space_to_batch_nd`."""
    x, block, crops = _batch_args("BatchToSpaceND", input, block_shape, crops, "crops")
    return apply("BatchToSpaceND", [x], {"block_shape": block, "crops": crops})


space_to_batch = space_to_batch_nd          # tf.space_to_batch and tf.nn.space_to_batch
batch_to_space = batch_to_space_nd          # tf.batch_to_space


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None,
                                     name=None):
    """`tf.required_space_to_batch_paddings`: `(paddings, crops)` that extend
    `base_paddings` (zeros by default) at the end so that each padded spatial
    dimension is a multiple of its block size."""
    op_name = "required_space_to_batch_paddings"
    shape = _known(input_shape, "input_shape", op_name).reshape(-1)
    block = _known(block_shape, "block_shape", op_name).reshape(-1)
    base = (np.zeros((len(block), 2), np.int64) if base_paddings is None
            else _known(base_paddings, "base_paddings", op_name).reshape(-1, 2))
    start, end = base[:, 0], base[:, 1]
    full = shape + start + end
    extra = (block - full % block) % block
    paddings = np.stack([start, end + extra], axis=1)
    crops = np.stack([np.zeros_like(extra), extra], axis=1)
    return constant(paddings.astype(np.int32)), constant(crops.astype(np.int32))
