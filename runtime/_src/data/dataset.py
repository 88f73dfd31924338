"""`tf.data.Dataset`: an input pipeline as a chain of immutable nodes.

    ds = Dataset.from_tensor_slices((x, y)).shuffle(1000, seed=1).map(f).batch(64)
    for xb, yb in ds: ...           # eagerly: EagerTensors, one batch a step

This module is the top of the package's layers (node.py tells the layout): the
public `Dataset`, a `DatasetNode` whose methods build nodes, and the public
class of each node class, `public(node_class)`, which the methods name
directly. Every dataset a user sees is one of these public classes.

Inside a tf.function, iterating a dataset stages iterator ops (see
iterator_ops.py): the graph node holds the dataset, the pipeline runs on the
host when the graph runs, a fresh iteration per run.
"""

import functools

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor, Tensor, TensorSpec, VariantValue
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.data import (batching, mapping, node, passthrough, persistence, readers,
                               selection, shuffling, sources, sql, transforms)
from runtime._src.data.node import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY,
                                    DatasetNode)
from runtime._src.data.options import Options

__all__ = [
    "AUTOTUNE",
    "INFINITE_CARDINALITY",
    "UNKNOWN_CARDINALITY",
    "Dataset",
    "DatasetHandle",
    "DatasetSpec",
    "DatasetV2",
    "Options",
    "public",
    "to_variant",
    "from_variant",
]


