"""JAX rules of the math, array and reduction ops (see lower.py).

Each rule takes `(node, ins)` and returns what our numpy kernel of the op
returns, computed with `jax.numpy` / `jax.lax` (the lowering casts the result
to the node's dtype)."""

import numpy as np

from runtime._src.jit import lower
from runtime._src.jit.lower import Unsupported, is_static, rule, static_ints


def _np():
    return lower.jnp


# --- elementwise ---------------------------------------------------------------------

_UNARY = {
    "Abs": "abs", "Neg": "negative", "Exp": "exp", "Log": "log", "Log1p": "log1p",
    "Expm1": "expm1", "Sqrt": "sqrt", "Square": "square", "Tanh": "tanh", "Sin": "sin",
    "Cos": "cos", "Tan": "tan", "Asin": "arcsin", "Acos": "arccos", "Atan": "arctan",
    "Sinh": "sinh", "Cosh": "cosh", "Asinh": "arcsinh", "Acosh": "arccosh",
    "Atanh": "arctanh", "Floor": "floor", "Ceil": "ceil", "Round": "round", "Rint": "rint",
    "Sign": "sign", "Reciprocal": "reciprocal", "LogicalNot": "logical_not",
    "IsNan": "isnan", "IsInf": "isinf", "IsFinite": "isfinite",
}
_BINARY = {
    "AddV2": "add", "Add": "add", "Sub": "subtract", "Mul": "multiply",
    "Maximum": "maximum", "Minimum": "minimum", "Less": "less", "LessEqual": "less_equal",
    "Greater": "greater", "GreaterEqual": "greater_equal", "Equal": "equal",
    "NotEqual": "not_equal", "LogicalAnd": "logical_and", "LogicalOr": "logical_or",
    "Atan2": "arctan2", "FloorMod": "mod", "Pow": "power",
}


def _unary(name):
    def lowered(node, ins):
        return getattr(_np(), name)(ins[0])
    return lowered


def _binary(name):
    def lowered(node, ins):
        return getattr(_np(), name)(ins[0], ins[1])
    return lowered


for _op, _fn in _UNARY.items():
    rule(_op)(_unary(_fn))
for _op, _fn in _BINARY.items():
    rule(_op)(_binary(_fn))


@rule("RealDiv")
def _real_div(node, ins):
    out = node.outputs[0].dtype.np_dtype          # int32 / int32 is float64, as TF
    x, y = (v.astype(out) if v.dtype.kind in "iu" else v for v in ins)
    return _np().true_divide(x, y)


@rule("FloorDiv")
def _floor_div(node, ins):
    x, y = ins
    if node.outputs[0].dtype.np_dtype.kind == "f":
        return _np().floor(_np().true_divide(x, y))
    return _np().floor_divide(x, y)


@rule("SquaredDifference")
def _squared_difference(node, ins):
    d = ins[0] - ins[1]
    return d * d


@rule("Rsqrt")
def _rsqrt(node, ins):
    return lower.lax.rsqrt(ins[0])


@rule("Erf")
def _erf(node, ins):
    return lower.lax.erf(ins[0])


@rule("Sigmoid")
def _sigmoid(node, ins):
    import jax
    return jax.nn.sigmoid(ins[0])


@rule("AddN")
def _add_n(node, ins):
    total = ins[0]
    for x in ins[1:]:
        total = total + x
    return total


@rule("SelectV2")
def _select(node, ins):
    return _np().where(ins[0], ins[1], ins[2])


@rule("ClipByValue")
def _clip(node, ins):
    return _np().maximum(_np().minimum(ins[0], ins[2]), ins[1])     # lo wins where lo > hi


@rule("Cast")
def _cast(node, ins):
    x = ins[0]
    if _np().iscomplexobj(x) and not node.attrs["dtype"].is_complex:
        x = _np().real(x)
    return x.astype(node.attrs["dtype"].np_dtype)


@rule("Identity", "StopGradient", "EnsureShape")
def _identity(node, ins):
    return ins[0]


@rule("Const")
def _const(node, ins):
    return np.asarray(node.attrs["value"])


# --- gradient helpers ---------------------------------------------------------------

def _derivative_grad(fn):
    def lowered(node, ins):
        y, dy = ins
        return _np().where(dy == 0, _np().zeros_like(dy), fn(y, dy))
    return lowered


rule("SqrtGrad")(_derivative_grad(lambda y, dy: dy * 0.5 / y))
rule("RsqrtGrad")(_derivative_grad(lambda y, dy: dy * (-0.5) * y * y * y))
rule("ReciprocalGrad")(_derivative_grad(lambda y, dy: -dy * y * y))


