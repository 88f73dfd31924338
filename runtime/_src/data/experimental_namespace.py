"""`tf.data.experimental`: the names TensorFlow keeps there, most of them
`Dataset.apply` transformations over the `Dataset` methods:

    ds.apply(tf.data.experimental.assert_cardinality(10))
    ds.apply(tf.data.experimental.group_by_reducer(key_func, Reducer(init, reduce, finalize)))
    tf.data.experimental.at(ds, 3)          # the element at index 3
"""

import numpy as np

from runtime._src.data import structure
from runtime._src.data.options import (AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions,
                                       DistributeOptions, ExternalStatePolicy,
                                       OptimizationOptions, ThreadingOptions)
from runtime._src.data.dataset import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    AssertCardinality,
    CopyToDevice,
    Dataset,
    from_variant,
    to_variant,
)
from runtime._src.data.dataset import CsvDatasetV2 as CsvDataset
from runtime._src.data.dataset import SqlDatasetV2 as SqlDataset
from runtime._src.data.csv_dataset import make_csv_dataset
from runtime._src.data.example_parsing import parse_example_dataset
from runtime._src.data.features_dataset import make_batched_features_dataset
from runtime._src.data.iterator import Optional, get_next_as_optional
from runtime._src.data.mapping import enable_debug_mode
from runtime._src.data.readers import TFRecordWriter
from runtime._src.data.tables import (DatasetInitializer, index_table_from_dataset,
                                      table_from_dataset)

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality",
           "assert_cardinality", "at", "bucket_by_sequence_length", "choose_from_datasets",
           "dense_to_ragged_batch", "dense_to_sparse_batch",
           "Counter", "enumerate_dataset", "from_list", "get_single_element", "get_structure",
           "group_by_reducer", "group_by_window", "map_and_batch", "pad_to_cardinality",
           "parallel_interleave", "RandomDataset", "rejection_resample", "Reducer",
           "sample_from_datasets", "scan", "shuffle_and_repeat", "take_while", "unbatch",
           "unique", "AutoShardPolicy", "ExternalStatePolicy", "AutotuneAlgorithm",
           "AutotuneOptions", "DistributeOptions", "OptimizationOptions", "ThreadingOptions",
           "SHARD_HINT", "CsvDataset", "TFRecordWriter", "parse_example_dataset",
           "Optional", "get_next_as_optional", "enable_debug_mode", "copy_to_device",
           "ignore_errors", "prefetch_to_device", "SqlDataset",
           "save", "load", "snapshot", "DatasetInitializer", "table_from_dataset",
           "index_table_from_dataset", "from_variant", "to_variant",
           "make_csv_dataset", "make_batched_features_dataset"]

SHARD_HINT = -1


def cardinality(dataset):
    """The dataset's cardinality (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY or a count)."""
    return dataset.cardinality()


def assert_cardinality(expected_cardinality):
    """A transformation checking, as the elements are produced, that there are
    exactly `expected_cardinality` of them (FailedPreconditionError if not);
    the result's cardinality is that number."""
    return lambda dataset: AssertCardinality(dataset, expected_cardinality)


def at(dataset, index):
    """The element of `dataset` at `index` (OutOfRangeError past the end)."""
    return dataset.skip(index).take(1).apply(assert_cardinality(1)).get_single_element()


def _method(name, doc):
    def transformation(*args, **kwargs):
        return lambda dataset: getattr(dataset, name)(*args, **kwargs)
    transformation.__name__ = transformation.__qualname__ = name
    transformation.__doc__ = doc
    return transformation


bucket_by_sequence_length = _method(
    "bucket_by_sequence_length", "`Dataset.bucket_by_sequence_length`, for `Dataset.apply`.")
group_by_window = _method("group_by_window", "`Dataset.group_by_window`, for `Dataset.apply`.")
take_while = _method("take_while", "`Dataset.take_while`, for `Dataset.apply`.")
unique = _method("unique", "`Dataset.unique`, for `Dataset.apply`.")
unbatch = _method("unbatch", "`Dataset.unbatch`, for `Dataset.apply`.")
scan = _method("scan", "`Dataset.scan`, for `Dataset.apply`.")
enumerate_dataset = _method("enumerate", "`Dataset.enumerate`, for `Dataset.apply`.")
dense_to_ragged_batch = _method("ragged_batch", "`Dataset.ragged_batch`, for `Dataset.apply`.")
dense_to_sparse_batch = _method("sparse_batch", "`Dataset.sparse_batch`, for `Dataset.apply`.")


