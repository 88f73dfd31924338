"""Convolution and pooling (`tf.nn.conv1d`, `conv2d`, `convolution`,
`max_pool1d/2d`, `avg_pool1d/2d`, `max_pool`, `avg_pool`).

Three kernels, on NHWC tensors: `Conv2D` (here), `MaxPool` and `AvgPool`
(pool_ops.py, with their gradients). The 1-D
forms add a height of 1 around them, as TensorFlow does; NCHW / NCW inputs
are transposed to channels-last and back. The window arithmetic
(`window_padding`) and the patch view (`patches`) are shared with whatever
needs them later (gradients): a convolution is `tensordot(patches(x), filter)`,
one matrix product over a strided view (im2col), never a loop over pixels.

    >>> x = constant(np.arange(9.0, dtype=np.float32).reshape(1, 3, 3, 1))
    >>> conv2d(x, constant(np.ones((2, 2, 1, 1), np.float32)), 1, "VALID")[0, :, :, 0].numpy()
    array([[ 8., 12.],
           [20., 24.]], dtype=float32)

Padding is 'SAME' (output size ceil(in / stride), the padding split with the
extra element after), 'VALID' (no padding), or for convolutions and max
pooling an explicit list of [before, after] pairs, one per dimension of the
data format (the batch and channel pairs must be [0, 0]). Average pooling
with 'SAME' divides by the number of real (unpadded) elements in each window.
"""

import numpy as np
from numpy.lib.stride_tricks import as_strided

from runtime._src.core import blas, dtypes, parallel, workspace
from runtime._src.core.errors import InvalidArgumentError, UnimplementedError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import zeros_like
from runtime._src.ops.manipulation_ops import expand_dims, squeeze, transpose
from runtime._src.ops.base_ops import FLOATS, NUMERIC, dtype_error
from runtime._src.ops.im2col import patch_matrix, patch_product, patch_rows

__all__ = ["conv1d", "conv2d", "convolution", "max_pool1d", "max_pool2d", "avg_pool1d",
           "avg_pool2d", "max_pool", "avg_pool", "window_padding", "patches", "add_patches",
           "conv2d_keeping_patches", "conv2d_backprop_filter_from_patches"]

CONV_DTYPES = FLOATS | frozenset((dtypes.int32,))


# --- window arithmetic, shared by the kernels and their shape rules ------------------