@rule("SumLike")
def _sum_like(node, ins):
    grad, x = ins
    shape = np.shape(x)
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and grad.shape[lead + i] != 1)
    return _np().sum(grad, axis=axes).reshape(shape)


@rule("BroadcastLike")
def _broadcast_like(node, ins):
    grad, x = ins
    axes = node.attrs["axes"]
    if axes:
        rank = np.ndim(x)
        grad = _np().expand_dims(grad, tuple(sorted(a % rank for a in axes)))
    return _np().broadcast_to(grad, np.shape(x))


@rule("ZerosLike")
def _zeros_like(node, ins):
    return _np().zeros(np.shape(ins[0]), node.outputs[0].dtype.np_dtype)


@rule("OnesLike")
def _ones_like(node, ins):
    return _np().ones(np.shape(ins[0]), node.outputs[0].dtype.np_dtype)


# --- shapes (known while lowering: numpy) ----------------------------------------------

@rule("Shape")
def _shape(node, ins):
    return np.asarray(np.shape(ins[0]), node.attrs["out_type"].np_dtype)


@rule("Size")
def _size(node, ins):
    return np.asarray(np.size(ins[0]), node.attrs["out_type"].np_dtype)


@rule("Rank")
def _rank(node, ins):
    return np.asarray(np.ndim(ins[0]), node.attrs["out_type"].np_dtype)


# --- arrays ---------------------------------------------------------------------------

@rule("Reshape")
def _reshape(node, ins):
    return _np().reshape(ins[0], static_ints(ins[1], "Reshape's shape"))


@rule("BroadcastTo")
def _broadcast_to(node, ins):
    return _np().broadcast_to(ins[0], static_ints(ins[1], "BroadcastTo's shape"))


@rule("Fill")
def _fill(node, ins):
    return _np().full(static_ints(ins[0], "Fill's dims"), ins[1])


@rule("Transpose")
def _transpose(node, ins):
    perm = node.attrs.get("perm")           # an attribute, or a second input
    if len(ins) > 1:
        perm = static_ints(ins[1], "Transpose's perm")
    perm = None if perm is None else tuple(int(p) for p in perm)
    return _np().transpose(ins[0], perm)


@rule("ExpandDims")
def _expand_dims(node, ins):
    return _np().expand_dims(ins[0], node.attrs["axis"])


@rule("Squeeze")
def _squeeze(node, ins):
    return _np().squeeze(ins[0], node.attrs["axis"])


@rule("ConcatV2")
def _concat(node, ins):
    return _np().concatenate(ins, axis=node.attrs["axis"])


@rule("ConcatGrad")
def _concat_grad(node, ins):
    grad, values, axis = ins[0], ins[1:], node.attrs["axis"]
    ends = np.cumsum([np.shape(v)[axis] for v in values])[:-1]
    return list(_np().split(grad, ends, axis=axis))


@rule("Pack")
def _pack(node, ins):
    return _np().stack(ins, axis=node.attrs["axis"])


@rule("Unpack")
def _unpack(node, ins):
    axis = node.attrs["axis"]
    return [_np().squeeze(p, axis) for p in
            _np().split(ins[0], np.shape(ins[0])[axis], axis=axis)]


@rule("Tile")
def _tile(node, ins):
    return _np().tile(ins[0], static_ints(ins[1], "Tile's multiples"))


