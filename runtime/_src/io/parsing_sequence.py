"""`tf.io.parse_sequence_example` and `tf.io.parse_single_sequence_example`:
tensors from serialized `tf.train.SequenceExample` protos (one op,
"ParseSequenceExampleV2").

    context, lists = tf.io.parse_single_sequence_example(
        s, context_features={"len": tf.io.FixedLenFeature([], tf.int64)},
        sequence_features={"tok": tf.io.FixedLenSequenceFeature([], tf.int64),
                           "words": tf.io.RaggedFeature(tf.string)})
    # lists["tok"]: [steps]; lists["words"]: a RaggedTensor [steps, None]

Context features are FixedLenFeature or RaggedFeature and read like an
Example's. Sequence features are FixedLenSequenceFeature (every step holds
prod(shape) values; a batch pads to the longest and also returns the
lengths) or RaggedFeature without partitions (one row per step).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.protowire import DecodeError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.io.example_proto import read_sequence_example
from runtime._src.io.parsing_config import (FixedLenFeature, FixedLenSequenceFeature,
                                            RaggedFeature, feature_dtype, feature_shape)
from runtime._src.io.parsing_ops import (Where, as_array, assemble, default_tensor,
                                         dense_feature, entry_shapes, ragged_feature,
                                         spec_entry, serialized_tensor)
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["parse_sequence_example", "parse_single_sequence_example"]

_TYPE_WORD = {dtypes.int64: "int64", dtypes.float32: "float", dtypes.string: "string"}
_LIST_OF = {dtypes.int64: "int64_list", dtypes.float32: "float_list",
            dtypes.string: "bytes_list"}


class _ContextWhere(Where):
    def missing(self, key, dtype, size):
        return InvalidArgumentError(f"Inconsistent max number of elements for feature {key}: "
                                    f"expected {size}, but found 0")


def _infer(inputs, attrs):
    batched = attrs["batched"]
    batch = inputs[0].shape.dims[0] if batched and inputs[0].shape.dims else None
    lead = [batch] if batched else []
    out = [s for e in attrs["context"] for s in entry_shapes(e, lead, batched)]
    for key, kind, dtype, shape, *_ in attrs["lists"]:
        if kind == "seqlist":
            out.append((dtype, TensorShape(lead + [None] + list(shape))))
            if batched:
                out.append((dtypes.int64, TensorShape(lead)))
        else:
            out.append((dtype, TensorShape([None])))
            out.extend([(dict(attrs["splits"])[key], TensorShape([None]))] * (1 + batched))
    return out


def _steps(lists, key, dtype, where, name):
    """Each step's values of feature list `key`, type-checked; None if missing."""
    steps = lists.get(key)
    if steps is None:
        return None
    out = []
    for j, (kind, values) in enumerate(steps):
        if kind != _LIST_OF[dtype]:
            raise InvalidArgumentError(f"Name: {name}, Feature list: {key}, Index: {j}.  Data "
                                       f"types don't match. Expected type: {_TYPE_WORD[dtype]}")
        out.append(as_array(values, dtype))
    return out


def _fixed_list(parsed, entry, default, where):
    key, _, dtype, shape, allow_missing = entry
    size = int(np.prod(shape, dtype=np.int64))
    rows = []
    for where.index, (_, lists) in enumerate(parsed):
        steps = _steps(lists, key, dtype, where, where.name())
        if steps is None and not allow_missing:
            raise InvalidArgumentError(
                f"Name: {where.name()}, Feature list '{key}' is required but could not be "
                "found.  Did you mean to include it in feature_list_dense_missing_assumed_empty "
                "or feature_list_dense_defaults?")
        for j, step in enumerate(steps or []):
            if len(step) != size:
                raise InvalidArgumentError(
                    f"Name: {where.name()}, Key: {key}, Index: {j}.  Number of values != "
                    f"expected.  values size: {len(step)} but output shape: "
                    f"[{','.join(str(d) for d in shape)}]")
        rows.append(np.stack([s.reshape(shape) for s in steps]) if steps else
                    as_array([], dtype).reshape((0,) + tuple(shape)))
    if not where.batched:
        return [rows[0]]
    longest = max((len(r) for r in rows), default=0)
    fill = default.reshape(()) if default.size else (b"" if dtype == dtypes.string else 0)
    out = np.full((len(rows), longest) + tuple(shape), fill,
                  object if dtype == dtypes.string else dtype.np_dtype)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return [out, np.array([len(r) for r in rows], np.int64)]


def _ragged_list(parsed, entry, splits_dtype, where):
    key, _, dtype = entry[:3]
    values, inner, outer = [], [0], [0]
    for where.index, (_, lists) in enumerate(parsed):
        steps = _steps(lists, key, dtype, where, where.name()) or []
        for step in steps:
            values.append(step)
            inner.append(inner[-1] + len(step))
        outer.append(outer[-1] + len(steps))
    flat = np.concatenate(values) if values else as_array([], dtype)
    splits = [np.array(s, splits_dtype.np_dtype) for s in (outer, inner)]
    return [flat] + (splits if where.batched else splits[1:])


