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
from runtime._src.ops import text_ops
from runtime._src.ops.array_ops import reshape
from runtime._src.ragged.ragged_factory import map_flat_values
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["split", "unicode_split", "unicode_decode", "bytes_split", "length", "lower",
           "upper", "strip", "substr", "regex_replace", "regex_full_match", "to_number",
           "as_string", "to_hash_bucket_fast", "join", "reduce_join"]


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
join = text_ops.join
reduce_join = text_ops.reduce_join
del dtypes, convert_to_tensor
