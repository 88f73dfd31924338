"""Record Keras 3.15's (TF 2.21) `keras.utils.bounding_boxes` values for
tests/keras/utils/test_bounding_boxes.py into tests/data/keras_bounding_boxes_tf221.json:

    $BENCH_TF_PYTHON tools/record_keras_bounding_boxes.py

Each case is (function, positional args, keyword args); an argument
{"array": [...], "dtype": "..."} is a NumPy array. The result is the value,
its dtype, or the error type Keras raised.
"""

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parents[1] / "tests/data/keras_bounding_boxes_tf221.json"


def arr(values, dtype="float32"):
    return {"array": values, "dtype": dtype}


BOXES = arr([[10, 20, 30, 40], [50, 60, 70, 80], [0, 0, 0, 0]])
INT_BOXES = arr([[10, 20, 30, 40], [50, 60, 70, 80]], "int64")
BATCH = arr([[[10, 20, 30, 40], [5, 5, 25, 35]], [[-5, -5, 12, 50], [0, 0, 100, 100]]])
REL = arr([[0.1, 0.2, 0.5, 0.9], [0.0, 0.0, 1.0, 1.0]])
FORMATS = ["xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx",
           "rel_xywh", "rel_center_xywh"]

CASES = []
for src in FORMATS:
    for dst in FORMATS:
        data = REL if src.startswith("rel") else BOXES
        CASES.append(("convert_format", [data, src, dst], {"height": 200, "width": 300}))
