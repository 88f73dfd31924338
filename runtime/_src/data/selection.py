"""Transformations that select, group and mix elements: `shard`,
`take_while`, `unique`, `rebatch`, `group_by_window`,
`bucket_by_sequence_length`, `choose_from_datasets`, `sample_from_datasets`,
`counter`, `random`, `get_single_element`, and `tf.data.experimental`'s
`assert_cardinality`.

    ds.shard(3, 1)                              # elements 1, 4, 7, ...
    ds.group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)
    Dataset.choose_from_datasets([a, b], choices)   # a's or b's next, per choice

Groups are flushed at the end in the order their keys first appeared; the
random ones (`sample_from_datasets`, `random`) draw numpy's numbers (see
docs/tf_differences.md, Random numbers).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import current_graph
from runtime._src.core.errors import FailedPreconditionError, InvalidArgumentError
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import structure
from runtime._src.data.batching import Stored
from runtime._src.data.node import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetNode,
    static_int,
)
from runtime._src.data.env import EMPTY
from runtime._src.data.iterator_ops import _env, _leaf
from runtime._src.data.mapping import TracedFunction, _where
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import random_ops

__all__ = ["Shard", "TakeWhile", "Unique", "Rebatch", "GroupByWindow", "ChooseFromDatasets",
           "SampleFromDatasets", "Counter", "RandomSource", "AssertCardinality",
           "BucketBySequenceLength", "RejectionResample", "get_single_element"]


class _Unary(DatasetNode):
    def __init__(self, source, spec=None):
        self._inputs = (source,)
        self._source = source
        super().__init__(source.element_spec if spec is None else spec)


class Shard(_Unary):
    """Every `num_shards`-th element, starting at `index`."""

    def __init__(self, source, num_shards, index):
        super().__init__(source)
        self._n = static_int(num_shards, "num_shards", "Dataset.shard")
        self._index = static_int(index, "index", "Dataset.shard")
        if self._n < 1:
            raise InvalidArgumentError(f"Number of shards must be greater than zero (currently "
                                       f"num_shards = {self._n}).", "ShardDataset")
        if not 0 <= self._index < self._n:
            raise InvalidArgumentError(f"Index must be between 0 and {self._n - 1} (currently "
                                       f"index = {self._index}).", "ShardDataset")

    def _cardinality(self):
        n = self._source._cardinality()
        if n < 0:
            return n
        return n // self._n + (1 if self._index < n % self._n else 0)

    def _iterate(self, env):
        for i, e in enumerate(self._source._iterate(env)):
            if i % self._n == self._index:
                yield e


def _predicate(func, spec, op):
    fn = TracedFunction(func, spec, op)
    leaves = structure.flatten(fn.out_spec)
    if len(leaves) != 1 or not leaves[0].dtype.is_bool or leaves[0].shape.dims != ():
        raise ValueError(f"{op}: the predicate {_where(func)} must return a scalar bool "
                         f"tensor, got {fn.out_spec!r}")
    return fn


class TakeWhile(_Unary):
    """The elements up to (not including) the first for which `predicate` is false."""

    def __init__(self, source, predicate):
        super().__init__(source)
        self._fn = _predicate(predicate, source.element_spec, "Dataset.take_while")

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        for e in self._source._iterate(env):
            if not self._fn.call(e):
                return
            yield e


def _scalar_key(value):
    value = np.asarray(value)
    return value.item() if value.dtype != object else bytes(value.item())


class Unique(_Unary):
    """Each distinct element once, at its first appearance (int32, int64 or string)."""

    def __init__(self, source):
        super().__init__(source)
        spec = source.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype not in (
                dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError(f"`tf.data.Dataset.unique` does not support type "
                            f"{getattr(spec, 'dtype', spec)!r} -- only `tf.int32`, `tf.int64`, "
                            "and `tf.string` are supported.")

    def _cardinality(self):
        return UNKNOWN_CARDINALITY if self._source._cardinality() >= 0 else \
            self._source._cardinality()

    def _iterate(self, env):
        seen = set()
        for e in self._source._iterate(env):
            key = _scalar_key(e)
            if key not in seen:
                seen.add(key)
                yield e


class Rebatch(_Unary):
    """Batches of `batch_size` rows (a list: those sizes in turn) from a batched dataset."""

    def __init__(self, source, batch_size, drop_remainder):
        sizes = np.asarray(batch_size).reshape(-1).tolist()
        if not sizes or any(s < 1 for s in sizes):
            raise InvalidArgumentError(f"Dataset.rebatch: batch sizes must be positive, got "
                                       f"{sizes}", "RebatchDatasetV2")
        self._sizes, self._drop = [int(s) for s in sizes], bool(drop_remainder)
        spec = source.element_spec
        unbatched = structure.pack(spec, [TensorSpec(s.shape[1:], s.dtype)
                                          for s in structure.flatten(spec)])
        size = self._sizes[0] if len(set(self._sizes)) == 1 and self._drop else None
        super().__init__(source, structure.batched_spec(unbatched, size))

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        spec = self._source.element_spec
        rows, turn = [], 0
        for batch in self._source._iterate(env):
            flat = structure.flatten(batch)
            for i in range(len(flat[0]) if flat else 0):
                rows.append([a[i] for a in flat])
                if len(rows) == self._sizes[turn % len(self._sizes)]:
                    yield _stacked(spec, rows)
                    rows, turn = [], turn + 1
        if rows and not self._drop:
            yield _stacked(spec, rows)


def _stacked(spec, rows):
    return structure.pack(spec, [np.stack(column) for column in zip(*rows)])


# --- group_by_window ----------------------------------------------------------------------

class _Grouping(_Unary):
    """Elements grouped by key; each full window of one key (and the rest of
    each group at the end, in the order the keys first appeared) becomes the
    dataset `self._reduce(key, window)`, whose elements are produced in turn."""

    def _cardinality(self):
        n = self._source._cardinality()
        return INFINITE_CARDINALITY if n == INFINITE_CARDINALITY else UNKNOWN_CARDINALITY

    def _iterate(self, env):
        groups = {}
        spec = self._source.element_spec
        for e in self._source._iterate(env):
            key = self._group_key(e)
            group = groups.setdefault(key, [])
            group.append(e)
            if len(group) >= self._window_size(key):
                del groups[key]
                yield from self._reduce(key, self._public(Stored)(group, spec))._iterate(env)
        for key, group in groups.items():
            yield from self._reduce(key, self._public(Stored)(group, spec))._iterate(env)


class GroupByWindow(_Grouping):
    """`Dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)`."""

    def __init__(self, source, key_func, reduce_func, window_size, window_size_func):
        op = "Dataset.group_by_window"
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` "
                             "argument must be specified.")
        self._key = TracedFunction(key_func, source.element_spec, op)
        key_spec = structure.flatten(self._key.out_spec)
        if len(key_spec) != 1 or key_spec[0].dtype != dtypes.int64 or key_spec[0].shape.dims != ():
            raise ValueError(f"{op}: key_func {_where(key_func)} must return a scalar int64 "
                             f"tensor, got {self._key.out_spec!r}")
        self._size = None if window_size is None else static_int(window_size, "window_size", op)
        self._size_fn = None if window_size_func is None else TracedFunction(
            window_size_func, TensorSpec([], dtypes.int64), op)
        self._reduce_func = reduce_func
        probe = self._reduce(0, self._public(Stored)([], source.element_spec))
        if not isinstance(probe, DatasetNode):
            raise TypeError(f"{op}: reduce_func {_where(reduce_func)} must return a Dataset, "
                            f"got {type(probe).__name__}")
        super().__init__(source, probe.element_spec)

    def _group_key(self, element):
        return int(self._key.call(element))

    def _window_size(self, key):
        if self._size is not None:
            return self._size
        return int(self._size_fn.call(np.int64(key)))

    def _reduce(self, key, window):
        return self._reduce_func(structure.to_tensors(np.int64(key)), window)


class BucketBySequenceLength(_Grouping):
    """`Dataset.bucket_by_sequence_length`: bucket i holds the elements whose
    length is in [boundaries[i-1], boundaries[i]); each bucket is
    padded-batched (or batched, with `no_padding`) by its own batch size."""
    _tf_class = "_GroupByWindowDataset"   # TensorFlow's repr

    def __init__(self, source, element_length_func, bucket_boundaries, bucket_batch_sizes,
                 padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                 drop_remainder):
        op = "Dataset.bucket_by_sequence_length"
        self._bounds = [int(b) for b in bucket_boundaries]
        self._sizes = [int(b) for b in bucket_batch_sizes]
        if len(self._sizes) != len(self._bounds) + 1:
            raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 "
                             f"but len(bucket_batch_sizes)={len(self._sizes)} and "
                             f"len(bucket_boundaries)={len(self._bounds)}")
        if self._bounds != sorted(self._bounds):
            raise ValueError(f"{op}: bucket_boundaries must be sorted in increasing order")
        self._length = TracedFunction(element_length_func, source.element_spec, op)
        self._shapes, self._values = padded_shapes, padding_values
        self._to_boundary, self._no_padding = bool(pad_to_bucket_boundary), bool(no_padding)
        self._drop = bool(drop_remainder)
        self._inputs = (source,)
        self._source = source
        probe = self._reduce(0, self._public(Stored)([], source.element_spec))
        DatasetNode.__init__(self, structure.relaxed(probe.element_spec, self._reduce(
            len(self._bounds), self._public(Stored)([], source.element_spec)).element_spec)
            if not self._to_boundary else probe.element_spec)

    def _group_key(self, element):
        return int(np.searchsorted(self._bounds, int(self._length.call(element)), side="right"))

    def _window_size(self, key):
        return self._sizes[key]

    def _reduce(self, key, window):
        size = self._sizes[key]
        if self._no_padding:
            return window.batch(size, drop_remainder=self._drop)
        shapes = self._shapes
        if self._to_boundary:
            if key == len(self._bounds):
                if window._cardinality():
                    raise InvalidArgumentError(
                        "When pad_to_bucket_boundary=True, elements must have length < "
                        "max(bucket_boundaries).", "Dataset.bucket_by_sequence_length")
                key = key - 1
            shapes = structure.pack(window.element_spec, [
                TensorShape([self._bounds[key] - 1] + list(s.shape.dims[1:]))
                for s in structure.flatten(window.element_spec)])
        return window.padded_batch(size, shapes, self._values, self._drop)


# --- mixing datasets ---------------------------------------------------------------------

def _common_spec(datasets, op):
    if not datasets or not all(isinstance(d, DatasetNode) for d in datasets):
        raise TypeError(f"{op}: expected a non-empty list of datasets")
    spec = datasets[0].element_spec
    for d in datasets[1:]:
        if not structure.compatible(spec, d.element_spec):
            raise TypeError(f"Incompatible dataset elements:\n  {spec!r} vs.\n  "
                            f"{d.element_spec!r}")
        spec = structure.relaxed(spec, d.element_spec)
    return spec


class ChooseFromDatasets(DatasetNode):
    """At each element of `choice_dataset` (int64 scalars), the next element
    of `datasets[choice]`; a chosen dataset's end stops it (or, without
    `stop_on_empty_dataset`, that choice is skipped)."""
    _tf_class = "_DirectedInterleaveDataset"   # TensorFlow's repr

    def __init__(self, datasets, choice_dataset, stop_on_empty_dataset):
        op = "Dataset.choose_from_datasets"
        spec = _common_spec(list(datasets), op)
        choice_spec = choice_dataset.element_spec
        if not isinstance(choice_spec, TensorSpec) or choice_spec.dtype != dtypes.int64 \
                or choice_spec.shape.dims != ():
            raise TypeError(f"`choice_dataset` must be a dataset of scalar `tf.int64` "
                            f"tensors, but its element spec is {choice_spec!r}.")
        self._datasets, self._choices = list(datasets), choice_dataset
        self._stop = bool(stop_on_empty_dataset)
        self._inputs = tuple(self._datasets) + (choice_dataset,)
        super().__init__(spec)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        iterators = [d._iterate(env) for d in self._datasets]
        done = [False] * len(iterators)
        for choice in self._choices._iterate(env):
            i = int(choice)
            if not 0 <= i < len(iterators):
                raise InvalidArgumentError(f"Selector index out of range: {i} >= "
                                           f"{len(iterators)}", "DirectedInterleave")
            if done[i]:
                continue
            element = next(iterators[i], None)
            if element is None:
                done[i] = True
                if self._stop or all(done):
                    return
                continue
            yield element


class SampleFromDatasets(DatasetNode):
    """Elements of `datasets` drawn at random with probabilities `weights`."""
    _tf_class = "_DirectedInterleaveDataset"   # TensorFlow's repr

    def __init__(self, datasets, weights, seed, stop_on_empty_dataset):
        spec = _common_spec(list(datasets), "Dataset.sample_from_datasets")
        n = len(datasets)
        weights = np.ones(n) if weights is None else np.asarray(weights, np.float64).reshape(-1)
        if len(weights) != n:
            raise ValueError(f"Dataset.sample_from_datasets: {len(weights)} weights for {n} "
                             "datasets")
        self._datasets, self._weights = list(datasets), weights
        self._seed, self._stop = random_ops.dataset_seed(seed), bool(stop_on_empty_dataset)
        self._inputs = tuple(self._datasets)
        super().__init__(spec)

    def _cardinality(self):
        cards = [d._cardinality() for d in self._datasets]
        return INFINITE_CARDINALITY if all(c == INFINITE_CARDINALITY for c in cards) \
            else UNKNOWN_CARDINALITY

    def _iterate(self, env):
        rng = np.random.default_rng(self._seed)
        iterators = [d._iterate(env) for d in self._datasets]
        weights = self._weights.copy()
        while weights.sum() > 0:
            i = int(rng.choice(len(iterators), p=weights / weights.sum()))
            element = next(iterators[i], None)
            if element is None:
                if self._stop:
                    return
                weights[i] = 0
                continue
            yield element


class Counter(DatasetNode):
    """`start`, `start + step`, ... forever."""
    _tf_class = "_ScanDataset"   # TensorFlow's repr

    def __init__(self, start, step, dtype):
        self._start = static_int(start, "start", "Dataset.counter")
        self._step = static_int(step, "step", "Dataset.counter")
        self._dtype = dtypes.as_dtype(dtype)
        super().__init__(TensorSpec([], self._dtype))

    def _cardinality(self):
        return INFINITE_CARDINALITY

    def _iterate(self, env):
        value = self._start
        while True:
            yield self._dtype.np_dtype.type(value)
            value += self._step


class RandomSource(DatasetNode):
    """Random int64 scalars forever (numpy's generator, seeded by `seed`)."""
    _tf_class = "_RandomDataset"   # TensorFlow's repr

    def __init__(self, seed):
        self._seed = random_ops.dataset_seed(seed)
        super().__init__(TensorSpec([], dtypes.int64))

    def _cardinality(self):
        return INFINITE_CARDINALITY

    def _iterate(self, env):
        rng = np.random.default_rng(self._seed)
        while True:
            yield rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, dtype=np.int64)


