"""`tf.strings` with ragged results and ragged inputs.

`split`, `unicode_split`, `unicode_decode` and `bytes_split` cut each string
into pieces: a scalar gives a 1-D tensor, a tensor of rank k a RaggedTensor
of rank k + 1 (the last dimension ragged; TF's uniform outer dimensions
become row splits too), a RaggedTensor gains one ragged dimension:

    split(constant(["a b", "c"]))     # <tf.RaggedTensor [[b'a', b'b'], [b'c']]>

The elementwise string ops take RaggedTensors too (applied to the flat
values, rows kept).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import string_more_ops, text_ops
from runtime._src.ops.array_ops import reshape
from runtime._src.ragged.ragged_factory import map_flat_values
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["split", "unicode_split", "unicode_decode", "bytes_split", "length", "lower",
           "upper", "strip", "substr", "regex_replace", "regex_full_match", "to_number",
           "as_string", "to_hash_bucket_fast", "join", "reduce_join", "to_hash_bucket",
           "to_hash_bucket_strong", "unicode_transcode", "unicode_encode",
           "unicode_decode_with_offsets", "unicode_split_with_offsets", "ngrams"]


def _cut(input, flat_op, what):
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(_cut(input.flat_values, flat_op, what))
    t = text_ops.string_tensor(input, what)
    rank = t.shape.rank
    if rank is None:
        raise ValueError(f"{what}: the input's rank must be known while tracing")
    values, splits = flat_op(reshape(t, [-1]) if rank != 1 else t)
    if rank == 0:
        return values
    out = RaggedTensor.from_row_splits(values, splits, validate=False)
    dims = t.shape.dims
    for k in range(rank - 1, 0, -1):             # uniform outer dims as row splits
        if None in dims[:k + 1]:
            raise ValueError(f"{what}: inputs of rank > 1 need known dimensions, got "
                             f"{t.shape}")
        width = dims[k]
        rows = int(np.prod(dims[:k]))
        out = RaggedTensor.from_row_splits(out, np.arange(rows + 1, dtype=np.int64) * width,
                                           validate=False)
    return out


def split(input, sep=None, maxsplit=-1, name=None):
    """`tf.strings.split`: each string cut at `sep` (None: runs of whitespace),
    at most `maxsplit` times (-1: no limit)."""
    return _cut(input, lambda t: text_ops.split_flat(t, sep, maxsplit), "split")


def _check_encoding(encoding, what):
    if str(encoding).upper().replace("_", "-") != "UTF-8":
        raise ValueError(f"{what}: only input_encoding='UTF-8' is supported, got {encoding!r}")


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,
                  name=None):
    """`tf.strings.unicode_split`: each string cut into its characters."""
    _check_encoding(input_encoding, "unicode_split")
    return _cut(input, text_ops.unicode_split_flat, "unicode_split")


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):
    """`tf.strings.unicode_decode`: the code points (int32) of each string."""
    _check_encoding(input_encoding, "unicode_decode")
    return _cut(input, text_ops.unicode_decode_flat, "unicode_decode")


def unicode_decode_with_offsets(input, input_encoding, errors="replace",
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """`tf.strings.unicode_decode_with_offsets`: (code points, start byte
    offset of each character), both shaped as `unicode_decode`'s result."""
    _check_encoding(input_encoding, "unicode_decode_with_offsets")
    return (_cut(input, text_ops.unicode_decode_flat, "unicode_decode_with_offsets"),
            _cut(input, string_more_ops.char_offsets_flat, "unicode_decode_with_offsets"))


def unicode_split_with_offsets(input, input_encoding, errors="replace",
                               replacement_char=65533, name=None):
    """`tf.strings.unicode_split_with_offsets`: (characters, start byte offsets)."""
    _check_encoding(input_encoding, "unicode_split_with_offsets")
    return (_cut(input, text_ops.unicode_split_flat, "unicode_split_with_offsets"),
            _cut(input, string_more_ops.char_offsets_flat, "unicode_split_with_offsets"))


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,
                   name=None):
    """`tf.strings.unicode_encode`: each innermost row of int32 code points (a
    RaggedTensor's rows, or a dense tensor's last axis) becomes one string."""
    if not isinstance(input, RaggedTensor):
        return string_more_ops.unicode_encode(input, output_encoding, errors, replacement_char)
    codec = string_more_ops._codec(output_encoding, "unicode_encode")
    string_more_ops._check_errors(errors)
    inner = input
    while isinstance(inner.values, RaggedTensor):
        inner = inner.values
    points, splits = np.asarray(inner.values), np.asarray(inner.row_splits)
    strings = np.array([string_more_ops.encode_points(points[a:b], codec, errors,
                                                      int(replacement_char))
                        for a, b in zip(splits[:-1], splits[1:])], dtype=object)
    if inner is input:
        return convert_to_tensor(strings, dtypes.string)
    return _replace_innermost(input, convert_to_tensor(strings, dtypes.string))


def _replace_innermost(ragged, flat):
    """`ragged` with its innermost ragged level replaced by the flat `flat`."""
    if not isinstance(ragged.values.values, RaggedTensor) and not isinstance(
            ragged.values, RaggedTensor):
        return flat
    if not isinstance(ragged.values.values, RaggedTensor):
        return RaggedTensor.from_row_splits(flat, ragged.row_splits, validate=False)
    return RaggedTensor.from_row_splits(_replace_innermost(ragged.values, flat),
                                        ragged.row_splits, validate=False)


