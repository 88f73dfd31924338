"""Record TensorFlow 2.21's Example protos, TFRecord files and tf.io parsing
and decoding results for tests/runtime/io/test_tfrecord.py and
tests/runtime/io/test_io_decode.py.

Run under a Python with TensorFlow 2.21 (the oracle):

    $BENCH_TF_PYTHON tools/record_tfrecord.py

It writes tests/data/tfrecord/recorded.json and three small TFRecord files
(plain, GZIP, ZLIB) of the MESSAGES' Examples, written by TF's own
TFRecordWriter. The tables below are plain data, and the builders take the
`tf` module to use, so the tests run the very same cases on `runtime`.

Values in the JSON: bytes as {"bytes": hex}; a tensor as {"dtype", "shape",
"values"}; a RaggedTensor as {"ragged": nested list, "dtype"}; a failure as
{"error": class name, "message": TF's message without the op decoration}.
"""

import json
import pathlib
import re

import numpy as np

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "tfrecord"

# --- messages: {key: (kind, values)}; kind int64 / float / bytes / empty -----------------

MESSAGES = {
    "ints": {"a": ("int64", [1, -1, 0, 2 ** 63 - 1, -2 ** 63])},
    "floats": {"f": ("float", [1.1, 2.0, -0.0, 1e20, float("inf"), float("-inf"),
                                3.4028235e38, 1e-45, 0.1, 1 / 3, 123456789.0])},
    "bytes": {"s": ("bytes", [b"hi", "é".encode(), b"\x00\xff\"'\\\n\r\t", b""])},
    "empty_feature": {"e": ("empty", None)},
    "empty_lists": {"i": ("int64", []), "f": ("float", []), "b": ("bytes", [])},
    "several": {"x": ("int64", [1, 2]), "y": ("float", [0.5]), "name": ("bytes", [b"ab"]),
                "b": ("int64", [7])},
    "row1": {"x": ("int64", [3, 4]), "y": ("float", [1.5, 2.5, 3.5]),
             "name": ("bytes", [b"cd", b"e"]), "v": ("int64", [1, 2, 3, 4, 5, 6]),
             "len": ("int64", [2, 0, 4]), "ids": ("int64", [0, 0, 2, 2, 2, 3])},
    "row2": {"x": ("int64", [5, 6]), "name": ("bytes", [b"f"]), "v": ("int64", [7]),
             "len": ("int64", [1])},
    "no_features": {},
    "unicode_keys": {"é\"\n'\\\x01": ("bytes", ["é".encode()]), "日本": ("int64", [1])},
}

SEQUENCES = {
    "seq1": ({"len": ("int64", [3]), "title": ("bytes", [b"a"])},
             {"tok": [("int64", [1]), ("int64", [2]), ("int64", [3])],
              "emb": [("float", [0.5, 1.0]), ("float", [1.5, 2.0]), ("float", [2.5, 3.0])],
              "w": [("bytes", [b"x"]), ("bytes", [b"y", b"z"]), ("bytes", [b""])]}),
    "seq2": ({"len": ("int64", [1])},
             {"tok": [("int64", [7])], "emb": [("float", [9.0, 9.5])],
              "w": [("bytes", [b"q"])]}),
}


def feature(tf, kind, values):
    t = tf.train
    if kind == "empty":
        return t.Feature()
    if kind == "int64":
        return t.Feature(int64_list=t.Int64List(value=values))
    if kind == "float":
        return t.Feature(float_list=t.FloatList(value=values))
    return t.Feature(bytes_list=t.BytesList(value=values))


def features(tf, spec):
    return tf.train.Features(feature={k: feature(tf, *v) for k, v in spec.items()})


def example(tf, name):
    return tf.train.Example(features=features(tf, MESSAGES[name]))


def sequence_example(tf, name):
    context, lists = SEQUENCES[name]
    t = tf.train
    return t.SequenceExample(
        context=features(tf, context),
        feature_lists=t.FeatureLists(feature_list={
            k: t.FeatureList(feature=[feature(tf, *step) for step in steps])
            for k, steps in lists.items()}))


def message(tf, name):
    return sequence_example(tf, name) if name in SEQUENCES else example(tf, name)


