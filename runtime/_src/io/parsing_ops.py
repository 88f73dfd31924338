"""`tf.io.parse_example` and `tf.io.parse_single_example`: tensors from
serialized `tf.train.Example` protos, one op ("ParseExampleV2") that runs
eagerly, in a tf.function and in `dataset.map`.

    features = {"x": tf.io.FixedLenFeature([2], tf.int64),
                "w": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True),
                "s": tf.io.RaggedFeature(tf.string)}
    tf.io.parse_example(serialized_batch, features)
    # {'s': <tf.RaggedTensor ...>, 'w': [batch, longest] padded, 'x': [batch, 2]}

The op's `spec` attr lists each feature (by key) as a tuple (key, kind,
dtype, shape, has_default, value_key, partitions, splits_dtype); its inputs
are the serialized strings, the example names, and one default per
fixed-length feature. Its outputs, feature by feature: one dense tensor, or
a ragged feature's flat values then its row splits, outermost first. Errors
are TensorFlow's words ("Key: x.  Data types don't match. ...").
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.protowire import DecodeError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.io.example_proto import read_example
from runtime._src.io.parsing_config import (FixedLenSequenceFeature, RaggedFeature,
                                            SparseFeature, VarLenFeature, check)
from runtime._src.ops import manipulation_ops, math_ops, reduction_ops
from runtime._src.ops.array_ops import range as arange
from runtime._src.ops.array_ops import reshape, shape
from runtime._src.sparse.sparse_tensor import SparseTensor
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["Where", "as_array", "assemble", "default_tensor", "dense_feature", "entry_shapes",
           "parse_example", "parse_single_example", "ragged_feature", "serialized_tensor",
           "spec_entry"]

_LIST_OF = {dtypes.int64: "int64_list", dtypes.float32: "float_list",
            dtypes.string: "bytes_list"}
_TYPE_WORD = {"int64_list": "int64", "float_list": "float", "bytes_list": "string"}
_COUNT_WORD = {"int64_list": "int64", "float_list": "float", "bytes_list": "bytes"}


# --- shape rule --------------------------------------------------------------------------

def n_splits(entry, batched):
    partitions = entry[6]
    return int(batched) + sum(p[0] != "UniformRowLength" for p in partitions)


def entry_shapes(entry, lead, batched):
    """(dtype, shape) of each output of one feature; `lead` is [batch] or []."""
    kind, dtype, shape = entry[1:4]
    if kind == "dense":
        return [(dtype, TensorShape(lead + list(shape)))]
    if kind == "seq":
        return [(dtype, TensorShape(lead + [None] + list(shape)))]
    uniform = [p[1] for p in entry[6] if p[0] == "UniformRowLength"]
    return [(dtype, TensorShape([None] + uniform))] + [
        (entry[7], TensorShape([None])) for _ in range(n_splits(entry, batched))]


def _infer(inputs, attrs):
    batched = attrs["batched"]
    batch = inputs[0].shape.dims[0] if batched and inputs[0].shape.dims else None
    lead = [batch] if batched else []
    return [s for entry in attrs["spec"] for s in entry_shapes(entry, lead, batched)]


# --- the kernel ----------------------------------------------------------------------------

class Where:
    """Which example an error is about, in TensorFlow's words."""

    def __init__(self, batched, names):
        self.batched, self.names, self.index = batched, names, 0

    def name(self):
        if self.index < len(self.names):
            n = self.names[self.index]
            return n.decode("utf-8", "replace") if isinstance(n, bytes) else str(n)
        return "<unknown>"

    def key(self, key):
        if not self.batched:
            return f"Key: {key}.  "
        return f"Name: {self.name()}, Key: {key}, Index: {self.index}.  "

    def missing(self, key, dtype, size):
        lead = "" if not self.batched else f"Name: {self.name()}, "
        return InvalidArgumentError(f"{lead}Feature: {key} (data type: "
                                    f"{_TYPE_WORD[_LIST_OF[dtype]]}) is required but could "
                                    "not be found.")


def _parse_records(serialized):
    out = []
    for record in serialized:
        try:
            out.append(read_example(record))
        except (DecodeError, UnicodeDecodeError):
            raise InvalidArgumentError(f"Could not parse example input, value: "
                                       f"'{record[:64]!r}'") from None
    return out


