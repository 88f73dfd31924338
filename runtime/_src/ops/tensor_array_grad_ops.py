"""The gradients of the TensorArray ops (tensor_array_ops.py).

The gradient of a flow is a flow too: a `_Gradients` map from index to the
gradient of that element (missing: zero), built and read by the
`TensorArrayGrad*` ops defined here. Each op that reads elements gives its
flow a map of their gradients; each op that writes elements takes the
gradients of the elements it wrote out of the map (an overwritten element
gets none) and passes the rest on. The backward pass adds two flow gradients
with `TensorArrayGradAdd` (runtime/_src/autodiff/backprop.py), and a while
loop's accumulators use `gradient_map` (autodiff/control_flow_grad.py).
"""

import numpy as np

from runtime._src.core.tensor import VariantValue
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops.tensor_array_ops import _Storage, _infer_flow

__all__ = ["gradient_map"]

_MISSING = object()


class _GradData:
    """The storage behind the versions of one gradient map: the newest map and,
    per index, the values it had before each in-place change."""

    __slots__ = ("current", "history", "version")

    def __init__(self, items):
        self.current = dict(items)
        self.history = {}        # index -> [(version changed at, value before | _MISSING)]
        self.version = 0


class _Gradients(VariantValue):
    """The run-time value of a TensorArray flow's gradient: index -> gradient.

    Immutable to its users, but cheap to change: `changed` updates the
    storage in place when this is its newest version and logs the old values,
    so older versions still read what they held (a loop of n writes or reads
    takes O(n) in all, not O(n^2) copies)."""

    __slots__ = ("_data", "_version")

    def __init__(self, items=()):
        self._data = _GradData(items)
        self._version = 0

    def get(self, index, default=None):
        data = self._data
        if self._version != data.version:
            for version, old in data.history.get(index, ()):
                if version >= self._version:
                    return default if old is _MISSING else old
        return data.current.get(index, default)

    def items(self):
        data = self._data
        if self._version == data.version:
            return list(data.current.items())
        keys = set(data.current) | set(data.history)
        found = ((i, self.get(i, _MISSING)) for i in sorted(keys))
        return [(i, g) for i, g in found if g is not _MISSING]

    def changed(self, updates):
        """A map like this one with `updates` (index -> gradient, or _MISSING to
        remove it) applied."""
        data = self._data
        if self._version != data.version:          # an older version: copy it
            fresh = _Gradients(self.items())
            return fresh.changed(updates)
        current, history = data.current, data.history
        for index, value in updates:
            old = current.get(index, _MISSING)
            if old is _MISSING and value is _MISSING:
                continue
            history.setdefault(index, []).append((data.version, old))
            if value is _MISSING:
                del current[index]
            else:
                current[index] = value
        data.version += 1
        out = _Gradients.__new__(_Gradients)
        out._data, out._version = data, data.version
        return out

    def __repr__(self):
        return f"<TensorArray gradients at {sorted(i for i, _ in self.items())}>"


def gradient_map(items):
    """A gradient map (the gradient of a variant flow) holding `items`: index -> gradient;
    the loop accumulators' gradients use it too (runtime/_src/autodiff)."""
    return _Gradients(items)


def _infer_grad_element(inputs, attrs):
    value = inputs[-1]
    return [(value.dtype, value.shape)]


def _indices(indices):
    if np.ndim(indices) == 0:
        return [int(indices)]
    return [int(i) for i in np.reshape(indices, -1)]


@define_op("TensorArrayGradEmpty", infer=_infer_flow, stateful=True)
def _grad_empty():
    return _Gradients()


@define_op("TensorArrayGradAdd", infer=_infer_flow)
def _grad_add(*flows):
    first = max(flows, key=lambda f: len(f._data.current))   # the others are added into it
    out = first
    for f in flows:
        if f is not first:
            updates = []
            for i, g in f.items():
                old = out.get(i)
                updates.append((i, g if old is None else old + g))
            out = out.changed(updates)
    return out


