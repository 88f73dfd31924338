"""`tf.io.serialize_sparse`, `serialize_many_sparse` and
`deserialize_many_sparse`, in TensorFlow's byte format: a SparseTensor is
three TensorProto strings (indices, values, dense_shape, as
`tf.io.serialize_tensor` writes them); a batch is one such row per entry of
the first dimension, its indices and shape without that dimension.

    s = tf.io.serialize_sparse(st)          # string [3]
    m = tf.io.serialize_many_sparse(batch)  # string [N, 3]
    tf.io.deserialize_many_sparse(m, tf.int32)   # the batch again

`out_type=tf.variant` is not supported (string only).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.core import protowire as wire
from runtime._src.ops.io_ops import decode_tensor_proto, encode_tensor_proto, string_content_field
from runtime._src.sparse.sparse_ops import _sparse_out, check_sparse, make

__all__ = ["serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse"]


def _row(indices, values, shape):
    return [encode_tensor_proto(np.asarray(indices, np.int64), dtypes.int64),
            _values_proto(np.asarray(values)),
            encode_tensor_proto(np.asarray(shape, np.int64), dtypes.int64)]


def _values_proto(values):
    """Values' TensorProto: strings in `tensor_content` (lengths, then bytes),
    as TF's SerializeSparse writes them; numbers as serialize_tensor."""
    if values.dtype != object or values.size == 0:
        return encode_tensor_proto(values, _dtype_of(values))
    dtype_field = wire.varint_field(1, 7)       # DT_STRING
    shape_field = wire.length_field(2, wire.length_field(2, wire.varint_field(1, values.size)))
    return dtype_field + shape_field + string_content_field(values.ravel())


def _dtype_of(values):
    return dtypes.string if values.dtype == object else dtypes.as_dtype(values.dtype)


@define_op("SerializeSparse", infer=lambda inputs, attrs: [(dtypes.string, TensorShape([3]))])
def _serialize_sparse(indices, values, dense_shape):
    return np.array(_row(indices, values, dense_shape), dtype=object)


@define_op("SerializeManySparse", infer=lambda inputs, attrs: [
    (dtypes.string, TensorShape([None, 3]))])
def _serialize_many(indices, values, dense_shape):
    if len(dense_shape) < 2:
        raise InvalidArgumentError(f"Rank of input SparseTensor should be > 1, but saw rank: "
                                   f"{len(dense_shape)}", "SerializeManySparse")
    rows = []
    for n in range(int(dense_shape[0])):
        mine = indices[:, 0] == n
        rows.append(_row(indices[mine, 1:], values[mine], dense_shape[1:]))
    return np.array(rows, dtype=object).reshape(-1, 3)


def _parsed(data, want):
    try:
        value, name = decode_tensor_proto(bytes(data))
    except (ValueError, IndexError) as e:
        raise InvalidArgumentError(f"Could not parse serialized sparse tensor ({e})",
                                   "DeserializeManySparse") from None
    return value, name


@define_op("DeserializeManySparse", infer=lambda inputs, attrs: _sparse_out(
    attrs["dtype"], attrs["rank"]), num_outputs=3)
def _deserialize_many(serialized, *, dtype, rank):
    serialized = np.asarray(serialized, dtype=object)
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise InvalidArgumentError(f"Serialized sparse should be a matrix with 3 columns, got "
                                   f"shape {list(serialized.shape)}", "DeserializeManySparse")
    rows, shapes = [], []
    for n, (ind, val, shp) in enumerate(serialized):
        indices, _ = _parsed(ind, dtypes.int64)
        values, name = _parsed(val, dtype)
        if name != dtype.name:
            raise InvalidArgumentError(
                f"Requested SparseTensor of type {_c_name(dtype)} but SparseTensor[{n}]."
                f"values.dtype() == {_c_name(dtypes.as_dtype(name))}", "DeserializeManySparse")
        shape, _ = _parsed(shp, dtypes.int64)
        rows.append((indices.reshape(len(values), len(shape)), values))
        shapes.append(shape)
    return _stack(rows, shapes, dtype)


def _c_name(dtype):
    return {"float32": "float", "float64": "double", "string": "string"}.get(dtype.name,
                                                                             dtype.name)


def _stack(rows, shapes, dtype):
    """The batch: each row's indices after its row number, shape [N] + the
    largest of each dimension."""
    if not rows:
        return (np.zeros([0, 1], np.int64), np.zeros([0], dtype.np_dtype),
                np.array([0], np.int64))
    ranks = {len(s) for s in shapes}
    if len(ranks) != 1:
        raise InvalidArgumentError("Inconsistent shape across SparseTensors: rank "
                                   f"{sorted(ranks)}", "DeserializeManySparse")
    indices = [np.concatenate([np.full([len(i), 1], n, np.int64), i], axis=1)
               for n, (i, _) in enumerate(rows)]
    values = np.concatenate([v for _, v in rows])
    shape = np.concatenate([[len(rows)], np.max(np.stack(shapes), axis=0)]).astype(np.int64)
    return np.concatenate(indices).astype(np.int64), values.astype(dtype.np_dtype), shape


not_differentiable("SerializeSparse", "SerializeManySparse", "DeserializeManySparse")


def _check_out_type(out_type, where):
    if dtypes.as_dtype(out_type) != dtypes.string:
        raise TypeError(f"{where}: out_type must be tf.string here, got "
                        f"{dtypes.as_dtype(out_type).name} (variant serialization is not "
                        f"supported)")


def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """`tf.io.serialize_sparse`: a SparseTensor as a string [3] (TensorProto bytes
    of its indices, values and dense_shape)."""
    sp = check_sparse(sp_input, "tf.io.serialize_sparse")
    _check_out_type(out_type, "tf.io.serialize_sparse")
    return apply("SerializeSparse", [sp.indices, sp.values, sp.dense_shape], {})


def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """`tf.io.serialize_many_sparse`: a rank >= 2 SparseTensor as a string
    [N, 3], one serialized SparseTensor per entry of its first dimension."""
    sp = check_sparse(sp_input, "tf.io.serialize_many_sparse")
    _check_out_type(out_type, "tf.io.serialize_many_sparse")
    return apply("SerializeManySparse", [sp.indices, sp.values, sp.dense_shape], {})


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """`tf.io.deserialize_many_sparse`: the SparseTensor of `serialize_many_sparse`
    rows (string [N, 3]); `dtype` the values' type, `rank` the result's rank
    when known."""
    serialized = convert_to_tensor(serialized_sparse, dtypes.string)
    dtype = dtypes.as_dtype(dtype)
    out = apply("DeserializeManySparse", [serialized], {"dtype": dtype, "rank": rank})
    return make(*out)