class AssertCardinality(_Unary):
    """The same elements; FailedPreconditionError when there are not exactly `expected`."""

    def __init__(self, source, expected):
        super().__init__(source)
        self._expected = static_int(expected, "expected_cardinality",
                                    "tf.data.experimental.assert_cardinality")

    def _cardinality(self):
        return self._expected

    def _iterate(self, env):
        count = 0
        for e in self._source._iterate(env):
            count += 1
            if self._expected >= 0 and count > self._expected:
                raise FailedPreconditionError(
                    f"Input dataset was expected to contain {self._expected} elements but "
                    f"contained at least {count} elements.", "AssertCardinalityDataset")
            yield e
        if self._expected >= 0 and count < self._expected or \
                self._expected == INFINITE_CARDINALITY:
            raise FailedPreconditionError(
                f"Input dataset was expected to contain {self._expected} elements but "
                f"contained only {count} elements.", "AssertCardinalityDataset")


class RejectionResample(_Unary):
    """`(class, element)` pairs, each element kept with probability
    `a[class] = (target / initial)[class] / max(target / initial)`; without an
    initial distribution, it is estimated from the classes seen so far."""
    _tf_class = "_DirectedInterleaveDataset"   # TensorFlow's repr

    def __init__(self, source, class_func, target, initial, seed):
        self._class = TracedFunction(class_func, source.element_spec,
                                     "tf.data.experimental.rejection_resample")
        self._target = target / target.sum()
        self._initial = None if initial is None else np.asarray(initial, np.float64)
        self._seed = random_ops.dataset_seed(seed)
        super().__init__(source, (TensorSpec([], dtypes.int32), source.element_spec))

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        rng = np.random.default_rng(self._seed)
        counts = np.zeros(len(self._target))
        for e in self._source._iterate(env):
            label = int(self._class.call(e))
            counts[label] += 1
            initial = counts / counts.sum() if self._initial is None else self._initial
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(initial > 0, self._target / initial, 0.0)
            if rng.random() < ratio[label] / ratio.max():
                yield np.int32(label), e


