"""`tf.strings` and ragged tensors, eagerly and inside
`tf.function`; the expected values were recorded from TensorFlow 2.21."""

import numpy as np
import pytest

import runtime as tf

S = tf.strings


def _py(x):
    if isinstance(x, tf.RaggedTensor):
        return x.to_list()
    value = np.asarray(x.numpy())
    return value.item() if value.ndim == 0 else value.tolist()


WORDS = np.array([b"a b  c", b"", b" d "], object)
CSV = np.array([b"a,b,,c", b"", b"x"], object)
ACCENT = np.array(["héllo".encode(), b""], object)

# (name, function of tensors, numpy inputs, TF 2.21's result as Python values)
CASES = [
    ("split_whitespace", S.split, [WORDS], [[b"a", b"b", b"c"], [], [b"d"]]),
    ("split_sep", lambda x: S.split(x, sep=","), [CSV], [[b"a", b"b", b"", b"c"], [b""], [b"x"]]),
    ("split_maxsplit", lambda x: S.split(x, ",", maxsplit=1), [CSV[:1]], [[b"a", b"b,,c"]]),
    ("split_scalar", S.split, [np.array(b"a b", object)], [b"a", b"b"]),
    ("split_matrix", S.split, [np.array([[b"a b", b"c"]], object)], [[[b"a", b"b"], [b"c"]]]),
    ("join", lambda a, b: S.join([a, b], separator="-"),
     [np.array([b"a", b"b"], object), np.array([b"c", b"d"], object)], [b"a-c", b"b-d"]),
    ("join_scalar", lambda a: S.join([a, "x"]), [np.array([b"a", b"b"], object)],
     [b"ax", b"bx"]),
    ("reduce_join_axis", lambda x: S.reduce_join(x, axis=1, separator=","),
     [np.array([[b"a", b"b"], [b"c", b"d"]], object)], [b"a,b", b"c,d"]),
    ("reduce_join_all", S.reduce_join, [np.array([[b"a", b"b"], [b"c", b"d"]], object)],
     b"abcd"),
    ("reduce_join_keepdims", lambda x: S.reduce_join(x, axis=0, keepdims=True),
     [np.array([[b"a", b"b"], [b"c", b"d"]], object)], [[b"ac", b"bd"]]),
    ("length", S.length, [ACCENT], [6, 0]),
    ("length_utf8", lambda x: S.length(x, unit="UTF8_CHAR"), [ACCENT], [5, 0]),
    ("lower", S.lower, [np.array("HeLLo É".encode(), object)], "hello É".encode()),
    ("upper", S.upper, [np.array("hello é".encode(), object)], "HELLO é".encode()),
    ("strip", S.strip, [np.array([b"  a b \n", b"\t"], object)], [b"a b", b""]),
    ("substr", lambda x: S.substr(x, 1, 3), [np.array([b"hello", b"hi"], object)],
     [b"ell", b"i"]),
    ("substr_utf8", lambda x: S.substr(x, 1, 2, unit="UTF8_CHAR"),
     [np.array("héllo".encode(), object)], "él".encode()),
    ("substr_negative", lambda x: S.substr(x, -3, 2), [np.array(b"hello", object)], b"ll"),
    ("regex_replace", lambda x: S.regex_replace(x, "a+", "X"),
     [np.array([b"aaa bab"], object)], [b"X bXb"]),
    ("regex_replace_first", lambda x: S.regex_replace(x, "a", "b", replace_global=False),
     [np.array(b"aaa", object)], b"baa"),
    ("regex_replace_group", lambda x: S.regex_replace(x, "(b)", r"[\1]"),
     [np.array(b"abc", object)], b"a[b]c"),
    ("regex_full_match", lambda x: S.regex_full_match(x, "a.c"),
     [np.array([b"abc", b"abcd"], object)], [True, False]),
    ("to_number", S.to_number, [np.array([b"1.5", b"-2", b"3e2"], object)], [1.5, -2.0, 300.0]),
    ("to_number_int", lambda x: S.to_number(x, tf.int32), [np.array([b"12", b"-3"], object)],
     [12, -3]),
    ("as_string_float", S.as_string, [np.array([1.5, 2.0, 1e10], np.float32)],
     [b"1.500000", b"2.000000", b"10000000000.000000"]),
    ("as_string_int", S.as_string, [np.array([3, -4], np.int32)], [b"3", b"-4"]),
    ("as_string_precision", lambda x: S.as_string(x, precision=2),
     [np.array([1.23456])], [b"1.23"]),
    ("as_string_bool", S.as_string, [np.array([True, False])], [b"true", b"false"]),
    ("as_string_width", lambda x: S.as_string(x, width=4, fill="0"),
     [np.array([7], np.int32)], [b"0007"]),
    ("as_string_scientific", lambda x: S.as_string(x, scientific=True),
     [np.array([1.5], np.float32)], [b"1.500000e+00"]),
    ("as_string_shortest", lambda x: S.as_string(x, shortest=True),
     [np.array([1e10, 0.5, 3.0], np.float32)], [b"1e+10", b"0.5", b"3"]),
    ("unicode_split", lambda x: S.unicode_split(x, "UTF-8"),
     [np.array(["héllo".encode(), b"ab"], object)],
     [[b"h", "é".encode(), b"l", b"l", b"o"], [b"a", b"b"]]),
    ("unicode_decode", lambda x: S.unicode_decode(x, "UTF-8"),
     [np.array(["hé".encode(), b""], object)], [[104, 233], []]),
    ("unicode_decode_scalar", lambda x: S.unicode_decode(x, "UTF-8"),
     [np.array("hé".encode(), object)], [104, 233]),
    ("bytes_split", S.bytes_split, [np.array("hé".encode(), object)], [b"h", b"\xc3", b"\xa9"]),
    ("bytes_split_vector", S.bytes_split, [np.array([b"ab", b"c"], object)],
     [[b"a", b"b"], [b"c"]]),
    ("format", lambda x: S.format("{} and {}", [x, "a"]), [np.array(1, np.int32)],
     b'1 and "a"'),
]