@define_op("ParseSequenceExampleV2", infer=_infer, num_outputs=None)
def _parse_sequence(serialized, names, *defaults, context, lists, splits, batched):
    serialized = np.asarray(serialized, object)
    records = serialized.reshape(-1) if batched else [serialized.item()]
    parsed = []
    for record in records:
        try:
            parsed.append(read_sequence_example(record))
        except (DecodeError, UnicodeDecodeError):
            raise InvalidArgumentError(f"Could not parse example input, value: "
                                       f"'{record[:64]!r}'") from None
    names = list(np.asarray(names, object).reshape(-1))
    where, contexts = _ContextWhere(batched, names), [c for c, _ in parsed]
    out, defaults = [], iter(defaults)
    for entry in context:
        if entry[1] == "dense":
            out.append(dense_feature(contexts, entry, np.asarray(next(defaults)), where))
        else:
            out.extend(ragged_feature(contexts, entry, where))
    where = Where(batched, names)
    for entry in lists:
        if entry[1] == "seqlist":
            out.extend(_fixed_list(parsed, entry, np.asarray(next(defaults)), where))
        else:
            out.extend(_ragged_list(parsed, entry, dict(splits)[entry[0]], where))
    return out


not_differentiable("ParseSequenceExampleV2")


# --- the public functions ---------------------------------------------------------------------

def _context_entries(features):
    out = []
    for key in sorted(features or {}):
        f = features[key]
        if not isinstance(f, (FixedLenFeature, RaggedFeature)):
            raise ValueError(f"Unsupported {type(f).__name__} {f!r} for key '{key}'")
        dtype = feature_dtype(f)
        shape = None if isinstance(f, RaggedFeature) else feature_shape(key, f)
        out.append((spec_entry(key, f, dtype, shape), f, dtype, shape))
    return out


def _list_entries(features):
    out = []
    for key in sorted(features or {}):
        f = features[key]
        if isinstance(f, RaggedFeature):
            if f.partitions or (f.value_key or key) != key:
                raise ValueError(f"RaggedFeature {key!r} in sequence_features: partitions and "
                                 "value_key are not supported here (one row per step)")
            out.append(((key, "raggedlist", feature_dtype(f), (), True), f))
        elif isinstance(f, FixedLenSequenceFeature):
            out.append(((key, "seqlist", feature_dtype(f), feature_shape(key, f),
                         bool(f.allow_missing)), f))
        else:
            raise ValueError(f"Unsupported {type(f).__name__} {f!r} for key '{key}'")
    return out


def _parse(serialized, context_features, sequence_features, names, batched):
    if not context_features and not sequence_features:
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    ctx = _context_entries(context_features)
    lists = _list_entries(sequence_features)
    defaults = [default_tensor(f, d, s) for _, f, d, s in ctx if s is not None]
    defaults += [default_tensor(f, e[2], e[3]) for e, f in lists if e[1] == "seqlist"]
    splits = tuple((e[0], f.row_splits_dtype) for e, f in lists if e[1] == "raggedlist")
    names = convert_to_tensor(np.array([], object) if names is None else names, dtypes.string)
    cspec = tuple(e for e, *_ in ctx)
    outs = apply("ParseSequenceExampleV2", [serialized, names] + defaults,
                 {"context": cspec, "lists": tuple(e for e, _ in lists),
                  "splits": splits, "batched": batched})
    context, rest = assemble(outs, cspec, batched)
    values, lengths, pos = {}, {}, 0
    for (key, kind, *_), _ in lists:
        if kind == "seqlist":
            values[key] = rest[pos]
            if batched:
                lengths[key] = rest[pos + 1]
            pos += 1 + batched
            continue
        n = 1 + batched
        value = rest[pos]
        for s in reversed(rest[pos + 1:pos + 1 + n]):
            value = RaggedTensor.from_row_splits(value, s, validate=False)
        values[key] = value
        pos += 1 + n
    return context, values, lengths


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """`tf.io.parse_sequence_example`: (context, feature_lists, lengths) dicts
    from a vector of serialized SequenceExample protos."""
    t = serialized_tensor(serialized)
    if t.shape.rank not in (None, 1):
        raise ValueError(f"Input serialized must be a vector, got shape {t.shape}")
    return _parse(t, context_features, sequence_features, example_names, True)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """`tf.io.parse_single_sequence_example`: (context, feature_lists) dicts
    from one serialized SequenceExample."""
    t = serialized_tensor(serialized)
    if t.shape.rank not in (None, 0):
        raise ValueError("Input serialized must be a scalar")
    names = None if example_name is None else [example_name]
    context, values, _ = _parse(t, context_features, sequence_features, names, False)
    return context, values
