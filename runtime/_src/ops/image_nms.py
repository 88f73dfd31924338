"""Non-max suppression as TensorFlow 2.21 does it: `non_max_suppression`,
`non_max_suppression_with_scores` (soft-NMS), `non_max_suppression_overlaps`,
`non_max_suppression_padded` and `combined_non_max_suppression`.

The greedy rule: take candidates (score > score_threshold) from the highest
score down, equal scores by lower index first; a candidate whose IoU (or given
overlap) with an already selected box is above the threshold is dropped. With
soft_nms_sigma > 0 nothing is dropped for its IoU: each selected box instead
scales the candidates' scores by exp(-IoU^2 / (2 sigma)), and a rescored
candidate goes back into the queue while its score is above score_threshold. Boxes
are [y1, x1, y2, x2] with the corners in either order; an empty box overlaps
nothing.

    non_max_suppression(boxes, scores, max_output_size=10)   # int32 indices
"""

import heapq

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules

__all__ = ["non_max_suppression", "non_max_suppression_with_scores",
           "non_max_suppression_overlaps", "non_max_suppression_padded",
           "combined_non_max_suppression"]


def iou_matrix(a, b):
    """[len(a), len(b)] IoU of two sets of boxes, float32 as TF computes it."""
    a, b = a.astype(np.float32), b.astype(np.float32)

    def corners(x):
        return (np.minimum(x[:, 0], x[:, 2]), np.minimum(x[:, 1], x[:, 3]),
                np.maximum(x[:, 0], x[:, 2]), np.maximum(x[:, 1], x[:, 3]))
    ay1, ax1, ay2, ax2 = (c[:, None] for c in corners(a))
    by1, bx1, by2, bx2 = (c[None, :] for c in corners(b))
    area_a, area_b = (ay2 - ay1) * (ax2 - ax1), (by2 - by1) * (bx2 - bx1)
    inter = (np.maximum(np.minimum(ay2, by2) - np.maximum(ay1, by1), np.float32(0)) *
             np.maximum(np.minimum(ax2, bx2) - np.maximum(ax1, bx1), np.float32(0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area_a + area_b - inter)
    return np.where((area_a <= 0) | (area_b <= 0), np.float32(0), iou).astype(np.float32)


def greedy_nms(overlap, scores, max_out, threshold, score_threshold, sigma=0.0):
    """Selected indices and their (possibly soft-suppressed) scores."""
    scores = scores.astype(np.float32)
    scale = np.float32(-0.5 / sigma) if sigma > 0 else np.float32(0)
    # heap entries: (-score, index, number of selected boxes seen)
    heap = [(-s, i, 0) for i, s in enumerate(scores) if s > score_threshold]
    heapq.heapify(heap)
    chosen, chosen_scores = [], []
    while heap and len(chosen) < max_out:
        neg, i, seen = heapq.heappop(heap)
        score = popped = np.float32(-neg)
        hard = False
        for j in range(len(chosen) - 1, seen - 1, -1):
            sim = overlap[i, chosen[j]]
            if sigma <= 0 and sim > threshold:
                hard = True
                break
            score = np.float32(score * np.exp(scale * sim * sim))
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == popped:
            chosen.append(i)
            chosen_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(heap, (-score, i, len(chosen)))
    return np.array(chosen, np.int32), np.array(chosen_scores, np.float32)


def _infer_nms(inputs, attrs):
    boxes, scores = inputs[0], inputs[1]
    if boxes.shape.rank is not None and (boxes.shape.rank != 2 or
                                         boxes.shape.dims[-1] not in (None, 4)):
        raise ValueError(f"boxes must be of shape [num_boxes, 4], got {boxes.shape}")
    if scores.shape.rank not in (None, 1):
        raise ValueError(f"scores must be 1-D, got shape {scores.shape}")
    size = rules.constant_value(inputs[2]) if attrs["pad"] else None
    n = TensorShape([None if size is None else int(size)])
    return [(dtypes.int32, n), (scores.dtype, n), (dtypes.int32, TensorShape([]))]


@define_op("NonMaxSuppressionV5", infer=_infer_nms, num_outputs=3)
def _nms(boxes, scores, max_out, iou_threshold, score_threshold, sigma, *, pad):
    if int(max_out) < 0:
        raise InvalidArgumentError(f"max_output_size must be non-negative, got "
                                   f"{int(max_out)}", "NonMaxSuppressionV5")
    if not 0 <= float(iou_threshold) <= 1:
        raise InvalidArgumentError("iou_threshold must be in [0, 1]", "NonMaxSuppressionV5")
    if float(sigma) < 0:
        raise InvalidArgumentError("soft_nms_sigma must be non-negative",
                                   "NonMaxSuppressionV5")
    idx, kept = greedy_nms(iou_matrix(boxes, boxes), scores, int(max_out),
                           np.float32(iou_threshold), np.float32(score_threshold),
                           float(sigma))
    valid = np.int32(len(idx))
    if pad:
        extra = int(max_out) - len(idx)
        idx, kept = np.pad(idx, (0, extra)), np.pad(kept, (0, extra))
    return idx, kept.astype(scores.dtype), valid


def _infer_overlaps(inputs, attrs):
    return [(dtypes.int32, TensorShape([None]))]


@define_op("NonMaxSuppressionWithOverlaps", infer=_infer_overlaps)
def _nms_overlaps(overlaps, scores, max_out, threshold, score_threshold):
    return greedy_nms(overlaps.astype(np.float32), scores, int(max_out),
                      np.float32(threshold), np.float32(score_threshold))[0]


def _nms_call(boxes, scores, max_output_size, iou_threshold, score_threshold, sigma, pad):
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    args = (boxes, scores, convert_to_tensor(max_output_size, dtypes.int32),
            convert_to_tensor(iou_threshold, dtypes.float32),
            convert_to_tensor(score_threshold, dtypes.float32),
            convert_to_tensor(sigma, dtypes.float32))
    _infer_nms(args, {"pad": bool(pad)})       # the checks, also when running eagerly
    return apply("NonMaxSuppressionV5", args, {"pad": bool(pad)})


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """Indices (int32) of at most `max_output_size` boxes kept by greedy NMS."""
    return _nms_call(boxes, scores, max_output_size, iou_threshold, score_threshold, 0.0,
                     False)[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """(indices, scores) of the boxes kept; soft-NMS when soft_nms_sigma > 0."""
    out = _nms_call(boxes, scores, max_output_size, iou_threshold, score_threshold,
                    soft_nms_sigma, False)
    return out[0], out[1]


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Greedy NMS over a given [n, n] overlap matrix instead of IoU."""
    args = (convert_to_tensor(overlaps), convert_to_tensor(scores),
            convert_to_tensor(max_output_size, dtypes.int32),
            convert_to_tensor(overlap_threshold, dtypes.float32),
            convert_to_tensor(score_threshold, dtypes.float32))
    return apply("NonMaxSuppressionWithOverlaps", args)


def _infer_padded(inputs, attrs):
    boxes = inputs[0]
    size = rules.constant_value(inputs[2])
    batch = list(boxes.shape.dims[:-2]) if boxes.shape.rank is not None else None
    idx = TensorShape(None if batch is None else batch + [None if size is None else int(size)])
    return [(dtypes.int32, idx), (dtypes.int32, TensorShape(batch))]


@define_op("NonMaxSuppressionPadded", infer=_infer_padded, num_outputs=2)
def _nms_padded(boxes, scores, max_out, iou_threshold, score_threshold):
    lead = boxes.shape[:-2]
    flat_boxes, flat_scores = boxes.reshape(-1, *boxes.shape[-2:]), scores.reshape(
        -1, scores.shape[-1])
    idx = np.zeros([len(flat_boxes), int(max_out)], np.int32)
    valid = np.zeros([len(flat_boxes)], np.int32)
    for k, (b, s) in enumerate(zip(flat_boxes, flat_scores)):
        kept = greedy_nms(iou_matrix(b, b), s, int(max_out), np.float32(iou_threshold),
                          np.float32(score_threshold))[0]
        idx[k, :len(kept)], valid[k] = kept, len(kept)
    return idx.reshape(*lead, int(max_out)), valid.reshape(lead)


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """(indices, num_valid): greedy NMS over [..., num_boxes, 4] boxes; the
    indices padded with 0 to `max_output_size` when pad_to_max_output_size
    (required for batched boxes). sorted_input, canonicalized_coordinates and
    tile_size are speed hints in TF and change nothing here."""
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    if not pad_to_max_output_size and boxes.shape.rank is not None and boxes.shape.rank > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be "
                         f"True for batched input")
    args = (boxes, scores, convert_to_tensor(max_output_size, dtypes.int32),
            convert_to_tensor(iou_threshold, dtypes.float32),
            convert_to_tensor(score_threshold, dtypes.float32))
    idx, valid = apply("NonMaxSuppressionPadded", args)
    if not pad_to_max_output_size:
        idx = idx[:valid]
    return idx, valid


def _infer_combined(inputs, attrs):
    boxes, scores = inputs[0], inputs[1]
    if boxes.shape.rank not in (None, 4) or scores.shape.rank not in (None, 3):
        raise ValueError(f"boxes must be [batch, num_boxes, q, 4] and scores [batch, "
                         f"num_boxes, num_classes], got {boxes.shape} and {scores.shape}")
    batch = boxes.shape.dims[0] if boxes.shape.rank else None
    per_class, total = (rules.constant_value(t) for t in inputs[2:4])
    size = None
    if total is not None:
        size = int(total)
        classes = scores.shape.dims[-1] if scores.shape.rank else None
        if attrs["pad_per_class"]:
            size = None if per_class is None or classes is None else min(
                size, int(per_class) * classes)
    return [(dtypes.float32, TensorShape([batch, size, 4])),
            (dtypes.float32, TensorShape([batch, size])),
            (dtypes.float32, TensorShape([batch, size])),
            (dtypes.int32, TensorShape([batch]))]


def _combined_one(boxes, scores, per_class, total, iou, score_threshold):
    found = []   # (score, class, box)
    for c in range(scores.shape[1]):
        b = boxes[:, c if boxes.shape[1] > 1 else 0, :]
        idx, kept = greedy_nms(iou_matrix(b, b), scores[:, c], per_class, iou, score_threshold)
        found += [(s, c, b[i]) for i, s in zip(idx, kept)]
    found.sort(key=lambda f: -f[0])
    return found[:total]


@define_op("CombinedNonMaxSuppression", infer=_infer_combined, num_outputs=4)
def _combined(boxes, scores, per_class, total, iou, score_threshold, *, pad_per_class,
              clip_boxes):
    per_class, total = int(per_class), int(total)
    size = min(total, per_class * scores.shape[2]) if pad_per_class else total
    out_boxes = np.zeros([len(boxes), size, 4], np.float32)
    out_scores = np.zeros([len(boxes), size], np.float32)
    out_classes = np.zeros([len(boxes), size], np.float32)
    valid = np.zeros([len(boxes)], np.int32)
    for k in range(len(boxes)):
        found = _combined_one(boxes[k].astype(np.float32), scores[k].astype(np.float32),
                              per_class, size, np.float32(iou), np.float32(score_threshold))
        valid[k] = len(found)
        for j, (s, c, b) in enumerate(found):
            out_boxes[k, j] = np.clip(b, 0, 1) if clip_boxes else b
            out_scores[k, j], out_classes[k, j] = s, c
    return out_boxes, out_scores, out_classes, valid


not_differentiable("NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps",
                   "NonMaxSuppressionPadded", "CombinedNonMaxSuppression")


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Greedy NMS per batch entry and class, then the best `max_total_size`
    over all classes: (nmsed_boxes, nmsed_scores, nmsed_classes,
    valid_detections), zero-padded. boxes are [batch, num_boxes, q, 4] (q is 1
    or num_classes), scores [batch, num_boxes, num_classes]."""
    args = (convert_to_tensor(boxes), convert_to_tensor(scores),
            convert_to_tensor(max_output_size_per_class, dtypes.int32),
            convert_to_tensor(max_total_size, dtypes.int32),
            convert_to_tensor(iou_threshold, dtypes.float32),
            convert_to_tensor(score_threshold, dtypes.float32))
    attrs = {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}
    _infer_combined(args, attrs)
    return tuple(apply("CombinedNonMaxSuppression", args, attrs))
