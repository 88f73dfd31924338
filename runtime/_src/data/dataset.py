"""`tf.data.Dataset`: an input pipeline as a chain of immutable nodes.

    ds = Dataset.from_tensor_slices((x, y)).shuffle(1000, seed=1).map(f).batch(64)
    for xb, yb in ds: ...           # eagerly: EagerTensors, one batch a step

Each node knows its `element_spec`, its static cardinality, and how to
iterate: `_iterate(env)` yields elements as nested structures of numpy
values (`env` binds the symbolic tensors a dataset built while tracing holds,
see env.py). Nodes live in sources.py, transforms.py, batching.py,
shuffling.py, mapping.py and selection.py; this file holds the public
methods, which only build nodes. Those modules subclass Dataset, so each
method imports its node class where it runs.

Inside a tf.function, iterating a dataset stages iterator ops (see
iterator_ops.py): the graph node holds the dataset, the pipeline runs on the
host when the graph runs, a fresh iteration per run.
"""

import numpy as np

from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, wrap_numpy
from runtime._src.data import structure
from runtime._src.data.env import EMPTY, symbolic_leaves
from runtime._src.data.iterator import OwnedIterator
from runtime._src.data.options import Options

__all__ = [
    "AUTOTUNE",
    "INFINITE_CARDINALITY",
    "UNKNOWN_CARDINALITY",
    "Dataset",
    "DatasetV2",
    "Options",
    "static_int",
]

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
AUTOTUNE = -1

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
        from runtime._src.data.transforms import WithOptions
        return WithOptions(self, options)

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
        """CompositeValue: a DatasetSpec of one variant component (arguments.py
        holds what a dataset passed to a tf.function is fed as and read back as)."""
        from runtime._src.data.batching import DatasetSpec
        return DatasetSpec.from_value(self)

    def _autograph_stream(self):
        """Streamable: a staged `for` reads the dataset through a graph iterator."""
        from runtime._src.data.iterator_ops import DatasetStream, GraphIterator
        return DatasetStream(GraphIterator(self))

    # --- iteration -------------------------------------------------------------
    def __iter__(self):
        if current_graph() is not None:
            from runtime._src.data.iterator_ops import GraphIterator
            return GraphIterator(self)
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        if current_graph() is not None:
            raise RuntimeError("as_numpy_iterator() is not supported inside a tf.function; "
                               "iterate the dataset directly (for x in ds)")
        return (structure.to_numpy(e) for e in self._iterate(EMPTY))

    def reduce(self, initial_state, reduce_func):
        from runtime._src.data.mapping import reduce
        return reduce(self, initial_state, reduce_func)

    def apply(self, transformation_func):
        out = transformation_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"Dataset.apply: the transformation returned "
                            f"{type(out).__name__}, not a Dataset")
        return out

    # --- sources ---------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        from runtime._src.data.sources import TensorSlices
        return TensorSlices(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        from runtime._src.data.sources import FromTensors
        return FromTensors(tensors)

    @staticmethod
    def range(*args, output_type=None, name=None):
        from runtime._src.data.sources import Range
        return Range(args, output_type)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        from runtime._src.data.sources import FromGenerator
        return FromGenerator(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*datasets, name=None):
        if len(datasets) == 1 and not isinstance(datasets[0], Dataset):
            datasets = datasets[0]
        from runtime._src.data.sources import Zip
        return Zip(datasets)

    def concatenate(self, dataset, name=None):
        from runtime._src.data.sources import Concatenate
        return Concatenate(self, dataset)

    # --- transformations ---------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        from runtime._src.data.mapping import Map
        return _parallel(Map(self, map_func), num_parallel_calls, "_ParallelMapDataset")

    def filter(self, predicate, name=None):
        from runtime._src.data.mapping import Filter
        return Filter(self, predicate)

    def flat_map(self, map_func, name=None):
        from runtime._src.data.mapping import FlatMap
        return FlatMap(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        from runtime._src.data.mapping import Interleave
        return _parallel(Interleave(self, map_func, cycle_length, block_length),
                         num_parallel_calls, "_ParallelInterleaveDataset")

    def scan(self, initial_state, scan_func, name=None):
        from runtime._src.data.mapping import Scan
        return Scan(self, initial_state, scan_func)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        from runtime._src.data.batching import Batch
        return _parallel(Batch(self, batch_size, drop_remainder),
                         num_parallel_calls, "_ParallelBatchDataset")

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        from runtime._src.data.batching import PaddedBatch
        return PaddedBatch(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def unbatch(self, name=None):
        from runtime._src.data.batching import Unbatch
        return Unbatch(self)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        from runtime._src.data.batching import Window
        return Window(self, size, shift, stride, drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        from runtime._src.data.shuffling import Shuffle
        return Shuffle(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        from runtime._src.data.transforms import Repeat
        return Repeat(self, count)

    def take(self, count, name=None):
        from runtime._src.data.transforms import Take
        return Take(self, count)

    def skip(self, count, name=None):
        from runtime._src.data.transforms import Skip
        return Skip(self, count)

    def enumerate(self, start=0, name=None):
        from runtime._src.data.transforms import Enumerate
        return Enumerate(self, start)

    def cache(self, filename="", name=None):
        from runtime._src.data.transforms import Cache
        return Cache(self, filename)

    def prefetch(self, buffer_size, name=None):
        from runtime._src.data.transforms import Prefetch
        return Prefetch(self, buffer_size)

    # --- selecting, grouping and mixing (selection.py) ---------------------------
    def shard(self, num_shards, index, name=None):
        from runtime._src.data.selection import Shard
        return Shard(self, num_shards, index)

    def take_while(self, predicate, name=None):
        from runtime._src.data.selection import TakeWhile
        return TakeWhile(self, predicate)

    def unique(self, name=None):
        from runtime._src.data.selection import Unique
        return Unique(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        from runtime._src.data.selection import Rebatch
        return Rebatch(self, batch_size, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        from runtime._src.data.selection import GroupByWindow
        return GroupByWindow(self, key_func, reduce_func, window_size, window_size_func)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        """(class, element) pairs resampled to the class distribution `target_dist`
        (tf.data.experimental.rejection_resample as a method)."""
        from runtime._src.data.selection import RejectionResample
        return RejectionResample(self, class_func, np.asarray(target_dist, np.float64),
                                 initial_dist, seed)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        from runtime._src.data.selection import BucketBySequenceLength
        return BucketBySequenceLength(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def get_single_element(self, name=None):
        from runtime._src.data.selection import get_single_element
        return get_single_element(self)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        from runtime._src.data.selection import ChooseFromDatasets
        return ChooseFromDatasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        from runtime._src.data.selection import SampleFromDatasets
        return SampleFromDatasets(datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def counter(start=0, step=1, dtype=None, name=None):
        from runtime._src.data.selection import Counter
        return Counter(start, step, "int64" if dtype is None else dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        from runtime._src.data.selection import RandomSource
        return RandomSource(seed)


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


