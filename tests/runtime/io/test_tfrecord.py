"""tf.train.Example protos, TFRecord files and tf.io.parse_* against TF 2.21.

The recorded values (tests/data/tfrecord/recorded.json and the three TFRecord
files beside it) were written by TensorFlow 2.21 with
tools/record_tfrecord.py: the bytes and text of each message, TF's own
TFRecord files (plain, GZIP, ZLIB), and the results and error messages of
the parse cases, replayed here eagerly and inside tf.function. The facts
written as literals below (errors, API behaviour) are TF 2.21's too.
"""

import copy
import os
import pickle
import struct

import numpy as np
import pytest

import runtime as tf
from runtime._src.io.crc32c import crc32c, masked_crc32c
from tests.runtime.io.tfrecord_recorded import CASES, DATA, RECORDED, assert_outcome

T = tf.train
MESSAGES = RECORDED["messages"]


# --- messages ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_message_bytes_text_and_parse_match_tf(name):
    rec = MESSAGES[name]
    m = CASES.message(tf, name)
    assert m.SerializeToString().hex() == rec["bytes"]
    assert str(m) == rec["text"] and repr(m) == rec["text"]
    assert m.ByteSize() == rec["size"]
    back = type(m).FromString(bytes.fromhex(rec["bytes"]))
    assert back == m and str(back) == rec["text"]
    fresh = type(m)()
    assert fresh.ParseFromString(bytes.fromhex(rec["bytes"])) == rec["size"]
    assert fresh == m


def test_message_attribute_access_and_containers():
    ex = T.Example(features=T.Features(feature={
        "a": T.Feature(int64_list=T.Int64List(value=np.array([1, 2], np.int32))),
        "f": T.Feature(float_list=T.FloatList(value=[0.1, 2]))}))
    assert ex.features.feature["a"].int64_list.value == [1, 2]
    assert list(ex.features.feature["f"].float_list.value) == [0.10000000149011612, 2.0]
    assert type(ex.features.feature["f"].float_list.value[1]) is float
    assert repr(ex.features.feature["a"].int64_list.value) == "[1, 2]"
    assert sorted(ex.features.feature) == ["a", "f"] and "a" in ex.features.feature
    assert ex.features.feature.get("zz") is None and "zz" not in ex.features.feature
    ex.features.feature["new"].bytes_list.value.append(b"x")          # adds the entry
    assert ex.features.feature["new"].WhichOneof("kind") == "bytes_list"
    result = {k: getattr(f, f.WhichOneof("kind")).value for k, f in
              ex.features.feature.items()}
    assert result["new"] == [b"x"]
    fl = T.FeatureList(feature=[T.Feature(int64_list=T.Int64List(value=[5]))])
    fl.feature.add(float_list=T.FloatList(value=[1.5]))
    assert len(fl.feature) == 2 and fl.feature[1].float_list.value == [1.5]
    assert repr(fl.feature) == "[int64_list {\n  value: 5\n}\n, float_list {\n  value: 1.5\n}\n]"
    assert str(T.Int64List(value=[1, 2])) == "value: 1\nvalue: 2\n"
    assert T.Features(feature={"a": {"int64_list": {"value": [1]}}}) == T.Features(
        feature={"a": T.Feature(int64_list=T.Int64List(value=[1]))})


def test_message_presence_and_oneof_follow_protobuf():
    f = T.Feature(int64_list=T.Int64List(value=[1]))
    f.float_list.value.append(2.0)                       # switching the oneof
    assert (f.WhichOneof("kind"), f.HasField("int64_list")) == ("float_list", False)
    assert str(f) == "float_list {\n  value: 2\n}\n"
    g = T.Feature()
    assert g.int64_list.value == [] and g.WhichOneof("kind") is None
    assert g.SerializeToString() == b"" and not g.HasField("int64_list")
    h = T.Feature(int64_list=T.Int64List())               # set, though empty
    assert h.HasField("int64_list") and h.SerializeToString() == b"\x1a\x00"
    assert h != g and T.Example() != T.Features() and T.Example() != None  # noqa: E711
    h.ClearField("int64_list")
    assert h == g
    ex = T.Example()
    ex.features.feature["x"].int64_list.value.extend([3, 4])
    assert ex.HasField("features") and ex.SerializeToString() == bytes.fromhex(
        "0a0d0a0b0a017812061a040a020304")
    assert str(T.SequenceExample()) == "" and T.Example().ListFields() == []


