"""`tf.random.Algorithm` and the shuffles of `tf.random.experimental`:
`stateless_shuffle` (a tensor's first axis in an order fixed by the seed) and
`index_shuffle` (where one index lands in a permutation of 0..max_index fixed
by the seed, without building it).

`tf.random_index_shuffle` is TF's bijection of [0, max_index]: a Simon block
cipher (a Feistel network of `rounds` rounds, its keys from the three seed
words) over a block of at least 16 bits that holds max_index, cycle-walked
back into range; `index_shuffle` pads its [2] seed with TF's first word. Both
give TF's values:

    index_shuffle(tf.range(10), [5, 8], 9)   # [3, 8, 0, 1, 2, 7, 6, 9, 4, 5], as TF

`stateless_shuffle` is a numpy permutation of its own (a function of the seed).
"""

import enum

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.random_ops import seeded_rng
from runtime._src.ops.shape_ops import pad as pad_

__all__ = ["Algorithm", "stateless_shuffle", "index_shuffle", "random_index_shuffle"]


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


_EXPERIMENTAL_SEED_PAD = 498247692     # TF's first seed word for index_shuffle's [2] seeds
_Z = 0x7369F885192C0EF5                # the Simon key schedule's constant sequence


def _rotl(x, r, w, mask):
    return ((x << np.uint64(r)) | (x >> np.uint64(w - r))) & mask


def _simon_f(x, w, mask):
    return (_rotl(x, 1, w, mask) & _rotl(x, 8, w, mask)) ^ _rotl(x, 2, w, mask)


def _round_keys(key, rounds, w, mask):
    """The Simon key schedule over w-bit words: the three seed words, then one
    key a round from them (each key an array over the elements)."""
    keys = [k & mask for k in key]
    c, z = np.uint64(0xFFFFFFFC) & mask, _Z & int(mask)
    for i in range(3, rounds):
        rot = _rotl(keys[i - 1], w - 3, w, mask) ^ _rotl(keys[i - 1], w - 4, w, mask)
        keys.append(c ^ np.uint64(z & 1) ^ keys[i - 3] ^ rot)
        z >>= 1
    return keys


def _simon_encrypt(x, keys, w, mask):
    left, right = (x >> np.uint64(w)) & mask, x & mask
    for i in range(0, len(keys), 2):
        left = left ^ _simon_f(right, w, mask) ^ keys[i]
        right = right ^ _simon_f(left, w, mask) ^ keys[i + 1]
    return (left << np.uint64(w)) | right


def _word_bits(max_index):
    """Half of TF's block size: ceil(log2(max_index)) made even, at least 16, at most 64."""
    block = int(np.ceil(np.log2(np.float64(max_index)))) if max_index > 0 else 0
    block = max(block + block % 2, 16)
    return 32 if block > 62 else block // 2


def _shuffle(index, key, max_index, rounds):
    """TF's RandomIndexShuffle on uint64 arrays: cycle-walk a Simon cipher whose
    block holds max_index, keyed by the three uint32 seed words."""
    out = np.zeros_like(index)
    widths = np.array([_word_bits(int(m)) for m in max_index])
    for w in np.unique(widths):
        at = np.flatnonzero((widths == w) & (max_index > 0))
        mask = np.uint64((1 << int(w)) - 1)
        keys = _round_keys([k[at] for k in key], rounds, int(w), mask)
        if w <= 10:     # a small block: walk each index through its cipher's table
            out[at] = _walk_tables(index[at], keys, max_index[at], int(w), mask)
            continue
        x, top = index[at], max_index[at]
        x = _simon_encrypt(x, keys, int(w), mask)
        while np.any(x > top):
            x = np.where(x > top, _simon_encrypt(x, keys, int(w), mask), x)
        out[at] = x
    return out


def _walk_tables(index, keys, max_index, w, mask):
    """Cycle-walking on a block of at most 20 bits, where the walk from a small
    max_index is long: encrypt the whole block once per key, then follow it."""
    out = np.zeros_like(index)
    block = np.arange(1 << (2 * w), dtype=np.uint64)
    rows = np.stack(keys, axis=1)
    for key_row in np.unique(rows, axis=0):
        same = np.flatnonzero((rows == key_row).all(axis=1))
        table = _simon_encrypt(block, [np.uint64(k) for k in key_row], w, mask).tolist()
        for i in same.tolist():
            x, top = table[int(index[i]) & (len(table) - 1)], int(max_index[i])  # TF's bits
            while x > top:
                x = table[x]
            out[i] = x
    return out


