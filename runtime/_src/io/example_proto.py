"""`tf.train.Example` and its parts, as TensorFlow's protos
(tensorflow/core/example/{feature,example}.proto) define them:

    BytesList   repeated bytes value = 1
    FloatList   repeated float value = 1 [packed]
    Int64List   repeated int64 value = 1 [packed]
    Feature     oneof kind { BytesList bytes_list = 1; FloatList float_list = 2;
                             Int64List int64_list = 3; }
    Features    map<string, Feature> feature = 1
    FeatureList repeated Feature feature = 1
    FeatureLists map<string, FeatureList> feature_list = 1
    Example     Features features = 1
    SequenceExample  Features context = 1; FeatureLists feature_lists = 2

    ex = Example(features=Features(feature={
        "x": Feature(int64_list=Int64List(value=[1, 2]))}))
    ex.features.feature["x"].int64_list.value     # [1, 2]
    Example.FromString(ex.SerializeToString()) == ex    # True

`read_features` decodes the Features of serialized Example bytes straight
into value lists (the parse ops' fast road: no message objects).
"""

import numpy as np

from runtime._src.core import protowire as wire
from runtime._src.io.message import Field, Message

__all__ = [
    "BytesList",
    "Example",
    "Feature",
    "FeatureList",
    "FeatureLists",
    "Features",
    "FloatList",
    "Int64List",
    "SequenceExample",
    "read_features",
    "read_sequence_example",
]


class BytesList(Message):
    _FULL_NAME = "tensorflow.BytesList"
    FIELDS = (Field("value", 1, "bytes", repeated=True),)


class FloatList(Message):
    _FULL_NAME = "tensorflow.FloatList"
    FIELDS = (Field("value", 1, "float", repeated=True),)


class Int64List(Message):
    _FULL_NAME = "tensorflow.Int64List"
    FIELDS = (Field("value", 1, "int64", repeated=True),)


class Feature(Message):
    _FULL_NAME = "tensorflow.Feature"
    FIELDS = (Field("bytes_list", 1, "message", BytesList, oneof="kind"),
              Field("float_list", 2, "message", FloatList, oneof="kind"),
              Field("int64_list", 3, "message", Int64List, oneof="kind"))


class Features(Message):
    _FULL_NAME = "tensorflow.Features"
    FIELDS = (Field("feature", 1, "map", Feature),)


class FeatureList(Message):
    _FULL_NAME = "tensorflow.FeatureList"
    FIELDS = (Field("feature", 1, "message", Feature, repeated=True),)


class FeatureLists(Message):
    _FULL_NAME = "tensorflow.FeatureLists"
    FIELDS = (Field("feature_list", 1, "map", FeatureList),)


class Example(Message):
    _FULL_NAME = "tensorflow.Example"
    FIELDS = (Field("features", 1, "message", Features),)


class SequenceExample(Message):
    _FULL_NAME = "tensorflow.SequenceExample"
    FIELDS = (Field("context", 1, "message", Features),
              Field("feature_lists", 2, "message", FeatureLists))


# --- the parse ops' decoder -------------------------------------------------------------

_KINDS = {1: "bytes_list", 2: "float_list", 3: "int64_list"}


def read_feature(data):
    """(kind, values) of serialized Feature bytes: kind None for an empty
    Feature; values a list of bytes, or a float32 / int64 numpy array."""
    kind, values = None, None
    for number, wt, payload in wire.fields(data):
        if number not in _KINDS or wt != 2:
            continue
        kind = _KINDS[number]
        values = _list_values(kind, payload)
    return kind, values


def _list_values(kind, data):
    items = []
    for number, wt, value in wire.fields(data):
        if number != 1:
            continue
        if kind == "bytes_list":
            items.append(value)
        elif kind == "int64_list":
            items.extend(wire.packed_varints(value) if wt == 2 else [value])
        elif wt == 2:
            items.append(wire.packed_floats(value))
        else:
            items.append(np.array([value], np.uint32).view(np.float32))
    if kind == "bytes_list":
        return items
    if kind == "float_list":
        return np.concatenate(items) if items else np.zeros(0, np.float32)
    return np.array(items, np.uint64).view(np.int64)


def _map_entries(data):
    """(key, value bytes) of each entry of a serialized map field's entries."""
    for number, wt, entry in wire.fields(data):
        if number != 1 or wt != 2:
            continue
        key, value = "", b""
        for n, _, v in wire.fields(entry):
            if n == 1:
                key = v.decode("utf-8")
            elif n == 2:
                value = v
        yield key, value


def read_features(data):
    """{name: (kind, values)} of serialized Features bytes."""
    return {key: read_feature(value) for key, value in _map_entries(data)}


def read_example(data):
    """{name: (kind, values)} of serialized Example bytes (later entries of one
    key win, as protobuf's map parsing)."""
    out = {}
    for number, wt, payload in wire.fields(data):
        if number == 1 and wt == 2:
            out.update(read_features(payload))
    return out


def read_sequence_example(data):
    """(context {name: (kind, values)}, feature lists {name: [(kind, values)]})
    of serialized SequenceExample bytes."""
    context, lists = {}, {}
    for number, wt, payload in wire.fields(data):
        if number == 1 and wt == 2:
            context.update(read_features(payload))
        elif number == 2 and wt == 2:
            for key, value in _map_entries(payload):
                lists[key] = [read_feature(f) for n, _, f in wire.fields(value) if n == 1]
    return context, lists