@rule("TileGrad")
def _tile_grad(node, ins):
    grad, x = ins
    split = []
    for g, d in zip(grad.shape, np.shape(x)):
        split.extend((g // d if d else 0, d))
    return _np().sum(grad.reshape(split), axis=tuple(range(0, len(split), 2)))


@rule("Slice")
def _slice(node, ins):
    x = ins[0]
    begin, sizes = static_ints(ins[1], "Slice's begin"), static_ints(ins[2], "Slice's size")
    key = tuple(slice(b, d if s == -1 else b + s) for d, b, s in zip(x.shape, begin, sizes))
    return x[key]


@rule("SliceGrad")
def _slice_grad(node, ins):
    grad, x, begin = ins
    begin = static_ints(begin, "Slice's begin")
    key = tuple(slice(b, b + d) for b, d in zip(begin, grad.shape))
    return _np().zeros(np.shape(x), grad.dtype).at[key].set(grad)


def _key_value(v, dynamic, what):
    """A spec entry's index: an int, or an entry of `dynamic` (a run-time
    scalar: JAX indexes with it; a slice bound must be known)."""
    if not isinstance(v, tuple):
        return v
    value = dynamic[v[1] - 1]
    if is_static(value):
        return int(value)
    if what != "index":
        raise Unsupported("a slice whose bounds are computed at run time (XLA needs static "
                          "shapes)")
    return value.reshape(())


def _strided_key(spec, dynamic):
    key = []
    for s in spec:
        kind = s[0]
        if kind == "index":
            key.append(_key_value(s[1], dynamic, kind))
        elif kind == "slice":
            key.append(slice(*(_key_value(b, dynamic, kind) for b in s[1:4])))
        else:
            key.append(None if kind == "newaxis" else Ellipsis)
    return tuple(key)


@rule("StridedSlice")
def _strided_slice(node, ins):
    x = ins[0] if not is_static(ins[0]) else _np().asarray(ins[0])
    spec = node.attrs["spec"]
    empty = [axis for axis, s in _spec_axes(spec, x.ndim)
             if s[0] == "index" and x.shape[axis] == 0]
    if empty:     # only in a loop body that runs zero times (`for v in empty`)
        x = _np().zeros([1 if a in empty else d for a, d in enumerate(x.shape)], x.dtype)
    return x[_strided_key(spec, ins[1:])]


def _spec_axes(spec, ndim):
    """[(axis of x, spec entry)] of the entries that index or slice an axis."""
    named = sum(s[0] in ("index", "slice") for s in spec)
    axis, out = 0, []
    for s in spec:
        if s[0] in ("index", "slice"):
            out.append((axis, s))
            axis += 1
        elif s[0] == "ellipsis":
            axis += ndim - named
    return out


@rule("StridedSliceGrad")
def _strided_slice_grad(node, ins):
    grad, x = ins[0], ins[1]
    key = _strided_key(node.attrs["spec"], ins[2:])
    return _np().zeros(np.shape(x), grad.dtype).at[key].set(grad)


@rule("GatherV2")
def _gather(node, ins):
    params, indices = ins
    axis, batch_dims = node.attrs["axis"], node.attrs.get("batch_dims", 0)
    if batch_dims:
        raise Unsupported("GatherV2 with batch_dims")
    return _np().take(params, indices, axis=axis, mode="clip")


@rule("GatherGrad")
def _gather_grad(node, ins):
    grad, params, indices = ins
    axis, batch_dims = node.attrs["axis"], node.attrs.get("batch_dims", 0)
    if batch_dims:
        raise Unsupported("GatherGrad with batch_dims")
    axis = axis % max(np.ndim(params), 1)
    out = _np().zeros(np.shape(params), grad.dtype)
    index = (slice(None),) * axis + (indices,)
    return out.at[index].add(grad)


@rule("OneHot")
def _one_hot(node, ins):
    indices, attrs = ins[0], node.attrs
    depth, on, off = attrs["depth"], attrs["on_value"], attrs["off_value"]
    axis = node.attrs["axis"]
    hot = _np().expand_dims(indices, -1) == _np().arange(depth)
    out = _np().where(hot, on, off)
    return out if axis in (-1, np.ndim(indices)) else _np().moveaxis(out, -1, axis)


@rule("Range")
def _range(node, ins):
    return lower.LazyRange(node, *ins)      # bounds known only at run time


# --- reductions ----------------------------------------------------------------------

def _reduction(name):
    def lowered(node, ins):
        x, kw = ins[0], {}
        if name in ("max", "min") and np.size(x) == 0:     # the identity, as the kernel
            kw["initial"] = _extreme(x.dtype, name == "min")
        return getattr(_np(), name)(x, axis=node.attrs["axis"],
                                    keepdims=node.attrs["keepdims"], **kw)
    return lowered


def _extreme(dtype, high):
    """The identity of max (high False: the lowest value) or min over `dtype`."""
    if dtype.kind == "f":
        return np.inf if high else -np.inf
    if dtype.kind == "b":
        return bool(high)
    info = np.iinfo(dtype)
    return info.max if high else info.min


for _op, _fn in {"Sum": "sum", "Prod": "prod", "Max": "max", "Min": "min", "All": "all",
                 "Any": "any"}.items():
    rule(_op)(_reduction(_fn))


@rule("Mean")
def _mean(node, ins):
    x = ins[0]
    if x.dtype.kind in "iu":
        raise Unsupported("an integer Mean (TF truncates toward zero)")
    return _np().mean(x, axis=node.attrs["axis"], keepdims=node.attrs["keepdims"])


def _nan_skipped(x, fill):
    """NaNs never win an arg reduction (as our kernel and TF)."""
    if x.dtype.kind != "f":
        return x
    return _np().where(_np().isnan(x), fill, x)


@rule("ArgMax")
def _argmax(node, ins):
    return _np().argmax(_nan_skipped(ins[0], -np.inf), axis=node.attrs["axis"])


@rule("ArgMin")
def _argmin(node, ins):
    return _np().argmin(_nan_skipped(ins[0], np.inf), axis=node.attrs["axis"])


@rule("Cumsum")
def _cumsum(node, ins):
    x, axis = ins[0], node.attrs["axis"]
    if node.attrs["reverse"]:
        x = _np().flip(x, axis)
    out = _np().cumsum(x, axis=axis)
    if node.attrs["exclusive"]:
        out = out - x
    return _np().flip(out, axis) if node.attrs["reverse"] else out


# --- linear algebra -----------------------------------------------------------------

@rule("MatMul")
def _matmul(node, ins):
    a, b = ins
    if node.attrs.get("transpose_a"):
        a = _np().swapaxes(a, -1, -2)
    if node.attrs.get("transpose_b"):
        b = _np().swapaxes(b, -1, -2)
    return _np().matmul(a, b)


@rule("Einsum")
def _einsum(node, ins):
    return _np().einsum(node.attrs["equation"], *ins)


# --- more elementwise, scans and array ops -----------------------------------------------

@rule("TruncateDiv")
def _truncate_div(node, ins):
    x, y = ins
    if node.outputs[0].dtype.np_dtype.kind == "f":
        return _np().trunc(_np().true_divide(x, y))
    return lower.lax.div(*_np().broadcast_arrays(x, y))     # XLA's integer division truncates


@rule("TruncateMod")
def _truncate_mod(node, ins):
    return _np().fmod(ins[0], ins[1])


@rule("MulNoNan")
def _mul_no_nan(node, ins):
    x, y = ins
    product = x * y
    return _np().where(y == 0, _np().zeros((), product.dtype), product)


@rule("Erfc")
def _erfc(node, ins):
    return lower.lax.erfc(ins[0])


@rule("Lgamma")
def _lgamma(node, ins):
    return lower.lax.lgamma(ins[0])


@rule("Digamma")
def _digamma(node, ins):
    return lower.lax.digamma(ins[0])


@rule("Cumprod")
def _cumprod(node, ins):
    x, axis = ins[0], node.attrs["axis"]
    if node.attrs["exclusive"]:
        raise Unsupported("an exclusive Cumprod")
    if node.attrs["reverse"]:
        return _np().flip(_np().cumprod(_np().flip(x, axis), axis=axis), axis)
    return _np().cumprod(x, axis=axis)


@rule("ReverseV2")
def _reverse(node, ins):
    axes = node.attrs["axis"]
    return _np().flip(ins[0], tuple(a % ins[0].ndim for a in axes)) if axes else ins[0]


def _pads(paddings):
    return [tuple(int(v) for v in p) for p in np.asarray(static_ints(
        paddings, "the paddings")).reshape(-1, 2)]


@rule("PadV2")
def _pad(node, ins):
    x, paddings, value = ins
    return _np().pad(x, _pads(paddings), constant_values=value) if x.ndim else x


@rule("MirrorPad")
def _mirror_pad(node, ins):
    x, paddings = ins
    return _np().pad(x, _pads(paddings), mode=node.attrs["mode"].lower()) if x.ndim else x


@rule("Split")
def _split(node, ins):
    return list(_np().split(ins[0], node.attrs["num_split"], axis=node.attrs["axis"]))


@rule("SplitV")
def _split_v(node, ins):
    x, sizes = ins
    axis = node.attrs["axis"]
    sizes = list(static_ints(sizes, "SplitV's sizes"))
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    return list(_np().split(x, np.cumsum(sizes)[:-1], axis=axis))


@rule("Roll")
def _roll(node, ins):
    x, shift, axis = ins
    return _np().roll(x, static_ints(shift, "Roll's shift"), static_ints(axis, "Roll's axis"))


@rule("MatrixBandPart")
def _band_part(node, ins):
    x, low, up = ins
    low, up = static_ints(low, "the band")[0], static_ints(up, "the band")[0]
    rows, cols = x.shape[-2:]
    i = np.arange(rows)[:, None]
    j = np.arange(cols)[None, :]
    keep = ((low < 0) | (i - j <= low)) & ((up < 0) | (j - i <= up))
    return _np().where(keep, x, _np().zeros((), x.dtype))


@rule("MatrixDeterminant")
def _determinant(node, ins):
    return _np().linalg.det(ins[0])


@rule("CustomGradient")
def _custom_gradient(node, ins):
    """tf.custom_gradient's forward: its first `num_results` inputs (its
    gradient is in the graph already, as ops the tape added)."""
    return list(ins[:node.attrs["num_results"]])