def window_padding(size, window, stride, dilation, padding, explicit=(0, 0)):
    """(pad_before, pad_after, output size) along one spatial dimension.

    'SAME': output ceil(size / stride), padding split with the odd element
    after; 'VALID': no padding; 'EXPLICIT': the `explicit` pair. An unknown
    `size` (None) gives an unknown output size.
    """
    reach = (window - 1) * dilation + 1          # the dilated window's extent
    if padding == "SAME":
        if size is None:
            return None, None, None
        out = -(-size // stride)
        total = max((out - 1) * stride + reach - size, 0)
        return total // 2, total - total // 2, out
    before, after = (0, 0) if padding == "VALID" else explicit
    if size is None:
        return before, after, None
    span = size + before + after - reach
    return before, after, (span // stride + 1 if span >= 0 else 0)


def patches(x, window, strides, dilations, out_size):
    """A read-only view (N, OH, OW, KH, KW, C) of the padded NHWC `x`:
    [n, i, j, a, b, c] is x[n, i*sh + a*dh, j*sw + b*dw, c]."""
    sn, sh, sw, sc = x.strides
    shape = (x.shape[0], out_size[0], out_size[1], window[0], window[1], x.shape[3])
    step = (sn, sh * strides[0], sw * strides[1], sh * dilations[0], sw * dilations[1], sc)
    return as_strided(x, shape, step, writeable=False)


def add_patches(cols, padded_shape, strides, dilations):
    """The adjoint of `patches` (col2im): sums each window's values in `cols`
    (N, OH, OW, KH, KW, C) back onto a zero array of `padded_shape` (NHWC), so a
    gradient through a convolution's input is `add_patches(dy . filter^T)`
    cropped to the unpadded input. A loop over the window, not over pixels."""
    out = np.zeros(padded_shape, cols.dtype)
    _, oh, ow, kh, kw, _ = cols.shape
    sh, sw = strides
    for a in range(kh):
        for b in range(kw):
            top, left = a * dilations[0], b * dilations[1]
            out[:, top:top + (oh - 1) * sh + 1:sh, left:left + (ow - 1) * sw + 1:sw, :] \
                += cols[:, :, :, a, b, :]
    return out


def _padded(x, window, strides, dilations, padding, explicit, fill):
    """`x` (NHWC) padded with `fill` for the window, and the output (height, width)."""
    pads, out = [], []
    for d in range(2):
        before, after, size = window_padding(x.shape[1 + d], window[d], strides[d],
                                             dilations[d], padding, explicit[d])
        pads.append((before, after))
        out.append(size)
    if any(p for pair in pads for p in pair):
        x = np.pad(x, [(0, 0), pads[0], pads[1], (0, 0)], constant_values=fill)
    return x, tuple(out)


def _spatial_problem(in_dims, window, attrs, window_what, running=False):
    """(What is wrong with a window op's sizes and attributes or None, the
    output's spatial dims). `in_dims` and `window` may hold None (unknown).

    While tracing, a VALID window larger than its input is an error (TF's
    shape rule); a running kernel returns an empty output instead, as TF's does.
    """
    strides, padding = attrs["strides"], attrs["padding"]
    dilations = attrs.get("dilations", (1, 1))
    explicit = attrs.get("explicit_paddings", ((0, 0), (0, 0)))
    if min(strides) <= 0:
        return f"Stride must be > 0, but got {min(strides)}", None
    if min(dilations) <= 0:
        return f"Dilation rates must be > 0, but got {min(dilations)}", None
    if any(w is not None and w <= 0 for w in window):
        return f"Sliding window {window_what} must be positive, got {list(window)}", None
    if min(p for pair in explicit for p in pair) < 0:
        return "All elements of explicit_paddings must be nonnegative", None
    out = []
    for d in range(2):
        if window[d] is None:
            out.append(None)
            continue
        _, _, size = window_padding(in_dims[d], window[d], strides[d], dilations[d], padding,
                                    explicit[d])
        if padding == "VALID" and size == 0 and in_dims[d] is not None and not running:
            reach = (window[d] - 1) * dilations[d] + 1
            return (f"Negative dimension size caused by subtracting {reach} from "
                    f"{in_dims[d]}"), None
        out.append(size)
    return None, out


# --- Conv2D ----------------------------------------------------------------------------

def _conv_problem(x_shape, f_shape, attrs, running=False):
    """(problem or None, output TensorShape) for Conv2D on partial shapes."""
    if x_shape.rank is not None and x_shape.rank < 4:
        return (f"input must be at least 4-dimensional (batch, height, width, channels), "
                f"got shape {rules.dims_text(x_shape)}"), None
    if f_shape.rank is not None and f_shape.rank != 4:
        return (f"filter must be 4-dimensional (height, width, in_channels, out_channels), "
                f"got shape {rules.dims_text(f_shape)}"), None
    xd = x_shape.dims if x_shape.rank is not None else None
    fd = f_shape.dims if f_shape.rank is not None else (None,) * 4
    depth = xd[-1] if xd else None
    if depth is not None and fd[2] is not None:
        if fd[2] == 0 or depth % fd[2]:
            return (f"Depth of input ({depth}) is not a multiple of input depth of filter "
                    f"({fd[2]})"), None
        groups = depth // fd[2]
        if fd[3] is not None and fd[3] % groups:
            return (f"Depth of output ({fd[3]}) is not a multiple of the number of groups "
                    f"({groups})"), None
    problem, spatial = _spatial_problem(xd[-3:-1] if xd else (None, None), fd[:2], attrs,
                                        "filter size", running)
    if problem or xd is None:
        return problem, TensorShape(None)
    return None, TensorShape(list(xd[:-3]) + spatial + [fd[3]])


def _infer_conv2d(inputs, attrs):
    x, f = inputs
    rules.check_same_dtype(x, f)
    problem, shape = _conv_problem(x.shape, f.shape, attrs)
    if problem:
        raise ValueError(problem)
    return [(x.dtype, shape)]


@define_op("Conv2D", infer=_infer_conv2d)
def _conv2d(x, f, strides, padding, explicit_paddings, dilations):
    y, owner = conv2d_keeping_patches(x, f, strides, padding, explicit_paddings, dilations)
    if owner is not None:
        workspace.release(owner)
    return y


def conv2d_keeping_patches(x, f, strides, padding, explicit_paddings, dilations, after=None):
    """Conv2D's kernel, returning (result, its im2col patch matrix or None);
    `after` as `patch_product`'s, on an ungrouped convolution's product.

    The generated code of a graph keeps the matrix for the Conv2DBackpropFilter
    of the same input and filter (`conv2d_backprop_filter_from_patches`), which
    then skips copying the same patches again; it is the array `patch_matrix`
    made (see `patch_rows`). None for a grouped convolution."""
    attrs = {"strides": strides, "padding": padding, "explicit_paddings": explicit_paddings,
             "dilations": dilations}
    problem, _ = _conv_problem(TensorShape(x.shape), TensorShape(f.shape), attrs, running=True)
    if problem:
        raise InvalidArgumentError(f"Conv2D: {problem}", "Conv2D")
    lead, dtype = x.shape[:-3], x.dtype
    work = np.float32 if dtype == np.float16 else dtype
    x = x.reshape((int(np.prod(lead)),) + x.shape[-3:]).astype(work, copy=False)
    f = f.astype(work, copy=False)
    padded, out = _padded(x, f.shape[:2], strides, dilations, padding, explicit_paddings, 0)
    cols = patches(padded, f.shape[:2], strides, dilations, out)
    groups = _group_slices(x.shape[-1], f)
    owner = None
    if len(groups) == 1:          # im2col: one copy of the patches, one matrix product
        rows = int(np.prod(cols.shape[:3]))
        owner, y = patch_product(cols, f.reshape(int(np.prod(f.shape[:3])), f.shape[3]),
                                 workspace.empty((rows, f.shape[3]), f.dtype), after)
        y = y.reshape(cols.shape[:3] + f.shape[3:])
    else:
        y = _joined([np.tensordot(cols[..., i], f[..., o], axes=3) for i, o in groups])
    return y.reshape(lead + y.shape[1:]).astype(dtype, copy=False), owner


def conv2d_backprop_filter_from_patches(dy, patches_, x, f, strides, padding,
                                        explicit_paddings, dilations):
    """Conv2DBackpropFilter's kernel given the patch matrix of `x` that
    `conv2d_keeping_patches` returned (the same product on the same matrix, so
    the same bits); the plain kernel when that is None."""
    if patches_ is None or patches_.dtype != x.dtype:
        return _conv2d_backprop_filter(dy, x, f, strides, padding, explicit_paddings, dilations)
    dy, _ = _unbatched(dy)
    xs, _ = _unbatched(x)
    _, out = _pads(xs.shape, f.shape[:2], strides, dilations, padding, explicit_paddings)
    rows = patch_rows(patches_, (xs.shape[0], out[0], out[1]) + f.shape[:3])
    return _filter_product(rows, dy, f)


def _filter_product(rows, dy, f):
    """patches^T . dy: the filter gradient (KH, KW, C, O) from the patch matrix."""
    grad = parallel.matmul(rows.T, dy.reshape(rows.shape[0], dy.shape[-1]),
                           workspace.empty((rows.shape[1], dy.shape[-1]), rows.dtype))
    return grad.reshape(f.shape[:3] + dy.shape[3:]).astype(f.dtype, copy=False)


def _group_slices(depth, f):
    """(input channels, output channels) of each group of a convolution of an
    input with `depth` channels (a multiple of the filter's: a grouped
    convolution, where each group sees only its own channels)."""
    groups = depth // f.shape[2] if f.shape[2] else 1
    cin, cout = f.shape[2], f.shape[3] // groups
    return [(slice(g * cin, (g + 1) * cin), slice(g * cout, (g + 1) * cout))
            for g in range(groups)]


def _joined(parts):
    """The groups' results side by side along the channels."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=-1)


# --- gradients -----------------------------------------------------------------------------
#
# The gradient of a convolution for its input is the adjoint of the patch view
# (`add_patches`, col2im) of dy . filter^T; for its filter, patches(x) . dy
# summed over the batch and the output positions. Max pooling sends each
# window's gradient to the first element equal to the maximum; average pooling
# shares it evenly among the real elements of the window.

def _pads(shape, window, strides, dilations, padding, explicit):
    """((before, after) per spatial dim, output spatial size) for NHWC `shape`."""
    pads, out = [], []
    for d in range(2):
        before, after, size = window_padding(shape[1 + d], window[d], strides[d], dilations[d],
                                             padding, explicit[d])
        pads.append((before, after))
        out.append(size)
    return pads, out


def _crop(padded, pads):
    (t, b), (l, r) = pads
    return padded[:, t:padded.shape[1] - b, l:padded.shape[2] - r, :]


def _unbatched(x):
    """x (..., H, W, C) as (N, H, W, C), and its leading dims."""
    lead = x.shape[:-3]
    return x.reshape((int(np.prod(lead)),) + x.shape[-3:]), lead


def _infer_like_input(index):
    def infer(inputs, attrs):
        return [(inputs[0].dtype, inputs[index].shape)]
    return infer


@define_op("Conv2DBackpropInput", infer=_infer_like_input(1))
def _conv2d_backprop_input(dy, x, f, strides, padding, explicit_paddings, dilations):
    """dL/dx of Conv2D(x, f) given dL/dy (grouped ones too).

    One matrix product per tap of the filter, dy (N*OH*OW, O) . f[a, b]^T,
    added straight onto the (strided) positions that tap reads: col2im
    without the (N, OH, OW, KH, KW, C) array of all the taps."""
    dy, lead = _unbatched(dy)
    xs, _ = _unbatched(x)
    pads, _ = _pads(xs.shape, f.shape[:2], strides, dilations, padding, explicit_paddings)
    padded = (xs.shape[0], xs.shape[1] + sum(pads[0]), xs.shape[2] + sum(pads[1]), xs.shape[3])
    grad = workspace.empty(padded, np.result_type(dy, f))
    n, oh, ow, _ = dy.shape
    groups = _group_slices(xs.shape[-1], f)
    width = groups[0][0].stop - groups[0][0].start
    part = workspace.empty((n * oh * ow, width), grad.dtype)

    def taps(lo, hi, add=np.add):   # the batch slice [lo, hi): zeros, its products and adds
        grad[lo:hi] = 0
        rows = dy[lo:hi].reshape((hi - lo) * oh * ow, dy.shape[3])
        out = part[lo * oh * ow:hi * oh * ow]
        for a in range(f.shape[0]):
            for b in range(f.shape[1]):
                top, left = a * dilations[0], b * dilations[1]
                target = grad[lo:hi, top:top + (oh - 1) * strides[0] + 1:strides[0],
                              left:left + (ow - 1) * strides[1] + 1:strides[1], :]
                for i, o in groups:
                    np.matmul(rows[:, o], f[a, b][:, o].T, out=out)
                    add(target[..., i], out.reshape(hi - lo, oh, ow, width), out=target[..., i])
    if blas.single_threaded():      # products and adds split over the batch
        parallel.split(n, taps, dy.size * f.shape[0] * f.shape[1] * width
                       // parallel.MACS_PER_ELEMENT)
    else:                           # BLAS's threads in the products, the adds split
        taps(0, n, _add_split)
    workspace.release(part)
    if any(p for pair in pads for p in pair):
        grad = _crop(grad, pads)
    return grad.reshape(x.shape).astype(x.dtype, copy=False)


def _add_split(target, value, out):
    """out = target + value, the batch split over the cores (runtime/_src/core/parallel.py)."""
    parallel.split(len(target), lambda lo, hi: np.add(target[lo:hi], value[lo:hi],
                                                      out=out[lo:hi]), target.size)


@define_grad("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
    dy, x, f = op.inputs
    return [apply("Conv2D", (grad, f), dict(op.attrs)), None,
            apply("Conv2DBackpropFilter", (dy, grad, f), dict(op.attrs))]


@define_op("Conv2DBackpropFilter", infer=_infer_like_input(2))
def _conv2d_backprop_filter(dy, x, f, strides, padding, explicit_paddings, dilations):
    """dL/df of Conv2D(x, f) given dL/dy (grouped ones too)."""
    dy, _ = _unbatched(dy)
    xs, _ = _unbatched(x)
    padded, out = _padded(xs, f.shape[:2], strides, dilations, padding, explicit_paddings, 0)
    cols = patches(padded, f.shape[:2], strides, dilations, out)
    groups = _group_slices(xs.shape[-1], f)
    if len(groups) == 1:          # im2col^T . dy: one matrix product
        owner = patch_matrix(cols)
        grad = _filter_product(patch_rows(owner, cols.shape), dy, f)
        workspace.release(owner)
        return grad
    grad = _joined([np.tensordot(cols[..., i], dy[..., o], axes=([0, 1, 2], [0, 1, 2]))
                    for i, o in groups])
    return grad.astype(f.dtype, copy=False)


@define_grad("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, grad):
    dy, x, f = op.inputs
    return [apply("Conv2D", (x, grad), dict(op.attrs)),
            apply("Conv2DBackpropInput", (dy, x, grad), dict(op.attrs)), None]


@define_grad("Conv2D")
def _conv2d_grad(op, grad):
    x, f = op.inputs
    return [apply("Conv2DBackpropInput", (grad, x, f), dict(op.attrs)),
            apply("Conv2DBackpropFilter", (grad, x, f), dict(op.attrs))]


# --- the public functions: argument rules as TensorFlow's Python layer has them ------------

_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW")}


def _data_format(op, data_format, n):
    """True for channels-first; ValueError for a format TF does not know."""
    last, first = _FORMATS[n]
    if data_format is None or data_format == last:
        return False
    if data_format == first:
        return True
    raise ValueError(f"{op}: data_format must be {last!r} or {first!r}, got {data_format!r}")


def _sequence(op, value, n, channels_first, what, default=1):
    """TF's rule for strides / ksize / dilations: an int, or a list of length
    1, n or n + 2 (the full data-format order). Returns the n spatial values;
    non-1 batch or channel entries are refused as TF refuses them."""
    if value is None:
        return (default,) * n
    values = rules.static_ints(value, op, what)
    if len(values) == 1:
        return values * n
    if len(values) == n:
        return values
    if len(values) != n + 2:
        raise ValueError(f"{what} should be of length 1, {n} or {n + 2}. Received: "
                         f"{what}={list(values)} of length {len(values)}")
    outer = (values[0], values[1]) if channels_first else (values[0], values[-1])
    if outer != (1, 1):
        raise UnimplementedError(
            f"{op}: Current implementation does not yet support {what} in the batch and "
            f"depth dimensions, got {what}={list(values)}", op)
    return values[2:] if channels_first else values[1:-1]


def _padding(op, padding, n, channels_first, explicit_allowed=True):
    """('SAME' | 'VALID' | 'EXPLICIT', the n spatial (before, after) pairs)."""
    none = ((0, 0),) * 2
    if isinstance(padding, str):
        if padding not in ("SAME", "VALID"):
            raise ValueError(f"{op}: padding must be 'SAME', 'VALID' or a list of "
                             f"[before, after] pairs, got {padding!r}")
        return padding, none
    if not explicit_allowed:
        raise TypeError(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}")
    try:
        pairs = [tuple(rules.static_ints(p, op, "padding")) for p in padding]
    except TypeError:
        raise ValueError(f"{op}: padding must be 'SAME', 'VALID' or a list of "
                         f"[before, after] pairs, got {padding!r}") from None
    if len(pairs) != n + 2 or any(len(p) != 2 for p in pairs):
        raise ValueError(f"When padding is a list, it must be of size {n + 2} with a "
                         f"[before, after] pair each. Received: padding={padding}")
    outer = (pairs[0], pairs[1]) if channels_first else (pairs[0], pairs[-1])
    if outer != ((0, 0), (0, 0)):
        raise InvalidArgumentError(f"{op}: Nonzero explicit padding in the batch or depth "
                                   f"dimensions is not supported", op)
    return "EXPLICIT", tuple(pairs[2:] if channels_first else pairs[1:-1])


def _checked(op, x, allowed):
    x = convert_to_tensor(x)
    if x.dtype not in allowed:
        raise dtype_error(op, x.dtype, allowed)
    return x


def _to_channels_last(x, channels_first):
    if not channels_first:
        return x
    rank = x.shape.rank
    if rank is None:
        raise ValueError("a channels-first data_format needs an input of known rank")
    return transpose(x, [0] + list(range(2, rank)) + [1])


def _to_channels_first(y, channels_first):
    if not channels_first:
        return y
    rank = y.shape.rank
    return transpose(y, [0, rank - 1] + list(range(1, rank - 1)))


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,
           name=None):
    """2-D convolution (cross-correlation, as in TF) of `input` [batch..., height,
    width, in_channels] with `filters` [height, width, in_channels / groups,
    out_channels]; the input's channels may be a multiple of the filter's
    (grouped convolution)."""
    op = "Conv2D"
    x = _checked(op, input, CONV_DTYPES)
    f = convert_to_tensor(filters)
    if f.dtype != x.dtype:
        raise TypeError(f"{op}: input and filters must have the same dtype, got "
                        f"{x.dtype.name} and {f.dtype.name}; use tf.cast to convert one")
    first = _data_format(op, data_format, 2)
    attrs = {"strides": _sequence(op, strides, 2, first, "strides"),
             "dilations": _sequence(op, dilations, 2, first, "dilations")}
    attrs["padding"], attrs["explicit_paddings"] = _padding(op, padding, 2, first)
    y = apply(op, (_to_channels_last(x, first), f), attrs)
    return _to_channels_first(y, first)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,
           name=None):
    """1-D convolution of `input` [batch, width, in_channels] with `filters`
    [width, in_channels, out_channels]: a Conv2D over a height of 1, as in TF."""
    op = "Conv1D"
    first = _data_format(op, data_format, 1)
    if not isinstance(padding, str):
        raise TypeError(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}")
    strides = (1,) + tuple(_sequence(op, stride, 1, first, "stride"))
    dilations = (1,) + tuple(_sequence(op, dilations, 1, first, "dilations"))
    x = expand_dims(_checked(op, input, CONV_DTYPES), 2 if first else 1)
    f = expand_dims(convert_to_tensor(filters), 0)
    y = conv2d(x, f, strides, padding, "NCHW" if first else "NHWC", dilations)
    return squeeze(y, [2 if first else 1])


def convolution(input, filters, strides=None, padding="VALID", data_format=None,
                dilations=None, name=None):
    """`conv1d` or `conv2d`, chosen by the filters' rank (3 or 4)."""
    f = convert_to_tensor(filters)
    spatial = None if f.shape.rank is None else f.shape.rank - 2
    if spatial is None:
        x = convert_to_tensor(input)
        spatial = None if x.shape.rank is None else x.shape.rank - 2
    if spatial == 1:
        return conv1d(input, f, 1 if strides is None else strides, padding, data_format,
                      dilations)
    if spatial == 2:
        return conv2d(input, f, 1 if strides is None else strides, padding,
                      data_format or "NHWC", dilations)
    raise NotImplementedError(f"convolution: only 1-D and 2-D convolutions (filters of rank 3 "
                              f"or 4) are supported, got filters of shape {f.shape}")


def _pool2d(op, allowed, input, ksize, strides, padding, data_format,
            explicit_allowed):
    x = _checked(op, input, allowed)
    first = _data_format(op, data_format, 2)
    window = _sequence(op, ksize, 2, first, "ksize")
    attrs = {"ksize": window, "strides": _sequence(op, strides, 2, first, "strides")}
    attrs["padding"], explicit = _padding(op, padding, 2, first, explicit_allowed)
    if explicit_allowed:
        attrs["explicit_paddings"] = explicit
    y = apply(op, (_to_channels_last(x, first),), attrs)
    return _to_channels_first(y, first)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The maximum over each ksize window of `input` [batch, height, width, channels]."""
    return _pool2d("MaxPool", NUMERIC, input, ksize, strides, padding, data_format, True)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The mean over each ksize window; with 'SAME', of the real elements only."""
    return _pool2d("AvgPool", FLOATS, input, ksize, strides, padding, data_format, False)


def _height_one(op, value, channels_first):
    """A 1-D pooling's ksize/strides (an int, or a list of length 1 or 3) for 2-D."""
    values = rules.static_ints(value, op, "ksize and strides")
    if len(values) == 1:
        return (1,) + values
    if len(values) != 3:
        raise ValueError(f"{op}: ksize and strides should be of length 1 or 3, got "
                         f"{list(values)}")
    at = 2 if channels_first else 1
    return values[:at] + (1,) + values[at:]


def _pool1d(op, pool2d, input, ksize, strides, padding, data_format):
    """A 1-D pooling as the 2-D one over a height of 1, as in TF."""
    first = _data_format(op, data_format, 1)
    at = 2 if first else 1
    x = expand_dims(convert_to_tensor(input), at)
    if not isinstance(padding, str):
        padding = list(padding)
        padding.insert(at, [0, 0])
    y = pool2d(x, _height_one(op, ksize, first), _height_one(op, strides, first), padding,
               "NCHW" if first else "NHWC")
    return squeeze(y, [at])


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """The maximum over each window of `input` [batch, width, channels]."""
    return _pool1d("MaxPool1D", max_pool2d, input, ksize, strides, padding, data_format)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """The mean over each window of `input` [batch, width, channels]."""
    return _pool1d("AvgPool1D", avg_pool2d, input, ksize, strides, padding, data_format)


def _by_rank(op, pool1d, pool2d, input, ksize, strides, padding, data_format):
    x = convert_to_tensor(input)
    spatial = None if x.shape.rank is None else x.shape.rank - 2
    if spatial == 1:
        return pool1d(x, ksize, strides, padding, data_format or "NWC")
    if spatial == 2:
        return pool2d(x, ksize, strides, padding, data_format or "NHWC")
    raise NotImplementedError(f"{op}: only 1-D and 2-D pooling (inputs of rank 3 or 4) is "
                              f"supported, got an input of shape {x.shape}")


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """`max_pool1d` or `max_pool2d`, chosen by the input's rank (3 or 4)."""
    return _by_rank("max_pool", max_pool1d, max_pool2d, input, ksize, strides, padding,
                    data_format)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """`avg_pool1d` or `avg_pool2d`, chosen by the input's rank (3 or 4)."""
    return _by_rank("avg_pool", avg_pool1d, avg_pool2d, input, ksize, strides, padding,
                    data_format)
