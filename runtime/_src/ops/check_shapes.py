"""`debugging.assert_shapes`: check tensors' shapes against specs that share
symbolic dimension names.

    assert_shapes([(x, ("N", "Q")), (y, ("N",)), (z, (..., 4))])

Each spec entry is an int (that size), a string (a symbol: every dimension
named by it must have one size), None (any size); `...` or `"*"` as the first
entry stands for any number of leading dimensions, and the other entries
then count from the end. A string spec is one symbol per character
(`"NQ"`). As in TensorFlow, an empty spec means `(1,)`, a scalar tensor
checks as shape `(1,)`, and a one-entry spec accepts rank 0 or 1.

Everything known while tracing is checked at once (ValueError, TF's
wording); what depends on unknown dimensions is checked when the graph runs
(InvalidArgumentError with the same text).
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import SymbolicTensor, convert_to_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.check_ops import _at, _where

__all__ = ["assert_shapes"]

_ELLIPSIS = (Ellipsis, "*")


class _Undecided(Exception):
    """A check needs a dimension only known when the graph runs."""


def _parse_spec(spec):
    """(entries, has_ellipsis) with the ellipsis removed."""
    entries = list(spec) if isinstance(spec, str) else list(spec)
    if not entries:
        entries = [1]
    ellipsis = any(e is Ellipsis or (isinstance(e, str) and e == "*") for e in entries)
    if ellipsis:
        if not (entries[0] is Ellipsis or entries[0] == "*") or \
                sum(e is Ellipsis or e == "*" for e in entries) > 1:
            raise ValueError("assert_shapes: Symbol `...` or `*` for a variable number of "
                             "unspecified dimensions is only allowed as the first entry")
        entries = entries[1:]
    for e in entries:
        if not (e is None or isinstance(e, str) or
                (isinstance(e, (int, np.integer)) and not isinstance(e, bool))):
            raise TypeError(f"assert_shapes: a shape spec entry must be an int, a string "
                            f"symbol, None or ..., got {e!r}")
    return [int(e) if isinstance(e, (int, np.integer)) else e for e in entries], ellipsis


def _shape_text(shape):
    return str(tuple(shape))


def check_shapes(items, message, strict):
    """Check `items`, a list of (description, name, shape, entries, ellipsis).

    `shape` is a tuple (dims may be None) or None for an unknown rank. With
    `strict` False, raise `_Undecided` as soon as a check needs an unknown;
    errors are ValueError, re-raised by the run-time kernel as
    InvalidArgumentError.
    """
    prefix = f"{message}.  " if message else ""
    symbols = {}   # symbol -> (size, description, dimension)
    undecided = False
    for desc, name, shape, entries, ellipsis in items:
        if shape is None:
            undecided = True
            continue
        rank = len(shape)
        if ellipsis:
            ok, want = rank >= len(entries), f"rank at least {len(entries)}"
        elif len(entries) == 1:
            ok, want = rank in (0, 1), "rank in (0, 1)"
        else:
            ok, want = rank == len(entries), f"rank {len(entries)}"
        if not ok:
            raise ValueError(f"{prefix}Tensor {name} must have {want}.  Received rank {rank}, "
                             f"shape {_shape_text(shape)}")
        dims = (1,) if rank == 0 else tuple(shape)
        offset = len(dims) - len(entries)
        for k, entry in enumerate(entries):
            index = k - len(entries) if ellipsis else k
            actual = dims[offset + k]
            if entry is None:
                continue
            if isinstance(entry, str) and entry not in symbols:
                symbols[entry] = (actual, desc, index)
                continue
            if isinstance(entry, str):
                size, src_desc, src_index = symbols[entry]
                source = f"Specified by tensor {src_desc} dimension {src_index}"
            else:
                size, source = entry, "Specified explicitly"
            if size is None or actual is None:
                undecided = True
                continue
            if size != actual:
                raise ValueError(f"{prefix}{source}.  Tensor {desc} dimension {index} must have "
                                 f"size {size}.  Received size {actual}, shape "
                                 f"{_shape_text(shape)}")
    if undecided and not strict:
        raise _Undecided()


@define_op("AssertShapes", infer=lambda inputs, attrs: [], side_effect=True, num_outputs=0)
def _assert_shapes(*values, specs, message, where):
    items = [(desc, name, np.shape(v), entries, ellipsis)
             for v, (desc, name, entries, ellipsis) in zip(values, specs)]
    try:
        check_shapes(items, message, strict=True)
    except ValueError as e:
        raise InvalidArgumentError(f"{e}{_at(where)}", "AssertShapes") from None
    return ()


not_differentiable("AssertShapes")   # no outputs


def _describe(t):
    if isinstance(t, SymbolicTensor):
        return t.name, t.name
    return f"shape={_shape_text(t.shape.dims)} dtype={t.dtype.name}", ""


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """`tf.debugging.assert_shapes`: see the module docstring. `shapes` is a
    list of (tensor, spec) pairs or a dict {tensor: spec}; `data` and
    `summarize` are accepted and ignored."""
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    tensors, specs, items = [], [], []
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise TypeError(f"assert_shapes: each entry of shapes must be a (tensor, shape) "
                            f"pair, got {pair!r}")
        t = convert_to_tensor(pair[0])
        entries, ellipsis = _parse_spec(pair[1])
        desc, tname = _describe(t)
        tensors.append(t)
        specs.append((desc, tname, entries, ellipsis))
        dims = t.shape.dims
        items.append((desc, tname, None if dims is None else tuple(dims), entries, ellipsis))
    try:
        check_shapes(items, message or "", strict=False)
    except _Undecided:
        apply("AssertShapes", tensors, {"specs": tuple(specs), "message": message or "",
                                        "where": _where()})
    return None
