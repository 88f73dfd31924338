"""TensorFlow's Philox numbers for `tf.random.Generator`: the Philox-4x32-10
counter-based generator (Salmon et al. 2011) and TF's conversions of its
32-bit words into each distribution, so a Generator gives TF's values for
the same state.

The state is int64[3]: a 128-bit counter (state[0] the low 64 bits) and a
64-bit key. Output element groups are filled as TF's kernels fill them:

- uniform float32: a word each, (w & 0x7fffff | 0x3f800000) as float - 1;
  float16 the low 16 bits likewise; float64 two words per value (20 + 32
  mantissa bits); bounded integers w % range (int64: two words); full-range
  integers the words themselves;
- normal: Box-Muller on word pairs (float32: 4 values per counter; float64:
  2, each from 4 words), sin first, the uniform clamped to at least 1e-7;
- truncated normal: output group g (4 values; float64: 2) draws from the
  counter + g * 256 (float64: 128) on, one word at a time, keeping the
  Box-Muller values of magnitude below 2.

Every draw advances the counter by 256 per output element, as TF's.

    philox_words(counter=1, key=0, n=1)   # the 4 words TF's from_seed(1) starts with
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import define_op, not_differentiable
from runtime._src.ops.shape_rules import shape_from_tensor

__all__ = ["philox_words", "SKIP_PER_ELEMENT", "draw_values", "stateless_key_counter",
           "hashed_replica_key"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LOW = np.uint64(0xFFFFFFFF)
_MASK64 = (1 << 64) - 1
SKIP_PER_ELEMENT = 256          # TF's counter advance per output element
_TRUNCATE = 2.0


def _counter_words(counter, offsets):
    """The 4 uint32 words of the 128-bit counters counter + offsets."""
    values = [(counter + int(o)) & ((1 << 128) - 1) for o in offsets]
    return np.array([[(v >> (32 * w)) & 0xFFFFFFFF for w in range(4)] for v in values],
                    np.uint64).reshape(-1, 4)


def philox_words(counter, key, n=None, offsets=None):
    """Philox-4x32-10 of the counters counter + 0..n-1 (or + offsets) under
    `key`: a [count, 4] uint32 array."""
    c = _counter_words(counter, range(n) if offsets is None else offsets)
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = _M0 * c[:, 0], _M1 * c[:, 2]
        c = np.stack([(p1 >> np.uint64(32)) ^ c[:, 1] ^ np.uint64(k0), p1 & _LOW,
                      (p0 >> np.uint64(32)) ^ c[:, 3] ^ np.uint64(k1), p0 & _LOW], axis=1)
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return c.astype(np.uint32)


# --- words -> values ---------------------------------------------------------------

def _unit_float(words):
    return ((words & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - \
        np.float32(1.0)


def _unit_half(words):
    bits = ((words & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1.0)


def _unit_bfloat16(words):
    bits = ((words & np.uint32(0x7F)) | np.uint32(0x3F80)).astype(np.uint16)
    return bits.view(dtypes.bfloat16.np_dtype) - dtypes.bfloat16.np_dtype.type(1.0)


def _unit_double(high, low):
    mantissa = ((high.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | \
        low.astype(np.uint64)
    return (mantissa | (np.uint64(1023) << np.uint64(52))).view(np.float64) - 1.0


def _box_muller_float(x0, x1):
    u1 = np.maximum(_unit_float(x0), np.float32(1e-7))
    v1 = (2.0 * np.pi * _unit_float(x1).astype(np.float64)).astype(np.float32)
    # float32 log, sin and cos correctly rounded (glibc's logf/sinf/cosf, which
    # TensorFlow's kernel calls): in float64, then rounded; numpy's own float32
    # versions can be an ulp off.
    u2 = np.sqrt(np.float32(-2.0) * _f32(np.log, u1))
    return _f32(np.sin, v1) * u2, _f32(np.cos, v1) * u2


def _f32(fn, x):
    return fn(x.astype(np.float64)).astype(np.float32)


def _box_muller_double(x0, x1, x2, x3):
    u1 = np.maximum(_unit_double(x0, x1), 1e-7)
    v1 = 2.0 * np.pi * _unit_double(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def _groups(counter, key, size, per_counter):
    """Enough Philox output for `size` values at `per_counter` values a counter."""
    return philox_words(counter, key, -(-size // per_counter) if size else 0)


def _uniform(counter, key, size, dtype):
    if dtype == dtypes.float64:
        w = _groups(counter, key, size, 2).reshape(-1, 2)
        return _unit_double(w[:, 0], w[:, 1])[:size]
    words = _groups(counter, key, size, 4).ravel()[:size]
    if dtype == dtypes.bfloat16:
        return _unit_bfloat16(words)
    return _unit_half(words) if dtype == dtypes.float16 else _unit_float(words)


def _normal(counter, key, size, dtype):
    if dtype == dtypes.float64:
        w = _groups(counter, key, size, 2)
        d0, d1 = _box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])
        return np.stack([d0, d1], axis=1).ravel()[:size]
    w = _groups(counter, key, size, 4)
    f0, f1 = _box_muller_float(w[:, [0, 2]].ravel(), w[:, [1, 3]].ravel())
    out = np.stack([f0.reshape(-1, 2), f1.reshape(-1, 2)], axis=-1).ravel()[:size]
    return out.astype(dtype.np_dtype) if dtype in (dtypes.float16, dtypes.bfloat16) else out


def _truncated_group(counter, key, wide, count):
    """`count` values of magnitude below 2 from one group's word stream."""
    out, block = [], 0
    while len(out) < count:
        words = philox_words(counter, key, offsets=range(block, block + 8)).ravel()
        block += 8
        step = 4 if wide else 2
        for i in range(0, len(words), step):
            pair = _box_muller_double(*words[i:i + 4]) if wide else \
                _box_muller_float(words[i:i + 1], words[i + 1:i + 2])
            for value in pair:
                v = float(np.asarray(value).ravel()[0])
                if abs(v) < _TRUNCATE and len(out) < count:
                    out.append(v)
            if len(out) >= count:
                break
    return out