@pytest.mark.parametrize("call, error, message", [
    (lambda: T.Int64List(value=[1.5]), TypeError, "'float' object cannot be interpreted as "
     "an integer"),
    (lambda: T.Int64List(value=[True]), TypeError, "Field tensorflow.Int64List.value: "
     "Expected an int, got a boolean."),
    (lambda: T.Int64List(value=[2 ** 63]), ValueError, "Value out of range: "
     "9223372036854775808"),
    (lambda: T.Int64List(value=5), TypeError, "must assign iterable"),
    (lambda: T.FloatList(value=["1"]), TypeError, "must be real number, not str"),
    (lambda: T.BytesList(value=["abc"]), TypeError, "expected bytes, str found"),
    (lambda: T.Example(foo=1), ValueError, 'Protocol message Example has no "foo" field.'),
    (lambda: setattr(T.Example(), "features", T.Features()), AttributeError,
     'Assignment not allowed to message field "features" in protocol message object.'),
    (lambda: setattr(T.Int64List(), "value", [1]), AttributeError, 'Assignment not allowed '
     'to map, or repeated field "value" in protocol message object.'),
    (lambda: setattr(T.Features(), "feature", {}), AttributeError, 'Assignment not allowed '
     'to map, or repeated field "feature" in protocol message object.'),
    (lambda: T.Features().feature.__setitem__("x", T.Feature()), ValueError,
     "Message objects may not be assigned"),
    (lambda: T.Features(feature={1: T.Feature()}), TypeError,
     "bad argument type for built-in operation"),
    (lambda: T.Example.FromString(b"\xff\xff"), ValueError, "Error parsing message with type "
     "'tensorflow.Example': Wire format was corrupt"),
    (lambda: T.Example.FromString("abc"), TypeError, "expected bytes, str found"),
    (lambda: hash(T.Example()), TypeError, "unhashable type: 'Example'"),
])
def test_message_errors_are_tfs(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_message_values_from_tensors_and_numpy_views():
    assert T.Int64List(value=[tf.constant(3), np.int32(4)]).value == [3, 4]
    assert T.Int64List(value=tf.constant([1, 2])).value == [1, 2]
    assert T.FloatList(value=[tf.constant(1.5, tf.float64), np.float16(2.5), True]).value == \
        [1.5, 2.5, 1.0]
    for bad, name in [(np.bool_(True), "numpy.bool"), (np.float64(1), "numpy.float64")]:
        with pytest.raises(TypeError, match=f"^'{name}' object cannot be interpreted as an "
                                            "integer$"):
            T.Int64List(value=[bad])
    assert np.array(T.FloatList(value=[0.5]).value).dtype == np.float32
    assert np.array(T.Int64List().value).dtype == np.int64
    assert np.array(T.BytesList(value=[b"ab"]).value).dtype == np.dtype("S2")
    assert np.array(T.BytesList().value).dtype == np.dtype("S1")


def test_message_copy_pickle_and_bytes_keys():
    ex = CASES.message(tf, "several")
    assert copy.deepcopy(ex) == ex and pickle.loads(pickle.dumps(ex)) == ex
    other = T.Example()
    other.CopyFrom(ex)
    assert other == ex
    other.MergeFrom(T.Example(features=T.Features(feature={
        "x": T.Feature(int64_list=T.Int64List(value=[9]))})))
    assert other.features.feature["x"].int64_list.value == [9]       # a map entry replaced
    assert T.Features(feature={b"a": T.Feature()}).feature["a"] == T.Feature()


# --- TFRecord files ------------------------------------------------------------------------------

FILES = RECORDED["files"]
RECORDS = [bytes.fromhex(MESSAGES[n]["bytes"]) for n in RECORDED["file_records"]]


@pytest.mark.parametrize("compression", sorted(FILES))
def test_tf_written_tfrecord_files_read_here(compression):
    path = os.path.join(DATA, FILES[compression])
    ds = tf.data.TFRecordDataset(path, compression_type=compression or None)
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert repr(ds) == ("<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, "
                        "name=None)>")
    assert [r.numpy() for r in ds] == RECORDS

    @tf.function
    def total_length(p):
        n = tf.constant(0)
        for r in tf.data.TFRecordDataset(p, compression_type=compression or None):
            n += tf.strings.length(r)
        return n
    assert int(total_length(tf.constant(path))) == sum(len(r) for r in RECORDS)


@pytest.mark.parametrize("compression", sorted(FILES))
def test_our_tfrecord_writer_writes_tfs_bytes(tmp_path, compression):
    path = str(tmp_path / "out.tfrecord")
    options = tf.io.TFRecordOptions(compression_type=compression)
    with tf.io.TFRecordWriter(path, options) as w:
        for r in RECORDS:
            w.write(r)
    with open(path, "rb") as ours, open(os.path.join(DATA, FILES[compression]), "rb") as tfs:
        assert ours.read() == tfs.read()


def test_writer_flush_and_close_as_tf(tmp_path):
    path = str(tmp_path / "f.tfrecord")
    w = tf.io.TFRecordWriter(path, "GZIP")
    w.write(b"a" * 100)
    w.flush()
    w.write(b"b" * 100)
    w.close()
    w.close()                                          # a second close is fine
    with open(path, "rb") as f:                        # TF 2.21's bytes (a partial flush)
        assert f.read().hex() == ("1f8b08000000000000034a618000e77899fb897400f22bb6fe0508b014"
                                  "243b93e800aed85b6d000018131775e8000000")
    for call in (lambda: w.write(b"x"), w.flush):
        with pytest.raises(tf.errors.FailedPreconditionError, match="^Writer is closed.$"):
            call()


def _corrupt(tmp_path, name, edit):
    data = bytearray(open(os.path.join(DATA, FILES[""]), "rb").read())
    edit(data)
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return str(path)


@pytest.mark.parametrize("name, edit, error, message", [
    ("truncated", lambda d: d.__delitem__(slice(-3, None)), tf.errors.DataLossError,
     "truncated record at {last}' failed with Read less bytes than requested"),
    ("data_crc", lambda d: d.__setitem__(14, d[14] ^ 1), tf.errors.DataLossError,
     "corrupted record at 12"),
    ("length_crc", lambda d: d.__setitem__(9, d[9] ^ 1), tf.errors.DataLossError,
     "corrupted record at 0 (Is this even a TFRecord file?)"),
])
def test_damaged_tfrecord_files_raise_tfs_errors(tmp_path, name, edit, error, message):
    path = _corrupt(tmp_path, name, edit)
    last = sum(len(r) + 16 for r in RECORDS[:-1])
    with pytest.raises(error) as info:
        list(tf.data.TFRecordDataset(path))
    assert str(info.value) == message.format(last=last)


def test_missing_file_and_wrong_compression(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="nope.tfrecord; No such file or "):
        list(tf.data.TFRecordDataset(str(tmp_path / "nope.tfrecord")))
    with pytest.raises(tf.errors.DataLossError) as info:
        list(tf.data.TFRecordDataset(os.path.join(DATA, FILES[""]), "GZIP"))
    assert str(info.value) == "inflate() failed with error -3: incorrect header check"
    with pytest.raises(ValueError, match='Not a valid compression_type: "BAD"'):
        tf.io.TFRecordOptions("BAD")
    with pytest.raises(TypeError, match="The `filenames` argument must contain `tf.string` "
                                        "elements. Got `tf.int32` elements."):
        tf.data.TFRecordDataset(5)
    assert tf.io.TFRecordOptions.get_compression_type_string("GZIP") == "GZIP"
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""


def test_crc32c_and_tfrecord_frame():
    assert crc32c(b"123456789") == 0xE3069283          # the CRC-32C check value
    assert crc32c(b"") == 0
    data = np.random.default_rng(0).integers(0, 256, 70001, dtype=np.uint8).tobytes()
    table = [0] * 256
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table[i] = c
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    assert crc32c(data) == crc ^ 0xFFFFFFFF            # the blockwise path, bytewise
    assert struct.pack("<I", masked_crc32c(b"hello")) == b"\xbb\x1f\x1c\x19"


def test_dataset_tfrecord_writer_eagerly_and_traced(tmp_path):
    records = tf.data.Dataset.from_tensor_slices(RECORDS)
    path = str(tmp_path / "w.tfrecord")
    assert tf.data.experimental.TFRecordWriter(path, "GZIP").write(records) is None
    with open(path, "rb") as ours, open(os.path.join(DATA, FILES["GZIP"]), "rb") as tfs:
        assert ours.read() == tfs.read()

    @tf.function
    def write(p):
        tf.data.experimental.TFRecordWriter(p).write(records.take(2))
    write(tf.constant(str(tmp_path / "t.tfrecord")))
    assert [r.numpy() for r in tf.data.TFRecordDataset(str(tmp_path / "t.tfrecord"))] == \
        RECORDS[:2]
    with pytest.raises(TypeError, match="`dataset` must produce scalar `DT_STRING` tensors"):
        tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.range(3))


