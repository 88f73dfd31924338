"""More `tf.strings` names (hash buckets, segment joins,
unicode encode/transcode, offsets, ngrams), plus the `tf.dtypes` aliases and
`tf.debugging`'s static checks. Expected values are TF 2.21's, recorded with
the same calls."""

import numpy as np
import pytest

import runtime as tf

S = ["", "a", "hello", "hello world, this is long!", "\u00e9t\u00e9"]


def _list(t):
    return t.to_list() if isinstance(t, tf.RaggedTensor) else t.numpy().tolist()


def test_hash_buckets_are_tfs():
    assert _list(tf.strings.to_hash_bucket(S, 1000000007)) == [
        727638525, 395105680, 302950538, 947219942, 619826196]          # Hash64 (MurmurHash64A)
    assert _list(tf.strings.to_hash_bucket_strong(S, 1000000007, [1, 2])) == [
        436933189, 142192448, 889399473, 699294025, 943575693]          # SipHash-2-4
    assert _list(tf.strings.to_hash_bucket_strong(S, 10, [123456789, 987654321])) == [
        0, 1, 0, 8, 0]
    traced = tf.function(lambda s: tf.strings.to_hash_bucket(s, 1000000007))
    assert _list(traced(tf.constant(S))) == _list(tf.strings.to_hash_bucket(S, 1000000007))


def test_unsorted_segment_join():
    out = tf.strings.unsorted_segment_join(["a", "b", "c", "d"], [1, 0, 1, 3], 4, separator="-")
    assert _list(out) == [b"b", b"a-c", b"", b"d"]
    assert _list(tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [1, 0], 2)) == [
        [b"c", b"d"], [b"a", b"b"]]


def test_unicode_encode_and_transcode():
    assert _list(tf.strings.unicode_encode([[104, 233], [9731, 0]], "UTF-8")) == [
        b"h\xc3\xa9", b"\xe2\x98\x83\x00"]
    assert _list(tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [9731]]),
                                           "UTF-8")) == [b"h\xc3\xa9", b"\xe2\x98\x83"]
    assert tf.strings.unicode_encode([104, 105], "UTF-16-BE").numpy() == b"\x00h\x00i"
    assert tf.strings.unicode_encode([104, 0x110000], "UTF-8").numpy() == b"h\xef\xbf\xbd"
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range for Unicode"):
        tf.strings.unicode_encode([104, 0x110000], "UTF-8", errors="strict")
    assert _list(tf.strings.unicode_transcode(["h\u00e9llo", "ab"], "UTF-8", "UTF-16-BE")) == [
        b"\x00h\x00\xe9\x00l\x00l\x00o", b"\x00a\x00b"]
    assert _list(tf.strings.unicode_transcode([b"h\xe9llo"], "ISO-8859-1", "UTF-8")) == [
        b"h\xc3\xa9llo"]
    assert _list(tf.strings.unicode_transcode([b"h\xffllo"], "UTF-8", "UTF-8")) == [
        b"h\xef\xbf\xbdllo"]
    assert _list(tf.strings.unicode_transcode([b"h\x01llo"], "UTF-8", "UTF-8",
                                              replace_control_characters=True)) == [
        b"h\xef\xbf\xbdllo"]


def test_offsets():
    points, offsets = tf.strings.unicode_decode_with_offsets(["h\u00e9", "ab"], "UTF-8")
    assert (_list(points), _list(offsets)) == ([[104, 233], [97, 98]], [[0, 1], [0, 1]])
    chars, offsets = tf.strings.unicode_split_with_offsets(["h\u00e9", "ab"], "UTF-8")
    assert _list(chars) == [[b"h", b"\xc3\xa9"], [b"a", b"b"]]
    points, offsets = tf.strings.unicode_decode_with_offsets("h\u00e9", "UTF-8")
    assert (_list(points), _list(offsets)) == ([104, 233], [0, 1])


def test_ngrams():
    assert _list(tf.strings.ngrams(["a", "b", "c", "d"], 2)) == [b"a b", b"b c", b"c d"]
    assert _list(tf.strings.ngrams(["a", "b", "c"], 3, pad_values=("<s>", "</s>"))) == [
        b"<s> <s> a", b"<s> a b", b"a b c", b"b c </s>", b"c </s> </s>"]
    rows = tf.ragged.constant([["a", "b", "c"], ["d"]])
    assert _list(tf.strings.ngrams(rows, 2)) == [[b"a b", b"b c"], []]
    assert _list(tf.strings.ngrams(rows, 2, preserve_short_sequences=True)) == [
        [b"a b", b"b c"], [b"d"]]
    assert _list(tf.strings.ngrams(["a", "b", "c"], (1, 2), separator="_")) == [
        b"a", b"b", b"c", b"a_b", b"b_c"]


def test_dtype_aliases():
    assert tf.double is tf.float64 and tf.half is tf.float16 and tf.dtypes.double is tf.float64
    assert tf.dtypes.cast(tf.constant(1.5), tf.int32).numpy() == 1
    assert tf.dtypes.complex(1., 2.).numpy() == 1 + 2j
    assert tf.dtypes.saturate_cast(tf.constant(300.), tf.uint8).numpy() == 255
    assert str(tf.variant) == "<dtype: 'variant'>"


def test_debugging_static_checks():
    assert tf.debugging.assert_proper_iterable([1, 2]) is None
    for bad in (tf.constant([1, 2]), np.array([1, 2]), "ab"):
        with pytest.raises(TypeError, match='to be a "proper" iterable'):
            tf.debugging.assert_proper_iterable(bad)
    with pytest.raises(TypeError, match='Expected argument "values" to be iterable'):
        tf.debugging.assert_proper_iterable(3)
    same = tf.debugging.assert_same_float_dtype
    assert same([tf.constant(1.), tf.constant(2.)]) == tf.float32 and same() == tf.float32
    assert same(None, tf.float64) == tf.float64
    with pytest.raises(ValueError, match=r"tf.Tensor\(2.0, shape=\(\), dtype=float64\), "
                                         r"type=<dtype: 'float64'>, must be of the same type"):
        same([tf.constant(1.), tf.constant(2., tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>"):
        same([tf.constant(1)])
    assert tf.debugging.get_log_device_placement() is False
