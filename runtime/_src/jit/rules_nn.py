"""JAX rules of the neural-network ops: activations and their gradients,
softmax and cross-entropy, BiasAdd, convolutions and pooling (see lower.py).

The gradient ops of convolution and pooling are the vector-Jacobian products
of the forward op (`jax.vjp`), which XLA turns into its own backward
convolutions, except where a matrix product measured faster on XLA:CPU (the
input gradient of a unit-step convolution, and the filter gradient of a
narrow one: see their rules), and a narrow forward convolution is a fused
sum of shifted channels (`_conv_by_taps`). Max pooling's gradient goes to
the first maximal element of each window, as our kernel's does. Max pooling over windows that tile the
input (strides equal to the window, no padding: the usual MaxPooling2D(2))
is a reshape and a max, and its gradient one select per tap, all of which
XLA fuses: `reduce_window` and its select-and-scatter gradient made a CNN
train step 1.5x slower than the executor on XLA:CPU, this 0.8x."""

import numpy as np

from runtime._src.jit import lower
from runtime._src.jit.lower import Unsupported, rule
from runtime._src.ops.conv_ops import window_padding


def _np():
    return lower.jnp


@rule("Relu")
def _relu(node, ins):
    return _np().maximum(ins[0], 0)


@rule("ReluGrad")
def _relu_grad(node, ins):
    grad, y = ins
    return _np().where(y > 0, grad, _np().zeros_like(grad))


@rule("Relu6")
def _relu6(node, ins):
    return _np().minimum(_np().maximum(ins[0], 0), 6)


@rule("Elu")
def _elu(node, ins):
    x = ins[0]
    return _np().where(x < 0, _np().expm1(x), x)


@rule("Selu")
def _selu(node, ins):
    import jax
    return jax.nn.selu(ins[0])


@rule("Softplus")
def _softplus(node, ins):
    return _np().logaddexp(0, ins[0])


@rule("Softsign")
def _softsign(node, ins):
    return ins[0] / (1 + _np().abs(ins[0]))


@rule("LeakyRelu")
def _leaky_relu(node, ins):
    from runtime._src.ops.nn_ops import _alpha
    x = ins[0]
    return _np().where(x > 0, x, x * np.asarray(_alpha(node.attrs["alpha"]), x.dtype))


@rule("L2Loss")
def _l2_loss(node, ins):
    return _np().sum(_np().square(ins[0])) / 2


@rule("Softmax")
def _softmax(node, ins):
    x, axis = ins[0], node.attrs["axis"]
    e = _np().exp(x - _np().max(x, axis=axis, keepdims=True))
    return e / _np().sum(e, axis=axis, keepdims=True)


@rule("LogSoftmax")
def _log_softmax(node, ins):
    x, axis = ins[0], node.attrs["axis"]
    shifted = x - _np().max(x, axis=axis, keepdims=True)
    return shifted - _np().log(_np().sum(_np().exp(shifted), axis=axis, keepdims=True))


