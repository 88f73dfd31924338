"""Print TensorFlow 2.21's values for tests/runtime/data/test_data_extras.py
(Optional, IteratorSpec, NumpyIterator, ignore_errors, copy/prefetch_to_device,
SqlDataset, save/load/snapshot), tests/runtime/sparse/test_io_sparse_serialize.py
and tests/runtime/summary/test_summary_audio.py. Run with the TensorFlow venv:

    $BENCH_TF_PYTHON tools/record_data_extras.py

The tests hold these values as literals; rerun this to check them again.
"""

import os
import sqlite3
import tempfile

import tensorflow as tf


def optional_and_iterators():
    o = tf.experimental.Optional.from_value({"a": tf.constant(1), "b": tf.constant([1., 2.])})
    print("OptionalSpec:", repr(o._type_spec))
    e = tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32))
    try:
        e.get_value()
    except tf.errors.InvalidArgumentError as err:
        print("empty get_value:", err.message)
    ds = tf.data.Dataset.range(2)
    print("IteratorSpec:", repr(tf.data.IteratorSpec(ds.element_spec)))
    print("NumpyIterator:", type(ds.as_numpy_iterator()).__name__)


def ignore_errors_and_devices():
    ds = tf.data.Dataset.from_tensor_slices([1., 0., 2., 0., 4.]).map(
        lambda x: tf.debugging.check_numerics(1. / x, "bad"))
    i = ds.ignore_errors()
    print("ignore_errors:", repr(i), int(i.cardinality()), list(i.as_numpy_iterator()))
    c = ds.apply(tf.data.experimental.copy_to_device("/cpu:0"))
    p = ds.apply(tf.data.experimental.prefetch_to_device("/cpu:0"))
    print("devices:", repr(c), int(c.cardinality()), repr(p))


def sql():
    path = os.path.join(tempfile.mkdtemp(), "t.db")
    db = sqlite3.connect(path)
    db.execute("create table t (name text, age integer, h real)")
    db.executemany("insert into t values (?,?,?)", [("a", 3, 1.5), ("bb", 40, 2.25)])
    db.commit()
    db.close()
    cases = [("SELECT name, age, h FROM t", (tf.string, tf.int32, tf.float64)),
             ("SELECT name FROM t", tf.int64), ("SELECT age FROM t", tf.bool),
             ("SELECT age, h FROM t", (tf.int8, tf.float64)), ("SELECT age FROM t", tf.string), ("SELECT h FROM t", tf.string),
             ("SELECT nope FROM t", tf.int64), ("SELECT age, name FROM t", tf.int64)]
    for query, types in cases:
        try:
            print("sql:", query, list(tf.data.experimental.SqlDataset(
                "sqlite", path, query, types).as_numpy_iterator()))
        except tf.errors.OpError as err:
            print("sql:", query, type(err).__name__, err.message)


def save_load():
    d = tempfile.mkdtemp()
    r = tf.data.Dataset.range(10)
    r.save(os.path.join(d, "sh"), shard_func=lambda x: x % 3)
    l = tf.data.Dataset.load(os.path.join(d, "sh"),
                             reader_func=lambda dss: dss.interleave(lambda x: x, cycle_length=1))
    print("load:", repr(l), list(l.as_numpy_iterator()))
    s = r.snapshot(os.path.join(d, "snap"))
    print("snapshot:", repr(s), int(s.cardinality()))


def sparse_serialization():
    st = tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.5, -2.], [3, 4])
    print("serialize_sparse:", tf.io.serialize_sparse(st).numpy().tolist())
    batch = tf.sparse.SparseTensor([[0, 0, 1], [1, 1, 0], [1, 2, 2]], [1, 2, 3], [2, 3, 4])
    print("serialize_many_sparse:", tf.io.serialize_many_sparse(batch).numpy().tolist())
    empty = tf.sparse.SparseTensor(tf.zeros([0, 1], tf.int64), tf.constant([], tf.string), [5])
    print("serialize_sparse empty:", tf.io.serialize_sparse(empty).numpy().tolist())
    strings = tf.sparse.SparseTensor([[0, 0], [2, 1]], ["a", "bc"], [3, 2])
    m = tf.io.serialize_many_sparse(strings)
    print("strings, row 1 empty:", m.numpy().tolist())
    d = tf.io.deserialize_many_sparse(m, tf.string)
    print("back:", d.indices.numpy().tolist(), d.values.numpy().tolist(),
          d.dense_shape.numpy().tolist())


def summary_audio():
    import glob

    import numpy as np
    from tensorflow.core.util import event_pb2
    logdir = tempfile.mkdtemp()
    clips = np.array([[[0.], [0.5], [-1.]], [[1.], [0.25], [0.]]], np.float32)
    with tf.summary.create_file_writer(logdir).as_default():
        tf.summary.audio("snd", clips, 8000, step=3, description="hi")
        tf.summary.flush()
    for path in glob.glob(logdir + "/*"):
        for record in tf.data.TFRecordDataset(path):
            for v in event_pb2.Event.FromString(record.numpy()).summary.value:
                print("audio:", v.tag, v.metadata.plugin_data, tf.make_ndarray(v.tensor).tolist())


def csv_dataset():
    path = os.path.join(tempfile.mkdtemp(), "t.csv")
    with open(path, "w") as f:
        f.write("a,b,c,lab\n1,2.5,x,0\n3,,yy,1\n5,4.0,z,0\n")
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, label_name="lab",
                                               shuffle=False, num_epochs=1)
    print("make_csv_dataset:", repr(ds), [({k: v.numpy().tolist() for k, v in f.items()},
                                           label.numpy().tolist()) for f, label in ds])


if __name__ == "__main__":
    csv_dataset()
    summary_audio()
    sparse_serialization()
    optional_and_iterators()
    ignore_errors_and_devices()
    sql()
    save_load()