@define_op("TensorArrayGradRead", infer=_infer_grad_element)
def _grad_read(grads, index, like):
    """The gradient at `index`, or zeros shaped like the element `like`."""
    g = grads.get(int(index))
    return np.zeros_like(like) if g is None else g


@define_op("TensorArrayGradSet", infer=_infer_flow)
def _grad_set(index, grad):
    return _Gradients({int(index): grad})


@define_op("TensorArrayGradDrop", infer=_infer_flow)
def _grad_drop(grads, indices):
    """The map without `indices` (a scalar, a vector, or all rows of `like`
    when `indices` is a count)."""
    return grads.changed([(i, _MISSING) for i in _indices(indices)])


@define_op("TensorArrayGradDropFirst", infer=_infer_flow)
def _grad_drop_first(grads, like):
    """The map without indices 0 .. len(like) - 1 (the rows unstack or split wrote)."""
    return grads.changed([(i, _MISSING) for i in range(len(like))])


@define_op("TensorArrayGradFromStack", infer=_infer_flow)
def _grad_from_stack(grad):
    return _Gradients(enumerate(grad))


@define_op("TensorArrayGradScatter", infer=_infer_flow)
def _grad_scatter(indices, grad, *, last_only=False):
    """The gradient of a gather: row k of `grad` to index indices[k] (summed;
    with `last_only`, only the last row for each index counts)."""
    indices = _indices(indices)
    last = {i: k for k, i in enumerate(indices)}
    out = {}
    for k, i in enumerate(indices):
        if not last_only or last[i] == k:
            out[i] = grad[k] if i not in out else out[i] + grad[k]
    return _Gradients(out)


@define_op("TensorArrayGradStack", infer=_infer_grad_element)
def _grad_stack(grads, like):
    """The gradients of all elements stacked, zeros where none (`like`: the stacked value)."""
    return np.stack([_grad_or_zeros(grads, i, like[i]) for i in range(len(like))]) \
        if len(like) else np.zeros_like(like)


@define_op("TensorArrayGradGather", infer=_infer_grad_element)
def _grad_gather(grads, indices, like, *, last_only=True):
    """The gradient of a scatter's value: the gradients at `indices` stacked; with
    `last_only`, a row whose index the scatter wrote again later gets zeros (it
    was overwritten)."""
    indices = _indices(indices)
    last = {i: k for k, i in enumerate(indices)}
    return np.stack([_grad_or_zeros(grads, i, like[k]) if not last_only or last[i] == k
                     else np.zeros_like(like[k])
                     for k, i in enumerate(indices)]) if indices else np.zeros_like(like)


def _lengths(lengths):
    """The elements' first dimensions: given, or those of a TensorArray's storage."""
    if isinstance(lengths, _Storage):
        return [len(item) for item in lengths.items]
    return _indices(lengths)


@define_op("TensorArrayGradConcat", infer=_infer_grad_element)
def _grad_concat(grads, lengths, like):
    """The gradient of a split's value: the element gradients concatenated
    (`lengths`: the pieces' lengths, or the storage holding the pieces)."""
    parts, start = [], 0
    for i, n in enumerate(_lengths(lengths)):
        parts.append(_grad_or_zeros(grads, i, like[start:start + n]))
        start += n
    return np.concatenate(parts) if parts else np.zeros_like(like)


@define_op("TensorArrayGradSplit", infer=_infer_flow)
def _grad_split(grad, lengths):
    """The gradient of a concat: `grad` cut into the elements' lengths (given,
    or those of the storage)."""
    out, start = {}, 0
    for i, n in enumerate(_lengths(lengths)):
        out[i] = grad[start:start + n]
        start += n
    return _Gradients(out)


def _grad_or_zeros(grads, index, like):
    g = grads.get(index)
    return np.zeros_like(like) if g is None else g


@define_grad("TensorArrayStackV3")
def _stack_grad(op, grad):
    return [apply("TensorArrayGradFromStack", [grad], {})]


