"""tf.io's decoding ops (decode_raw, decode_csv, decode_compressed, base64)
against TF 2.21's recorded results (tests/data/tfrecord/recorded.json, by
tools/record_tfrecord.py), eagerly and inside tf.function; tf.io.gfile and
matching_files against TF 2.21's behaviour (written as literals)."""

import os

import numpy as np
import pytest

import runtime as tf
from tests.runtime.io.tfrecord_recorded import CASES, RECORDED, assert_outcome

G = tf.io.gfile
DECODE = {case[0]: case for case in CASES.DECODE}


def _traced(case):
    label, fn, args, kwargs = case
    first = CASES.arg(tf, args[0])
    rest = [CASES.arg(tf, a) for a in args[1:]]
    f = tf.function(lambda x: getattr(tf.io, fn)(x, *rest, **kwargs))
    return f(tf.constant(first, tf.string))


@pytest.mark.parametrize("label", sorted(DECODE))
def test_decode_ops_match_tf(label):
    case, rec = DECODE[label], RECORDED["decode"][label]
    assert_outcome(rec, lambda: CASES.run_decode(tf, case), f"{label} eager")
    assert_outcome(rec, lambda: _traced(case), f"{label} traced")


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.io.decode_raw(b"\x01\x00", tf.string), tf.errors.InvalidArgumentError,
     "Value for attr 'out_type' of string is not in the list of allowed values: half, float, "
     "double, int32, uint16, uint8, int16, int8, int64, complex64, complex128, bool"),
    (lambda: tf.io.decode_csv(["1,2"], [[True], [0]]), tf.errors.InvalidArgumentError,
     "Value for attr 'OUT_TYPE' of bool is not in the list of allowed values: float, double, "
     "int32, int64, string"),
    (lambda: tf.io.decode_csv(["1,2,3"], [[0], [0]], select_cols=[2, 0]), ValueError,
     "select_cols is not strictly increasing."),
    (lambda: tf.io.decode_csv(["1,2"], [[0], [0]], field_delim=",,"),
     tf.errors.InvalidArgumentError, "field_delim should be only 1 char"),
])
def test_decode_argument_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("text", ['{"foo": 1}', "{", '{"features": {"feature": {"c": '
                                  '{"bytesList": {"value": ["a"]}}}}}',
                                  '{"features": {"feature": {"b": {"int64List": '
                                  '{"value": [1.5]}}}}}'])
def test_decode_json_example_refuses_what_tf_refuses(text):
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Error while parsing JSON: "):
        tf.io.decode_json_example(text)


def test_decode_compressed_gzip_and_traced_shapes():
    import gzip
    out = tf.io.decode_compressed([gzip.compress(b"abc"), gzip.compress(b"")], "GZIP")
    assert out.numpy().tolist() == [b"abc", b""]
    spec = tf.TensorSpec([None], tf.string)
    f = tf.function(lambda s: tf.io.decode_raw(s, tf.int16, fixed_length=6),
                    input_signature=[spec])
    assert f.get_concrete_function().structured_outputs.shape.as_list() == [None, 3]
    g = tf.function(lambda s: tf.io.decode_csv(s, [[0], [""]]), input_signature=[spec])
    assert [t.shape.as_list() for t in g.get_concrete_function().structured_outputs] == \
        [[None], [None]]