def _infer_index_shuffle(inputs, attrs):
    """TF's shape rule: seed [3] or [n, 3]; a scalar when all are scalars, else [n]."""
    index, seed, max_index = (t.shape for t in inputs)
    dims = seed.as_list() if seed.rank is not None else None
    if dims is not None and not (dims in ([3], [None]) or (len(dims) == 2 and dims[1] in (3, None))):
        raise ValueError(f"Seed must have shape [3] or [n, 3] but got {dims}.")
    if index.rank == 0 and max_index.rank == 0 and seed.rank == 1:
        return [(inputs[0].dtype, TensorShape([]))]
    sizes = [s.as_list()[0] for s in (index, max_index) if s.rank == 1]
    if seed.rank == 2:
        sizes.append(seed.as_list()[0])
    known = [n for n in sizes if n is not None]
    return [(inputs[0].dtype, TensorShape([known[0] if known else None]))]


@define_op("RandomIndexShuffle", infer=_infer_index_shuffle)
def _index_shuffle(index, seed, max_index, rounds):
    index, seed, max_index = np.asarray(index), np.asarray(seed), np.asarray(max_index)
    n = max(index.size, max_index.size, seed.size // 3)
    if index.ndim > 1 or (index.ndim == 1 and index.size != n):
        raise InvalidArgumentError("Index bust be a scalar or vector.", "RandomIndexShuffle")
    if not ((seed.shape == (3,)) or (seed.ndim == 2 and seed.shape == (n, 3))):
        raise InvalidArgumentError(f"Seed must be a vector of size [3] or a matrix of size "
                                   f"[{n}, 3] but got {list(seed.shape)}.", "RandomIndexShuffle")
    if max_index.ndim > 1 or (max_index.ndim == 1 and max_index.size != n):
        raise InvalidArgumentError(f"Maxval must be a scalar or a vector of the same size as "
                                   f"index but got {list(max_index.shape)}", "RandomIndexShuffle")
    if rounds < 4 or rounds % 2:
        raise InvalidArgumentError(f"rounds must be an even number >= 4, got {rounds}",
                                   "RandomIndexShuffle")
    idx = np.broadcast_to(index.astype(np.uint64), (n,))
    top = np.broadcast_to(max_index.astype(np.uint64), (n,))
    bad = np.flatnonzero(idx > top)
    if bad.size:
        raise InvalidArgumentError(f"max_index must be >= index, but {top[bad[0]]} < "
                                   f"{idx[bad[0]]}", "RandomIndexShuffle")
    words = np.broadcast_to(seed.reshape(-1, 3).astype(np.int64).astype(np.uint64)
                            & np.uint64(0xFFFFFFFF), (n, 3))
    out = _shuffle(idx.copy(), [words[:, j] for j in range(3)], top, int(rounds))
    out = out.astype(index.dtype)
    scalar = index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0
    return out.reshape(()) if scalar else out


not_differentiable("RandomIndexShuffle")


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """`tf.random_index_shuffle`: where `index` lands in the permutation of
    0..max_index that `seed` (3 integers, or one row of 3 per index) fixes
    (TF's Simon-cipher permutation, `rounds` an even number >= 4)."""
    index = convert_to_tensor(index)
    if index.dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
        raise TypeError(f"random_index_shuffle: index must be an int32, int64, uint32 or "
                        f"uint64 tensor, got {index.dtype.name}")
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
        raise TypeError(f"random_index_shuffle: seed must be an integer tensor, got "
                        f"{seed.dtype.name}")
    max_index = convert_to_tensor(max_index, index.dtype)
    return apply("RandomIndexShuffle", (index, seed, max_index), {"rounds": int(rounds)})


def index_shuffle(index, seed, max_index):
    """`tf.random.experimental.index_shuffle`: where `index` goes in the random
    permutation of 0..max_index fixed by `seed` (shape [2], or [n, 2]):
    `random_index_shuffle` with TF's constant first seed word, 4 rounds."""
    index = convert_to_tensor(index)
    if index.dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
        raise TypeError(f"index_shuffle: index must be an integer tensor, got "
                        f"{index.dtype.name}")
    seed = convert_to_tensor(seed)
    pad = [[1, 0]] + [[0, 0]] * ((seed.shape.rank or 1) - 1)
    seed = pad_(seed, pad, constant_values=_EXPERIMENTAL_SEED_PAD)
    return random_index_shuffle(index, seed, max_index)
