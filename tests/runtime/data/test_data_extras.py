"""tf.data's Optional, IteratorSpec, NumpyIterator, ignore_errors,
copy/prefetch_to_device, enable_debug_mode, SqlDataset and save/load/snapshot,
against TensorFlow 2.21's recorded values (tools/record_data_extras.py)."""

import os
import sqlite3

import numpy as np
import pytest

import runtime as tf
from runtime._src.data import env as data_env

F32 = "TensorSpec(shape=(), dtype=tf.float32, name=None)"
I64 = "TensorSpec(shape=(), dtype=tf.int64, name=None)"


def _values(ds):
    return [np.asarray(v).tolist() for v in ds.as_numpy_iterator()]


# --- Optional, IteratorSpec, NumpyIterator ------------------------------------------

def test_optional_from_value_and_empty():
    o = tf.experimental.Optional.from_value({"a": tf.constant(1), "b": tf.constant([1., 2.])})
    assert tf.data.experimental.Optional is tf.experimental.Optional
    assert repr(o._type_spec) == (
        "OptionalSpec({'a': TensorSpec(shape=(), dtype=tf.int32, name=None), "
        "'b': TensorSpec(shape=(2,), dtype=tf.float32, name=None)},)")
    assert o._type_spec == tf.OptionalSpec(o.element_spec)
    assert bool(o.has_value()) and o.get_value()["b"].numpy().tolist() == [1., 2.]
    e = tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32))
    assert not bool(e.has_value()) and e.has_value().dtype == tf.bool
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="The given optional does not have a value."):
        e.get_value()


@tf.function
def _value_or(o):
    return tf.cond(o.has_value(), lambda: o.get_value() + 1, lambda: tf.constant(-1, tf.int64))


@tf.function
def _last_two():
    it = iter(tf.data.Dataset.range(2))
    it.get_next()
    a = tf.data.experimental.get_next_as_optional(it)
    b = it.get_next_as_optional()
    return a.has_value(), a.get_value(), b.has_value()


def test_optional_in_tf_function():
    spec = tf.TensorSpec([], tf.int64)
    assert int(_value_or(tf.experimental.Optional.from_value(tf.constant(3, tf.int64)))) == 4
    assert int(_value_or(tf.experimental.Optional.empty(spec))) == -1
    assert [np.asarray(v).item() for v in _last_two()] == [True, 1, False]
    it = iter(tf.data.Dataset.range(1))
    assert int(tf.data.experimental.get_next_as_optional(it).get_value()) == 0
    assert not bool(it.get_next_as_optional().has_value())


def test_iterator_spec_and_numpy_iterator():
    ds = tf.data.Dataset.range(2)
    spec = tf.data.IteratorSpec(ds.element_spec)
    assert repr(spec) == f"IteratorSpec({I64},)"
    assert iter(ds)._type_spec == spec
    it = ds.as_numpy_iterator()
    assert isinstance(it, tf.data.NumpyIterator)
    assert repr(it).startswith("NumpyIterator(iterator=")
    assert next(it) == 0 and it.next() == 1
    with pytest.raises(StopIteration):
        next(it)


# --- ignore_errors, devices, debug mode ----------------------------------------------

def _reciprocals():
    return tf.data.Dataset.from_tensor_slices([1., 0., 2., 0., 4.]).map(
        lambda x: tf.debugging.check_numerics(1. / x, "bad"))


@tf.function
def _sum(ds):
    s = tf.constant(0.)
    for x in ds:
        s += x
    return s


def test_ignore_errors():
    ds = _reciprocals()
    with pytest.raises(tf.errors.InvalidArgumentError):
        _values(ds)
    for kept in (ds.ignore_errors(), ds.apply(tf.data.experimental.ignore_errors()),
                 ds.ignore_errors(log_warning=True)):
        assert repr(kept) == f"<_IgnoreErrorsDataset element_spec={F32}>"
        assert int(kept.cardinality()) == -2
        assert _values(kept) == [1.0, 0.5, 0.25]
    assert float(_sum(ds.ignore_errors())) == 1.75


def test_copy_and_prefetch_to_device():
    ds = _reciprocals().ignore_errors()
    c = ds.apply(tf.data.experimental.copy_to_device("/cpu:0"))
    p = ds.apply(tf.data.experimental.prefetch_to_device("/cpu:0", 2))
    assert repr(c) == f"<_CopyToDeviceDataset element_spec={F32}>"
    assert repr(p) == f"<_PrefetchDataset element_spec={F32}>"
    assert int(c.cardinality()) == -2
    assert _values(c) == _values(p) == [1.0, 0.5, 0.25]