@pytest.mark.parametrize("name, fn, args, want", CASES, ids=[c[0] for c in CASES])
def test_string_op_eagerly_and_in_a_function(name, fn, args, want):
    assert _py(fn(*[tf.constant(a) for a in args])) == want
    assert _py(tf.function(fn)(*[tf.constant(a) for a in args])) == want


# TF 2.21: tf.strings.to_hash_bucket_fast(s, 2**62) for strings of each FarmHash length class
HASHES = {0: 1936946117179621455, 1: 3694432073954588131, 3: 2640714258260161385,
          4: 1897425971756105985, 13: 2069612503150846932, 17: 2800675501336285770,
          32: 3678204687145032709, 33: 3999049019338133246, 64: 4555407945498560506,
          65: 978096718525207200, 129: 3234498929978985394, 200: 2741658912855391397}
TEXTS = {0: "", 1: "a", 3: "abc", 4: "abcd", 13: "hello world!!", 17: "0123456789abcdefg",
         32: "x" * 32, 33: "y" * 33, 64: "w" * 64, 65: "v" * 65, 129: "t" * 129, 200: "s" * 200}


def test_to_hash_bucket_fast_matches_tensorflows_farmhash():
    texts = [TEXTS[n] for n in sorted(TEXTS)]
    got = S.to_hash_bucket_fast(tf.constant(texts), 2 ** 62)
    assert got.dtype == tf.int64
    assert got.numpy().tolist() == [HASHES[n] for n in sorted(HASHES)]
    small = tf.function(lambda t: S.to_hash_bucket_fast(t, 10))(tf.constant(["", "a", "abc"]))
    assert small.numpy().tolist() == [3, 9, 5]           # TF 2.21


def test_string_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="pos 5 out of range for string b'hi' at index 0"):
        S.substr("hi", 5, 1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="StringToNumberOp could not correctly convert string: abc"):
        S.to_number("abc")
    with pytest.raises(tf.errors.InvalidArgumentError, match="convert string: 1.5"):
        S.to_number("1.5", tf.int32)
    with pytest.raises(TypeError, match="expected a string tensor, got int32"):
        S.length(tf.constant([1]))