# --- parse cases: (label, function, serialized names, features, sequence features) -----------

def _f(shape, dtype, default=None):
    return ("fixed", shape, dtype, default)


def _s(shape, dtype, allow_missing=True, default=None):
    return ("seq", shape, dtype, allow_missing, default)


def _r(dtype, value_key=None, partitions=(), splits="int32"):
    return ("ragged", dtype, value_key, list(partitions), splits)


PARSE = [
    ("single_fixed", "parse_single_example", "row1",
     {"x": _f([2], "int64"), "name": _f([2], "string"), "y": _f([3], "float32")}),
    ("single_shape21", "parse_single_example", "row1", {"x": _f([2, 1], "int64")}),
    ("single_default", "parse_single_example", "row2",
     {"y": _f([2], "float32", [0.5, -1.0]), "m": _f([], "string", "?"),
      "x": _f([2], "int64", [0, 0])}),
    ("single_missing", "parse_single_example", "row2", {"y": _f([1], "float32")}),
    ("single_count", "parse_single_example", "row1", {"x": _f([3], "int64")}),
    ("single_count_bytes", "parse_single_example", "row1", {"name": _f([1], "string")}),
    ("single_type", "parse_single_example", "row1", {"x": _f([2], "float32")}),
    ("single_empty_feature_default", "parse_single_example", "empty_feature",
     {"e": _f([2], "int64", [4, 5])}),
    ("single_seq", "parse_single_example", "row1", {"y": _s([], "float32")}),
    ("single_seq_stride", "parse_single_example", "row1", {"v": _s([3], "int64")}),
    ("single_seq_bad_stride", "parse_single_example", "row1", {"y": _s([2], "float32")}),
    ("single_ragged", "parse_single_example", "row1", {"name": _r("string")}),
    ("single_ragged_lengths", "parse_single_example", "row1",
     {"r": _r("int64", "v", [("RowLengths", "len")])}),
    ("single_ragged_rowids", "parse_single_example", "row1",
     {"r": _r("int64", "v", [("ValueRowIds", "ids")], "int64")}),
    ("single_ragged_uniform", "parse_single_example", "row1",
     {"r": _r("int64", "v", [("UniformRowLength", 2)])}),
    ("single_ragged_type", "parse_single_example", "row1", {"x": _r("float32")}),
    ("batch_fixed", "parse_example", ["row1", "row2"],
     {"x": _f([2], "int64"), "b": _f([], "string", "none"),
      "y": _f([3], "float32", [9.0, 8.0, 7.0])}),
    ("batch_count", "parse_example", ["row1", "row2"], {"name": _f([], "string")}),
    ("batch_missing", "parse_example", ["row1", "row2"], {"y": _f([3], "float32")}),
    ("batch_type", "parse_example", ["row1", "row2"], {"name": _f([1], "int64")}),
    ("batch_seq", "parse_example", ["row1", "row2", "no_features"],
     {"y": _s([], "float32"), "v": _s([], "int64", default=-1), "name": _s([], "string")}),
    ("batch_ragged", "parse_example", ["row1", "row2", "no_features"],
     {"name": _r("string"), "y": _r("float32", splits="int64")}),
    ("batch_ragged_lengths", "parse_example", ["row1", "row2"],
     {"r": _r("int64", "v", [("RowLengths", "len")])}),
    ("batch_empty", "parse_example", [], {"x": _f([2], "int64")}),
    ("batch_scalar_input", "parse_example", "row1", {"x": _f([2], "int64")}),
    ("seq_single", "parse_single_sequence_example", "seq1",
     {"len": _f([], "int64"), "title": _f([], "string", "?")},
     {"tok": _s([], "int64", False), "emb": _s([2], "float32", False), "w": _r("string")}),
    ("seq_single_default", "parse_single_sequence_example", "seq2",
     {"title": _f([], "string", "?")}, {"tok": _s([], "int64", False)}),
    ("seq_batch", "parse_sequence_example", ["seq1", "seq2"],
     {"len": _f([], "int64"), "title": _f([], "string", "?")},
     {"tok": _s([], "int64", False), "emb": _s([2], "float32", False), "w": _r("string"),
      "zz": _s([], "int64", True)}),
    ("seq_missing_list", "parse_single_sequence_example", "seq1", {},
     {"zz": _s([], "int64", False)}),
    ("seq_count", "parse_single_sequence_example", "seq1", {}, {"emb": _s([3], "float32")}),
    ("seq_type", "parse_single_sequence_example", "seq1", {}, {"tok": _s([], "float32")}),
]


