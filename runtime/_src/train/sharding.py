"""Checkpoint sharding: `tf.train.experimental.ShardingCallback` and TF 2.21's two
policies, `ShardByTaskPolicy` (one shard per device task: one shard here) and
`MaxShardSizePolicy(max_shard_size)` (shards of at most that many bytes,
large tensors cut into slices).

    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(1 << 20))
    ckpt.write("ckpts/ckpt", options=options)   # ckpt.data-00000-of-0000N, ...

`Checkpoint.write` hands the callback one `ShardableTensor` per saved value
(and the object graph, as TensorFlow); the callback returns a list of
shards, each {checkpoint key: {slice spec: tensor}}, "" as the slice spec of
a whole tensor, else TensorFlow's `SaveSliceInfo` spec ("3 4 0,1:0,4": the
full shape, then offset,length per axis). As in TF 2.21, what the callback
returns is written as it is (a tensor it drops is not saved).
"""

import abc
import dataclasses
import inspect
import math
from collections.abc import Hashable

import numpy as np

__all__ = ["ShardableTensor", "ShardingCallback", "ShardByTaskPolicy", "MaxShardSizePolicy",
           "slice_spec", "parse_slice_spec", "OBJECT_GRAPH_KEY"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


@dataclasses.dataclass(frozen=True)
class ShardableTensor:
    """One tensor a checkpoint saves, as a sharding callback sees it."""
    _tensor_save_spec: object
    tensor: object
    dtype: object
    device: object
    name: str
    shape: object
    slice_spec: str
    checkpoint_key: str
    trackable: object

    def __hash__(self):
        return hash((self.name, self.dtype, str(self.device), self.checkpoint_key))

    def __repr__(self):
        fields = ("_tensor_save_spec", "tensor", "dtype", "device", "name", "shape",
                  "slice_spec", "checkpoint_key", "trackable")
        return f"\n{type(self).__name__}:\n" + "\n".join(
            f"  {f}={getattr(self, f)!r}" for f in fields)


class ShardingCallback(abc.ABC):
    """How a checkpoint's tensors are split into shards: `description` (a text)
    and `__call__(shardable_tensors)` returning [{checkpoint key: {slice spec:
    tensor}}, ...]. Tensors may be sliced but not dropped, added, reshaped,
    recast or moved to another task."""

    @property
    @abc.abstractmethod
    def description(self):
        """Returns a text description of the sharding policy."""

    @abc.abstractmethod
    def __call__(self, shardable_tensors):
        """Returns a list of shards for the given shardable tensors."""

    def __hash__(self):
        value = hash(self.description)
        for name, attr in vars(self).items():
            if not (inspect.ismethod(attr) or inspect.isfunction(attr)):
                value ^= hash(name)
                if isinstance(attr, Hashable):
                    value ^= hash(attr)
        return value


class ShardByTaskPolicy(ShardingCallback):
    """Policy that splits tensors into shards based on their device spec task."""

    @property
    def description(self):
        return "Split tensors into shards based on their device spec task."

    def __call__(self, shardable_tensors):
        shard = {}
        for t in shardable_tensors:
            shard.setdefault(t.checkpoint_key, {})[t.slice_spec] = t.tensor
        return [shard]


class MaxShardSizePolicy(ShardingCallback):
    """Policy that splits tensors into shards with a max shard size (bytes).
    A scalar or string tensor larger than that, or a slice of one element
    row that still is, gets a shard of its own; the object graph counts as
    nothing."""

    def __init__(self, max_shard_size):
        if isinstance(max_shard_size, bool) or not isinstance(max_shard_size, int) \
                or max_shard_size < 1:
            raise ValueError(f"MaxShardSizePolicy: max_shard_size must be a positive number "
                             f"of bytes, got {max_shard_size!r}")
        self.max_shard_size = max_shard_size

    @property
    def description(self):
        return "Split tensors into shards with a max shard size."

    def __call__(self, shardable_tensors):
        return _Partitioner(self.max_shard_size).shards(shardable_tensors)


def slice_spec(full_shape, offset, shape):
    """TensorFlow's `SaveSliceInfo.spec`: "3 4 0,1:0,4"."""
    extents = ":".join(f"{o},{n}" for o, n in zip(offset, shape))
    return " ".join(str(d) for d in full_shape) + " " + extents


def parse_slice_spec(spec):
    """(full shape, offset, shape) of a slice spec."""
    parts = spec.split()
    full = [int(d) for d in parts[:-1]]
    extents = [e.split(",") for e in parts[-1].split(":")] if parts[-1:] else []
    return full, [int(o) for o, _ in extents], [int(n) for _, n in extents]


def _sizes(t, shape):
    """(bytes per element, total bytes) of a ShardableTensor; the object graph
    counts as nothing, a string tensor by its elements' bytes."""
    if t.checkpoint_key == OBJECT_GRAPH_KEY:
        return 0, 0
    if t.dtype.name == "string":
        items = np.asarray(t.tensor.numpy(), dtype=object).reshape(-1)
        lengths = [len(b if isinstance(b, bytes) else str(b).encode()) for b in items] or [0]
        return max(lengths), sum(lengths)
    itemsize = t.dtype.size
    return itemsize, int(np.prod(shape, dtype=np.int64)) * itemsize


class _Partitioner:
    """Fills shards of `max_size` bytes in order, cutting a tensor that does
    not fit along the axis that needs the fewest cuts."""

    def __init__(self, max_size):
        self.max_size, self.remaining = max_size, max_size
        self.filled, self.large = [{}], []

    def shards(self, shardable_tensors):
        for t in shardable_tensors:
            self._add(t)
        return (self.filled if self.filled[0] else []) + self.large

    def _new_shard(self):
        self.filled.append({})
        self.remaining = self.max_size

    def _add(self, t):
        if t.slice_spec:
            full, root_offset, root_shape = parse_slice_spec(t.slice_spec)
        else:
            full = root_shape = list(t.shape)
            root_offset = [0] * len(root_shape)
        itemsize, total = _sizes(t, root_shape)
        if not root_shape:
            self._add_whole(t, total)
            return
        cut = _Cut(t, full, root_offset, root_shape, itemsize)
        size = total
        while size > self.remaining:
            axis, part = self._next_partition(cut)
            if part == 0 and self.remaining == self.max_size:
                raise ValueError(_too_small(t.checkpoint_key, cut, self.max_size))
            if part == 0:
                self._new_shard()
                continue
            self._place(cut, axis, part)
            size = int(np.prod(cut.shape, dtype=np.int64)) * itemsize
        if int(np.prod(cut.shape, dtype=np.int64)) > 0:
            spec, piece = cut.rest()
            self.filled[-1].setdefault(t.checkpoint_key, {})[spec] = piece
        self.remaining -= size

    def _add_whole(self, t, total):
        if total > self.max_size:
            self.large.append({t.checkpoint_key: {t.slice_spec: t.tensor}})
            return
        if total > self.remaining:
            self._new_shard()
        self.filled[-1].setdefault(t.checkpoint_key, {})[t.slice_spec] = t.tensor
        self.remaining -= total

    def _next_partition(self, cut):
        """(axis, slice length) of the next piece: the axis cut into the fewest
        pieces that fit the space left (TF's choice, ties to the first axis)."""
        shape = cut.shape
        count = int(np.prod(shape, dtype=np.int64))

        def pieces(axis):
            per_slice = count // shape[axis] * cut.itemsize
            fit = self.remaining // per_slice if per_slice else math.inf
            return math.inf if fit == 0 else math.ceil(shape[axis] / fit)

        best_axis, best = 0, pieces(0)
        for axis in range(1, len(shape)):
            n = pieces(axis)
            if n < best and count * cut.itemsize / n <= self.remaining:
                best_axis, best = axis, int(n)
        return best_axis, math.ceil(shape[best_axis] / best)

    def _place(self, cut, axis, part):
        spec, piece, nbytes = cut.take(axis, part)
        key = cut.t.checkpoint_key
        if nbytes > self.max_size:
            self.large.append({key: {spec: piece}})
        elif nbytes > self.remaining:
            raise RuntimeError(f"Slice size ({nbytes} bytes) is larger than the remaining "
                               f"shard size ({self.remaining} bytes).")
        else:
            self.filled[-1].setdefault(key, {})[spec] = piece
            self.remaining -= nbytes
            if self.remaining == 0:
                self._new_shard()


def _too_small(key, cut, max_size):
    """TF 2.21 loops for ever here: no slice along one axis fits an empty shard."""
    count = int(np.prod(cut.shape, dtype=np.int64))
    smallest = min(count // n * cut.itemsize for n in cut.shape)
    return (f"MaxShardSizePolicy: no slice of {key} (shape {cut.shape}) along one axis fits "
            f"in max_shard_size={max_size} bytes; the smallest is {smallest} bytes. Use a "
            "larger max_shard_size.")


class _Cut:
    """What is left of one tensor being cut: its offset and shape within the
    full tensor, the slices taken from the front."""

    def __init__(self, t, full, root_offset, root_shape, itemsize):
        self.t, self.full, self.itemsize = t, full, itemsize
        self.root_offset, self.root_shape = root_offset, root_shape
        self.offset, self.shape = list(root_offset), list(root_shape)

    def _piece(self, begin, size):
        index = tuple(slice(b, b + n) for b, n in zip(begin, size))
        return self.t.tensor[index]

    def take(self, axis, part):
        """(spec, tensor, bytes) of the next `part` rows along `axis`."""
        relative = [o - r for o, r in zip(self.offset, self.root_offset)]
        size = [s - r for s, r in zip(self.root_shape, relative)]
        size[axis] = part
        nbytes = int(np.prod(size, dtype=np.int64)) * self.itemsize
        spec = slice_spec(self.full, self.offset, size)
        piece = self._piece(relative, size)
        self.offset[axis] += part
        relative[axis] += part
        self.shape = [s - r for s, r in zip(self.root_shape, relative)]
        return spec, piece, nbytes

    def rest(self):
        """(spec, tensor) of what is left; a tensor never cut keeps its own spec."""
        if self.offset == self.root_offset and self.shape == self.root_shape:
            return self.t.slice_spec, self.t.tensor
        relative = [o - r for o, r in zip(self.offset, self.root_offset)]
        return slice_spec(self.full, self.offset, self.shape), self._piece(relative, self.shape)