def test_ragged_factories_and_accessors():
    rt = tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 2, 2, 4])
    assert repr(rt) == "<tf.RaggedTensor [[1, 2], [], [3, 4]]>"
    assert rt.shape.as_list() == [3, None] and rt.dtype == tf.int32 and rt.ragged_rank == 1
    assert rt.row_lengths().numpy().tolist() == [2, 0, 2]
    assert rt.row_splits.numpy().tolist() == [0, 2, 2, 4] and rt.row_splits.dtype == tf.int64
    assert rt.flat_values.numpy().tolist() == [1, 2, 3, 4]
    assert rt.nrows().numpy() == 3 and rt.value_rowids().numpy().tolist() == [0, 0, 2, 2]
    assert rt[2].numpy().tolist() == [3, 4] and rt[-1].numpy().tolist() == [3, 4]
    assert rt[0:2].to_list() == [[1, 2], []] and rt[1:].to_list() == [[], [3, 4]]
    assert rt[:-1].to_list() == [[1, 2], []] and rt[-2:].to_list() == [[], [3, 4]]
    assert int(rt[2, 1]) == 4
    assert rt.to_tensor().numpy().tolist() == [[1, 2], [0, 0], [3, 4]]
    assert rt.to_tensor(default_value=9).numpy().tolist() == [[1, 2], [9, 9], [3, 4]]
    assert tf.RaggedTensor.from_row_lengths([1., 2., 3.], [1, 0, 2]).to_list() == \
        [[1.0], [], [2.0, 3.0]]
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4).to_list() == \
        [[1, 2], [], [3], []]
    with pytest.raises(tf.errors.InvalidArgumentError, match="last row split"):
        tf.RaggedTensor.from_row_splits([1, 2], [0, 3])


def test_ragged_constant_and_specs():
    c = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert c.shape.as_list() == [3, None, None] and c.ragged_rank == 2
    assert c.to_tensor().numpy().tolist() == [[[1, 2, 0], [3, 0, 0]], [[0, 0, 0], [0, 0, 0]],
                                              [[4, 5, 6], [0, 0, 0]]]
    assert c.row_lengths().numpy().tolist() == [2, 0, 1]
    assert c[0].to_list() == [[1, 2], [3]] and c[2, 0].numpy().tolist() == [4, 5, 6]
    d = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    assert d.shape.as_list() == [2, None, 2] and d.values.shape.as_list() == [3, 2]
    assert tf.ragged.constant([[1.5], []]).dtype == tf.float32
    assert tf.ragged.constant([["a"], ["b", "c"]]).dtype == tf.string
    assert tf.ragged.constant([[]]).dtype == tf.float32
    assert repr(tf.type_spec_from_value(c)) == \
        "RaggedTensorSpec(TensorShape([3, None, None]), tf.int32, 2, tf.int64)"


def test_ragged_elementwise_and_map_flat_values():
    rt = tf.ragged.constant([[1, 2], [], [3, 4]])
    assert (rt * 10).to_list() == [[10, 20], [], [30, 40]]
    assert (rt + rt).to_list() == [[2, 4], [], [6, 8]]
    assert (1 - rt).to_list() == [[0, -1], [], [-2, -3]]
    assert (rt > 2).to_list() == [[False, False], [], [True, True]]
    assert tf.ragged.map_flat_values(tf.math.square, rt).to_list() == [[1, 4], [], [9, 16]]
    assert tf.ragged.map_flat_values(tf.add, rt, rt).to_list() == [[2, 4], [], [6, 8]]
    assert S.as_string(rt).to_list() == [[b"1", b"2"], [], [b"3", b"4"]]
    assert S.length(tf.ragged.constant([["ab"], ["c", "de"]])).to_list() == [[2], [1, 2]]


