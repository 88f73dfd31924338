"""`print` (`tf.print`) and TensorFlow's text forms of tensor values.

`print(*inputs)` writes to stderr by default. Eagerly it prints at once;
while tracing it adds a side-effecting `PrintV2` node that prints at every
run of the graph, in program order. Python values among the inputs print as
Python prints them (`pprint.pformat`, a top-level string as is); tensors and
Variables print their value:

    >>> print("x:", constant([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), output_stream=sys.stdout)
    x: [0 1 2 ... 7 8 9]

Element formats (TensorFlow's, checked on TF 2.21):
  - bool: `1` / `0`; integers: decimal.
  - float32 / float16: `%.6g` when it reads back as the same float32, else
    `%.9g` (1/3 -> `0.333333343`, 0.5 -> `0.5`, 1.0 -> `1`).
  - float64: `%.15g` when it reads back exactly, else `%.17g`.
  - string: double-quoted with C escapes (`"a\\n"`); non-ASCII bytes as octal.
Layout: the first and last `summarize` (default 3) entries of each dimension,
`...` between them when a dimension has more than 2 * summarize; rows on new
lines with one space of indent per level (`[[0 1 2]\\n [3 4 5]]`).

`summarize_v1` is the older layout (`1 2 3...`) used by `Assert` messages.
"""

import pprint
import sys

import numpy as np

from runtime._src.core import nest
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops.shape_rules import static_int

__all__ = ["print_v2", "format_element", "summarize_v2", "summarize_v1"]

_STREAM_NAMES = {"sys.stderr": "stderr", "sys.stdout": "stdout",
                 "stderr": "stderr", "stdout": "stdout"}


# --- element and tensor formatting ----------------------------------------------

def _shortest_float(x, short, long, np_type):
    if np.isnan(x):
        return "nan"
    s = "%.*g" % (short, x)
    if np_type(float(s)) != np_type(x):
        s = "%.*g" % (long, x)
    return s


def _c_escape(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    out = []
    specials = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5C: "\\\\"}
    for b in data:
        if b in specials:
            out.append(specials[b])
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    return "".join(out)


def format_element(x, print_v2=True):
    """One element as TensorFlow prints it (see the module docstring)."""
    if isinstance(x, (bytes, str)):
        if print_v2:
            return '"' + _c_escape(x) + '"'
        return x.decode("utf-8", "backslashreplace") if isinstance(x, bytes) else x
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (np.float16, np.float32)):
        return _shortest_float(float(x), 6, 9, np.float32)
    if isinstance(x, (float, np.floating)):
        return _shortest_float(float(x), 15, 17, np.float64)
    return str(x)


def summarize_v2(value, summarize=3):
    """`tf.print`'s form of a numpy value: `[0 1 2 ... 7 8 9]`, rows on new lines.

    `summarize` entries are kept at each end of every dimension; -1 or None
    means all (None is TensorFlow's default of 3 for tf.print).
    """
    arr = np.asarray(value)
    if arr.ndim == 0:
        return format_element(arr[()])
    if arr.size == 0:
        return "[]"
    ends = arr.size if summarize is None or summarize < 0 else min(summarize, arr.size)
    parts = []
    _v2_dim(arr, (), ends, parts)
    return "".join(parts)


def _v2_dim(arr, index, ends, parts):
    """Append the text of `arr[index]` (index: a tuple prefix) to `parts`."""
    dim = len(index)
    if dim == arr.ndim:
        parts.append(format_element(arr[index]))
        return
    n = arr.shape[dim]
    rest = arr.ndim - dim - 1
    spacing = " " if rest == 0 else "\n" * rest + " " * (dim + 1)
    shown = range(min(ends, n))
    tail = range(max(ends, n - ends), n)
    parts.append("[")
    for i in shown:
        if i:
            parts.append(spacing)
        _v2_dim(arr, index + (i,), ends, parts)
    if n > 2 * ends:
        parts.append(spacing + "...")
    for i in tail:
        parts.append(spacing)
        _v2_dim(arr, index + (i,), ends, parts)
    parts.append("]")


def summarize_v1(value, summarize=3):
    """The older form used in Assert messages: the first `summarize` entries
    in row-major order, `...` where entries were left out (`[1 2 3...]...`)."""
    arr = np.asarray(value)
    if arr.ndim == 0:
        return format_element(arr[()], print_v2=False)
    flat = arr.reshape(-1)
    limit = flat.size if summarize is None or summarize < 0 else min(summarize, flat.size)
    parts = []
    _v1_dim(arr.shape, 0, flat, limit, [0], parts)
    if limit < flat.size:
        parts.append("...")
    return "".join(parts)


def _v1_dim(shape, dim, flat, limit, index, parts):
    if index[0] >= limit:
        return
    if dim == len(shape) - 1:
        for i in range(shape[dim]):
            if index[0] >= limit:
                if dim != 0:
                    parts.append("...")
                return
            if i:
                parts.append(" ")
            parts.append(format_element(flat[index[0]], print_v2=False))
            index[0] += 1
        return
    for _ in range(shape[dim]):
        opened = index[0] < limit
        if opened:
            parts.append("[")
        _v1_dim(shape, dim + 1, flat, limit, index, parts)
        if opened:
            parts.append("]")