def feature_config(tf, spec):
    kind = spec[0]
    if kind == "fixed":
        _, shape, dtype, default = spec
        return tf.io.FixedLenFeature(shape, getattr(tf, dtype), default_value=default)
    if kind == "seq":
        _, shape, dtype, allow, default = spec
        return tf.io.FixedLenSequenceFeature(shape, getattr(tf, dtype), allow_missing=allow,
                                             default_value=default)
    _, dtype, value_key, partitions, splits = spec
    parts = [getattr(tf.io.RaggedFeature, p)(a) for p, a in partitions]
    return tf.io.RaggedFeature(getattr(tf, dtype), value_key=value_key, partitions=parts,
                               row_splits_dtype=getattr(tf, splits))


def serialized(tf, names):
    if isinstance(names, str):
        return message(tf, names).SerializeToString(deterministic=True)
    return [message(tf, n).SerializeToString(deterministic=True) for n in names]


def run_parse(tf, case, serialized_value=None):
    """The parse function's result for one PARSE case."""
    label, fn, names, *configs = case
    value = serialized(tf, names) if serialized_value is None else serialized_value
    if isinstance(value, list) and not value:
        value = tf.constant([], tf.string)
    dicts = [{k: feature_config(tf, s) for k, s in c.items()} for c in configs]
    return getattr(tf.io, fn)(value, *dicts)


# --- decoding cases: (label, function, args, kwargs) ------------------------------------------

def B(data):  # noqa: N802 - short for the table
    return {"bytes": data.hex()}


