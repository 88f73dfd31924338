"""`tf.sparse.cross` and `tf.sparse.cross_hashed`: per batch row, every
combination of one value from each input feature.

    cross([SparseTensor([[0, 0], [1, 0], [1, 1]], ['a', 'b', 'c'], [2, 2]),
           constant([['d'], ['e']])])
    # values [b'a_X_d', b'b_X_e', b'c_X_e'] at [0, 0], [1, 0], [1, 1]

As TF 2.21: the sparse inputs come first in a cross, then the dense ones
(each in the order given); the last feature varies fastest; integers print
in decimal. cross_hashed combines Fingerprint64 of each string (an integer
is its own hash) with FingerprintCat64, starting from `hash_key`
(0xDECAFCAFFE by default), and takes it modulo `num_buckets` (or modulo
2**63 - 1 when num_buckets is 0).
"""

import itertools

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.farmhash import fingerprint64
from runtime._src.sparse.sparse_ops import _sparse_out, make
from runtime._src.sparse.sparse_tensor import SparseTensor, _to_tensor

__all__ = ["cross", "cross_hashed"]

_DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MASK = (1 << 64) - 1
_K_MUL = 0xC6A4A7935BD1E995
_INT64_MAX = (1 << 63) - 1


def _shift_mix(v):
    return v ^ (v >> 47)


def _fingerprint_cat64(fp1, fp2):
    """TF's FingerprintCat64 of two uint64 fingerprints."""
    result = fp1 ^ _K_MUL
    result ^= (_shift_mix((fp2 * _K_MUL) & _MASK) * _K_MUL) & _MASK
    result = (result * _K_MUL) & _MASK
    result = (_shift_mix(result) * _K_MUL) & _MASK
    return _shift_mix(result)


def _text(v):
    if isinstance(v, (bytes, np.bytes_)):
        return bytes(v)
    return str(int(v)).encode()


def _feature_hash(v):
    if isinstance(v, (bytes, np.bytes_)):
        return fingerprint64(bytes(v))
    return int(v) & _MASK


def _rows_of_sparse(indices, values, batch):
    rows = [[] for _ in range(batch)]
    for r, v in zip(np.asarray(indices)[:, 0], np.asarray(values)):
        rows[int(r)].append(v)
    return rows


@define_op("SparseCross", infer=lambda inputs, attrs: _sparse_out(
    dtypes.int64 if attrs["hashed"] else dtypes.string, 2), num_outputs=3)
def _sparse_cross(*inputs, n_sparse, hashed, num_buckets, hash_key, separator):
    sp = [(inputs[k], inputs[n_sparse + k], inputs[2 * n_sparse + k]) for k in range(n_sparse)]
    dense = [np.asarray(d) for d in inputs[3 * n_sparse:]]
    batches = {int(s[2][0]) for s in sp} | {d.shape[0] for d in dense}
    if len(batches) > 1:
        raise InvalidArgumentError(f"Expected batch size {sorted(batches)[0]} got "
                                   f"{sorted(batches)[-1]}", "SparseCross")
    batch = batches.pop() if batches else 0
    features = [_rows_of_sparse(i, v, batch) for i, v, _ in sp] + \
        [[list(d[r]) for r in range(batch)] for d in dense]
    out_idx, out_val, width = [], [], 0
    for r in range(batch):
        combos = list(itertools.product(*[f[r] for f in features]))
        width = max(width, len(combos))
        for k, combo in enumerate(combos):
            out_idx.append((r, k))
            out_val.append(_hash(combo, num_buckets, hash_key) if hashed
                           else separator.join(_text(v) for v in combo))
    dtype = np.int64 if hashed else object
    values = np.array(out_val, dtype=dtype) if out_val else np.zeros(0, dtype)
    return (np.array(out_idx, np.int64).reshape(-1, 2), values,
            np.array([batch, width], np.int64))


def _hash(combo, num_buckets, hash_key):
    h = hash_key
    for v in combo:
        h = _fingerprint_cat64(h, _feature_hash(v))
    return h % num_buckets if num_buckets > 0 else h % _INT64_MAX


not_differentiable("SparseCross")


def _cross(inputs, hashed, num_buckets=0, hash_key=None, separator="_X_"):
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("tf.sparse.cross: inputs must be a list of SparseTensors and tensors")
    sparse = [x for x in inputs if isinstance(x, SparseTensor)]
    dense = [_to_tensor(x) for x in inputs if not isinstance(x, SparseTensor)]
    for t in [s.values for s in sparse] + dense:
        if t.dtype not in (dtypes.string, dtypes.int64, dtypes.int32):
            raise TypeError(f"tf.sparse.cross: features must be strings or integers, got "
                            f"{t.dtype.name}")
    parts = [s.indices for s in sparse] + [s.values for s in sparse] + \
        [s.dense_shape for s in sparse] + dense
    sep = separator if isinstance(separator, bytes) else str(separator).encode()
    return make(*apply("SparseCross", parts, {
        "n_sparse": len(sparse), "hashed": hashed, "num_buckets": int(num_buckets or 0),
        "hash_key": _DEFAULT_HASH_KEY if hash_key is None else int(hash_key),
        "separator": sep}))


def cross(inputs, name=None, separator=None):
    """`tf.sparse.cross(inputs, separator='_X_')`: string crosses of the features."""
    return _cross(inputs, False, separator="_X_" if separator is None else separator)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """`tf.sparse.cross_hashed(inputs, num_buckets=0, hash_key=None)`: int64
    hashes of the crosses (see the module docstring)."""
    return _cross(inputs, True, num_buckets, hash_key)
