"""Every way a user gets a dataset (the methods, tf.data.experimental's
functions, the readers, and the datasets a pipeline hands to user code), for
tests/runtime/data/test_dataset_kinds.py and tools/record_dataset_kinds.py,
which runs the same table under TensorFlow. `tf` is the module to build with."""

import os

import numpy as np


def _files(tf, d):
    tf.data.Dataset.range(6).save(os.path.join(d, "saved"))
    with open(os.path.join(d, "a.csv"), "w") as f:
        f.write("x,y\n1,2\n3,4\n")
    with tf.io.TFRecordWriter(os.path.join(d, "r.tfrecord")) as w:
        w.write(b"abc")
    return d


def kinds(tf, d):
    """{name: a function building the dataset}, and the list each dataset that
    user code received appends to: whether it is a tf.data.Dataset. The files
    they read are written under the directory `d`."""
    d, base, seen = _files(tf, d), tf.data.Dataset.range(6), []

    def note(ds):
        seen.append(isinstance(ds, tf.data.Dataset))
        return ds

    def reader(datasets):
        return note(datasets).interleave(lambda shard: note(shard).map(lambda x: x + 1))

    def path(name):
        return os.path.join(d, name)

    return {
        "window": lambda: base.window(2).flat_map(lambda w: w.batch(2)),
        "window element": lambda: next(iter(base.window(4))),
        "flat_map of windows": lambda: base.window(3).flat_map(lambda w: note(w).batch(3)),
        "group_by_window": lambda: base.group_by_window(
            lambda x: x % 2, lambda k, w: note(w).batch(2), window_size=2),
        "bucket_by_sequence_length": lambda: tf.data.Dataset.from_tensors([1, 2]).repeat(3)
        .bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2], [2, 2]),
        "load": lambda: tf.data.Dataset.load(path("saved")),
        "load with reader_func": lambda: tf.data.Dataset.load(path("saved"), reader_func=reader),
        "experimental.load": lambda: tf.data.experimental.load(path("saved")),
        "snapshot": lambda: base.snapshot(path("snap")),
        "experimental.snapshot": lambda: base.apply(tf.data.experimental.snapshot(path("s2"))),
        "ignore_errors": lambda: base.apply(tf.data.experimental.ignore_errors()),
        "copy_to_device": lambda: base.apply(tf.data.experimental.copy_to_device("/cpu:0")),
        "prefetch_to_device": lambda: base.apply(
            tf.data.experimental.prefetch_to_device("/cpu:0")),
        "assert_cardinality": lambda: base.apply(tf.data.experimental.assert_cardinality(6)),
        "from_variant": lambda: tf.data.experimental.from_variant(
            tf.data.experimental.to_variant(base), base.element_spec),
        "TFRecordDataset": lambda: tf.data.TFRecordDataset(path("r.tfrecord")),
        "TextLineDataset": lambda: tf.data.TextLineDataset(path("a.csv")),
        "FixedLengthRecordDataset": lambda: tf.data.FixedLengthRecordDataset(path("a.csv"), 4),
        "CsvDataset": lambda: tf.data.experimental.CsvDataset(
            path("a.csv"), [tf.int32, tf.int32], header=True),
        "make_csv_dataset": lambda: tf.data.experimental.make_csv_dataset(
            path("a.csv"), 2, num_epochs=1, shuffle=False),
        "Counter": lambda: tf.data.experimental.Counter(),
        "choose_from_datasets": lambda: tf.data.Dataset.choose_from_datasets(
            [base, base.map(lambda x: -x)], tf.data.Dataset.range(2).repeat(2)),
        "with_options": lambda: base.with_options(tf.data.Options()),
        "parallel map": lambda: base.map(lambda x: x * 3, num_parallel_calls=2),
    }, seen


def values(tf, ds, n=6):
    """The first `n` elements as Python lists (a dict element: its sorted items)."""
    out = []
    for element in ds.take(n):
        if isinstance(element, dict):
            element = [element[k] for k in sorted(element)]
        out.append(tf.nest.map_structure(lambda t: np.asarray(t.numpy()).tolist(), element))
    return out


def in_function(tf):
    """Inside a tf.function: a dataset argument and a from_variant dataset
    (isinstance of tf.data.Dataset, repr), and a reduce over the argument."""
    out = []

    @tf.function
    def f(ds):
        v = tf.data.experimental.from_variant(tf.data.experimental.to_variant(ds),
                                              ds.element_spec)
        out.extend([(isinstance(ds, tf.data.Dataset), repr(ds)),
                    (isinstance(v, tf.data.Dataset), repr(v))])
        return v.map(lambda x: x * 2).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    return out, int(f(tf.data.Dataset.range(4)))
