"""`Model.summary()`: Keras 3's table of layers, output shapes and parameter counts.

    Model: "functional"
    ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
    ┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
    ┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
    │ digits (InputLayer)             │ (None, 784)            │             0 │
    ├─────────────────────────────────┼────────────────────────┼───────────────┤
    │ dense (Dense)                   │ (None, 64)             │        50,240 │
    └─────────────────────────────────┴────────────────────────┴───────────────┘
     Total params: 50,240 (196.25 KB)
     Trainable params: 50,240 (196.25 KB)
     Non-trainable params: 0 (0.00 B)

Keras draws the table with `rich` at a line length of min(88, terminal
columns - 4) (108 with a "Connected to" column, for models that branch);
the columns get fixed shares of it, and rich then takes the excess over the
line length back from the columns evenly. This module computes the same
widths and wraps cell text at spaces the same way, without rich.
"""

import shutil

import numpy as np

from runtime._src.core import dtypes, nest
from runtime._src.keras.layers.layer import weight_size

__all__ = ["print_summary"]


def _column_widths(positions, line_length):
    """Each column's width with its padding, as rich lays out Keras's table."""
    widths, current = [], 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width + 2)          # one space of padding either side
        current += width
    # rich's last resort when fixed columns overflow: take the excess back evenly
    excess = sum(widths) - (line_length - len(widths) - 1)
    remaining, ratio, out = excess, len(widths), []
    for width in widths:
        if excess <= 0:
            out.append(width)
            continue
        take = min(width, round(remaining / ratio))
        out.append(width - take)
        remaining -= take
        ratio -= 1
    return out


def _wrap(text, width):
    """Lines of at most `width` characters, broken at spaces; a longer word has a
    line of its own, cut to `width` with an ellipsis (rich's default overflow,
    as Keras 3.15 prints "global_average_poo…")."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = word if not line else f"{line} {word}"
        if len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        if len(word) > width:
            lines.append(word[:width - 1] + "…")
            line = ""
    if line or not lines:
        lines.append(line)
    return lines


def _table(rows, header, widths, alignment):
    inner = [w - 2 for w in widths]

    def border(left, mid, right, fill):
        return left + mid.join(fill * w for w in widths) + right

    def row_lines(cells):
        wrapped = [_wrap(c, w) for c, w in zip(cells, inner)]
        height = max(len(w) for w in wrapped)
        out = []
        for i in range(height):
            parts = []
            for lines, w, align in zip(wrapped, inner, alignment):
                text = lines[i] if i < len(lines) else ""
                parts.append(" " + (text.rjust(w) if align == "right" else text.ljust(w)) + " ")
            out.append(parts)
        return out

    lines = [border("┏", "┳", "┓", "━")]
    lines += ["┃" + "┃".join(p) + "┃" for p in row_lines(header)]
    lines.append(border("┡", "╇", "┩", "━"))
    for i, cells in enumerate(rows):
        if i:
            lines.append(border("├", "┼", "┤", "─"))
        lines += ["│" + "│".join(p) + "│" for p in row_lines(cells)]
    lines.append(border("└", "┴", "┘", "─"))
    return lines


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _output_shape(layer):
    nodes = layer._inbound_nodes
    if nodes:
        shapes = nest.map_structure(lambda t: _shape_text(t.shape), nodes[-1].outputs)
    elif getattr(layer, "_build_output_shape", None) is not None:
        shapes = _shape_text(layer._build_output_shape)
    else:
        return "?"
    flat = nest.flatten(shapes)
    return flat[0] if len(flat) == 1 else str(shapes).replace("'", "")


def _memory(variables):
    unique = {id(v): v for v in variables}.values()
    return sum(weight_size(v) * np.dtype(dtypes.as_dtype(v.dtype).as_numpy_dtype).itemsize
               for v in unique)


def _readable(size):
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _connections(layer, relevant):
    found = []
    for node in layer._inbound_nodes:
        if node not in relevant:
            continue
        for t in node.input_tensors:
            source, node_index, tensor_index = t._keras_history
            found.append(f"{source.name}[{node_index}][{tensor_index}]")
    return ", ".join(found) or "-"


def print_summary(model, layers, relevant_nodes=None, line_length=None, positions=None,
                  print_fn=None):
    """Print `model`'s table; `relevant_nodes` (the functional graph's nodes)
    adds the "Connected to" column."""
    branching = relevant_nodes is not None
    if branching:
        default, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        alignment = ["left", "left", "right", "left"]
    else:
        default, positions = 88, positions or [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        alignment = ["left", "left", "right"]
    line_length = line_length or min(default, shutil.get_terminal_size().columns - 4)
    widths = _column_widths(positions, line_length)
    rows = []
    for layer in layers:
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        cells = [f"{layer.name} ({type(layer).__name__})", _output_shape(layer), params]
        if branching:
            cells.append(_connections(layer, relevant_nodes))
        rows.append(cells)
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    counts = [sum(weight_size(v) for v in trainable),
              sum(weight_size(v) for v in non_trainable)]
    sizes = [_memory(trainable), _memory(non_trainable)]
    optimizer = getattr(model, "optimizer", None)
    extra = []
    if optimizer is not None and getattr(optimizer, "built", False):
        opt_vars = optimizer.variables
        extra.append(("Optimizer params", sum(weight_size(v) for v in opt_vars),
                      _memory(opt_vars)))
    lines = [f'Model: "{model.name}"'] + _table(rows, header, widths, alignment)
    total = sum(counts) + sum(e[1] for e in extra)
    total_size = sum(sizes) + sum(e[2] for e in extra)
    lines.append(f" Total params: {total:,} ({_readable(total_size)})")
    lines.append(f" Trainable params: {counts[0]:,} ({_readable(sizes[0])})")
    lines.append(f" Non-trainable params: {counts[1]:,} ({_readable(sizes[1])})")
    for label, count, size in extra:
        lines.append(f" {label}: {count:,} ({_readable(size)})")
    text = "\n".join(lines)
    if print_fn is None:
        print(text)
    else:
        print_fn(text)