def test_enable_debug_mode_runs_functions_eagerly():
    seen = []

    def double(x):
        seen.append(type(x).__name__)
        return x * 2

    try:
        tf.data.experimental.enable_debug_mode()
        ds = tf.data.Dataset.range(3).map(double).prefetch(2)
        assert _values(ds) == [0, 2, 4]
    finally:
        data_env.DEBUG_MODE[0] = False
    assert seen[1:] == ["EagerTensor"] * 3          # traced once, then one call each

    @tf.function
    def inside():
        tf.data.experimental.enable_debug_mode()
    with pytest.raises(ValueError, match="only supported in eager mode"):
        inside()
    assert data_env.DEBUG_MODE[0] is False


# --- SqlDataset ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("sql") / "t.db")
    db = sqlite3.connect(path)
    db.execute("create table t (name text, age integer, h real)")
    db.executemany("insert into t values (?,?,?)", [("a", 3, 1.5), ("bb", 40, 2.25)])
    db.commit()
    db.close()
    return path


# TF 2.21's elements for each query and output_types (numbers read from text: 0)
SQL_CASES = [
    ("SELECT name, age, h FROM t", (tf.string, tf.int32, tf.float64),
     [(b"a", 3, 1.5), (b"bb", 40, 2.25)], (np.int32, np.float64)),
    ("SELECT name FROM t", tf.int64, [0, 0], np.int64),
    ("SELECT age FROM t", tf.bool, [True, True], np.bool_),
    ("SELECT age, h FROM t", (tf.int8, tf.float64), [(3, 1.5), (40, 2.25)],
     (np.int8, np.float64)),
    ("SELECT h FROM t", tf.string, [b"1.5", b"2.25"], bytes),
]


@pytest.mark.parametrize("query,types,expected,kinds", SQL_CASES)
def test_sql_dataset(database, query, types, expected, kinds):
    ds = tf.data.experimental.SqlDataset("sqlite", database, query, types)
    got = list(ds.as_numpy_iterator())
    assert [tuple(np.asarray(v).tolist() for v in e) if isinstance(e, tuple)
            else np.asarray(e).tolist() for e in got] == expected
    first = got[0] if isinstance(got[0], tuple) else (got[0],)
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    assert [type(v) for v in first[-len(kinds):]] == list(kinds)
    assert int(ds.cardinality()) == -2


def test_sql_dataset_errors_and_tf_function(database):
    sql = tf.data.experimental.SqlDataset
    assert repr(sql("sqlite", database, "SELECT age FROM t", tf.int64)) == \
        f"<SqlDatasetV2 element_spec={I64}>"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="The database type, mysql, is not supported by SqlDataset"):
        sql("mysql", database, "SELECT age FROM t", tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be one of: DT_STRING"):
        sql("sqlite", database, "SELECT h FROM t", tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"number of columns in query \(2\) must match the number of "
                             r"elements in output_types \(1\)"):
        _values(sql("sqlite", database, "SELECT age, name FROM t", tf.int64))
    with pytest.raises(tf.errors.UnknownError, match="Prepare\\(\\) failed: .*no such column"):
        _values(sql("sqlite", database, "SELECT nope FROM t", tf.int64))
    ages = sql("sqlite", database, "SELECT h FROM t", tf.float64).map(lambda h: tf.cast(h, tf.float32))
    assert float(_sum(ages)) == 3.75


# --- save, load, snapshot --------------------------------------------------------------

def test_save_load_round_trip(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [[1., 2.], [3., 4.], [5., 6.]],
                                             "s": ["x", "yy", ""]})
    for i, compression in enumerate([None, "GZIP", "ZLIB"]):
        path = str(tmp_path / f"s{i}")
        ds.save(path, compression=compression)
        loaded = tf.data.Dataset.load(path, compression=compression)
        assert repr(loaded) == f"<_LoadDataset element_spec={ds.element_spec!r}>"
        assert loaded.element_spec == ds.element_spec
        assert int(loaded.cardinality()) == 3
        got = list(loaded.as_numpy_iterator())
        assert [e["a"] for e in got] == [1, 2, 3] and got[2]["b"].tolist() == [5., 6.]
        assert [e["s"] for e in got] == [b"x", b"yy", b""]
        assert got[0]["a"].dtype == np.int32 and got[0]["b"].dtype == np.float32


