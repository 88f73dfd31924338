"""keras.utils.bounding_boxes against Keras 3.15's (TF 2.21) recorded values
(tests/data/keras_bounding_boxes_tf221.json, from tools/record_keras_bounding_boxes.py):
format conversions, clipping, crop/pad, affine transforms, IoU/CIoU and the
anchor delta encoding, eagerly and inside tf.function."""

import builtins
import json
import pathlib

import numpy as np
import pytest

import runtime as tf
from runtime import keras

bounding_boxes = keras.utils.bounding_boxes
CASES = json.loads((pathlib.Path(__file__).resolve().parents[2] / "data"
                    / "keras_bounding_boxes_tf221.json").read_text())


def _load(value):
    if isinstance(value, dict) and "array" in value:
        return np.array(value["array"], value["dtype"])
    if isinstance(value, dict):
        return {k: _load(v) for k, v in value.items()}
    return value


def _check(out, want):
    if "array" not in want:
        assert set(out) == set(want)
        for key in want:
            _check(out[key], want[key])
        return
    out = np.asarray(out)
    assert str(out.dtype) == want["dtype"]
    np.testing.assert_allclose(out, np.array(want["array"], want["dtype"]), rtol=2e-6,
                               atol=2e-6)


def _name(case):
    return case["fn"] + "-" + "-".join(a for a in case["args"] if isinstance(a, str))


@pytest.mark.parametrize("case", CASES, ids=[_name(c) for c in CASES])
def test_recorded(case):
    fn = getattr(bounding_boxes, case["fn"])
    args, kwargs = [_load(a) for a in case["args"]], case["kwargs"]
    if "error" in case:
        if case["fn"] == "compute_ciou" and kwargs.get("image_shape"):
            pytest.skip("Keras 3.15 rejects every relative format here; see test_ciou_relative")
        with pytest.raises(getattr(builtins, case["error"])):
            fn(*args, **kwargs)
        return
    _check(fn(*args, **kwargs), case["result"])


@pytest.mark.parametrize("index", [40, 84, 88, 95, 98, 99, 103, 107, 112, 116, 121])
def test_recorded_in_function(index):
    case = CASES[index]
    assert "error" not in case
    args = [_load(a) for a in case["args"]]
    fn = getattr(bounding_boxes, case["fn"])
    _check(tf.function(lambda: fn(*args, **case["kwargs"]))(), case["result"])


def test_ciou_relative():
    """Keras 3.15 raises for relative formats even with image_shape (a bug);
    here they work: relative yxyx on a 30x60 image is the absolute result."""
    rel = np.array([[0.1, 0.2, 0.5, 0.9], [0.0, 0.0, 1.0, 1.0]], "float32")
    want = [c for c in CASES if c["fn"] == "compute_ciou" and c["args"][2] == "yxyx"][0]
    out = bounding_boxes.compute_ciou(rel, rel, "rel_yxyx", image_shape=(30, 60, 3))
    _check(out, want["result"])
    with pytest.raises(ValueError, match="image_shape"):
        bounding_boxes.compute_ciou(rel, rel, "rel_yxyx")


def test_messages_and_gradient():
    with pytest.raises(ValueError, match="last dimension of 4"):
        bounding_boxes.convert_format(np.zeros([2, 3]), "xyxy", "xywh")
    with pytest.raises(NotImplementedError, match="xywh"):
        bounding_boxes.pad(np.zeros([2, 4]), 1, 1, bounding_box_format="xywh")
    boxes = tf.Variable([[1.0, 2.0, 5.0, 9.0]])
    with tf.GradientTape() as tape:
        iou = bounding_boxes.compute_iou(boxes, np.array([[0.0, 0.0, 4.0, 4.0]], "float32"),
                                         "xyxy")
    grad = tape.gradient(iou, boxes).numpy()
    assert grad.shape == (1, 4) and np.all(np.isfinite(grad)) and grad[0, 2] < 0
