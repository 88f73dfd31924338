"""`Dataset.shard/take_while/unique/rebatch/group_by_window/
bucket_by_sequence_length/choose_from_datasets/sample_from_datasets/counter/
random/get_single_element`, `tf.data.experimental`'s transformations, and
`tf.data.Options`' fields. Expected elements and cardinalities are TF 2.21's,
recorded with the same pipelines."""

import numpy as np
import pytest

import runtime as tf

D = tf.data.Dataset
experimental = tf.data.experimental


def _elements(ds):
    return [tf.nest.map_structure(lambda t: np.asarray(t).tolist(), e) for e in ds]


def _check(ds, elements, cardinality):
    assert _elements(ds) == elements
    assert int(ds.cardinality()) == cardinality


def _lengths():
    return D.from_generator(lambda: [[1], [1, 2], [1, 2, 3], [4, 5, 6, 7], [1, 2, 3, 4, 5]],
                            output_signature=tf.TensorSpec([None], tf.int32))


CASES = {
    "shard": (lambda: D.range(10).shard(3, 1), [1, 4, 7], 3),
    "take_while": (lambda: D.range(10).take_while(lambda x: x < 4), [0, 1, 2, 3], -2),
    "unique": (lambda: D.from_tensor_slices([1, 2, 2, 3, 1]).unique(), [1, 2, 3], -2),
    "unique strings": (lambda: D.from_tensor_slices(["a", "b", "a"]).unique(),
                       [b"a", b"b"], -2),
    "counter": (lambda: D.counter(3, 2).take(3), [3, 5, 7], 3),
    "choose": (lambda: D.choose_from_datasets(
        [D.range(3), D.range(10, 13)], D.from_tensor_slices(tf.constant([0, 1, 1, 0],
                                                                         tf.int64))),
               [0, 10, 11, 1], -2),
    "choose stops on empty": (lambda: D.choose_from_datasets(
        [D.range(1), D.range(10, 13)], D.from_tensor_slices(tf.constant([0, 0, 1], tf.int64))),
        [0], -2),
    "choose skips empty": (lambda: D.choose_from_datasets(
        [D.range(1), D.range(10, 13)], D.from_tensor_slices(tf.constant([0, 0, 1], tf.int64)),
        stop_on_empty_dataset=False), [0, 10], -2),
    "group_by_window": (lambda: D.range(10).group_by_window(
        lambda x: x % 2, lambda k, ds: ds.batch(3), window_size=3),
        [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]], -2),
    "group_by_window sizes": (lambda: D.range(10).group_by_window(
        lambda x: x % 3, lambda k, ds: ds.batch(10), window_size_func=lambda k: k + 1),
        [[0], [3], [1, 4], [6], [2, 5, 8], [9], [7]], -2),
    "bucket_by_sequence_length": (lambda: _lengths().bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3], [2, 2]),
        [[[1, 0], [1, 2]], [[1, 2, 3, 0], [4, 5, 6, 7]], [[1, 2, 3, 4, 5]]], -2),
    "rebatch": (lambda: D.range(10).batch(4).rebatch(3), [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]],
                -2),
    "rebatch drop": (lambda: D.range(10).batch(4).rebatch(3, drop_remainder=True),
                     [[0, 1, 2], [3, 4, 5], [6, 7, 8]], -2),
    "pad_to_cardinality": (lambda: D.from_tensor_slices({"a": [1, 2]}).apply(
        experimental.pad_to_cardinality(4)),
        [{"a": 1, "valid": True}, {"a": 2, "valid": True}, {"a": 0, "valid": False},
         {"a": 0, "valid": False}], 4),
    "from_list": (lambda: experimental.from_list([(1, "a"), (2, "b")]),
                  [(1, b"a"), (2, b"b")], 2),
    "assert_cardinality": (lambda: D.range(3).filter(lambda x: True).apply(
        experimental.assert_cardinality(3)), [0, 1, 2], 3),
    "map_and_batch": (lambda: D.range(5).apply(experimental.map_and_batch(lambda x: x * 2, 2)),
                      [[0, 2], [4, 6], [8]], 3),
    "enumerate_dataset": (lambda: D.range(2).apply(experimental.enumerate_dataset(5)),
                          [(5, 0), (6, 1)], 2),
    "group_by_reducer": (lambda: D.range(10).apply(experimental.group_by_reducer(
        lambda x: x % 2, experimental.Reducer(lambda k: tf.constant(0, tf.int64),
                                              lambda s, x: s + x, lambda s: s))), [20, 25], -2),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_elements_and_cardinality_are_tfs(name):
    build, elements, cardinality = CASES[name]
    _check(build(), elements, cardinality)


def test_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Index must be between 0 and 2 \(currently index = 3\)"):
        D.range(10).shard(3, 3)
    with pytest.raises(TypeError, match="does not support type"):
        D.from_tensor_slices([1., 2.]).unique()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset had more than one"):
        D.range(2).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty"):
        D.range(0).get_single_element()
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="expected to contain 2 elements but contained at least 3"):
        _elements(D.range(3).apply(experimental.assert_cardinality(2)))
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="expected to contain 5 elements but contained only 3"):
        _elements(D.range(3).filter(lambda x: True).apply(experimental.assert_cardinality(5)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="pad_to_bucket_boundary=True"):
        _elements(_lengths().bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [3, 5], [2, 2, 1], pad_to_bucket_boundary=True,
            padding_values=-1))


def test_single_element_eagerly_and_in_a_function():
    assert D.range(1).get_single_element().numpy() == 0
    assert experimental.at(D.range(10), 3).numpy() == 3

    @tf.function
    def first(n):
        return D.from_tensor_slices(tf.range(5, dtype=tf.int64) * n).skip(2).take(
            1).get_single_element()
    assert first(tf.constant(3, tf.int64)).numpy() == 6


def test_random_sources():
    mixed = D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1)
    assert int(mixed.cardinality()) == -2
    assert sorted(_elements(mixed)) == [0, 1, 2, 10, 11, 12]
    assert int(D.random(seed=1).cardinality()) == -1
    assert int(D.counter().cardinality()) == -1
    assert int(D.range(3).apply(experimental.shuffle_and_repeat(3, 2, seed=1)).cardinality()) \
        == 6
    pairs = _elements(D.range(40).apply(experimental.rejection_resample(
        lambda x: tf.cast(x % 2, tf.int32), [0.0, 1.0], seed=0)))
    assert pairs and all(label == 1 and value % 2 == 1 for label, value in pairs)
    # TensorFlow 2.21 also has it as a method, (class, element) pairs
    pairs = _elements(D.range(40).rejection_resample(
        lambda x: tf.cast(x % 2, tf.int32), [0.0, 1.0], seed=0))
    assert pairs and all(label == 1 and value % 2 == 1 for label, value in pairs)


def test_options_fields_as_tf():
    options = tf.data.Options()
    assert options.autotune.enabled is None and options.threading.private_threadpool_size is None
    assert options.experimental_distribute.auto_shard_policy == \
        experimental.AutoShardPolicy.AUTO
    assert options.experimental_optimization.map_parallelization is None
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options"):
        options.foo = 1
    options.threading.private_threadpool_size = 4
    options.experimental_distribute.auto_shard_policy = experimental.AutoShardPolicy.DATA
    ds = D.range(3).with_options(options).map(lambda x: x + 1)
    assert ds.options().threading.private_threadpool_size == 4       # kept downstream
    assert ds.options().experimental_distribute.auto_shard_policy == \
        experimental.AutoShardPolicy.DATA
    assert experimental.get_structure(ds) == tf.TensorSpec([], tf.int64)
