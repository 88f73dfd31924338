"""`tf.random.Algorithm` and the shuffles of `tf.random.experimental`:
`stateless_shuffle` (a tensor's first axis in an order fixed by the seed) and
`index_shuffle` (where one index lands in a permutation of 0..max_index fixed
by the seed, without building it).

`index_shuffle` is a bijection of [0, max_index] made by cycle-walking a
4-round Feistel network over the smallest even number of bits that holds
max_index, its round keys drawn from the seed:

    index_shuffle(constant([0, 1, 2]), seed=[1, 2, 3], max_index=2)  # a permutation

As everywhere in our random ops, the permutations are ours, not TF's Philox
ones; each is a function of the seed alone.
"""

import enum

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.random_ops import seeded_rng

__all__ = ["Algorithm", "stateless_shuffle", "index_shuffle"]


class Algorithm(enum.Enum):
    """`tf.random.Algorithm`: the RNG algorithm names TF accepts (we draw with
    numpy's whatever the name; see docs/tf_differences.md)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _check_seed_values(seed, size, op_name):
    seed = np.asarray(seed)
    if not np.issubdtype(seed.dtype, np.integer) or seed.reshape(-1).shape != (size,):
        raise InvalidArgumentError(f"Seed must be a vector of size [{size}], got shape "
                                   f"{list(seed.shape)}", op_name)
    return seed.reshape(-1)


@define_op("StatelessShuffle", infer=rules.same_as_first)
def _stateless_shuffle(value, seed):
    rng = seeded_rng(_check_seed_values(seed, 2, "StatelessShuffle"), "StatelessShuffle")
    if value.ndim == 0:
        return value.copy()
    return value[rng.permutation(value.shape[0])]


not_differentiable("StatelessShuffle")


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`tf.random.experimental.stateless_shuffle`: value with its first axis
    in an order fixed by `seed` (shape [2])."""
    value = convert_to_tensor(value)
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"stateless_shuffle: seed must be int32 or int64, got {seed.dtype.name}")
    return apply("StatelessShuffle", (value, seed))


_ROUNDS = 4


def _feistel(x, keys, half_bits):
    mask = np.uint64((1 << half_bits) - 1)
    left, right = x >> np.uint64(half_bits), x & mask
    for key in keys:
        mixed = (right * np.uint64(0x9E3779B97F4A7C15) + np.uint64(key)) & np.uint64(
            (1 << 64) - 1)
        mixed = (mixed ^ (mixed >> np.uint64(29))) & mask
        left, right = right, left ^ mixed
    return (left << np.uint64(half_bits)) | right


@define_op("RandomIndexShuffle", infer=rules.same_as_first)
def _index_shuffle(index, seed, max_index):
    seed = _check_seed_values(seed, 3, "RandomIndexShuffle")
    top = int(max_index)
    bits = max(2, top.bit_length() + (top.bit_length() % 2))
    words = [int(w) & ((1 << 64) - 1) for w in seed.tolist()]
    keys = np.random.default_rng(words).integers(0, 1 << 62, _ROUNDS).tolist()
    x = np.asarray(index).astype(np.uint64)
    if np.any(np.asarray(index) > top) or np.any(np.asarray(index) < 0):
        raise InvalidArgumentError(f"index must be in [0, max_index = {top}]",
                                   "RandomIndexShuffle")
    with np.errstate(over="ignore"):
        x = _feistel(x, keys, bits // 2)
        while np.any(x > top):                      # cycle-walk back into range
            x = np.where(x > top, _feistel(x, keys, bits // 2), x)
    return x.astype(np.asarray(index).dtype)


not_differentiable("RandomIndexShuffle")


def index_shuffle(index, seed, max_index):
    """`tf.random.experimental.index_shuffle`: where `index` goes in a random
    permutation of 0..max_index fixed by `seed` (3 integers)."""
    index = convert_to_tensor(index)
    if index.dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
        raise TypeError(f"index_shuffle: index must be an integer tensor, got "
                        f"{index.dtype.name}")
    seed = convert_to_tensor(seed)
    max_index = convert_to_tensor(max_index, index.dtype)
    return apply("RandomIndexShuffle", (index, seed, max_index))