def typed_values(example, key, dtype, where, ragged=False):
    """The values of `key` in one parsed example, None when it is missing."""
    kind, values = example.get(key, (None, None))
    if kind is None:
        return None
    if kind != _LIST_OF[dtype]:
        got, want = _TYPE_WORD[kind], _TYPE_WORD[_LIST_OF[dtype]]
        text = (f"Expected type: {want}, Actual type: {got}" if ragged else
                f"Data type: {got} but expected type: {want}")
        raise InvalidArgumentError(f"{where.key(key)}Data types don't match. {text}")
    return values


def as_array(values, dtype):
    if dtype == dtypes.string:
        out = np.empty(len(values), object)
        out[:] = values
        return out
    return np.asarray(values, dtype.np_dtype)


def dense_feature(examples, entry, default, where):
    key, _, dtype, shape, has_default = entry[:5]
    size = int(np.prod(shape, dtype=np.int64))
    rows = []
    for where.index, example in enumerate(examples):
        values = typed_values(example, key, dtype, where)
        if values is None:
            if not has_default:
                raise where.missing(key, dtype, size)
            rows.append(default.reshape(shape))
            continue
        if len(values) != size:
            raise _count_error(key, dtype, len(values), size, shape, where)
        rows.append(as_array(values, dtype).reshape(shape))
    if not where.batched:
        return rows[0]
    return _stack(rows, (len(examples),) + tuple(shape), dtype)


def _count_error(key, dtype, got, size, shape, where):
    kind = _LIST_OF[dtype]
    if kind == "bytes_list" and got > size:
        why = "." if where.batched else ": Parsing bytes_list failed."
        return InvalidArgumentError(f"{where.key(key)}Can't parse serialized Example{why}")
    if not where.batched:
        return InvalidArgumentError(f"{where.key(key)}Can't parse serialized Example: Some "
                                    f"{kind} slice was not parsed.")
    return InvalidArgumentError(
        f"{where.key(key)}Number of {_COUNT_WORD[kind]} values != expected.  Values size: "
        f"{got} but output shape: [{','.join(str(d) for d in shape)}]")


def _stack(rows, shape, dtype):
    out = np.empty(shape, object if dtype == dtypes.string else dtype.np_dtype)
    for i, row in enumerate(rows):
        out[i, ...] = row
    return out


def _sequence(examples, entry, default, where):
    key, _, dtype, shape = entry[:4]
    stride = int(np.prod(shape, dtype=np.int64))
    rows = []
    for where.index, example in enumerate(examples):
        values = typed_values(example, key, dtype, where)
        values = as_array([] if values is None else values, dtype)
        if (stride == 0 or len(values) % stride) and not where.batched:
            raise InvalidArgumentError(f"Error while parsing feature with key {key}: number of "
                                       f"elements should be divisible by {stride}, found "
                                       f"{len(values)} instead")
        if stride == 0 or len(values) % stride:
            raise InvalidArgumentError(
                f"{where.key(key)}Number of {_COUNT_WORD[_LIST_OF[dtype]]} values is not a "
                f"multiple of stride length. Saw {len(values)} values but output shape is: "
                f"[{','.join(['?'] + [str(d) for d in shape])}]")
        rows.append(values.reshape((-1,) + tuple(shape)))
    if not where.batched:
        return rows[0]
    longest = max((len(r) for r in rows), default=0)
    fill = default.reshape(()) if default.size else (b"" if dtype == dtypes.string else 0)
    out = np.full((len(rows), longest) + tuple(shape), fill,
                  object if dtype == dtypes.string else dtype.np_dtype)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def _partition_splits(kind, ids, count):
    """Row splits of one ragged level over `count` items, from a partition's values."""
    ids = np.asarray(ids, np.int64)
    if kind == "RowSplits":
        return ids if ids.size else np.zeros(1, np.int64)
    if kind == "RowLengths":
        return np.concatenate([[0], np.cumsum(ids)]).astype(np.int64)
    if kind == "RowStarts":
        return np.concatenate([ids, [count]]).astype(np.int64)
    if kind == "RowLimits":
        return np.concatenate([[0], ids]).astype(np.int64)
    nrows = int(ids.max()) + 1 if ids.size else 0                      # ValueRowIds
    return np.concatenate([[0], np.cumsum(np.bincount(ids, minlength=nrows))]).astype(np.int64)