def test_reader_datasets_match_tf(tmp_path):
    rec = RECORDED["datasets"]
    (tmp_path / "t.txt").write_bytes(b"a\nb\r\nc\n\nd")
    lines = tf.data.TextLineDataset(str(tmp_path / "t.txt"))
    assert [x.numpy().hex() for x in lines] == rec["text_lines"]
    (tmp_path / "f.bin").write_bytes(bytes(range(19)))
    ds = tf.data.FixedLengthRecordDataset(str(tmp_path / "f.bin"), 4, header_bytes=2,
                                          footer_bytes=1)
    assert [x.numpy().hex() for x in ds] == rec["fixed_length"]
    bad = tf.data.FixedLengthRecordDataset(str(tmp_path / "f.bin"), 5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="has body length 19 bytes, which "
                       r"is not an exact multiple of the record length \(5 bytes\)"):
        list(bad)
    paths = []
    for i, n in enumerate([3, 1, 4, 2]):
        paths.append(str(tmp_path / f"p{i}.tfrecord"))
        with tf.io.TFRecordWriter(paths[-1]) as w:
            for j in range(n):
                w.write(f"{i}-{j}")
    for k in (1, 2, 3):
        got = tf.data.TFRecordDataset(paths, num_parallel_reads=k)
        assert [x.numpy().decode() for x in got] == rec[f"interleave_{k}"]
    names = tf.data.Dataset.from_tensor_slices(paths[:2])
    assert [x.numpy() for x in tf.data.TFRecordDataset(names)] == [b"0-0", b"0-1", b"0-2",
                                                                    b"1-0"]