@define_grad("TensorArrayGatherV3")
def _gather_grad(op, grad):
    return [apply("TensorArrayGradScatter", [op.inputs[1], grad], {}), None]


@define_grad("TensorArrayConcatV3")
def _concat_grad(op, grad):
    return [apply("TensorArrayGradSplit", [grad, op.inputs[0]], {})]


@define_grad("TensorArrayReadV3")
def _read_grad(op, grad):
    return [apply("TensorArrayGradSet", [op.inputs[1], grad], {}), None]


@define_grad("TensorArrayWriteV3")
def _write_grad(op, grad):
    flow, index, value = op.inputs
    return [apply("TensorArrayGradDrop", [grad, index], {}), None,
            apply("TensorArrayGradRead", [grad, index, value], {})]


@define_grad("TensorArrayScatterV3")
def _scatter_grad(op, grad):
    flow, indices, value = op.inputs
    return [apply("TensorArrayGradDrop", [grad, indices], {}), None,
            apply("TensorArrayGradGather", [grad, indices, value], {})]


@define_grad("TensorArrayUnstackV3")
def _unstack_grad(op, grad):
    value = op.inputs[1]
    return [apply("TensorArrayGradDropFirst", [grad, value], {}),
            apply("TensorArrayGradStack", [grad, value], {})]


@define_grad("TensorArraySplitV3")
def _split_grad(op, grad):
    flow, value, lengths = op.inputs
    return [apply("TensorArrayGradDropFirst", [grad, lengths], {}),
            apply("TensorArrayGradConcat", [grad, lengths, value], {}), None]


not_differentiable("TensorArrayV3", "TensorArraySizeV3", "TensorArrayGradEmpty")


# The gradient ops are linear; their gradients (for gradients of gradients)
# are their adjoints: Read <-> Set, Stack <-> FromStack, Gather <-> Scatter,
# Concat <-> Split, and Add and Drop pass a map on.

@define_grad("TensorArrayGradAdd")
def _grad_add_grad(op, grad):
    return [grad] * len(op.inputs)


@define_grad("TensorArrayGradRead")
def _grad_read_grad(op, grad):
    return [apply("TensorArrayGradSet", [op.inputs[1], grad], {}), None, None]


@define_grad("TensorArrayGradSet")
def _grad_set_grad(op, grad):
    index, value = op.inputs
    return [None, apply("TensorArrayGradRead", [grad, index, value], {})]


@define_grad("TensorArrayGradDrop")
def _grad_drop_grad(op, grad):
    return [apply("TensorArrayGradDrop", [grad, op.inputs[1]], {}), None]


@define_grad("TensorArrayGradDropFirst")
def _grad_drop_first_grad(op, grad):
    return [apply("TensorArrayGradDropFirst", [grad, op.inputs[1]], {}), None]


@define_grad("TensorArrayGradFromStack")
def _grad_from_stack_grad(op, grad):
    return [apply("TensorArrayGradStack", [grad, op.inputs[0]], {})]


@define_grad("TensorArrayGradStack")
def _grad_stack_grad(op, grad):
    return [apply("TensorArrayGradFromStack", [grad], {}), None]


@define_grad("TensorArrayGradScatter")
def _grad_scatter_grad(op, grad):
    indices, value = op.inputs
    return [None, apply("TensorArrayGradGather", [grad, indices, value],
                        {"last_only": op.attrs.get("last_only", False)})]


@define_grad("TensorArrayGradGather")
def _grad_gather_grad(op, grad):
    return [apply("TensorArrayGradScatter", [op.inputs[1], grad],
                  {"last_only": op.attrs.get("last_only", True)}), None, None]


@define_grad("TensorArrayGradSplit")
def _grad_split_grad(op, grad):
    value, lengths = op.inputs
    return [apply("TensorArrayGradConcat", [grad, lengths, value], {}), None]


@define_grad("TensorArrayGradConcat")
def _grad_concat_grad(op, grad):
    return [apply("TensorArrayGradSplit", [grad, op.inputs[1]], {}), None, None]