def test_save_shards_and_reader_func(tmp_path):
    path = str(tmp_path / "sh")
    tf.data.experimental.save(tf.data.Dataset.range(10), path, shard_func=lambda x: x % 3)
    loaded = tf.data.Dataset.load(
        path, reader_func=lambda dss: dss.interleave(lambda x: x, cycle_length=1))
    assert _values(loaded) == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]      # TF 2.21's order
    assert sorted(_values(tf.data.Dataset.load(path))) == list(range(10))
    spec = tf.TensorSpec([], tf.int64)
    again = tf.data.experimental.load(path, element_spec=spec)
    assert repr(again) == f"<_LoadDataset element_spec={I64}>"
    assert float(_sum(again.map(lambda x: tf.cast(x, tf.float32)))) == 45.0
    with pytest.raises(tf.errors.NotFoundError,
                       match="tf.data snapshot element_spec file not found"):
        tf.data.Dataset.load(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="shard_func must return a scalar int64"):
        tf.data.Dataset.range(2).save(str(tmp_path / "bad"), shard_func=lambda x: [x, x])


def test_snapshot_writes_once_then_reads(tmp_path):
    calls = []

    def gen():
        calls.append(1)
        yield from range(4)

    source = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))
    snap = source.snapshot(str(tmp_path))
    assert repr(snap) == f"<_MapDataset element_spec={I64}>"
    assert _values(snap) == [0, 1, 2, 3] and _values(snap) == [0, 1, 2, 3]
    assert len(calls) == 1                                  # the second pass read the files
    assert len(os.listdir(tmp_path)) == 1
    assert int(tf.data.Dataset.range(10).snapshot(str(tmp_path / "r")).cardinality()) == 10
    other = tf.data.Dataset.range(3).apply(tf.data.experimental.snapshot(str(tmp_path / "r")))
    assert _values(other) == [0, 1, 2]                       # another pipeline, another run


# --- lookup tables from datasets ------------------------------------------------------

def test_table_from_dataset():
    keys = tf.data.Dataset.range(100)
    ds = tf.data.Dataset.zip((keys, keys.map(lambda x: tf.strings.as_string(x * 2))))
    table = tf.data.experimental.table_from_dataset(ds, default_value="n/a",
                                                    key_dtype=tf.int64)
    assert table.lookup(tf.constant([0, 1, 2, 200], tf.int64)).numpy().tolist() == \
        [b"0", b"2", b"4", b"n/a"]
    assert int(table.size()) == 100
    init = tf.data.experimental.DatasetInitializer(ds)
    assert (init.key_dtype, init.value_dtype) == (tf.int64, tf.string)
    assert tf.lookup.StaticHashTable(init, "z").lookup(
        tf.constant([4], tf.int64)).numpy().tolist() == [b"8"]
    with pytest.raises(ValueError, match="produces 1 components instead of two"):
        tf.data.experimental.DatasetInitializer(keys)
    with pytest.raises(ValueError, match="`default_value` must be specified"):
        tf.data.experimental.table_from_dataset(tf.data.Dataset.zip((keys, keys.map(
            tf.strings.as_string))).map(lambda k, v: (tf.strings.as_string(k), v)))


# TF 2.21's ids: (vocabulary, kwargs, lookups, ids)
INDEX_CASES = [
    (["x", "y"], {}, ["x", "y", "z"], [0, 1, -1]),
    (["x", "y"], {"num_oov_buckets": 1}, ["x", "y", "z"], [0, 1, 2]),
    (["x", "y"], {"num_oov_buckets": 3}, ["x", "y", "w", "hello", "q"], [0, 1, 4, 3, 4]),
    (["x", "y", "w", "v"], {"vocab_size": 2}, ["x", "y", "w"], [0, 1, -1]),
]


@pytest.mark.parametrize("vocab,kwargs,lookups,ids", INDEX_CASES)
def test_index_table_from_dataset(vocab, kwargs, lookups, ids):
    table = tf.data.experimental.index_table_from_dataset(
        tf.data.Dataset.from_tensor_slices(vocab), **kwargs)
    assert table.lookup(tf.constant(lookups)).numpy().tolist() == ids


def test_index_table_from_dataset_repeated_key():
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="different value for same key. Key a has 0 and trying to add "
                             "value 3"):
        tf.data.experimental.index_table_from_dataset(
            tf.data.Dataset.from_tensor_slices(["a", "b", "c", "a"]))


@tf.function
def _variant_sum(v):
    ds = tf.data.experimental.from_variant(v, tf.TensorSpec([], tf.int64))
    return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)


def test_to_and_from_variant():
    ds = tf.data.Dataset.range(3)
    v = tf.data.experimental.to_variant(ds)
    assert v.dtype == tf.variant and v.shape == []
    back = tf.data.experimental.from_variant(v, ds.element_spec)
    assert repr(back) == f"<_VariantDataset element_spec={I64}>"
    assert _values(back) == [0, 1, 2] and int(back.cardinality()) == 3
    assert int(_variant_sum(v)) == 3
    with pytest.raises(TypeError, match="to_variant: expected a tf.data.Dataset"):
        tf.data.experimental.to_variant(tf.constant(1))