CASES += [
    ("convert_format", [INT_BOXES, "xyxy", "xywh"], {}),
    ("convert_format", [INT_BOXES, "XYXY", "Center_XYWH"], {}),
    ("convert_format", [BOXES, "xyxy", "xyxy"], {"dtype": "float64"}),
    ("convert_format", [BATCH, "xywh", "center_yxhw"], {}),
    ("convert_format", [BOXES, "xyxy", "rel_xyxy"], {}),
    ("convert_format", [BOXES, "xyxy", "polar"], {}),
    ("convert_format", [arr([[1, 2, 3]]), "xyxy", "xywh"], {}),
    ("clip_to_image_size", [{"boxes": arr([[-10, -20, 150, 160], [50, 40, 70, 80],
                                           [130, 10, 140, 20]]),
                             "labels": arr([0, 1, 2], "int32")}], {"height": 100, "width": 120}),
    ("clip_to_image_size", [{"boxes": BATCH}], {"height": 40, "width": 20}),
    ("clip_to_image_size", [{"boxes": arr([[-0.5, 0.2, 1.5, 0.9], [1.2, 0.1, 1.4, 0.3]]),
                             "labels": arr([3, 4], "int32")}],
     {"bounding_box_format": "rel_xyxy"}),
    ("clip_to_image_size", [{"boxes": BOXES}], {}),
    ("clip_to_image_size", [{"boxes": BOXES}], {"height": 1, "width": 1,
                                                "bounding_box_format": "yxyx"}),
    ("crop", [arr([[10, 20, 50, 60], [70, 80, 100, 120]])],
     {"top": 10, "left": 20, "height": 40, "width": 30}),
    ("crop", [INT_BOXES], {"top": 5, "left": 5, "height": 50, "width": 50}),
    ("crop", [BATCH], {"top": 0, "left": 10, "height": 30, "width": 30}),
    ("crop", [BOXES], {"top": 0, "left": 0, "height": 1, "width": 1,
                       "bounding_box_format": "xywh"}),
    ("pad", [arr([[10, 20, 50, 60], [70, 80, 100, 120]])], {"top": 10, "left": 20}),
    ("pad", [BATCH], {"top": 3, "left": 0, "height": 80, "width": 80}),
    ("affine_transform", [BATCH, arr([30.0, -45.0]), arr([0.1, 0.0]), arr([0.0, -0.2]),
                          arr([1.0, 1.5]), arr([0.0, 10.0]), arr([5.0, 0.0]), 64, 48], {}),
    ("affine_transform", [BATCH, arr([0.0, 0.0]), arr([0.0, 0.0]), arr([0.0, 0.0]),
                          arr([1.0, 1.0]), arr([0.0, 0.0]), arr([0.0, 0.0]), 64, 48], {}),
    ("affine_transform", [BATCH, arr([90.0, 180.0]), arr([0.25, 0.0]), arr([0.0, 0.5]),
                          arr([0.5, 2.0]), arr([0.0, 0.0]), arr([0.0, 0.0]), 100, 100],
     {"center_x": 0.0, "center_y": 1.0}),
    ("compute_iou", [BOXES, arr([[15, 25, 35, 45], [10, 20, 30, 40], [100, 100, 110, 110]]),
                     "xyxy"], {}),
    ("compute_iou", [BATCH, BATCH, "xyxy"], {}),
    ("compute_iou", [BATCH, BOXES, "xywh"], {}),
    ("compute_iou", [BOXES, BATCH, "center_xywh"], {}),
    ("compute_iou", [arr([[-1, -2, -3, -4], [0, 0, 10, 10]]),
                     arr([[0, 0, 5, 5], [-5, -5, -1, -1]]), "xyxy"],
     {"use_masking": True, "mask_val": -7}),
    ("compute_iou", [arr([[[-1, -2, -3, -4], [0, 0, 10, 10]]]),
                     arr([[[0, 0, 5, 5], [-5, -5, -1, -1]]]), "yxyx"], {"use_masking": True}),
    ("compute_iou", [REL, REL, "rel_xyxy"], {"image_shape": (40, 80, 3)}),
    ("compute_iou", [REL, REL, "rel_xyxy"], {}),
    ("compute_iou", [arr([1, 2, 3, 4]), BOXES, "xyxy"], {}),
    ("compute_ciou", [BOXES, arr([[15, 25, 35, 45], [10, 20, 30, 40], [100, 100, 110, 110]]),
                      "xyxy"], {}),
    ("compute_ciou", [BATCH, arr([[[0, 0, 10, 20]]]), "xywh"], {}),
    ("compute_ciou", [REL, REL, "rel_yxyx"], {"image_shape": (30, 60, 3)}),
    ("compute_ciou", [arr([[3, 12, 15, 54], [0, 0, 30, 60]]),
                      arr([[3, 12, 15, 54], [0, 0, 30, 60]]), "yxyx"], {}),
    ("encode_box_to_deltas", [arr([[0, 0, 10, 10], [10, 10, 30, 50]]),
                              arr([[1, 2, 11, 14], [8, 12, 34, 48]]), "xyxy", "xyxy"], {}),
    ("encode_box_to_deltas", [arr([[0, 0, 10, 10], [10, 10, 30, 50]]), BATCH, "xyxy", "xywh"],
     {"encoding_format": "center_xywh", "variance": [0.1, 0.1, 0.2, 0.2]}),
    ("encode_box_to_deltas", [REL, REL, "rel_xyxy", "rel_yxyx"], {"image_shape": (20, 40, 3)}),
    ("encode_box_to_deltas", [BOXES, BOXES, "xyxy", "xyxy"], {"variance": [1, 2]}),
    ("encode_box_to_deltas", [BOXES, BOXES, "xyxy", "xyxy"], {"encoding_format": "xyxy"}),
    ("decode_deltas_to_boxes", [arr([[0, 0, 10, 10], [10, 10, 30, 50]]),
                                arr([[0.1, -0.2, 0.3, 0.0], [0.0, 0.5, -0.4, 0.2]]),
                                "xyxy", "xyxy"], {}),
    ("decode_deltas_to_boxes", [arr([[0, 0, 10, 10], [10, 10, 30, 50]]),
                                arr([[[0.1, -0.2, 0.3, 0.0], [0.0, 0.5, -0.4, 0.2]]]),
                                "xywh", "center_yxhw"],
     {"encoded_format": "center_xywh", "variance": [0.1, 0.1, 0.2, 0.2]}),
    ("decode_deltas_to_boxes", [REL, arr([[0.1, -0.2, 0.3, 0.0], [0.0, 0.5, -0.4, 0.2]]),
                                "rel_xyxy", "rel_xywh"], {"image_shape": (20, 40, 3)}),
    ("decode_deltas_to_boxes", [BOXES, BOXES, "xyxy", "xyxy"], {"encoded_format": "yxyx"}),
]


def _load(value):
    if isinstance(value, dict) and "array" in value:
        return np.array(value["array"], value["dtype"])
    if isinstance(value, dict):
        return {k: _load(v) for k, v in value.items()}
    return value


def _dump(value):
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    value = np.asarray(value)
    return {"array": value.tolist(), "dtype": str(value.dtype)}


def main():
    from keras.utils import bounding_boxes
    records = []
    for name, args, kwargs in CASES:
        record = {"fn": name, "args": args, "kwargs": kwargs}
        try:
            out = getattr(bounding_boxes, name)(*map(_load, args), **kwargs)
            record["result"] = _dump(out)
        except Exception as exc:  # noqa: BLE001 - the error type is the record
            record["error"] = type(exc).__name__
        records.append(record)
    OUT.write_text(json.dumps(records, indent=0) + "\n")
    print(f"{len(records)} cases, {sum('error' in r for r in records)} errors -> {OUT}")


if __name__ == "__main__":
    main()