def _ragged_one(example, entry, where):
    """(values, [splits innermost first]) of a ragged feature in one example."""
    key, _, dtype, _, _, value_key, partitions = entry[:7]
    values = typed_values(example, value_key, dtype, where, ragged=True)
    values = as_array([] if values is None else values, dtype)
    levels = []
    for kind, arg in reversed(partitions):
        if kind == "UniformRowLength":
            if arg <= 0 or len(values) % arg:
                raise InvalidArgumentError(f"{where.key(key)}Number of values ({len(values)}) "
                                           f"is not a multiple of UniformRowLength({arg})")
            values = values.reshape((-1, arg) + values.shape[1:])
            continue
        count = len(values) if not levels else len(levels[-1]) - 1
        found = typed_values(example, arg, dtypes.int64, where, ragged=True)
        levels.append(_partition_splits(kind, [] if found is None else found, count))
    return values, levels


def ragged_feature(examples, entry, where):
    dtype, splits_dtype = entry[2], entry[7]
    uniform = tuple(p[1] for p in entry[6] if p[0] == "UniformRowLength")
    parts = []
    for where.index, example in enumerate(examples):
        parts.append(_ragged_one(example, entry, where))
    if not where.batched:
        values, levels = parts[0]
        return [values] + [s.astype(splits_dtype.np_dtype) for s in reversed(levels)]
    values = (np.concatenate([p[0] for p in parts]) if parts else
              as_array([], dtype).reshape((0,) + uniform))
    levels, sizes = [], [len(p[0]) for p in parts]
    for level in range(len(entry[6]) - len(uniform)):
        joined, offset, counts = [np.zeros(1, np.int64)], 0, []
        for (_, lv), size in zip(parts, sizes):
            joined.append(lv[level][1:] + offset)
            offset += size
            counts.append(len(lv[level]) - 1)
        levels.append(np.concatenate(joined))
        sizes = counts
    outer = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return [values] + [s.astype(splits_dtype.np_dtype) for s in [outer] + levels[::-1]]


@define_op("ParseExampleV2", infer=_infer, num_outputs=None)
def _parse_example(serialized, names, *defaults, spec, batched):
    serialized = np.asarray(serialized, object)
    if serialized.ndim > 1:
        raise InvalidArgumentError("Expected serialized to be a scalar or vector, got shape: "
                                   f"[{','.join(str(d) for d in serialized.shape)}]")
    examples = _parse_records(serialized.reshape(-1) if batched else [serialized.item()])
    where = Where(batched, list(np.asarray(names, object).reshape(-1)))
    out, defaults = [], iter(defaults)
    for entry in spec:
        if entry[1] == "dense":
            out.append(dense_feature(examples, entry, np.asarray(next(defaults)), where))
        elif entry[1] == "seq":
            out.append(_sequence(examples, entry, np.asarray(next(defaults)), where))
        else:
            out.extend(ragged_feature(examples, entry, where))
    return out


not_differentiable("ParseExampleV2")


# --- the public functions ---------------------------------------------------------------------

def default_tensor(feature, dtype, shape):
    """The default tensor of a fixed-length feature ([0] of `dtype` when none)."""
    value = feature.default_value
    if value is None:
        return convert_to_tensor(np.zeros(0, dtype.np_dtype) if dtype != dtypes.string
                                 else np.array([], object), dtype)
    if isinstance(feature, FixedLenSequenceFeature):
        return reshape(convert_to_tensor(value, dtype), [])
    t = value if isinstance(value, Tensor) else convert_to_tensor(value, dtype)
    if not hasattr(t, "_value"):
        return reshape(t, list(shape))
    size = int(np.prod(shape, dtype=np.int64))
    if t._value.size != size:
        raise InvalidArgumentError(f"Input to reshape is a tensor with {t._value.size} values, "
                                   f"but the requested shape has {size}")
    return convert_to_tensor(t._value.reshape(shape), dtype)