def test_ragged_in_a_function_and_returned_from_it():
    @tf.function
    def f(x, splits):
        r = tf.RaggedTensor.from_row_splits(x, splits) * 2 + 1
        assert r.shape.as_list() == [2, None]
        words = S.split(tf.constant(["a b", "c"]))
        return r.to_tensor(), r.row_lengths(), words.to_tensor(), r[1], words
    dense, lengths, words, row, ragged = f(tf.constant([1, 2, 3, 4]),
                                           tf.constant([0, 1, 4], tf.int64))
    assert dense.numpy().tolist() == [[3, 0, 0], [5, 7, 9]]
    assert lengths.numpy().tolist() == [1, 3] and row.numpy().tolist() == [5, 7, 9]
    assert _py(words) == [[b"a", b"b"], [b"c", b""]]
    assert isinstance(ragged, tf.RaggedTensor) and ragged.to_list() == [[b"a", b"b"], [b"c"]]


def test_to_tensor_gradient_reaches_the_flat_values():
    x = tf.constant([1., 2., 3.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        dense = tf.RaggedTensor.from_row_splits(x, [0, 2, 3]).to_tensor()
        y = tf.reduce_sum(dense * tf.constant([[1., 2.], [3., 4.]]))
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 2.0, 3.0]   # TF 2.21's values


def test_from_tensor_as_tensorflow():
    x = np.array([[1, 2, 0], [3, 0, 0], [4, 5, 6]], np.int32)
    assert tf.RaggedTensor.from_tensor(x).to_list() == x.tolist()
    assert tf.RaggedTensor.from_tensor(x, lengths=[1, 0, 2]).to_list() == [[1], [], [4, 5]]
    assert tf.RaggedTensor.from_tensor(x, padding=0).to_list() == [[1, 2], [3], [4, 5, 6]]
    lengths = tf.function(lambda t: tf.RaggedTensor.from_tensor(t, padding=0).row_lengths())
    assert lengths(tf.constant(x)).numpy().tolist() == [2, 1, 3]      # TF 2.21


def test_string_ragged_and_everyday_ops_survive_saved_model(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                      tf.TensorSpec([None, 3], tf.float32)])
        def f(self, s, x):
            words = S.split(S.lower(s))
            y = tf.ensure_shape(x, [None, 3])
            img = tf.image.resize(tf.reshape(y, [1, 2, 3, 1]), [4, 6])
            return (words.to_tensor(), tf.math.unsorted_segment_sum(y, [0, 1], 2), img,
                    S.to_hash_bucket_fast(s, 7), tf.math.lgamma(y + 2.0),
                    tf.io.serialize_tensor(y))
    m = M()
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    args = (tf.constant(["A b", "c"]), tf.constant(R_X))
    for want, got in zip(m.f(*args), loaded.f(*args)):
        assert want.dtype == got.dtype
        np.testing.assert_array_equal(np.asarray(got.numpy()), np.asarray(want.numpy()))


R_X = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_reductions_over_ragged_rows():
    r = tf.ragged.constant([[1., 2.], [], [5.]])
    low, high = float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)
    # TF 2.21's values (an empty row: 0, the lowest / highest float32, NaN)
    assert tf.reduce_sum(r, axis=1).numpy().tolist() == [3.0, 0.0, 5.0]
    assert tf.reduce_max(r, axis=1).numpy().tolist() == [2.0, low, 5.0]
    assert tf.reduce_min(r, axis=-1).numpy().tolist() == [1.0, high, 5.0]
    np.testing.assert_array_equal(tf.reduce_mean(r, axis=1).numpy(), [1.5, np.nan, 5.0])
    assert float(tf.reduce_sum(r)) == 8.0
    assert tf.reduce_sum(r, axis=1, keepdims=True).shape == (3, 1)
    mean = tf.reduce_mean(tf.ragged.constant([[1, 2], []]), axis=1)
    assert mean.dtype == tf.float64
    count = tf.function(lambda s: tf.reduce_sum(S.length(S.split(s)), axis=1))
    assert count(tf.constant(["ab c", "", "def"])).numpy().tolist() == [3, 0, 3]
    assert tf.reduce_sum(r, axis=0).numpy().tolist() == [6.0, 2.0]     # columns, as TF