DECODE = [
    ("raw_int16", "decode_raw", [B(b"\x01\x00\x02\x00"), "int16"], {}),
    ("raw_big_endian", "decode_raw", [B(b"\x01\x00\x02\x00"), "int16"],
     {"little_endian": False}),
    ("raw_vector", "decode_raw", [[B(b"\x01\x00\x00\x00"), B(b"\xff\xff\xff\xff")], "int32"], {}),
    ("raw_uneven", "decode_raw", [[B(b"\x01\x00\x00\x00"), B(b"\x02\x00")], "int16"], {}),
    ("raw_bad_length", "decode_raw", [B(b"\x01\x00\x02"), "int16"], {}),
    ("raw_fixed", "decode_raw", [[B(b"\x01\x00\x02"), B(b"\x03")], "uint8"],
     {"fixed_length": 4}),
    ("raw_fixed_int16", "decode_raw", [[B(b"\x01\x00\x02"), B(b"\x03\x00\x04\x00\x05\x00")],
                                       "int16"], {"fixed_length": 4}),
    ("raw_float", "decode_raw", [B(np.float32([1.5, -2.0]).tobytes()), "float32"], {}),
    ("raw_float64", "decode_raw", [B(np.float64([1.5, 1e300]).tobytes()), "float64"], {}),
    ("raw_bool", "decode_raw", [B(b"\x01\x00"), "bool"], {}),
    ("raw_2d", "decode_raw", [[[B(b"\x01\x02")], [B(b"\x03\x04")]], "uint8"], {}),
    ("raw_empty", "decode_raw", [B(b""), "int32"], {}),
    ("raw_uint16", "decode_raw", [B(b"\x01\x02"), "uint16"], {}),
    ("raw_float16", "decode_raw", [B(b"\x00\x3c"), "float16"], {}),
    ("csv", "decode_csv", [["1,2.5,a", "3,,b"], [[0], [0.0], [""]]], {}),
    ("csv_types", "decode_csv", [["1,2,3,4,x"], [{"empty": "int32"}, {"empty": "int64"},
                                                 {"empty": "float32"}, {"empty": "float64"},
                                                 {"empty": "string"}]], {}),
    ("csv_required", "decode_csv", [["1,"], [[0], {"empty": "int32"}]], {}),
    ("csv_delim", "decode_csv", ["1;2", [[0], [0]]], {"field_delim": ";"}),
    ("csv_quotes", "decode_csv", [['"a,b",1', '"x""y",2'], [[""], [0]]], {}),
    ("csv_no_quote_delim", "decode_csv", [['"a",1'], [[""], [0]]], {"use_quote_delim": False}),
    ("csv_na", "decode_csv", [["NA,1", "2,NA"], [[7], [8]]], {"na_value": "NA"}),
    ("csv_select", "decode_csv", [["1,2,3"], [[0], [0]]], {"select_cols": [0, 2]}),
    ("csv_count", "decode_csv", [["1,2,3"], [[0], [0]]], {}),
    ("csv_bad_int", "decode_csv", [["x,2"], [[0], [0]]], {}),
    ("csv_bad_float", "decode_csv", [["x,2"], [[0.0], [0]]], {}),
    ("csv_overflow", "decode_csv", [["99999999999,2"], [[0], [0]]], {}),
    ("csv_float_forms", "decode_csv", [["1e3, 2", " 3 ,inf", "-.5,nan"], [[0.0], [0.0]]], {}),
    ("csv_int_space", "decode_csv", [[" 3,+1"], [[0], [0]]], {}),
    ("csv_hex", "decode_csv", [["0x10,2"], [[0], [0]]], {}),
    ("csv_scalar", "decode_csv", ["1,2", [[0], [0]]], {}),
    ("csv_2d", "decode_csv", [[["1,2"], ["3,4"]], [[0], [0]]], {}),
    ("csv_open_quote", "decode_csv", [['"a,1'], [[""], [0]]], {}),
    ("csv_quote_inside", "decode_csv", [['a"b,1'], [[""], [0]]], {}),
    ("csv_empty_record", "decode_csv", [[""], [[0]]], {}),
    ("csv_trailing_delim", "decode_csv", [["1,"], [[0], [5]]], {}),
    ("csv_two_defaults", "decode_csv", [["1,2"], [[0, 1], [0]]], {}),
    ("b64_encode", "encode_base64", [[B(b"hello"), B(b"\xff\xfe?"), B(b"")]], {}),
    ("b64_encode_pad", "encode_base64", [B(b"hello")], {"pad": True}),
    ("b64_decode", "decode_base64", [["aGVsbG8", "__4_", "aGVsbG8="]], {}),
    ("b64_decode_bad_length", "decode_base64", ["a"], {}),
    ("b64_decode_bad_char", "decode_base64", ["ab+/"], {}),
    ("inflate_zlib", "decode_compressed", [B(bytes.fromhex("789c4b4c4a0600024d0127"))],
     {"compression_type": "ZLIB"}),
    ("inflate_none", "decode_compressed", [B(b"abc")], {}),
    ("inflate_bad", "decode_compressed", [B(b"abc")], {"compression_type": "ZLIB"}),
    ("json_example", "decode_json_example",
     ['{"features": {"feature": {"a": {"int64List": {"value": ["1", 2]}}, "b": {"floatList": '
      '{"value": [1.5, "NaN", "-Infinity", 1]}}, "c": {"bytesList": {"value": ["aGk=", '
      '"-_8"]}}, "d": {"int64_list": {}}, "e": {}}}}'], {}),
    ("json_example_vector", "decode_json_example", [["{}", '{"features": {}}']], {}),
]


def arg(tf, value):
    """A table value as the function's argument (bytes, dtypes, empty tensors)."""
    if isinstance(value, dict) and "bytes" in value:
        return bytes.fromhex(value["bytes"])
    if isinstance(value, dict) and "empty" in value:
        return tf.constant([], getattr(tf, value["empty"]))
    if isinstance(value, list):
        return [arg(tf, v) for v in value]
    if isinstance(value, str) and hasattr(tf, value) and value in (
            "int16", "int32", "uint8", "uint16", "float16", "float32", "float64", "bool"):
        return getattr(tf, value)
    return value


def run_decode(tf, case):
    label, fn, args, kwargs = case
    return getattr(tf.io, fn)(*[arg(tf, a) for a in args], **kwargs)