def spec_entry(key, feature, dtype, shape):
    if isinstance(feature, RaggedFeature):
        partitions = tuple((type(p).__name__, p[0]) for p in feature.partitions)
        kinds = [p[0] for p in partitions]
        if "UniformRowLength" in kinds and any(
                k != "UniformRowLength" for k in kinds[kinds.index("UniformRowLength"):]):
            raise ValueError(f"RaggedFeature {key!r}: UniformRowLength partitions are "
                             "supported only innermost (after every other partition)")
        return (key, "ragged", dtype, (), False, feature.value_key or key, partitions,
                feature.row_splits_dtype)
    kind = "seq" if isinstance(feature, FixedLenSequenceFeature) else "dense"
    return (key, kind, dtype, shape, feature.default_value is not None, None, (), None)


def _parse(serialized, features, example_names, batched):
    if not isinstance(features, dict):
        return _parse_dense(serialized, features, example_names, batched)
    sparse = [k for k, f in features.items() if isinstance(f, VarLenFeature)]
    indexed = {k: f for k, f in features.items() if isinstance(f, SparseFeature)}
    if not sparse and not indexed:
        return _parse_dense(serialized, features, example_names, batched)
    as_ragged = {k: RaggedFeature(f.dtype) if k in sparse else f for k, f in features.items()
                 if k not in indexed}
    for key, f in indexed.items():
        as_ragged.update(_sparse_feature_parts(key, f))
    result = _parse_dense(serialized, as_ragged, example_names, batched)
    for key in sparse:
        result[key] = _ragged_to_sparse(result[key], batched)
    for key, f in indexed.items():
        result[key] = _sparse_feature(result, key, f, batched)
    return result


def _part(key, i):
    return f"\0{key}\0{i}"        # a dict key no Example feature name collides with


def _sparse_feature_parts(key, feature):
    """The RaggedFeatures a SparseFeature is read from: its values, then each index key."""
    parts = {_part(key, "v"): RaggedFeature(feature.dtype, value_key=feature.value_key)}
    for i, index_key in enumerate(feature.index_keys):
        parts[_part(key, i)] = RaggedFeature(dtypes.int64, value_key=index_key)
    return parts


def _sparse_feature(result, key, feature, batched):
    """A SparseFeature's SparseTensor from its parts (popped from `result`)."""
    ragged = [result.pop(_part(key, "v"))] + [result.pop(_part(key, i))
                                               for i in range(len(feature.index_keys))]
    flats = [r.flat_values if batched else r for r in ragged]
    splits = [math_ops.cast(r.row_splits, dtypes.int64) for r in ragged] if batched else []
    indices, values, dense_shape = apply(
        "SparseFeatureIndices", flats + splits,
        {"sizes": tuple(feature.sizes), "sorted": bool(feature.already_sorted),
         "batched": batched, "key": key})
    return SparseTensor(indices, values, dense_shape)


def _infer_sparse_feature(inputs, attrs):
    rank = len(attrs["sizes"]) + (1 if attrs["batched"] else 0)
    return [(dtypes.int64, TensorShape([None, rank])), (inputs[0].dtype, TensorShape([None])),
            (dtypes.int64, TensorShape([rank]))]


@define_op("SparseFeatureIndices", infer=_infer_sparse_feature, num_outputs=3)
def _sparse_feature_indices(*parts, sizes, sorted, batched, key):
    count = len(sizes) + 1
    shape_of_row = range(len(sizes) + (1 if batched else 0))
    flats = parts[:count]
    splits = parts[count:] if batched else [np.array([0, len(f)], np.int64) for f in flats]
    rows_i, rows_v = [], []
    for b in range(len(splits[0]) - 1):
        values = flats[0][splits[0][b]:splits[0][b + 1]]
        index = [f[s[b]:s[b + 1]] for f, s in zip(flats[1:], splits[1:])]
        if any(len(i) != len(values) for i in index):
            raise InvalidArgumentError(
                f"SparseFeature {key!r}: example {b} has {len(values)} values but "
                f"{[len(i) for i in index]} indices", "ParseExample")
        at = np.stack(index, axis=1).astype(np.int64) if index else np.zeros((0, 0), np.int64)
        order = np.lexsort(at.T[::-1]) if not sorted and len(at) else np.arange(len(at))
        at, values = at[order], values[order]
        if batched:
            at = np.concatenate([np.full((len(at), 1), b, np.int64), at], axis=1)
        rows_i.append(at.reshape(len(values), len(shape_of_row)))
        rows_v.append(values)
    shape = ([len(splits[0]) - 1] if batched else []) + list(sizes)
    width = len(shape)
    indices = np.concatenate(rows_i).reshape(-1, width) if rows_i else np.zeros((0, width),
                                                                               np.int64)
    values = np.concatenate(rows_v) if rows_v else flats[0][:0]
    return indices.astype(np.int64), values, np.array(shape, np.int64)


