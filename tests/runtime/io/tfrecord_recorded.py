"""Shared helpers of the tf.io tests: TF 2.21's recorded values
(tests/data/tfrecord/recorded.json, written by tools/record_tfrecord.py, whose
case tables and builders are imported here) and the comparison of our
results with them."""

import importlib
import json
import math
import os
import sys

import numpy as np

import runtime as tf
from tests.paths import ROOT as ROOT_PATH

ROOT = str(ROOT_PATH)
DATA = os.path.join(ROOT, "tests", "data", "tfrecord")
sys.path.insert(0, os.path.join(ROOT, "tools"))
CASES = importlib.import_module("record_tfrecord")
sys.path.pop(0)

with open(os.path.join(DATA, "recorded.json")) as _f:
    RECORDED = json.load(_f)


def plain(value):
    """A recorded JSON value with bytes and special floats restored."""
    if isinstance(value, dict) and "bytes" in value:
        return bytes.fromhex(value["bytes"])
    if isinstance(value, dict) and "float" in value:
        return float(value["float"])
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _same(a, b):
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, float):
        return isinstance(b, (float, int)) and np.float32(a) == np.float32(b)
    return a == b


def assert_matches(recorded, got, where=""):
    """`got` (tensors, RaggedTensors, dicts, lists) equals TF's recorded value."""
    if isinstance(recorded, list):
        assert len(recorded) == len(got), where
        for i, (r, g) in enumerate(zip(recorded, got)):
            assert_matches(r, g, f"{where}[{i}]")
        return
    if "ragged" in recorded:
        assert isinstance(got, tf.RaggedTensor), f"{where}: {type(got).__name__}"
        assert got.dtype.name == recorded["dtype"], where
        assert _same(plain(recorded["ragged"]), got.to_list()), (where, got.to_list())
        return
    if "dtype" in recorded:
        assert isinstance(got, tf.Tensor), f"{where}: {type(got).__name__}"
        assert got.dtype.name == recorded["dtype"], (where, got.dtype)
        array = np.asarray(got.numpy(), object if got.dtype == tf.string else None)
        assert list(array.shape) == recorded["shape"], (where, array.shape)
        assert _same(plain(recorded["values"]), array.tolist()), (where, array.tolist())
        return
    assert isinstance(got, dict) and sorted(got) == sorted(recorded), (where, got)
    for k in recorded:
        assert_matches(recorded[k], got[k], f"{where}[{k!r}]")


def outcome(fn):
    """('ok', value) or ('error', class name, message) of calling fn."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - compared with TF's recorded error
        return ("error", type(e).__name__, str(e))


def assert_outcome(recorded, fn, where):
    """`fn()` gives TF's recorded value, or raises TF's error class with TF's
    message (which a graph run prefixes with the op and follows with the
    user's line)."""
    got = outcome(fn)
    if "error" in recorded:
        assert got[0] == "error", f"{where}: TF raised {recorded}, we returned {got[1]}"
        assert got[1] == recorded["error"], (where, got)
        first_line = got[2].split("\n")[0]
        assert recorded["message"] in (first_line, first_line.partition(": ")[2]), (where,
                                                                                   got[2])
    else:
        assert got[0] == "ok", f"{where}: {got}"
        assert_matches(recorded, got[1], where)