def _row_ngrams(row, widths, separator, pad_values, padding_width, preserve_short):
    out = []
    for width in widths:
        padded = row
        if pad_values is not None and width > 1:
            pad = width - 1 if padding_width is None else min(int(padding_width), width - 1)
            padded = [pad_values[0]] * pad + row + [pad_values[1]] * pad
        out.extend(separator.join(padded[i:i + width]) for i in range(len(padded) - width + 1))
    if not out and preserve_short and row:
        width = min(widths)
        pad = 0 if pad_values is None or width == 1 else (
            width - 1 if padding_width is None else min(int(padding_width), width - 1))
        padded = ([pad_values[0]] * pad if pad else []) + row + \
            ([pad_values[1]] * pad if pad else [])
        out.append(separator.join(padded))
    return out


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """`tf.strings.ngrams`: the `ngram_width`-grams (a width, or a tuple of
    widths, all of the first then of the next) of each innermost row, joined
    with `separator`; `pad_values` (one string, or a (left, right) pair)
    pads each side by `padding_width` (default width - 1; 1-grams unpadded)."""
    widths = [int(w) for w in (ngram_width if isinstance(ngram_width, (list, tuple))
                               else [ngram_width])]
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {widths}")
    if pad_values is not None:
        pairs = pad_values if isinstance(pad_values, (list, tuple)) else (pad_values,) * 2
        pad_values = [text_ops._b(p) for p in pairs]
    if padding_width is not None and int(padding_width) < 1:
        raise ValueError(f"padding_width must be greater than 0. Got {padding_width}")
    args = (widths, text_ops._b(separator), pad_values, padding_width, preserve_short_sequences)
    if isinstance(data, RaggedTensor):
        rows = [[text_ops._b(v) for v in row] for row in _innermost_rows(data)]
        grams = [_row_ngrams(r, *args) for r in rows]
        splits = np.cumsum([0] + [len(g) for g in grams])
        flat = convert_to_tensor(np.array([g for gs in grams for g in gs], dtype=object)
                                 .reshape(-1), dtypes.string)
        inner = RaggedTensor.from_row_splits(flat, splits.astype(np.int64), validate=False)
        return _rewrap_outer(data, inner)
    t = text_ops.string_tensor(data, "ngrams")
    values = np.asarray(t.numpy(), dtype=object)
    if values.ndim == 1:
        return convert_to_tensor(np.array(_row_ngrams([text_ops._b(v) for v in values],
                                                      *args), dtype=object).reshape(-1),
                                 dtypes.string)
    return ngrams(RaggedTensor.from_tensor(t), ngram_width, separator, pad_values,
                  padding_width, preserve_short_sequences).to_tensor(default_value=b"")


def _innermost_rows(ragged):
    while isinstance(ragged.values, RaggedTensor):
        ragged = ragged.values
    values, splits = np.asarray(ragged.values), np.asarray(ragged.row_splits)
    return [list(values[a:b]) for a, b in zip(splits[:-1], splits[1:])]


def _rewrap_outer(ragged, inner):
    if not isinstance(ragged.values, RaggedTensor):
        return inner
    return RaggedTensor.from_row_splits(_rewrap_outer(ragged.values, inner),
                                        ragged.row_splits, validate=False)


def bytes_split(input, name=None):
    """`tf.strings.bytes_split`: each string cut into single bytes."""
    return _cut(input, text_ops.bytes_split_flat, "bytes_split")


def _elementwise(op):
    def f(input, *args, **kwargs):
        return map_flat_values(op, input, *args, **kwargs)
    f.__name__ = op.__name__
    f.__doc__ = op.__doc__
    return f


length = _elementwise(text_ops.length)
lower = _elementwise(text_ops.lower)
upper = _elementwise(text_ops.upper)
strip = _elementwise(text_ops.strip)
substr = _elementwise(text_ops.substr)
regex_replace = _elementwise(text_ops.regex_replace)
regex_full_match = _elementwise(text_ops.regex_full_match)
to_number = _elementwise(text_ops.to_number)
as_string = _elementwise(text_ops.as_string)
to_hash_bucket_fast = _elementwise(text_ops.to_hash_bucket_fast)
to_hash_bucket = _elementwise(string_more_ops.to_hash_bucket)
to_hash_bucket_strong = _elementwise(string_more_ops.to_hash_bucket_strong)
unicode_transcode = _elementwise(string_more_ops.unicode_transcode)
unicode_script = _elementwise(string_more_ops.unicode_script)


def join(inputs, separator="", name=None):
    """`tf.strings.join`, of RaggedTensors too (with one row partition)."""
    return map_flat_values(lambda *parts: text_ops.join(list(parts), separator), *inputs)


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """`tf.strings.reduce_join`; of a RaggedTensor, over all values or its
    last (ragged) axis."""
    if not isinstance(inputs, RaggedTensor):
        return text_ops.reduce_join(inputs, axis, keepdims, separator)
    flat = inputs.flat_values
    if axis is None:
        return text_ops.reduce_join(flat, None, keepdims, separator)
    rank = inputs.shape.rank
    if (axis + rank if axis < 0 else axis) != rank - 1 or flat.shape.rank != 1 or keepdims:
        raise ValueError("tf.strings.reduce_join of a RaggedTensor: only axis=None or the "
                         "last axis (a ragged one) without keepdims")
    inner = inputs
    outer = []
    while isinstance(inner.values, RaggedTensor):
        outer.append(inner.row_splits)
        inner = inner.values
    nrows = inner.shape.dims[0]
    if nrows is None:
        nrows = inner.nrows()
        if not hasattr(nrows, "numpy"):
            raise ValueError("tf.strings.reduce_join of a RaggedTensor in a function: the "
                             "number of rows must be known when it is traced")
    joined = string_more_ops.unsorted_segment_join(flat, inner.value_rowids(), nrows, separator)
    for splits in reversed(outer):
        joined = RaggedTensor.from_row_splits(joined, splits, validate=False)
    return joined

unsorted_segment_join = string_more_ops.unsorted_segment_join
