"""`tf.data.Dataset`: an input pipeline as a chain of immutable nodes.

    ds = Dataset.from_tensor_slices((x, y)).shuffle(1000, seed=1).map(f).batch(64)
    for xb, yb in ds: ...           # eagerly: EagerTensors, one batch a step

Each node knows its `element_spec`, its static cardinality, and how to
iterate: `_iterate(env)` yields elements as nested structures of numpy
values (`env` binds the symbolic tensors a dataset built while tracing holds,
see env.py). Nodes live in sources.py, transforms.py, batching.py,
shuffling.py and mapping.py; this file holds the public methods, which only
build nodes.

Inside a tf.function, iterating a dataset stages iterator ops (see
iterator_ops.py): the graph node holds the dataset, the pipeline runs on the
host when the graph runs, a fresh iteration per run.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec
from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor, Tensor, VariantValue, wrap_numpy
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import structure
from runtime._src.data.env import EMPTY, symbolic_leaves
from runtime._src.data.iterator import NumpyIterator, OwnedIterator
from runtime._src.data.iterator_ops import DatasetStream, GraphIterator
from runtime._src.data.options import Options

__all__ = [
    "AUTOTUNE",
    "INFINITE_CARDINALITY",
    "NODES",
    "UNKNOWN_CARDINALITY",
    "Dataset",
    "DatasetHandle",
    "DatasetSpec",
    "DatasetV2",
    "FromHandle",
    "Options",
    "register",
    "static_int",
]

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
AUTOTUNE = -1

# The node classes and functions of the modules above this one (sources,
# transforms, mapping, batching, shuffling, selection, readers), by name: those
# modules subclass Dataset, so they fill this table when imported
# (runtime/_src/data/__init__.py imports them all).
NODES = {}


def register(*items):
    for item in items:
        NODES[item.__name__] = item


def static_int(value, what, op):
    """A Python int from an int, numpy integer or eager scalar tensor."""
    if isinstance(value, Tensor):
        if not hasattr(value, "_value"):
            raise TypeError(f"{op}: {what} must be known when the dataset is built; got the "
                            f"symbolic tensor {value.name}")
        value = value._value
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}: {what} must be an integer, got {type(value).__name__} "
                        f"{value!r}")
    return int(value)


class Dataset:
    """A pipeline of elements. Build one with a source (`from_tensor_slices`,
    `range`, `from_generator`...) and chain transformations."""

    _inputs = ()            # the datasets this node reads
    _params = ()            # the tensors this node was built from
    _options = None

    def __init__(self, spec):
        self._spec = spec

    # --- what a node implements --------------------------------------------
    def _iterate(self, env):
        raise NotImplementedError(type(self).__name__)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _plan(self, env):
        """An index plan (batching.Plan) when elements are rows of arrays, for
        the fused batch path; None otherwise."""
        return

    # --- facts ----------------------------------------------------------------
    @property
    def element_spec(self):
        return self._spec

    def cardinality(self):
        return wrap_numpy(np.int64(self._cardinality()))

    def __len__(self):
        n = self._cardinality()
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True

    # The class TensorFlow's repr names: `_<Ours>Dataset` unless set (a class
    # named like TF's own, `TFRecordDatasetV2`, keeps its name).
    _tf_class = None

    def __repr__(self):
        name = self._tf_class or type(self).__name__
        if not (name.endswith("Dataset") or name.endswith("DatasetV2")):
            name = f"_{name}Dataset"
        return f"<{name} element_spec={self._spec!r}>"

    def options(self):
        """The options set on this dataset or upstream (later ones win)."""
        if self._options is not None:
            return self._options
        out = Options()
        for source in self._inputs:
            out = out.merge(source.options())
        return out

    def with_options(self, options):
        return NODES["WithOptions"](self, options)

    def _symbolic(self):
        """The symbolic tensors this pipeline was built from (inputs of its
        iterator op when iterated inside a graph)."""
        out = []
        for d in self._inputs:
            symbolic_leaves(d._symbolic(), out)
        return symbolic_leaves(self._params, out)

    # --- the protocols of core/protocols.py ------------------------------------
    @property
    def _type_spec(self):
        """CompositeValue: a DatasetSpec, of one variant component (the dataset
        passed to a tf.function as a handle, see FromHandle)."""
        return DatasetSpec.from_value(self)

    def _autograph_stream(self):
        """Streamable: a staged `for` reads the dataset through a graph iterator."""
        return DatasetStream(GraphIterator(self))

    # --- iteration -------------------------------------------------------------
    def __iter__(self):
        if current_graph() is not None:
            return GraphIterator(self)
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        if current_graph() is not None:
            raise RuntimeError("as_numpy_iterator() is not supported inside a tf.function; "
                               "iterate the dataset directly (for x in ds)")
        return NumpyIterator(self)

    def reduce(self, initial_state, reduce_func):
        return NODES["reduce"](self, initial_state, reduce_func)

    def apply(self, transformation_func):
        out = transformation_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"Dataset.apply: the transformation returned "
                            f"{type(out).__name__}, not a Dataset")
        return out

    # --- sources ---------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        return NODES["TensorSlices"](tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        return NODES["FromTensors"](tensors)

    @staticmethod
    def range(*args, output_type=None, name=None):
        return NODES["Range"](args, output_type)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        return NODES["FromGenerator"](generator, output_types, output_shapes, args,
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
        return NODES["Zip"](datasets)

    def concatenate(self, dataset, name=None):
        return NODES["Concatenate"](self, dataset)

    # --- transformations ---------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return _parallel(NODES["Map"](self, map_func), num_parallel_calls, "_ParallelMapDataset")

    def filter(self, predicate, name=None):
        return NODES["Filter"](self, predicate)

    def flat_map(self, map_func, name=None):
        return NODES["FlatMap"](self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        return _parallel(NODES["Interleave"](self, map_func, cycle_length, block_length),
                         num_parallel_calls, "_ParallelInterleaveDataset")

    def scan(self, initial_state, scan_func, name=None):
        return NODES["Scan"](self, initial_state, scan_func)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        return _parallel(NODES["Batch"](self, batch_size, drop_remainder),
                         num_parallel_calls, "_ParallelBatchDataset")

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        return NODES["PaddedBatch"](self, batch_size, padded_shapes, padding_values,
                                     drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                     name=None):
        """Batches of elements of any shapes, their leaves as RaggedTensors."""
        return NODES["RaggedBatch"](self, batch_size, drop_remainder, row_splits_dtype)

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batches of dense elements as SparseTensors of shape [batch] + row_shape."""
        return NODES["SparseBatch"](self, batch_size, row_shape)

    def unbatch(self, name=None):
        return NODES["Unbatch"](self)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        return NODES["Window"](self, size, shift, stride, drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return NODES["Shuffle"](self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        return NODES["Repeat"](self, count)

    def take(self, count, name=None):
        return NODES["Take"](self, count)

    def skip(self, count, name=None):
        return NODES["Skip"](self, count)

    def enumerate(self, start=0, name=None):
        return NODES["Enumerate"](self, start)

    def cache(self, filename="", name=None):
        return NODES["Cache"](self, filename)

    def prefetch(self, buffer_size, name=None):
        return NODES["Prefetch"](self, buffer_size)

    # --- selecting, grouping and mixing (selection.py) ---------------------------
    def shard(self, num_shards, index, name=None):
        return NODES["Shard"](self, num_shards, index)

    def take_while(self, predicate, name=None):
        return NODES["TakeWhile"](self, predicate)

    def unique(self, name=None):
        return NODES["Unique"](self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        return NODES["Rebatch"](self, batch_size, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        return NODES["GroupByWindow"](self, key_func, reduce_func, window_size,
                                      window_size_func)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        """(class, element) pairs resampled to the class distribution `target_dist`
        (tf.data.experimental.rejection_resample as a method)."""
        return NODES["RejectionResample"](self, class_func, np.asarray(target_dist, np.float64),
                                          initial_dist, seed)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        return NODES["BucketBySequenceLength"](
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def ignore_errors(self, log_warning=False, name=None):
        """The elements whose computation raised no error (passthrough.py)."""
        return NODES["IgnoreErrors"](self, log_warning)

    # --- saving and snapshots (persistence.py) ------------------------------------
    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the elements to the directory `path` (Dataset.load reads it)."""
        return NODES["save"](self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """The dataset `Dataset.save` wrote to `path`."""
        return NODES["Load"](path, element_spec, compression, reader_func)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """The same elements, written under `path` on the first pass and read after."""
        return NODES["Snapshot"](self, path, compression, reader_func, shard_func)

    def get_single_element(self, name=None):
        return NODES["get_single_element"](self)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return NODES["ChooseFromDatasets"](datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return NODES["SampleFromDatasets"](datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def counter(start=0, step=1, dtype=None, name=None):
        return NODES["Counter"](start, step, "int64" if dtype is None else dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        return NODES["RandomSource"](seed)


DatasetV2 = Dataset


def _parallel(dataset, num_parallel_calls, tf_class):
    """TensorFlow makes another class for a parallel map, interleave or batch;
    its repr shows it (our datasets compute the same elements either way)."""
    if num_parallel_calls is not None:
        dataset._tf_class = tf_class
    return dataset


def check_error(op):
    """An InvalidArgumentError naming the dataset op (for run-time checks)."""
    def make(message):
        return InvalidArgumentError(f"{op}: {message}", op)
    return make


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


class FromHandle(Dataset):
    """While tracing: the dataset argument, read from its placeholder when the
    graph runs."""
    _tf_class = "_VariantDataset"   # TensorFlow's repr

    def __init__(self, placeholder, element_spec):
        self._params = (placeholder,)
        super().__init__(element_spec)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        return env.value(self._params[0]).dataset._iterate(EMPTY)