# --- the PrintV2 op ------------------------------------------------------------

@define_op("PrintV2", infer=lambda inputs, attrs: [], side_effect=True, num_outputs=0)
def _print_v2(*values, parts, summarize, output_stream, end, groups=None):
    pieces, at = [parts[0]], 0
    for k, text in enumerate(parts[1:]):
        size = 1 if groups is None else groups[k]
        if size == 1:
            pieces.append(summarize_v2(values[at], summarize))
        else:                               # a RaggedTensor: flat values, row splits
            pieces.append(_ragged_text(values[at], values[at + 1:at + size]))
        at += size
        pieces.append(text)
    _write("".join(pieces) + end, output_stream)
    return ()


not_differentiable("PrintV2")        # no outputs


def _ragged_text(flat, splits):
    """A RaggedTensor's values as nested lists, as tf.print shows one."""
    rows = [v.decode("utf-8", "replace") if isinstance(v, bytes) else v
            for v in np.asarray(flat).tolist()]
    for s in reversed(splits):
        rows = [rows[a:b] for a, b in zip(s[:-1], s[1:])]
    return str(rows)


def _write(text, output_stream):
    if output_stream == "stderr":
        stream = sys.stderr
    elif output_stream == "stdout":
        stream = sys.stdout
    elif isinstance(output_stream, str) and output_stream.startswith("file://"):
        with open(output_stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text)
        return
    else:
        stream = output_stream
    stream.write(text)
    stream.flush()


def _resolve_stream(output_stream):
    """The stream attr: 'stderr', 'stdout', 'file://path', or a file-like object."""
    if output_stream is None or output_stream is sys.stderr or output_stream is sys.__stderr__:
        return "stderr"
    if output_stream is sys.stdout or output_stream is sys.__stdout__:
        return "stdout"
    if isinstance(output_stream, str):
        if output_stream in _STREAM_NAMES:
            return _STREAM_NAMES[output_stream]
        if output_stream.startswith("file://"):
            return output_stream
    elif hasattr(output_stream, "write"):
        return output_stream
    raise ValueError(
        f"print: unsupported output_stream {output_stream!r}; expected sys.stderr, "
        "sys.stdout, 'sys.stderr', 'sys.stdout', 'file://<path>' or an object with "
        "a write() method")


def _template(inputs, sep):
    """Split the inputs into literal text parts and the tensors between them."""
    placeholder = "__TF_PRINT_TENSOR__"
    while any(placeholder in str(x) for x in nest.flatten(list(inputs))
              if isinstance(x, str)):
        placeholder += "_"
    tensors, templates, groups = [], [], []
    for item in inputs:
        if isinstance(item, str):
            templates.append(item)
            continue
        leaves = []
        for leaf in nest.flatten(item):
            if isinstance(leaf, Tensor) or reads_as_tensor(leaf):
                tensors.append(convert_to_tensor(leaf))
                leaves.append(placeholder)
                groups.append(1)
            elif hasattr(leaf, "nested_row_splits") and hasattr(leaf, "flat_values"):
                splits = list(leaf.nested_row_splits)     # a RaggedTensor
                tensors += [leaf.flat_values] + splits
                leaves.append(placeholder)
                groups.append(1 + len(splits))
            elif hasattr(leaf, "dense_shape") and hasattr(leaf, "_map_values_op"):
                # A SparseTensor prints as TF prints it: its parts in a quoted string.
                tensors += [leaf.indices, leaf.values, leaf.dense_shape]
                leaves.append(placeholder + "S")
                groups += [1, 1, 1]
            else:
                leaves.append(leaf)
        text = pprint.pformat(nest.pack_sequence_as(item, leaves))
        text = text.replace(repr(placeholder + "S"), f"'SparseTensor(indices={placeholder}, "
                            f"values={placeholder}, shape={placeholder})'")
        templates.append(text.replace(repr(placeholder), placeholder))
    return tensors, tuple(sep.join(templates).split(placeholder)), tuple(groups)


def print_v2(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """`tf.print`: print tensors (at every graph run) and Python values.

    `output_stream` defaults to sys.stderr (whatever sys.stderr is when the
    print runs, so redirections such as pytest's capsys see it).

    Returns None. While tracing, the print is a node of the graph and happens
    each time the graph runs, in program order with other side effects.
    """
    stream = _resolve_stream(output_stream)
    if summarize is None:
        summarize = 3
    tensors, parts, groups = _template(inputs, sep)
    attrs = {"parts": parts, "summarize": static_int(summarize, "print", "summarize"),
             "output_stream": stream,
             "end": end}
    if len(groups) != len(tensors):
        attrs["groups"] = groups
    apply("PrintV2", tensors, attrs)
    return None