def test_gfile_reads_writes_and_errors_as_tf(tmp_path):
    d = str(tmp_path)
    G.makedirs(d + "/a/b")
    G.makedirs(d + "/a/b")                                   # an existing folder is fine
    G.mkdir(d + "/a")
    with pytest.raises(tf.errors.NotFoundError, match="x/y; No such file or directory"):
        G.mkdir(d + "/x/y")
    with G.GFile(d + "/f.txt", "w") as f:
        assert f.write("héllo\nworld\n") is None and f.tell() == 13
    assert G.GFile(d + "/f.txt").read() == "héllo\nworld\n"
    assert G.GFile(d + "/f.txt", "rb").read() == "héllo\nworld\n".encode()
    assert G.GFile(d + "/f.txt").read(3) == "hé"                      # bytes, decoded
    assert G.GFile(d + "/f.txt").readlines() == ["héllo\n", "world\n"]
    assert list(G.GFile(d + "/f.txt", "rb")) == [b"h\xc3\xa9llo\n", b"world\n"]
    assert G.GFile(d + "/f.txt").size() == 13
    with G.GFile(d + "/f.txt", "a") as f:
        f.write(b"more")
    assert G.GFile(d + "/f.txt").read().endswith("more")
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        G.GFile(d + "/nope").read()
    with pytest.raises(tf.errors.InvalidArgumentError, match="mode is not 'r' or 'w'"):
        G.GFile(d + "/f.txt", "z")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        G.GFile(d + "/f.txt").write("x")
    st = G.stat(d + "/f.txt")
    assert (st.length, st.is_directory, type(st.mtime_nsec)) == (17, False, int)
    assert (G.exists(d + "/a"), G.exists(d + "/nope"), G.isdir(d + "/f.txt")) == \
        (True, False, False)


def test_gfile_folders_copy_rename_remove_as_tf(tmp_path):
    d = str(tmp_path)
    G.makedirs(d + "/a/b")
    G.mkdir(d + "/c")
    for name in ("f.txt", "g.txt"):
        with G.GFile(G.join(d, name), "w") as f:
            f.write(name)
    assert sorted(G.listdir(d)) == ["a", "c", "f.txt", "g.txt"]
    with pytest.raises(tf.errors.NotFoundError, match="Could not find directory"):
        G.listdir(d + "/f.txt")
    assert G.glob(d + "/*.txt") == [d + "/f.txt", d + "/g.txt"]
    assert G.glob([d + "/g*", d + "/f*"]) == [d + "/g.txt", d + "/f.txt"]
    assert tf.io.matching_files(d + "/*.txt").numpy().tolist() == \
        [(d + "/f.txt").encode(), (d + "/g.txt").encode()]
    G.copy(d + "/f.txt", d + "/h.txt")
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        G.copy(d + "/f.txt", d + "/h.txt")
    G.copy(d + "/g.txt", d + "/h.txt", overwrite=True)
    assert G.GFile(d + "/h.txt").read() == "g.txt"
    with pytest.raises(tf.errors.AlreadyExistsError):
        G.rename(d + "/g.txt", d + "/h.txt")
    G.rename(d + "/g.txt", d + "/h.txt", overwrite=True)
    with pytest.raises(tf.errors.NotFoundError, match="g.txt; No such file or directory"):
        G.remove(d + "/g.txt")
    with pytest.raises(tf.errors.FailedPreconditionError, match="c; Is a directory"):
        G.remove(d + "/c")
    walked = {p[len(d):]: (sorted(ds), sorted(fs)) for p, ds, fs in G.walk(d)}
    assert walked == {"": (["a", "c"], ["f.txt", "h.txt"]), "/a": (["b"], []),
                      "/a/b": ([], []), "/c": ([], [])}
    assert [p for p, _, _ in G.walk(d, topdown=False)][-1] == d
    assert list(G.walk(d + "/nope")) == []
    v = tf.io.match_filenames_once(d + "/*.txt")
    assert not v.trainable and v.numpy().tolist() == [(d + "/f.txt").encode(),
                                                      (d + "/h.txt").encode()]
    G.rmtree(d + "/a")
    assert not G.exists(d + "/a")
    with pytest.raises(tf.errors.NotFoundError, match="nope not found"):
        G.rmtree(d + "/nope")
    assert G.join("a", "b", "c") == "a/b/c" and G.join("/a/", "b") == "/a/b"
    assert os.path.exists(d + "/h.txt")