@rule("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(node, ins):
    logits, labels = ins
    jnp = _np()
    top = jnp.max(logits, axis=-1, keepdims=True)
    e = jnp.exp(logits - top)
    total = jnp.sum(e, axis=-1, keepdims=True)
    classes = logits.shape[-1]
    hot = jnp.expand_dims(labels, -1) == jnp.arange(classes)
    picked = jnp.sum(jnp.where(hot, logits, 0), axis=-1)
    loss = (jnp.log(total) + top)[..., 0] - picked
    backprop = e / total - hot.astype(logits.dtype)
    return loss, backprop


# --- BiasAdd ---------------------------------------------------------------------------

def _bias_axis(data_format, rank):
    return 1 if data_format.startswith("NC") and rank > 2 else rank - 1


@rule("BiasAdd")
def _bias_add(node, ins):
    value, bias = ins
    shape = [1] * value.ndim
    shape[_bias_axis(node.attrs["data_format"], value.ndim)] = bias.shape[0]
    return value + bias.reshape(shape)


@rule("BiasAddGrad")
def _bias_add_grad(node, ins):
    grad = ins[0]
    keep = _bias_axis(node.attrs["data_format"], grad.ndim)
    return _np().sum(grad, axis=tuple(i for i in range(grad.ndim) if i != keep))


# --- convolution ------------------------------------------------------------------------

def _padding(shape, window, attrs, dilations=(1, 1)):
    """XLA's explicit (low, high) pairs for the spatial dims of NHWC `shape`."""
    explicit = attrs.get("explicit_paddings", ((0, 0), (0, 0)))
    pads = []
    for d in range(2):
        before, after, _ = window_padding(shape[1 + d], window[d], attrs["strides"][d],
                                          dilations[d], attrs["padding"], explicit[d])
        pads.append((before, after))
    return pads


def _conv(x, f, attrs):
    if x.ndim != 4:
        raise Unsupported("Conv2D on inputs of rank other than 4")
    dilations = tuple(attrs.get("dilations", (1, 1)))
    groups = x.shape[-1] // f.shape[2] if f.shape[2] else 1
    return lower.lax.conv_general_dilated(
        x, f, window_strides=tuple(attrs["strides"]),
        padding=_padding(x.shape, f.shape[:2], attrs, dilations), rhs_dilation=dilations,
        dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups,
        precision=lower.lax.Precision.HIGHEST)


@rule("Conv2D")
def _conv2d(node, ins):
    x, f = ins
    if _unit_steps(np.shape(x), np.shape(f), node.attrs) and 0 < np.prod(np.shape(f)[:3]) <= 32:
        return _conv_by_taps(x, f, node.attrs)
    return _conv(x, f, node.attrs)


def _conv_by_taps(x, f, attrs):
    """A unit-step convolution with a narrow window (KH x KW x C at most 32:
    a first layer) as a sum of the shifted input's channels times the
    filter's rows, which XLA fuses into one loop: 2x faster on XLA:CPU than
    its convolution (YNNPACK's or Eigen's) on a 3x3 window of one or three
    channels."""
    kh, kw, c, _ = np.shape(f)
    pads = _padding(np.shape(x), (kh, kw), attrs)
    if any(p for pair in pads for p in pair):
        x = _np().pad(x, [(0, 0)] + pads + [(0, 0)])
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    if oh <= 0 or ow <= 0:
        return _conv(x, f, dict(attrs, padding="VALID"))
    total = None
    for a in range(kh):
        for b in range(kw):
            for k in range(c):
                part = x[:, a:a + oh, b:b + ow, k:k + 1] * f[a, b, k]
                total = part if total is None else total + part
    return total


def _vjp(fn, primals, cotangent):
    import jax
    _, back = jax.vjp(fn, *primals)
    return back(cotangent)


def _unit_steps(x_shape, f_shape, attrs):
    """True for a convolution with unit strides and dilations and one
    group: its gradients have the dot forms below."""
    return (tuple(attrs["strides"]) == (1, 1) and tuple(attrs.get("dilations", (1, 1))) == (1, 1)
            and len(x_shape) == 4 and x_shape[-1] == f_shape[2])


@rule("Conv2DBackpropInput")
def _conv2d_backprop_input(node, ins):
    dy, x, f = ins
    if _unit_steps(np.shape(x), np.shape(f), node.attrs):
        return _input_grad_by_dot(dy, np.shape(x), f, node.attrs)
    x = _np().zeros(np.shape(x), dy.dtype)
    return _vjp(lambda a: _conv(a, f, node.attrs), (x,), dy)[0]


def _input_grad_by_dot(dy, x_shape, f, attrs):
    """The input gradient of a unit-step convolution as one matrix product
    (each output position's gradient to its KH x KW x C window) and a sum of
    the windows shifted into place, which XLA fuses into one loop: 2x faster
    on XLA:CPU than its transposed convolution."""
    jnp = _np()
    kh, kw = f.shape[:2]
    cols = jnp.einsum("nhwo,abco->nhwabc", dy, f, precision=lower.lax.Precision.HIGHEST)
    total = None
    for a in range(kh):
        for b in range(kw):
            part = jnp.pad(cols[:, :, :, a, b, :],
                           ((0, 0), (a, kh - 1 - a), (b, kw - 1 - b), (0, 0)))
            total = part if total is None else total + part
    (top, _), (left, _) = _padding(x_shape, (kh, kw), attrs)
    return total[:, top:top + x_shape[1], left:left + x_shape[2], :]


@rule("Conv2DBackpropFilter")
def _conv2d_backprop_filter(node, ins):
    dy, x, f = ins
    if _unit_steps(np.shape(x), np.shape(f), node.attrs) and np.prod(np.shape(f)[:3]) <= 64:
        return _filter_grad_by_dot(dy, x, np.shape(f), node.attrs)
    f = _np().zeros(np.shape(f), dy.dtype)
    return _vjp(lambda b: _conv(x, b, node.attrs), (f,), dy)[0]


def _filter_grad_by_dot(dy, x, f_shape, attrs):
    """The filter gradient of a unit-step convolution with a narrow window
    (KH x KW x C at most 64: a first layer) as one matrix product of the
    input's windows laid out (KH * KW * C, N * OH * OW), each window's rows
    a slice of the input, and the output gradient: 1.7x faster on XLA:CPU
    than its convolution over the batch, whose transposes dominate there, and
    2.3x faster than windows stacked (N, OH, OW, KH * KW, C), which XLA
    transposes again for the product."""
    jnp = _np()
    kh, kw, c, o = f_shape
    pads = _padding(np.shape(x), (kh, kw), attrs)
    x = jnp.pad(x, [(0, 0)] + pads + [(0, 0)])
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    rows = [jnp.moveaxis(x[:, a:a + oh, b:b + ow, :], 3, 0).reshape(c, -1)
            for a in range(kh) for b in range(kw)]
    cols = jnp.concatenate(rows, axis=0)
    grad = jnp.matmul(cols, dy.reshape(-1, o), precision=lower.lax.Precision.HIGHEST)
    return grad.reshape(kh, kw, c, o)


# --- pooling ----------------------------------------------------------------------------

def _pool(x, attrs, init, op):
    ksize, strides = tuple(attrs["ksize"]), tuple(attrs["strides"])
    pads = _padding(x.shape, ksize, attrs)
    return lower.lax.reduce_window(x, np.array(init, x.dtype), op, (1,) + ksize + (1,), (1,) + strides + (1,),
                                   [(0, 0)] + pads + [(0, 0)])


def _max_pool(x, attrs):
    if x.dtype.kind != "f":
        raise Unsupported("MaxPool of integers")
    tiles = _tiles(x, attrs)
    if tiles is not None:
        return _np().max(tiles, axis=(2, 4))
    return _pool(x, attrs, -np.inf, lower.lax.max)


def _tiles(x, attrs):
    """`x` (NHWC) as its windows (N, OH, KH, OW, KW, C) when they tile it (strides
    equal to the window, no padding; the rows and columns past the last
    window left out), else None: a reshape, and a max over two axes that
    XLA fuses, where `reduce_window` and its gradient are slow on CPU."""
    ksize, strides = tuple(attrs["ksize"]), tuple(attrs["strides"])
    if ksize != strides:
        return None
    pads = _padding(x.shape, ksize, attrs)
    out = [x.shape[1 + d] // ksize[d] for d in range(2)]
    if any(p for pair in pads for p in pair) or min(out) <= 0:
        return None
    (kh, kw), (oh, ow) = ksize, out
    n, c = x.shape[0], x.shape[3]
    return x[:, :oh * kh, :ow * kw, :].reshape(n, oh, kh, ow, kw, c)


@rule("MaxPool")
def _max_pool_rule(node, ins):
    return _max_pool(ins[0], node.attrs)


@rule("MaxPoolGrad")
def _max_pool_grad(node, ins):
    dy, x, y = ins
    if x.dtype.kind == "f" and _tiles(x, node.attrs) is not None:
        return _tiled_max_pool_grad(dy, x, y, node.attrs)
    return _vjp(lambda a: _max_pool(a, node.attrs), (x,), dy)[0]


def _tiled_max_pool_grad(dy, x, y, attrs):
    """MaxPoolGrad for tiling windows: each window's gradient to its first
    element (row-major) equal to the maximum, as the kernel's."""
    jnp = _np()
    tiles = _tiles(x, attrs)
    n, oh, kh, ow, kw, c = tiles.shape
    maxima = y[:, :, None, :, None, :]
    dy = dy[:, :, None, :, None, :]
    taken = jnp.zeros(y.shape, bool)[:, :, None, :, None, :]
    rows = []
    for a in range(kh):
        row = []
        for b in range(kw):
            hit = (tiles[:, :, a:a + 1, :, b:b + 1, :] == maxima) & ~taken
            taken = taken | hit
            row.append(jnp.where(hit, dy, jnp.zeros((), dy.dtype)))
        rows.append(jnp.concatenate(row, axis=4))
    grad = jnp.concatenate(rows, axis=2).reshape(n, oh * kh, ow * kw, c)
    return jnp.pad(grad, [(0, 0), (0, x.shape[1] - oh * kh), (0, x.shape[2] - ow * kw), (0, 0)])


def _avg_pool(x, attrs):
    attrs = dict(attrs, explicit_paddings=((0, 0), (0, 0)))
    total = _pool(x, attrs, 0.0, lower.lax.add)
    if attrs["padding"] == "SAME":
        ones = _np().ones((1,) + x.shape[1:3] + (1,), x.dtype)
        count = _pool(ones, attrs, 0.0, lower.lax.add)
    else:
        count = attrs["ksize"][0] * attrs["ksize"][1]
    return total / count


@rule("AvgPool")
def _avg_pool_rule(node, ins):
    return _avg_pool(ins[0], node.attrs)


@rule("AvgPoolGrad")
def _avg_pool_grad(node, ins):
    dy, x = ins
    x = _np().zeros(np.shape(x), dy.dtype)
    return _vjp(lambda a: _avg_pool(a, node.attrs), (x,), dy)[0]


# --- the fused LSTM step (ops/rnn_ops.py) -------------------------------------------------

def _sigmoid_gates(z):
    """sigmoid as the kernel's (0.5 * tanh(0.5 z) + 0.5)."""
    half = np.asarray(0.5, z.dtype)
    return half * _np().tanh(half * z) + half


@rule("LSTMStep")
def _lstm_step(node, ins):
    z_x, h_prev, c_prev, kernel = ins
    u = c_prev.shape[1]
    z = z_x + _np().matmul(h_prev, kernel)
    i, f, o = (_sigmoid_gates(z[:, a * u:(a + 1) * u]) for a in (0, 1, 3))
    g = _np().tanh(z[:, 2 * u:3 * u])
    c = f * c_prev + i * g
    return _np().concatenate([i, f, g, o], axis=1), c, o * _np().tanh(c)


@rule("LSTMStepGrad")
def _lstm_step_grad(node, ins):
    gates, c, c_prev, dh, dc_next, kernel = ins
    u = c.shape[1]
    one = np.asarray(1, gates.dtype)
    i, f, g, o = (gates[:, a * u:(a + 1) * u] for a in range(4))
    tanh_c = _np().tanh(c)
    dc = dc_next + dh * o * (one - tanh_c * tanh_c)
    dz = _np().concatenate([dc * g * i * (one - i), dc * c_prev * f * (one - f),
                            dc * i * (one - g * g), dh * tanh_c * o * (one - o)], axis=1)
    return dz, _np().matmul(dz, kernel.T), dc * f