# --- parsing ----------------------------------------------------------------------------------

PARSE = {case[0]: case for case in CASES.PARSE}


@pytest.mark.parametrize("label", sorted(PARSE))
def test_parse_matches_tf_eagerly_and_traced(label):
    case, rec = PARSE[label], RECORDED["parse"][label]
    assert_outcome(rec, lambda: CASES.run_parse(tf, case), f"{label} eager")
    value = CASES.serialized(tf, case[2])
    if isinstance(value, list) and not value:
        return
    traced = tf.function(lambda s: CASES.run_parse(tf, case, s))
    assert_outcome(rec, lambda: traced(tf.constant(value)), f"{label} traced")


def test_parse_inside_dataset_map_reads_tf_files():
    features = {"x": tf.io.FixedLenFeature([2], tf.int64, default_value=[0, 0]),
                "y": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)}
    ds = tf.data.TFRecordDataset(os.path.join(DATA, FILES["GZIP"]), "GZIP")
    singles = [d["x"].numpy().tolist() for d in
               ds.map(lambda r: tf.io.parse_single_example(r, features))]
    want = [[0, 0]] * len(RECORDS)
    for i, name in enumerate(RECORDED["file_records"]):
        if "x" in CASES.MESSAGES[name]:
            want[i] = CASES.MESSAGES[name]["x"][1]
    assert singles == want
    batches = list(ds.batch(4).map(lambda r: tf.io.parse_example(r, features)))
    sizes = [min(4, len(RECORDS) - i) for i in range(0, len(RECORDS), 4)]
    assert [b["x"].shape.as_list() for b in batches] == [[n, 2] for n in sizes]
    assert batches[1]["y"].numpy().tolist() == [[0, 0, 0], [0.5, 0, 0], [1.5, 2.5, 3.5],
                                                [0, 0, 0]]


def test_parse_example_dataset_and_compression_as_a_tensor():
    features = {"x": tf.io.FixedLenFeature([2], tf.int64, default_value=[-1, -1])}
    ds = tf.data.TFRecordDataset(os.path.join(DATA, FILES["ZLIB"]), tf.constant("ZLIB"))
    parsed = ds.batch(6).apply(tf.data.experimental.parse_example_dataset(features))
    assert parsed.element_spec == {"x": tf.TensorSpec([None, 2], tf.int64)}
    assert [b["x"].shape.as_list()[0] for b in parsed] == [6, len(RECORDS) - 6]
    with pytest.raises(TypeError, match="Input dataset should be a dataset of vectors of "
                                        "strings. Instead it is `TensorSpec"):
        ds.apply(tf.data.experimental.parse_example_dataset(features))