# --- recording (TensorFlow only below) ------------------------------------------------------

def _json_value(v):
    if isinstance(v, (bytes, np.bytes_)):
        return {"bytes": bytes(v).hex()}
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return {"float": repr(v)}
    if isinstance(v, list):
        return [_json_value(x) for x in v]
    if isinstance(v, (np.generic,)):
        return _json_value(v.item())
    return v


def record_value(tf, value):
    if isinstance(value, dict):
        return {k: record_value(tf, v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [record_value(tf, v) for v in value]
    if isinstance(value, tf.RaggedTensor):
        return {"ragged": _json_value(value.to_list()), "dtype": value.dtype.name,
                "splits_dtype": value.row_splits.dtype.name}
    array = np.asarray(value.numpy(), dtype=object if value.dtype.name == "string" else None)
    return {"dtype": value.dtype.name, "shape": list(array.shape),
            "values": _json_value(array.tolist())}


def clean_message(message):
    message = re.sub(r"\{\{function_node [^}]*\}\} ", "", str(message))
    message = re.sub(r" \[Op:[A-Za-z0-9]+\]( name: )?$", "", message)
    return message.split("\n\t; NodeDef")[0]


def outcome(tf, fn):
    try:
        return record_value(tf, fn())
    except Exception as e:  # noqa: BLE001 - recorded as TF's error
        return {"error": type(e).__name__, "message": clean_message(e)}


def _write_files(tf, records):
    DATA.mkdir(parents=True, exist_ok=True)
    files = {"": "examples.tfrecord", "GZIP": "examples_gzip.tfrecord",
             "ZLIB": "examples_zlib.tfrecord"}
    for compression, name in files.items():
        with tf.io.TFRecordWriter(str(DATA / name),
                                  tf.io.TFRecordOptions(compression_type=compression)) as w:
            for r in records:
                w.write(r)
    return files


def _datasets(tf, tmp):
    """Records of TextLine, FixedLength and interleaved TFRecord datasets."""
    import os
    os.makedirs(tmp, exist_ok=True)
    out = {}
    with open(f"{tmp}/t.txt", "wb") as f:
        f.write(b"a\nb\r\nc\n\nd")
    out["text_lines"] = [x.numpy().hex() for x in tf.data.TextLineDataset(f"{tmp}/t.txt")]
    with open(f"{tmp}/f.bin", "wb") as f:
        f.write(bytes(range(19)))
    ds = tf.data.FixedLengthRecordDataset(f"{tmp}/f.bin", 4, header_bytes=2, footer_bytes=1)
    out["fixed_length"] = [x.numpy().hex() for x in ds]
    paths = []
    for i, n in enumerate([3, 1, 4, 2]):
        paths.append(f"{tmp}/p{i}.tfrecord")
        with tf.io.TFRecordWriter(paths[-1]) as w:
            for j in range(n):
                w.write(f"{i}-{j}".encode())
    for k in (1, 2, 3):
        out[f"interleave_{k}"] = [x.numpy().decode() for x in
                                  tf.data.TFRecordDataset(paths, num_parallel_reads=k)]
    return out


def main():
    import tensorflow as tf
    doc = {"messages": {}, "parse": {}, "decode": {}}
    for name in list(MESSAGES) + list(SEQUENCES):
        m = message(tf, name)
        doc["messages"][name] = {"bytes": m.SerializeToString(deterministic=True).hex(),
                                 "text": str(m), "size": m.ByteSize()}
    records = [bytes.fromhex(doc["messages"][n]["bytes"]) for n in MESSAGES]
    doc["files"] = _write_files(tf, records)
    doc["file_records"] = list(MESSAGES)
    for case in PARSE:
        doc["parse"][case[0]] = outcome(tf, lambda: run_parse(tf, case))
    for case in DECODE:
        doc["decode"][case[0]] = outcome(tf, lambda: run_decode(tf, case))
    doc["datasets"] = _datasets(tf, "/tmp/record_tfrecord")
    with open(DATA / "recorded.json", "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {DATA}/recorded.json and {len(doc['files'])} TFRecord files")


if __name__ == "__main__":
    main()