# --- make_csv_dataset ----------------------------------------------------------------

@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_text("a,b,c,lab\n1,2.5,x,0\n3,,yy,1\n5,4.0,z,0\n")
    return str(path)


def _batches(ds):
    out = []
    for element in ds:
        features, label = element if isinstance(element, tuple) else (element, None)
        row = {k: v.numpy().tolist() for k, v in features.items()}
        out.append(row if label is None else (row, label.numpy().tolist()))
    return out


def test_make_csv_dataset(csv_file):
    make = tf.data.experimental.make_csv_dataset
    ds = make(csv_file, batch_size=2, label_name="lab", shuffle=False, num_epochs=1)
    assert repr(ds) == (    # TF 2.21's
        "<_PrefetchDataset element_spec=(OrderedDict([('a', TensorSpec(shape=(None,), "
        "dtype=tf.int32, name=None)), ('b', TensorSpec(shape=(None,), dtype=tf.float32, "
        "name=None)), ('c', TensorSpec(shape=(None,), dtype=tf.string, name=None))]), "
        "TensorSpec(shape=(None,), dtype=tf.int32, name=None))>")
    assert _batches(ds) == [({"a": [1, 3], "b": [2.5, 0.0], "c": [b"x", b"yy"]}, [0, 1]),
                            ({"a": [5], "b": [4.0], "c": [b"z"]}, [0])]
    picked = make(os.path.dirname(csv_file) + "/*.csv", batch_size=2, shuffle=False,
                  num_epochs=1, select_columns=["a", "c"], column_defaults=[0, "q"])
    assert _batches(picked) == [{"a": [1, 3], "c": [b"x", b"yy"]}, {"a": [5], "c": [b"z"]}]
    na = make(csv_file, batch_size=3, shuffle=False, num_epochs=2, na_value="x")
    assert _batches(na) == [{"a": [1, 3, 5], "b": [2.5, 0.0, 4.0], "c": [b"", b"yy", b"z"],
                             "lab": [0, 1, 0]}] * 2
    shuffled = make(csv_file, batch_size=3, num_epochs=1, shuffle_seed=1, label_name="lab")
    assert sorted(_batches(shuffled)[0][0]["a"]) == [1, 3, 5]
    with pytest.raises(ValueError, match=r"`label_name` provided must be one of the columns: "
                                         r"\['a', 'b', 'c', 'lab'\]. Received: nope."):
        make(csv_file, batch_size=2, label_name="nope")


# --- make_batched_features_dataset ----------------------------------------------------

@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")

    def example(a, v):
        return tf.train.Example(features=tf.train.Features(feature={
            "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[a])),
            "v": tf.train.Feature(float_list=tf.train.FloatList(value=v))})).SerializeToString()
    with tf.io.TFRecordWriter(str(folder / "r0.tfrecord")) as w:
        for a, v in [(1, [0.5]), (2, []), (3, [1., 2.])]:
            w.write(example(a, v))
    return str(folder / "*.tfrecord")


def test_make_batched_features_dataset(records):
    make = tf.data.experimental.make_batched_features_dataset
    features = {"a": tf.io.FixedLenFeature([], tf.int64), "v": tf.io.VarLenFeature(tf.float32)}
    ds = make(records, 2, features, label_key="a", num_epochs=1, shuffle=False)
    assert repr(ds) == (    # TF 2.21's
        "<_PrefetchDataset element_spec=({'v': SparseTensorSpec(TensorShape([None, None]), "
        "tf.float32)}, TensorSpec(shape=(None,), dtype=tf.int64, name=None))>")
    got = [((f["v"].indices.numpy().tolist(), f["v"].values.numpy().tolist(),
             f["v"].dense_shape.numpy().tolist()), label.numpy().tolist()) for f, label in ds]
    assert got == [(([[0, 0]], [0.5], [2, 1]), [1, 2]),
                   (([[0, 0], [0, 1]], [1.0, 2.0], [1, 2]), [3])]
    dropped = make(records, 2, features, num_epochs=1, shuffle=False, drop_final_batch=True)
    assert len(list(dropped)) == 1
    twice = make(records, 3, features, num_epochs=2, shuffle_seed=3)
    assert sorted(sum((b["a"].numpy().tolist() for b in twice), [])) == [1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError, match=r"The `label_key` provided \(zz\) must be one of the "
                                         r"`features` keys"):
        make(records, 2, features, label_key="zz")