@pytest.mark.parametrize("features, error, message", [
    ({}, ValueError, "Invalid argument: features cannot be empty."),
    ({"a": tf.io.FixedLenFeature(None, tf.int64)}, ValueError, "Missing shape for feature a. "
     "Received feature=FixedLenFeature(shape=None, dtype=tf.int64, default_value=None)."),
    ({"a": tf.io.FixedLenFeature([-1], tf.int64)}, ValueError, "Dimension -1 must be >= 0"),
    ({"a": tf.io.FixedLenSequenceFeature([], tf.int64)}, ValueError,
     "Unsupported: FixedLenSequenceFeature requires allow_missing to be True."),
    ({"a": tf.io.FixedLenFeature([2], tf.int32)}, tf.errors.InvalidArgumentError,
     "Value for attr 'Tdense' of int32 is not in the list of allowed values: float, int64, "
     "string"),
    ({"a": tf.io.FixedLenFeature([3], tf.int64, default_value=-1)},
     tf.errors.InvalidArgumentError,
     "Input to reshape is a tensor with 1 values, but the requested shape has 3"),
])
def test_parse_configuration_errors(features, error, message):
    with pytest.raises(error) as info:
        tf.io.parse_single_example(CASES.serialized(tf, "row1"), features)
    assert str(info.value) == message


def test_feature_configs_print_as_tfs():
    assert repr(tf.io.FixedLenFeature([2], tf.int64)) == \
        "FixedLenFeature(shape=[2], dtype=tf.int64, default_value=None)"
    assert repr(tf.io.FixedLenSequenceFeature([], tf.float32)) == (
        "FixedLenSequenceFeature(shape=[], dtype=tf.float32, allow_missing=False, "
        "default_value=None)")
    assert repr(tf.io.RaggedFeature(tf.int64)) == (
        "RaggedFeature(dtype=tf.int64, value_key=None, partitions=(), "
        "row_splits_dtype=tf.int32, validate=False)")
    assert repr(tf.io.RaggedFeature.RowLengths("l")) == "RowLengths(key='l')"
    with pytest.raises(ValueError, match="Input serialized must be a scalar"):
        tf.io.parse_single_example([b""], {"a": tf.io.FixedLenFeature([], tf.int64)})
    with pytest.raises(ValueError, match="Both context_features and sequence_features are "
                                         "None, but at least one should have values."):
        tf.io.parse_single_sequence_example(b"")


def test_var_len_features_are_sparse_tensors_as_tf():
    # TF 2.21's indices, values and dense shapes for the same records
    def example(values):
        feature = {k: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
                   if isinstance(v[0], int) else
                   tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
                   for k, v in values.items()}
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()
    records = [example({"v": [1, 2, 3], "s": [b"a"]}), example({"v": [4], "s": [b"b", b"c"]}),
               example({"s": [b"d"]})]
    features = {"v": tf.io.VarLenFeature(tf.int64), "s": tf.io.VarLenFeature(tf.string)}
    out = tf.io.parse_example(records, features)
    assert out["v"].indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [1, 0]]
    assert out["v"].values.numpy().tolist() == [1, 2, 3, 4]
    assert out["v"].dense_shape.numpy().tolist() == [3, 3]
    assert out["s"].indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [2, 0]]
    assert out["s"].dense_shape.numpy().tolist() == [3, 2]
    one = tf.io.parse_single_example(records[0], features)
    assert one["v"].indices.numpy().tolist() == [[0], [1], [2]]
    assert one["v"].dense_shape.numpy().tolist() == [3]
    empty = tf.io.parse_example(records[2:], {"v": tf.io.VarLenFeature(tf.int64)})["v"]
    assert empty.indices.numpy().tolist() == [] and empty.dense_shape.numpy().tolist() == [1, 0]
    traced = tf.function(lambda r: tf.io.parse_example(r, features)["v"])
    assert traced(tf.constant(records)).dense_shape.numpy().tolist() == [3, 3]
    rows = tf.data.Dataset.from_tensor_slices(records).map(
        lambda r: tf.io.parse_single_example(r, {"v": tf.io.VarLenFeature(tf.int64)})["v"].values)
    assert [x.numpy().tolist() for x in rows] == [[1, 2, 3], [4], []]
    assert repr(tf.io.VarLenFeature(tf.int64)) == "VarLenFeature(dtype=tf.int64)"