class Dataset(DatasetNode):
    """A pipeline of elements. Build one with a source (`from_tensor_slices`,
    `range`, `from_generator`...) and chain transformations."""

    # --- the hooks of DatasetNode (node.py) ------------------------------------
    def _public(self, node_class):
        return public(node_class)

    def _dataset_spec(self, element_spec):
        return DatasetSpec(element_spec)

    # --- the protocols of core/protocols.py ------------------------------------
    @property
    def _type_spec(self):
        """CompositeValue: a DatasetSpec, of one variant component (the dataset
        passed to a tf.function as a handle, see FromHandle)."""
        return DatasetSpec.from_value(self)

    # --- options, folding, applying ----------------------------------------------
    def with_options(self, options):
        return WithOptions(self, options)

    def reduce(self, initial_state, reduce_func):
        return mapping.reduce(self, initial_state, reduce_func)

    def apply(self, transformation_func):
        out = transformation_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"Dataset.apply: the transformation returned "
                            f"{type(out).__name__}, not a Dataset")
        return out

    # --- sources ---------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        return TensorSlices(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        return FromTensors(tensors)

    @staticmethod
    def range(*args, output_type=None, name=None):
        return Range(args, output_type)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        return FromGenerator(generator, output_types, output_shapes, args,
                                      output_signature)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The files matching a glob pattern (or any of several), sorted, then
        shuffled each epoch unless shuffle=False (TF's default is to shuffle)."""
        from runtime._src.io.decode_ops import matching_files
        files = matching_files(file_pattern)
        if files.shape[0] == 0:
            patterns = np.asarray(getattr(file_pattern, "numpy", lambda: file_pattern)(),
                                  object).reshape(-1)
            shown = ", ".join(p.decode() if isinstance(p, bytes) else str(p) for p in patterns)
            raise InvalidArgumentError("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to "
                                       f"be true. Summarized data: b'No files matched "
                                       f"pattern: {shown}'", "Dataset.list_files")
        dataset = Dataset.from_tensor_slices(files)
        if shuffle is None or shuffle:
            dataset = dataset.shuffle(int(files.shape[0]), seed=seed)
        return dataset

    @staticmethod
    def zip(*datasets, name=None):
        if len(datasets) == 1 and not isinstance(datasets[0], Dataset):
            datasets = datasets[0]
        return Zip(datasets)

    def concatenate(self, dataset, name=None):
        return Concatenate(self, dataset)

    # --- transformations ---------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return _parallel(Map(self, map_func), num_parallel_calls, "_ParallelMapDataset")

    def filter(self, predicate, name=None):
        return Filter(self, predicate)

    def flat_map(self, map_func, name=None):
        return FlatMap(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        return _parallel(Interleave(self, map_func, cycle_length, block_length),
                         num_parallel_calls, "_ParallelInterleaveDataset")

    def scan(self, initial_state, scan_func, name=None):
        return Scan(self, initial_state, scan_func)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        return _parallel(Batch(self, batch_size, drop_remainder),
                         num_parallel_calls, "_ParallelBatchDataset")

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        return PaddedBatch(self, batch_size, padded_shapes, padding_values,
                                     drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                     name=None):
        """Batches of elements of any shapes, their leaves as RaggedTensors."""
        return RaggedBatch(self, batch_size, drop_remainder, row_splits_dtype)

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batches of dense elements as SparseTensors of shape [batch] + row_shape."""
        return SparseBatch(self, batch_size, row_shape)

    def unbatch(self, name=None):
        return Unbatch(self)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        return Window(self, size, shift, stride, drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return Shuffle(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        return Repeat(self, count)

    def take(self, count, name=None):
        return Take(self, count)

    def skip(self, count, name=None):
        return Skip(self, count)

    def enumerate(self, start=0, name=None):
        return Enumerate(self, start)

    def cache(self, filename="", name=None):
        return Cache(self, filename)

    def prefetch(self, buffer_size, name=None):
        return Prefetch(self, buffer_size)

    # --- selecting, grouping and mixing (selection.py) ---------------------------
    def shard(self, num_shards, index, name=None):
        return Shard(self, num_shards, index)

    def take_while(self, predicate, name=None):
        return TakeWhile(self, predicate)

    def unique(self, name=None):
        return Unique(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        return Rebatch(self, batch_size, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        return GroupByWindow(self, key_func, reduce_func, window_size,
                                      window_size_func)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        """(class, element) pairs resampled to the class distribution `target_dist`
        (tf.data.experimental.rejection_resample as a method)."""
        return RejectionResample(self, class_func, np.asarray(target_dist, np.float64),
                                          initial_dist, seed)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        return BucketBySequenceLength(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def ignore_errors(self, log_warning=False, name=None):
        """The elements whose computation raised no error (passthrough.py)."""
        return IgnoreErrors(self, log_warning)

    # --- saving and snapshots (persistence.py) ------------------------------------
    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the elements to the directory `path` (Dataset.load reads it)."""
        return persistence.save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """The dataset `Dataset.save` wrote to `path`."""
        return Load(path, element_spec, compression, reader_func)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """The same elements, written under `path` on the first pass and read after."""
        return Snapshot(self, path, compression, reader_func, shard_func)

    def get_single_element(self, name=None):
        return selection.get_single_element(self)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return ChooseFromDatasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return SampleFromDatasets(datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def counter(start=0, step=1, dtype=None, name=None):
        return Counter(start, step, "int64" if dtype is None else dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        return RandomSource(seed)


DatasetV2 = Dataset


@functools.cache
def public(node_class):
    """The public class of a node class: `class <Name>(node_class, Dataset)`,
    named as the node class (reprs and snapshot fingerprints use the name)."""
    name = node_class.__name__
    return type(name, (node_class, Dataset), {"__doc__": node_class.__doc__,
                                              "__module__": __name__, "__qualname__": name})


# --- the public node classes, as the methods above name them ----------------------
TensorSlices = public(sources.TensorSlices)
FromTensors = public(sources.FromTensors)
Range = public(sources.Range)
FromGenerator = public(sources.FromGenerator)
Zip = public(sources.Zip)
Concatenate = public(sources.Concatenate)
Repeat = public(transforms.Repeat)
Take = public(transforms.Take)
Skip = public(transforms.Skip)
Enumerate = public(transforms.Enumerate)
Cache = public(transforms.Cache)
Prefetch = public(transforms.Prefetch)
WithOptions = public(transforms.WithOptions)
Map = public(mapping.Map)
Filter = public(mapping.Filter)
FlatMap = public(mapping.FlatMap)
Interleave = public(mapping.Interleave)
Scan = public(mapping.Scan)
Batch = public(batching.Batch)
PaddedBatch = public(batching.PaddedBatch)
RaggedBatch = public(batching.RaggedBatch)
SparseBatch = public(batching.SparseBatch)
Unbatch = public(batching.Unbatch)
Window = public(batching.Window)
Shuffle = public(shuffling.Shuffle)
Shard = public(selection.Shard)
TakeWhile = public(selection.TakeWhile)
Unique = public(selection.Unique)
Rebatch = public(selection.Rebatch)
GroupByWindow = public(selection.GroupByWindow)
BucketBySequenceLength = public(selection.BucketBySequenceLength)
ChooseFromDatasets = public(selection.ChooseFromDatasets)
SampleFromDatasets = public(selection.SampleFromDatasets)
Counter = public(selection.Counter)
RandomSource = public(selection.RandomSource)
AssertCardinality = public(selection.AssertCardinality)
RejectionResample = public(selection.RejectionResample)
IgnoreErrors = public(passthrough.IgnoreErrors)
CopyToDevice = public(passthrough.CopyToDevice)
FromVariant = public(passthrough.FromVariant)
Load = public(persistence.Load)
Snapshot = public(persistence.Snapshot)
TFRecordDatasetV2 = public(readers.TFRecordDatasetV2)
TextLineDatasetV2 = public(readers.TextLineDatasetV2)
FixedLengthRecordDatasetV2 = public(readers.FixedLengthRecordDatasetV2)
CsvDatasetV2 = public(readers.CsvDatasetV2)
SqlDatasetV2 = public(sql.SqlDatasetV2)
FromHandle = public(node.FromHandle)


def _parallel(dataset, num_parallel_calls, tf_class):
    """TensorFlow makes another class for a parallel map, interleave or batch;
    its repr shows it (our datasets compute the same elements either way)."""
    if num_parallel_calls is not None:
        dataset._tf_class = tf_class
    return dataset


# --- a dataset passed to a tf.function --------------------------------------------
# A composite value (core/composite.py) whose spec is its DatasetSpec and whose
# one component is a variant scalar, so a new dataset with the same
# element_spec reuses the trace (TensorFlow's DatasetSpec) and the graph holds
# no dataset of its own:
#
#     f(Dataset.range(3)); f(Dataset.range(10))     # one trace: same element_spec
#     f(Dataset.range(3).map(to_float))             # a second trace

class DatasetSpec(CompositeSpec):
    """`tf.data.DatasetSpec`: the type of a dataset (its element_spec).

    A composite spec (core/composite.py) of one `variant` scalar component:
    a dataset passed to a tf.function is fed as a handle and read back from
    its placeholder while tracing (FromHandle).
    """

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.shape = TensorShape(dataset_shape)

    @property
    def value_type(self):
        return Dataset

    def _serialize(self):
        return (repr(self.element_spec), self.shape)

    @property
    def _component_specs(self):
        return [TensorSpec([], dtypes.variant)]

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    def _to_components(self, value):
        return [EagerTensor(DatasetHandle(value), dtypes.variant)]

    def _from_components(self, components):
        (handle,) = components
        if isinstance(handle, EagerTensor):
            return handle._value.dataset
        return FromHandle(handle, self.element_spec)

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self.shape!r})"


class DatasetHandle(VariantValue):
    """The run-time value of a dataset argument's placeholder."""

    __slots__ = ("dataset",)
    shape = ()          # a scalar (a variant tensor of to_variant passed to a tf.function)

    def __init__(self, dataset):
        self.dataset = dataset

    def __repr__(self):
        return f"<dataset handle {self.dataset!r}>"


def to_variant(dataset):
    """`tf.data.experimental.to_variant`: the dataset as a scalar variant tensor."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"to_variant: expected a tf.data.Dataset, got {type(dataset).__name__}")
    (variant,) = DatasetSpec(dataset.element_spec)._to_components(dataset)
    return variant


def from_variant(variant, structure):
    """`tf.data.experimental.from_variant`: the dataset a variant tensor holds
    (of `to_variant`, or a tf.function's variant argument), its element_spec
    `structure`."""
    if not isinstance(variant, Tensor) or variant.dtype != dtypes.variant:
        raise TypeError(f"from_variant: expected a variant tensor, got {variant!r}")
    if isinstance(variant, EagerTensor):
        return FromVariant(variant._value.dataset)
    return FromHandle(variant, structure)
