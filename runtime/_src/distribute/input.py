"""Distributed datasets: `experimental_distribute_dataset` splits each
global batch across the replicas (as TF: replica i gets rows
[i*k, (i+1)*k) with k = ceil(batch / replicas), the last ones fewer or
none); `distribute_datasets_from_function` gives each replica the next
element of the dataset `dataset_fn(InputContext)` made.
"""

import numpy as np

from runtime._src.core.nest import map_structure
from runtime._src.core.tensor import EagerTensor, Tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.distribute.values import InputContext, PerReplica, PerReplicaSpec
from runtime._src.ops import array_ops

__all__ = ["DistributedDataset", "DistributedDatasetsFromFunction"]


class _Distributed:
    """Iterable of the per-replica elements (PerReplica leaves)."""

    def __init__(self, strategy):
        self._strategy = strategy

    def __iter__(self):
        return DistributedIterator(self._elements())

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync


class DistributedIterator:
    """`tf.distribute.DistributedIterator`: next() is one step's input."""

    def __init__(self, elements):
        self._elements = elements

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._elements)

    def get_next(self):
        return next(self._elements)


class DistributedDataset(_Distributed):
    """`tf.distribute.DistributedDataset` of a dataset of global batches."""

    def __init__(self, strategy, dataset):
        super().__init__(strategy)
        self._dataset = dataset

    def _elements(self):
        n = self.num_replicas_in_sync
        local = self._strategy._local_replicas
        first = getattr(self._strategy, "_worker", 0) * local   # multi-worker: this worker's
        for element in self._dataset:
            yield element if n == 1 else map_structure(
                lambda t: _split(t, n, first, local), element)

    def _autograph_stream(self):
        """`for x in dist_dataset` inside a tf.function: the dataset's staged
        loop, each element split across the replicas with graph ops."""
        return _DistributedStream(self._dataset._autograph_stream(), self._strategy)

    @property
    def element_spec(self):
        n = self.num_replicas_in_sync
        spec = self._dataset.element_spec
        if n == 1:
            return spec
        return map_structure(lambda s: PerReplicaSpec(*[TensorSpec(
            TensorShape([None] + list(s.shape.dims[1:])) if s.shape.rank else s.shape,
            s.dtype)] * n), spec)


def _split(tensor, n, first, local):
    """Replicas first .. first + local - 1's parts of a global batch of n parts."""
    if not isinstance(tensor, Tensor) or not tensor.shape.rank:
        return PerReplica([tensor] * local)
    value = tensor._value if isinstance(tensor, EagerTensor) else np.asarray(tensor)
    size = -(-len(value) // n)
    return PerReplica([EagerTensor(value[i * size:(i + 1) * size], tensor.dtype)
                       for i in range(first, first + local)])


class _DistributedStream:
    """The staged loop of a dataset whose elements are split as `_split`
    does, with slicing ops (the batch size is known when the graph runs)."""

    kind = "distributed dataset"

    def __init__(self, stream, strategy):
        self._stream = stream
        self._n = strategy.num_replicas_in_sync
        self._local = strategy._local_replicas
        self._first = getattr(strategy, "_worker", 0) * self._local

    def next(self, want):
        return self._stream.next(want)

    def pack(self, flat):
        element = self._stream.pack(flat)
        if self._n == 1:
            return element
        return map_structure(self._split, element)

    def _split(self, tensor):
        if not tensor.shape.rank:
            return PerReplica([tensor] * self._local)
        size = (array_ops.shape(tensor)[0] + (self._n - 1)) // self._n
        return PerReplica([tensor[i * size:(i + 1) * size]
                           for i in range(self._first, self._first + self._local)])


class DistributedDatasetsFromFunction(_Distributed):
    """The dataset of `dataset_fn(InputContext)`, each replica taking the
    next element."""

    def __init__(self, strategy, dataset_fn):
        super().__init__(strategy)
        n = strategy.num_replicas_in_sync
        self._dataset = dataset_fn(InputContext(1, 0, n))

    def _elements(self):
        n = self.num_replicas_in_sync
        it = iter(self._dataset)
        while True:
            group = []
            for _ in range(n):
                try:
                    group.append(next(it))
                except StopIteration:
                    break
            if len(group) < n:
                return
            yield group[0] if n == 1 else map_structure(
                lambda *vs: PerReplica(vs), *group)

    @property
    def element_spec(self):
        n = self.num_replicas_in_sync
        spec = self._dataset.element_spec
        return spec if n == 1 else map_structure(lambda s: PerReplicaSpec(*[s] * n), spec)