not_differentiable("SparseFeatureIndices")


def _ragged_to_sparse(value, batched):
    """A VarLenFeature's SparseTensor from its ragged rows (or flat values)."""
    if not batched:
        count = shape(value, dtypes.int64)
        return SparseTensor(reshape(arange(count[0], dtype=dtypes.int64), [-1, 1]), value, count)
    splits = math_ops.cast(value.row_splits, dtypes.int64)
    rows = math_ops.cast(value.value_rowids(), dtypes.int64)
    starts = manipulation_ops.gather(splits, rows)
    columns = math_ops.subtract(arange(shape(value.flat_values, dtypes.int64)[0],
                                       dtype=dtypes.int64), starts)
    lengths = math_ops.subtract(splits[1:], splits[:-1])
    width = reduction_ops.reduce_max(manipulation_ops.concat([lengths, [0]], 0))
    dense_shape = manipulation_ops.stack([shape(splits, dtypes.int64)[0] - 1, width])
    return SparseTensor(manipulation_ops.stack([rows, columns], 1), value.flat_values,
                        dense_shape)


def _parse_dense(serialized, features, example_names, batched):
    entries = check(features)
    spec = tuple(spec_entry(*e) for e in entries)
    defaults = [default_tensor(f, d, s) for _, f, d, s in entries if not isinstance(f, RaggedFeature)]
    names = convert_to_tensor(np.array([], object) if example_names is None else
                              example_names, dtypes.string)
    outs = apply("ParseExampleV2", [serialized, names] + defaults,
                 {"spec": spec, "batched": batched})
    return assemble(outs, spec, batched)[0]


def assemble(outs, spec, batched):
    """({key: tensor or RaggedTensor}, outputs left) from an op's outputs."""
    result, pos = {}, 0
    for entry in spec:
        if entry[1] != "ragged":
            result[entry[0]] = outs[pos]
            pos += 1
            continue
        n = n_splits(entry, batched)
        value, splits = outs[pos], outs[pos + 1:pos + 1 + n]
        for s in reversed(splits):
            value = RaggedTensor.from_row_splits(value, s, validate=False)
        result[entry[0]] = value
        pos += 1 + n
    return result, outs[pos:]


def serialized_tensor(value):
    t = convert_to_tensor(value, dtypes.string) if not isinstance(value, Tensor) else value
    if t.dtype != dtypes.string:
        raise TypeError(f"serialized must be a string tensor, got {t.dtype.name}")
    return t


def parse_example(serialized, features, example_names=None, name=None):
    """`tf.io.parse_example`: a dict of tensors (and RaggedTensors) from a
    vector (or a scalar) of serialized Example protos."""
    t = serialized_tensor(serialized)
    rank = t.shape.rank
    if rank is not None and rank > 1:
        raise InvalidArgumentError("Expected serialized to be a scalar or vector, got shape: "
                                   f"[{','.join(str(d) for d in t.shape.as_list())}]")
    return _parse(t, features, example_names, rank != 0)


def parse_single_example(serialized, features, example_names=None, name=None):
    """`tf.io.parse_single_example`: a dict of tensors from one serialized
    Example (a scalar string)."""
    t = serialized_tensor(serialized)
    if t.shape.rank not in (None, 0):
        raise ValueError("Input serialized must be a scalar")
    return _parse(t, features, example_names, False)
