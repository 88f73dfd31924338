"""JAX rule of `StatefulPhiloxDraw` (`tf.random.Generator`'s draws): TF's
Philox-4x32-10 in `jax.numpy` uint64 arithmetic on 32-bit words, and the
same conversions of words into values as ops/philox_ops.py's numpy kernel,
so a compiled draw (`jit_compile=True`, `strategy.run`) gives the
executor's values, which are TF's. The shape must be known when the
program is compiled.

Truncated normals take each output group's values from its group's first
Philox blocks (float32: 4 blocks, 16 candidates for 4 values; float64: 8
blocks, 16 candidates for 2), the candidates the numpy kernel walks first;
it, as TF's, reads further blocks in the case (float32: 2e-15 of groups,
float64: 1e-19) where fewer are in range.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.jit import lower
from runtime._src.jit.lower import rule, static_ints
from runtime._src.ops.philox_ops import SKIP_PER_ELEMENT

__all__ = []

_M0, _M1 = 0xD2511F53, 0xCD9E8D57
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LOW = 0xFFFFFFFF
_BLOCKS = {False: 4, True: 8}  # truncated normal: Philox blocks read per group (float64: True)


def _u64(value):
    return lower.jnp.asarray(value, np.uint64)


def _philox(low, high, key):
    """[count, 4] uint64 words (32-bit values) of the 128-bit counters
    (low, high) (uint64 arrays of one shape) under the uint64 `key`."""
    mask, s32 = _u64(_LOW), _u64(32)

    def round_(_, carry):            # one Philox round (a loop: a small XLA program)
        c0, c1, c2, c3, k0, k1 = carry
        p0, p1 = _u64(_M0) * c0, _u64(_M1) * c2
        return ((p1 >> s32) ^ c1 ^ k0, p1 & mask, (p0 >> s32) ^ c3 ^ k1, p0 & mask,
                (k0 + _u64(_W0)) & mask, (k1 + _u64(_W1)) & mask)

    key = lower.jnp.broadcast_to(key, low.shape)
    carry = (low & mask, low >> s32, high & mask, high >> s32, key & mask, key >> s32)
    c0, c1, c2, c3, _, _ = lower.lax.fori_loop(0, 10, round_, carry)
    return lower.jnp.stack([c0, c1, c2, c3], axis=-1)


def _words(low, high, key, offsets):
    """Philox words of the counters (low, high) + offsets (a numpy int array)."""
    off = _u64(offsets)
    new_low = low + off
    carry = (new_low < low).astype(np.uint64)
    return _philox(new_low, high + carry, key)


def _bits(words, dtype):
    return lower.lax.bitcast_convert_type(words, dtype)


def _unit_float(words):
    w = (words & _u64(0x7FFFFF)) | _u64(0x3F800000)
    return _bits(w.astype(np.uint32), np.float32) - np.float32(1.0)


def _unit_half(words):
    w = (words & _u64(0x3FF)) | _u64(0x3C00)
    return _bits(w.astype(np.uint16), np.float16) - np.float16(1.0)


def _unit_double(high, low):
    mantissa = ((high & _u64(0xFFFFF)) << _u64(32)) | low
    return _bits(mantissa | _u64(1023 << 52), np.float64) - 1.0


def _box_muller_float(x0, x1):
    jnp = lower.jnp
    u1 = jnp.maximum(_unit_float(x0), np.float32(1e-7))
    v1 = (2.0 * np.pi * _unit_float(x1).astype(np.float64)).astype(np.float32)
    u2 = jnp.sqrt(np.float32(-2.0) * _f32(jnp.log, u1))
    return _f32(jnp.sin, v1) * u2, _f32(jnp.cos, v1) * u2


def _f32(fn, x):
    return fn(x.astype(np.float64)).astype(np.float32)


def _box_muller_double(x0, x1, x2, x3):
    jnp = lower.jnp
    u1 = jnp.maximum(_unit_double(x0, x1), 1e-7)
    v1 = 2.0 * np.pi * _unit_double(x2, x3)
    u2 = jnp.sqrt(-2.0 * jnp.log(u1))
    return jnp.sin(v1) * u2, jnp.cos(v1) * u2


def _groups(low, high, key, size, per_counter):
    return _words(low, high, key, np.arange(-(-size // per_counter), dtype=np.uint64))


def _uniform(c, size, dtype):
    if dtype == dtypes.float64:
        w = _groups(*c, size, 2).reshape(-1, 2)
        return _unit_double(w[:, 0], w[:, 1])[:size]
    words = _groups(*c, size, 4).reshape(-1)[:size]
    return _unit_half(words) if dtype == dtypes.float16 else _unit_float(words)


def _normal(c, size, dtype):
    jnp = lower.jnp
    w = _groups(*c, size, 2 if dtype == dtypes.float64 else 4)
    if dtype == dtypes.float64:
        d0, d1 = _box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])
        return jnp.stack([d0, d1], axis=1).reshape(-1)[:size]
    f0, f1 = _box_muller_float(w[:, ::2].reshape(-1), w[:, 1::2].reshape(-1))
    out = jnp.stack([f0.reshape(-1, 2), f1.reshape(-1, 2)], axis=-1).reshape(-1)[:size]
    return out.astype(np.float16) if dtype == dtypes.float16 else out


def _truncated_normal(c, size, dtype):
    jnp = lower.jnp
    wide = dtype == dtypes.float64
    per_group = 2 if wide else 4
    skip = per_group * SKIP_PER_ELEMENT // 4
    groups = -(-size // per_group)
    blocks = _BLOCKS[wide]
    offsets = (np.arange(groups)[:, None] * skip + np.arange(blocks)[None]).reshape(-1)
    words = _words(*c, offsets.astype(np.uint64)).reshape(groups, blocks, 4)
    if wide:
        d0, d1 = _box_muller_double(*(words[..., i] for i in range(4)))
        rows = jnp.stack([d0, d1], axis=-1).reshape(groups, -1)
    else:
        flat = words.reshape(groups, -1)
        f0, f1 = _box_muller_float(flat[:, 0::2], flat[:, 1::2])
        rows = jnp.stack([f0, f1], axis=-1).reshape(groups, -1)
    order = jnp.argsort(jnp.abs(rows) >= 2.0, axis=1, stable=True)[:, :per_group]
    return jnp.take_along_axis(rows, order, axis=1).reshape(-1)[:size]


def _raw_ints(c, size, wide):
    if wide:
        w = _groups(*c, size, 2).reshape(-1, 2)
        return (w[:, 0] | (w[:, 1] << _u64(32)))[:size]
    return _groups(*c, size, 4).reshape(-1)[:size]


def _full_int(c, size, dtype):
    wide = dtype.np_dtype.itemsize == 8
    raw = _raw_ints(c, size, wide)
    unsigned = np.uint64 if wide else np.uint32
    return _bits(raw.astype(unsigned), dtype.np_dtype)


def _bounded_int(c, size, dtype, low, high):
    wide = dtype.np_dtype.itemsize == 8
    unsigned = np.uint64 if wide else np.uint32
    raw = _raw_ints(c, size, wide).astype(unsigned)
    low_u = _bits(lower.jnp.asarray(low, dtype.np_dtype), unsigned)
    span = _bits(lower.jnp.asarray(high, dtype.np_dtype), unsigned) - low_u
    return _bits(low_u + raw % span, dtype.np_dtype)


_DRAWS = {"uniform": _uniform, "normal": _normal, "truncated_normal": _truncated_normal,
          "full_int": _full_int}


def _hashed_key(key, replica_id):
    """TF's per-replica key: the first 64 bits of Philox(counter=replica id)."""
    w = _philox(_u64(replica_id).reshape(1), _u64(0).reshape(1), key)[0]
    return w[0] | (w[1] << _u64(32))