# --- get_single_element --------------------------------------------------------------------

def _single(dataset, env):
    it = dataset._iterate(env)
    element = next(it, None)
    if element is None:
        raise InvalidArgumentError("Dataset was empty.", "DatasetToSingleElement")
    if next(it, None) is not None:
        raise InvalidArgumentError("Dataset had more than one element.",
                                   "DatasetToSingleElement")
    return element


@define_op("DatasetToSingleElement", infer=lambda inputs, attrs: [
    (s.dtype, s.shape) for s in attrs["specs"]], side_effect=True, num_outputs=None)
def _to_single_element(*values, dataset, specs):
    element = _single(dataset, _env(dataset, values))
    return tuple(_leaf(v, s) for v, s in zip(structure.flatten(element), specs))


not_differentiable("DatasetToSingleElement")


def get_single_element(dataset):
    """`Dataset.get_single_element`: the dataset's only element (eagerly, or
    when the graph runs); InvalidArgumentError when it has none or several."""
    if current_graph() is None:
        return structure.to_tensors(_single(dataset, EMPTY))
    specs = structure.flatten(dataset.element_spec)
    out = apply("DatasetToSingleElement", list(dataset._symbolic()),
                {"dataset": dataset, "specs": specs})
    out = list(out) if isinstance(out, (tuple, list)) else [out]
    return structure.pack(dataset.element_spec, out)