def get_single_element(dataset):
    return dataset.get_single_element()


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def Counter(start=0, step=1, dtype=None):  # noqa: N802 - TensorFlow's name
    """`Dataset.counter`: `start`, `start + step`, ... forever."""
    return Dataset.counter(start, step, dtype)


def RandomDataset(seed=None):  # noqa: N802 - TensorFlow's name
    """`Dataset.random`: random int64 scalars forever."""
    return Dataset.random(seed)


def from_list(elements, name=None):
    """A dataset of the given elements (each a structure of values of the same
    structure and dtypes), in order."""
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    columns = [list(c) for c in zip(*(structure.flatten(e) for e in elements))]
    return Dataset.from_tensor_slices(structure.pack(elements[0], [np.array(c)
                                                                   for c in columns]))


def get_structure(dataset_or_iterator):
    """The element spec of a dataset or an iterator."""
    spec = getattr(dataset_or_iterator, "element_spec", None)
    if spec is None:
        raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a "
                        f"`tf.data.Dataset` or tf.data.Iterator object, but got "
                        f"{type(dataset_or_iterator)}.")
    return spec


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """`map(map_func)` then `batch(batch_size, drop_remainder)` (deprecated in TF)."""
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """`shuffle(buffer_size, seed)` then `repeat(count)` (deprecated in TF)."""
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    """`interleave(map_func, cycle_length, block_length)` (deprecated in TF)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def pad_to_cardinality(cardinality):
    """Dict elements padded with zero-valued elements up to `cardinality`, each
    with a `valid` key saying whether it is a real one."""
    def apply(dataset):
        from runtime._src.ops import array_ops
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError(f"`pad_to_cardinality` requires its input dataset to be a "
                             f"dictionary, got {spec!r}")
        n = int(dataset.cardinality())
        if n < 0:
            raise ValueError("`pad_to_cardinality` requires a dataset of known cardinality")
        real = dataset.map(lambda e: {**e, "valid": True})
        zeros = {k: array_ops.zeros(s.shape, s.dtype) for k, s in spec.items()}
        filler = Dataset.from_tensors({**zeros, "valid": False}).repeat(max(cardinality - n, 0))
        return real.concatenate(filler)
    return apply


class Reducer:
    """`tf.data.experimental.Reducer(init_func, reduce_func, finalize_func)`:
    how `group_by_reducer` folds each group."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func = init_func, reduce_func
        self.finalize_func = finalize_func


def group_by_reducer(key_func, reducer):
    """One element per key: `finalize(fold(reduce, init(key), group))`, in the
    order the keys first appeared."""
    def apply(dataset):
        def reduce_window(key, window):
            state = window.reduce(reducer.init_func(key), reducer.reduce_func)
            return Dataset.from_tensors(reducer.finalize_func(state))
        return dataset.group_by_window(key_func, reduce_window, window_size=2 ** 62)
    return apply


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """Resample to the class distribution `target_dist` (elements become
    `(class, element)` pairs), accepting each element with probability
    proportional to target / initial for its class; without `initial_dist`
    the initial distribution is estimated as elements stream by."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist,
                                                      seed)


# --- saving, devices and variants: the Dataset methods and nodes, as functions ------------

def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """`tf.data.experimental.save`: `Dataset.save`."""
    return dataset.save(path, compression, shard_func, checkpoint_args)


def load(path, element_spec=None, compression=None, reader_func=None):
    """`tf.data.experimental.load`: `Dataset.load`."""
    return Dataset.load(path, element_spec, compression, reader_func)


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """`tf.data.experimental.snapshot`: `Dataset.snapshot`, for `Dataset.apply`."""
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)


def ignore_errors(log_warning=False):
    """`tf.data.experimental.ignore_errors`: `Dataset.ignore_errors`, for `apply`."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def copy_to_device(target_device, source_device="/cpu:0"):
    """`tf.data.experimental.copy_to_device`: the elements on `target_device`
    (here the one device, so the same elements), for `Dataset.apply`."""
    return lambda dataset: CopyToDevice(dataset, target_device, source_device)


def prefetch_to_device(device, buffer_size=None):
    """`tf.data.experimental.prefetch_to_device`: prefetching onto `device`
    (here the one device), for `Dataset.apply`; `buffer_size` None: AUTOTUNE."""
    return lambda dataset: dataset.prefetch(AUTOTUNE if buffer_size is None else buffer_size)