def _add(low, high, amount):
    """The 128-bit (low, high) plus the uint64 `amount`."""
    new_low = low + amount
    return new_low, high + (new_low < low).astype(np.uint64)


@rule("StatefulPhiloxDraw")
def _draw(node, ins):
    jnp = lower.jnp
    dims = static_ints(ins[1], "the shape of a tf.random.Generator draw")
    size = int(np.prod(dims)) if dims else 1
    attrs = node.attrs
    rest = list(ins[2:])
    state = _bits(jnp.asarray(ins[0], np.int64), np.uint64)
    low, high, key = state[0], state[1], state[2]
    turns = attrs.get("replica_turns", 0)
    replica = jnp.asarray(rest.pop()).astype(np.int64) \
        if attrs.get("replica_key") or turns else None
    skip = SKIP_PER_ELEMENT * size
    draw_key = _hashed_key(key, replica) if attrs.get("replica_key") else key
    draw_low, draw_high = _add(low, high, _u64(replica) * _u64(skip)) if turns else (low, high)
    c = (draw_low, draw_high, draw_key)
    dtype = attrs["dtype"]
    if attrs["dist"] == "bounded_int":
        flat = _bounded_int(c, size, dtype, *rest)
    else:
        flat = _DRAWS[attrs["dist"]](c, size, dtype)
    values = jnp.asarray(flat, dtype.np_dtype).reshape(dims)
    new_low, new_high = _add(low, high, _u64(skip * max(turns, 1)))
    return values, _bits(jnp.stack([new_low, new_high, key]), np.int64)