def _truncated_normal(counter, key, size, dtype):
    wide = dtype == dtypes.float64
    per_group = 2 if wide else 4
    skip = per_group * SKIP_PER_ELEMENT // 4
    groups = -(-size // per_group) if size else 0
    if not groups:
        return np.zeros(0, np.float64 if wide else np.float32)
    rows = _truncated_first_blocks(counter, key, wide, groups, skip)
    accepted = np.abs(rows) < _TRUNCATE
    out = np.empty((groups, per_group), rows.dtype)
    short = accepted.sum(axis=1) < per_group
    first = accepted & (np.cumsum(accepted, axis=1) <= per_group)   # the first kept, in order
    out[~short] = rows[~short][first[~short]].reshape(-1, per_group)
    for g in np.flatnonzero(short):            # rare: more than the first blocks needed
        out[g] = _truncated_group(counter + int(g) * skip, key, wide, per_group)
    return out.ravel()[:size].astype(np.float64 if wide else np.float32)


def _truncated_first_blocks(counter, key, wide, groups, skip, blocks=4):
    """[groups, candidates]: each group's Box-Muller values from its first
    `blocks` Philox blocks, in the order `_truncated_group` walks them."""
    starts = [counter + g * skip for g in range(groups)]
    words = philox_words(0, key, offsets=[s + b for s in starts for b in range(blocks)])
    words = words.reshape(groups, blocks * 4)
    if wide:
        quads = words.reshape(groups, blocks, 4)
        d0, d1 = _box_muller_double(quads[..., 0], quads[..., 1], quads[..., 2],
                                    quads[..., 3])
        return np.stack([d0, d1], axis=-1).reshape(groups, -1)
    f0, f1 = _box_muller_float(words[:, 0::2], words[:, 1::2])
    return np.stack([f0, f1], axis=-1).reshape(groups, -1)


def _full_int(counter, key, size, dtype):
    if dtype.np_dtype.itemsize == 8:
        w = _groups(counter, key, size, 2).reshape(-1, 2)
        pairs = w[:, 0].astype(np.uint64) | (w[:, 1].astype(np.uint64) << np.uint64(32))
        return pairs[:size].view(dtype.np_dtype)
    return _groups(counter, key, size, 4).ravel()[:size].view(dtype.np_dtype)


def _bounded_int(counter, key, size, dtype, low, high):
    if high <= low:
        raise InvalidArgumentError(f"Need minval < maxval: {low} >= {high}", "StatefulUniformInt")
    span = (int(high) - int(low)) & ((1 << (8 * dtype.np_dtype.itemsize)) - 1)
    raw = _full_int(counter, key, size, dtypes.uint64 if dtype.np_dtype.itemsize == 8 else
                    dtypes.uint32)
    return (int(low) + (raw.astype(object) % span)).astype(dtype.np_dtype)


_DRAWS = {"uniform": _uniform, "normal": _normal, "truncated_normal": _truncated_normal,
          "full_int": _full_int}


def draw_values(counter, key, dims, dist, dtype, bounds=()):
    """An array of shape `dims` from `dist` ('uniform', 'normal',
    'truncated_normal', 'full_int', 'bounded_int' with bounds (low, high))."""
    size = int(np.prod(dims)) if len(dims) else 1
    if dist == "bounded_int":
        flat = _bounded_int(counter, key, size, dtype, *(int(b) for b in bounds))
    else:
        flat = _DRAWS[dist](counter, key, size, dtype)
    return np.asarray(flat, dtype.np_dtype).reshape(dims)


_SEED_KEY = 0x3EC8F720 | (0x02461E29 << 32)


def stateless_key_counter(seed):
    """TF's (counter, key) of a stateless op's seed pair: one Philox round of
    the seed (as a counter) under a fixed key; its first two words are the
    key, its last two the counter's high 64 bits."""
    s0, s1 = (int(v) & _MASK64 for v in np.asarray(seed).ravel()[:2])
    mix = philox_words(s0 | (s1 << 64), _SEED_KEY, 1)[0]
    key = int(mix[0]) | (int(mix[1]) << 32)
    return (int(mix[2]) | (int(mix[3]) << 32)) << 64, key


# --- the op ------------------------------------------------------------------------

def _infer_draw(inputs, attrs):
    return [(attrs["dtype"], shape_from_tensor(inputs[1])), (dtypes.int64, TensorShape([3]))]


def hashed_replica_key(key, replica_id):
    """TF's key for a draw on replica `replica_id` of a strategy the
    Generator was made under: the first 64 bits of Philox of the counter
    `replica_id` under `key` (its stateless full-int draw)."""
    w = philox_words(int(replica_id) & _MASK64, key, 1)[0]
    return int(w[0]) | (int(w[1]) << 32)


@define_op("StatefulPhiloxDraw", infer=_infer_draw, stateful=True, num_outputs=2)
def _draw(state, shape, *rest, dist, dtype, replica_key=False, replica_turns=0):
    """(values of `shape` from `dist`, the state advanced past them). With
    `replica_key` or `replica_turns`, the last input is the replica id: the
    key is hashed with it, or (replica_turns: the number of replicas, which
    take turns on the state) the replica draws the id-th of their draws and
    the state advances past all of them."""
    dims = [int(d) for d in np.asarray(shape).ravel()]
    size = int(np.prod(dims)) if dims else 1
    low, high, key = (int(v) & _MASK64 for v in state)
    counter = low | (high << 64)
    replica = int(rest[-1]) if replica_key or replica_turns else 0
    bounds = rest[:-1] if replica_key or replica_turns else rest
    draw_key = hashed_replica_key(key, replica) if replica_key else key
    skip = SKIP_PER_ELEMENT * size
    values = draw_values((counter + replica * skip if replica_turns else counter)
                         & ((1 << 128) - 1), draw_key, dims, dist, dtype, bounds)
    advanced = (counter + skip * max(replica_turns, 1)) & ((1 << 128) - 1)
    words = [advanced & _MASK64, advanced >> 64, key]
    new_state = np.array([w - (1 << 64) if w >= 1 << 63 else w for w in words], np.int64)
    return values, new_state


not_differentiable("StatefulPhiloxDraw")
