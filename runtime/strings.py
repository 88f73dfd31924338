"""`tf.strings`: string ops (runtime/_src/ops/string_ops.py, text_ops.py; the
ragged results in runtime/_src/ragged/ragged_string_ops.py).

    strings.format("x={}", [x])              # a scalar string tensor: b'x=[1 2 3]'
    strings.split(["a b", "c"])              # <tf.RaggedTensor [[b'a', b'b'], [b'c']]>
    strings.to_hash_bucket_fast(s, 100)      # FarmHash buckets, as TensorFlow's
"""

from runtime._src.ops.string_ops import format  # TensorFlow's name
from runtime._src.ragged.ragged_string_ops import (as_string, bytes_split, join,
                                                   length, lower, reduce_join, regex_full_match,
                                                   regex_replace, split, strip, substr,
                                                   to_hash_bucket, to_hash_bucket_fast,
                                                   to_hash_bucket_strong, to_number,
                                                   unicode_decode, unicode_decode_with_offsets,
                                                   unicode_encode, unicode_script, unicode_split,
                                                   unicode_split_with_offsets, unicode_transcode,
                                                   unsorted_segment_join, ngrams, upper)

__all__ = ["format", "split", "join", "reduce_join", "length", "lower", "upper", "strip",
           "substr", "regex_replace", "regex_full_match", "to_number", "as_string",
           "unicode_split", "unicode_decode", "bytes_split", "to_hash_bucket_fast",
           "to_hash_bucket", "to_hash_bucket_strong", "unicode_transcode", "unicode_encode", "unicode_script",
           "unicode_decode_with_offsets", "unicode_split_with_offsets", "ngrams",
           "unsorted_segment_join"]