@pytest.mark.parametrize("data, dtype, want", [      # TensorProtos made by TF 2.21's protobuf
    (b"\x08\x01\x12\x00*\x04\x00\x00\xc0?", tf.float32, 1.5),               # make_tensor_proto
    (b"\x08\n\x12\x00Z\x01\x01", tf.bool, True),
    (b"\x08\x01\x12\x04\x12\x02\x08\x03*\x04\x00\x00\xe0@", tf.float32, [7.0, 7.0, 7.0]),
    (b"\x08\x03\x12\x04\x12\x02\x08\x03:\x0b\x01\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01",
     tf.int32, [1, -2, -2]),                                     # the last value fills
    (b"\x08\n\x12\x04\x12\x02\x08\x02Z\x02\x01\x00", tf.bool, [True, False]),
    (b"\x08\x13\x12\x04\x12\x02\x08\x02j\x05\x80x\x80\x80\x01", tf.float16, [1.0, 2.0]),
    (b"\x08\x01\x12\x04\x12\x02\x08\x03", tf.float32, [0.0, 0.0, 0.0]),     # no values
])
def test_parse_tensor_reads_typed_value_fields(data, dtype, want):
    got = tf.io.parse_tensor(data, dtype)
    assert got.dtype == dtype and got.numpy().tolist() == want
    traced = tf.function(lambda s: tf.io.parse_tensor(s, dtype))(tf.constant(data))
    assert traced.numpy().tolist() == want


def test_write_graph_writes_the_graph_def_text(tmp_path):
    graph = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([], tf.int32)).graph
    path = tf.io.write_graph(graph, str(tmp_path / "a" / "b"), "g.pbtxt")
    assert path == str(tmp_path / "a" / "b" / "g.pbtxt")
    with open(path) as f:
        assert f.read() == str(graph.as_graph_def())
    with pytest.raises(TypeError, match="expected a Graph or a GraphDef, got int"):
        tf.io.write_graph(3, str(tmp_path), "x")


def _rows(ds):
    return [tuple(np.asarray(v.numpy(), object if v.dtype == tf.string else None).tolist()
                  for v in row) for row in ds]


def test_csv_dataset_matches_tf(tmp_path):
    f = tmp_path / "c.csv"
    f.write_bytes(b'a,b,c\n1,2.5,x\n3,,"y,z"\n')
    CSV = tf.data.experimental.CsvDataset
    typed = CSV(str(f), [tf.int32, tf.float32, tf.string], header=True)
    assert typed.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32),
                                  tf.TensorSpec([], tf.string))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="^Field 1 is required but missing in record!$"):
        _rows(typed)
    assert _rows(CSV(str(f), [[0], [0.0], [""]], header=True)) == [(1, 2.5, b"x"),
                                                                  (3, 0.0, b"y,z")]
    assert _rows(CSV(str(f), [[0], [""]], header=True, select_cols=[0, 2])) == \
        [(1, b"x"), (3, b"y,z")]
    assert _rows(CSV(str(f), [[0], [""]], header=True, exclude_cols=[1])) == \
        [(1, b"x"), (3, b"y,z")]
    assert _rows(CSV(str(f), [[""]] * 3)) == [(b"a", b"b", b"c"), (b"1", b"2.5", b"x"),
                                              (b"3", b"", b"y,z")]
    na = CSV(str(f), [tf.constant([7], tf.int64), tf.constant([-1.0], tf.float64), [""]],
             header=True, na_value="2.5")
    assert _rows(na) == [(1, -1.0, b"x"), (3, -1.0, b"y,z")]
    for defaults, message in [([[""], [""]], "Expect 2 fields but have more in record"),
                              ([[0], [""], [""]], "Field 0 in record is not a valid int32: a")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"^{message}$"):
            _rows(CSV(str(f), defaults))
    (tmp_path / "q.csv").write_bytes(b'"a\nb",1\n')                  # a newline in quotes
    assert _rows(CSV(str(tmp_path / "q.csv"), [[""], [0]])) == [(b"a\nb", 1)]
    (tmp_path / "e.csv").write_bytes(b"1,2\n\n3,4\r\n")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="^Expect 2 fields but have 1 in record$"):
        _rows(CSV(str(tmp_path / "e.csv"), [[0], [0]]))
    total = tf.function(lambda: CSV(str(f), [[0], [0.0], [""]], header=True).reduce(
        tf.constant(0), lambda s, row: s + row[0]))
    assert int(total()) == 4


def test_dataset_reduce_and_scan_keep_tuple_elements_whole():
    ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4]))
    assert int(ds.reduce(tf.constant(0), lambda s, x: s + x[0] * x[1])) == 11   # TF 2.21
    assert [int(v) for v in ds.scan(tf.constant(0), lambda s, x: (s + x[0], x[1]))] == [3, 4]
