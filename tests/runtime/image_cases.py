"""The `tf.image` cases of tests/runtime/test_image_ops.py, written once for
both libraries: `fn(tf, *inputs)` runs under TensorFlow 2.21 in
tools/record_image.py (which writes tests/data/image_ops.npz) and under the
runtime in the test. A case with `grad=True` also records the gradient of
sum(output * w) (w: 1, 2, 3, 1, 2, ... over the first output) by each float
input. Inputs are numpy arrays; they are seeded, so both sides see the same.
"""

import numpy as np

_rng = np.random.default_rng(21)


def _u(*shape, lo=0.0, hi=1.0):
    return _rng.uniform(lo, hi, shape).astype(np.float32)


IMG = _u(2, 5, 7, 2)                     # a batch of small two-channel images
ONE = _u(1, 1, 1, 3)                     # a 1x1 image
RGB = _u(3, 4, 3)
# ties and zeros for the colour ops: grey, two equal maxima, black, pure red, ...
RGB[0] = [[0.5, 0.5, 0.5], [0.7, 0.7, 0.2], [0.0, 0.0, 0.0], [0.2, 0.9, 0.9]]
RGB[1, :2] = [[0.9, 0.2, 0.9], [1.0, 0.0, 0.0]]
U8 = (RGB * 255).astype(np.uint8)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.9, 0.9, 0.1, 0.03], [-0.3, -0.2, 1.4, 0.5],
                  [0.25, 0.25, 0.25, 0.25], [0.5, 0.1, 0.5, 0.7]], np.float32)
BOX_IND = np.array([0, 1, 1, 0, 1], np.int32)
NMS_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                      [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
NMS_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
# box 2 repeats box 0 with the same score (a tie: the lower index wins); box 1
# overlaps box 0 at IoU exactly 0.5 (kept at threshold 0.5); box 3 is empty
TIE_BOXES = np.array([[0, 0, 1, 1], [0, 0, 1, 0.5], [0, 0, 1, 1], [1, 1, 1, 1]], np.float32)
TIE_SCORES = np.array([0.9, 0.8, 0.9, 0.95], np.float32)
PATCH_IMG = np.arange(2 * 7 * 6 * 2, dtype=np.float32).reshape(2, 7, 6, 2) / 10
GLIMPSE_IMG = np.arange(2 * 5 * 6, dtype=np.float32).reshape(2, 5, 6, 1)
A = _u(2, 24, 23, 2)
B = np.clip(A + _rng.normal(0, 0.1, A.shape), 0, 1).astype(np.float32)
BIG = _u(1, 50, 45, 1)
CANVAS_BOXES = np.array([[[0.1, 0.2, 0.9, 0.7], [0.5, 0.5, 1.5, 1.5], [-0.5, 0.3, 0.4, 0.4]],
                         [[0, 0, 1, 1], [0.6, 0.6, 0.2, 0.9], [0.3, 0.3, 0.3, 0.3]]], np.float32)
COMBINED_BOXES = _u(2, 6, 1, 4, lo=-0.2, hi=1.2)
COMBINED_SCORES = _u(2, 6, 3)
PER_CLASS_BOXES = _u(1, 5, 3, 4)

CASES = {}      # name -> (fn, inputs, grad)


def case(name, fn, *inputs, grad=False):
    CASES[name] = (fn, [np.asarray(x) for x in inputs], grad)


# --- resize: every method, up and down, antialias, the 1x1 and identity sizes -----------
for _m in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"):
    for _size in ([3, 4], [9, 13]):
        case(f"resize_{_m}_{_size[0]}x{_size[1]}",
             lambda tf, x, m=_m, s=_size: tf.image.resize(x, s, m), IMG,
             grad=_m in ("bilinear", "nearest", "bicubic", "lanczos3"))
    case(f"resize_{_m}_antialias", lambda tf, x, m=_m: tf.image.resize(x, [2, 3], m,
                                                                         antialias=True), IMG)
    case(f"resize_{_m}_same_size", lambda tf, x, m=_m: tf.image.resize(x, [5, 7], m), IMG)
    case(f"resize_{_m}_to_1x1", lambda tf, x, m=_m: tf.image.resize(x, [1, 1], m), IMG)
    case(f"resize_{_m}_from_1x1", lambda tf, x, m=_m: tf.image.resize(x, [2, 3], m), ONE)
case("resize_bilinear_antialias_up", lambda tf, x: tf.image.resize(x, [7, 9], antialias=True),
     IMG, grad=True)
case("resize_preserve_aspect", lambda tf, x: tf.image.resize(x, [9, 4],
                                                             preserve_aspect_ratio=True), IMG)
case("resize_nearest_uint8", lambda tf, x: tf.image.resize(x, [3, 9], "nearest"), U8)
case("resize_bilinear_uint8_3d", lambda tf, x: tf.image.resize(x, [2, 6]), U8)
case("resize_with_pad", lambda tf, x: tf.image.resize_with_pad(x, 8, 5), IMG)
case("resize_with_pad_3d_bicubic",
     lambda tf, x: tf.image.resize_with_pad(x[0], 3, 12, "bicubic"), IMG)
case("resize_with_crop_or_pad", lambda tf, x: tf.image.resize_with_crop_or_pad(x, 3, 9), IMG)
case("resize_with_crop_or_pad_3d", lambda tf, x: tf.image.resize_with_crop_or_pad(x, 8, 2), U8)
case("pad_to_bounding_box", lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 2, 5, 8), U8)
case("crop_to_bounding_box", lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 4), IMG,
     grad=True)
case("transpose", lambda tf, x: tf.image.transpose(x), IMG)
case("transpose_3d", lambda tf, x: tf.image.transpose(x), U8)

# --- colour ------------------------------------------------------------------------------
case("rgb_to_hsv", lambda tf, x: tf.image.rgb_to_hsv(x), RGB, grad=True)
case("hsv_to_rgb", lambda tf, x: tf.image.hsv_to_rgb(x), RGB)
for _d in (-1.0, -0.7, 0.0, 0.1, 0.5, 1.0):
    case(f"adjust_hue_{_d}", lambda tf, x, d=_d: tf.image.adjust_hue(x, d), RGB)
case("adjust_hue_uint8", lambda tf, x: tf.image.adjust_hue(x, 0.3), U8)
for _f in (0.0, 0.5, 2.0, 7.0):
    case(f"adjust_saturation_{_f}", lambda tf, x, f=_f: tf.image.adjust_saturation(x, f), RGB)
case("adjust_saturation_uint8", lambda tf, x: tf.image.adjust_saturation(x, 1.7), U8)
case("adjust_gamma", lambda tf, x: tf.image.adjust_gamma(x, 2.2, 1.5), RGB, grad=True)
case("adjust_gamma_uint8", lambda tf, x: tf.image.adjust_gamma(x, 0.5), U8)
for _f in ("rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb"):
    case(_f, lambda tf, x, f=_f: getattr(tf.image, f)(x), RGB, grad=_f == "rgb_to_yiq")

# --- non-max suppression: ties, the IoU exactly at the threshold, empty boxes ------------
case("nms", lambda tf, b, s: tf.image.non_max_suppression(b, s, 5, 0.5), NMS_BOXES,
     NMS_SCORES)
case("nms_score_threshold", lambda tf, b, s: tf.image.non_max_suppression(b, s, 5, 0.5, 0.55),
     NMS_BOXES, NMS_SCORES)
case("nms_ties", lambda tf, b, s: tf.image.non_max_suppression(b, s, 4, 0.5), TIE_BOXES,
     TIE_SCORES)
case("nms_ties_threshold_1", lambda tf, b, s: tf.image.non_max_suppression(b, s, 4, 1.0),
     TIE_BOXES, TIE_SCORES)
case("nms_max_0", lambda tf, b, s: tf.image.non_max_suppression(b, s, 0), TIE_BOXES,
     TIE_SCORES)
case("nms_no_boxes", lambda tf, b, s: tf.image.non_max_suppression(b, s, 3),
     np.zeros([0, 4], np.float32), np.zeros([0], np.float32))
case("nms_with_scores_soft", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
    b, s, 6, 0.5, soft_nms_sigma=0.5), NMS_BOXES, NMS_SCORES)
case("nms_with_scores_soft_threshold", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
    b, s, 6, 1.0, score_threshold=0.2, soft_nms_sigma=1.0), NMS_BOXES, NMS_SCORES)
case("nms_overlaps", lambda tf, o, s: tf.image.non_max_suppression_overlaps(o, s, 3, 0.65),
     np.array([[1, .6, .2], [.6, 1, .7], [.2, .7, 1]], np.float32),
     np.array([.5, .9, .7], np.float32))
case("nms_padded", lambda tf, b, s: tf.image.non_max_suppression_padded(b, s, 5, 0.5),
     NMS_BOXES, NMS_SCORES)
case("nms_padded_pad", lambda tf, b, s: tf.image.non_max_suppression_padded(
    b, s, 5, 0.5, pad_to_max_output_size=True), NMS_BOXES, NMS_SCORES)
case("nms_padded_batch", lambda tf, b, s: tf.image.non_max_suppression_padded(
    tf.stack([b, b[::-1]]), tf.stack([s, s]), 3, 0.5, pad_to_max_output_size=True),
     NMS_BOXES, NMS_SCORES)
for _k, _kw in enumerate([{}, {"pad_per_class": True},
                          {"clip_boxes": False, "score_threshold": 0.5},
                          {"iou_threshold": 0.1}]):
    case(f"combined_nms_{_k}", lambda tf, b, s, kw=_kw: tf.image.combined_non_max_suppression(
        b, s, 2, 5, **kw), COMBINED_BOXES, COMBINED_SCORES)
case("combined_nms_per_class_boxes", lambda tf, b, s: tf.image.combined_non_max_suppression(
    b, s, 3, 20, pad_per_class=True), PER_CLASS_BOXES, COMBINED_SCORES[:1, :5])

# --- windows -----------------------------------------------------------------------------
for _m in ("bilinear", "nearest"):
    for _size in ([3, 4], [1, 1], [1, 3]):
        case(f"crop_and_resize_{_m}_{_size[0]}x{_size[1]}",
             lambda tf, x, b, i, m=_m, s=_size: tf.image.crop_and_resize(
                 x, b, i, s, m, extrapolation_value=-1.0), IMG, BOXES, BOX_IND, grad=True)
case("crop_and_resize_uint8", lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [2, 2]),
     (IMG * 255).astype(np.uint8), BOXES, BOX_IND)
case("crop_and_resize_no_boxes", lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [2, 2]),
     IMG, np.zeros([0, 4], np.float32), np.zeros([0], np.int32))
for _k, (_sz, _st, _rt, _pd) in enumerate([
        ([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
        ([1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 1, 1], "SAME"),
        ([1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], "SAME"),
        ([1, 2, 2, 1], [1, 3, 1, 1], [1, 3, 2, 1], "VALID"),
        ([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
        ([1, 8, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")]):
    case(f"extract_patches_{_k}", lambda tf, x, a=(_sz, _st, _rt, _pd): tf.image.extract_patches(
        x, *a), PATCH_IMG, grad=_k < 4)
for _k, (_off, _c, _n) in enumerate([([[1., 1.], [-1.5, 4.7]], False, False),
                                     ([[0.3, -0.7], [1.0, 1.0]], True, True),
                                     ([[0.3, 0.7], [0.9, 0.1]], False, True),
                                     ([[0.5, -0.5], [-3., 3.]], True, False)]):
    case(f"extract_glimpse_{_k}", lambda tf, x, o=_off, c=_c, n=_n: tf.image.extract_glimpse(
        x, [3, 2], o, centered=c, normalized=n, noise="zero"), GLIMPSE_IMG)
case("draw_bounding_boxes", lambda tf, b: tf.image.draw_bounding_boxes(
    tf.zeros([2, 6, 7, 3]), b, [[1., 0, 0], [0, 1, 0], [0, 0, 1]]), CANVAS_BOXES)
case("draw_bounding_boxes_default_colors", lambda tf, b: tf.image.draw_bounding_boxes(
    tf.zeros([1, 12, 12, 4]), b, np.zeros([0, 4], np.float32)),
     np.stack([np.linspace(0, 0.5, 10), np.linspace(0, 0.5, 10), np.linspace(0.5, 1, 10),
               np.linspace(0.5, 1, 10)], -1)[None].astype(np.float32))
case("draw_bounding_boxes_gray", lambda tf, b: tf.image.draw_bounding_boxes(
    tf.zeros([2, 6, 7, 1]) + 0.5, b, [[0.25, 1, 1, 1], [0.75, 0, 0, 0]]), CANVAS_BOXES)

# --- measures ----------------------------------------------------------------------------
case("psnr", lambda tf, a, b: tf.image.psnr(a, b, 1.0), A, B, grad=True)
case("psnr_uint8", lambda tf, a, b: tf.image.psnr(a, b, 255),
     (A * 255).astype(np.uint8), (B * 255).astype(np.uint8))
case("psnr_equal", lambda tf, a: tf.image.psnr(a, a, 1.0), A)
case("ssim", lambda tf, a, b: tf.image.ssim(a, b, 1.0), A, B, grad=True)
case("ssim_uint8", lambda tf, a, b: tf.image.ssim(a, b, 255),
     (A * 255).astype(np.uint8), (B * 255).astype(np.uint8))
case("ssim_small_window", lambda tf, a, b: tf.image.ssim(a[0], b[0], 2.0, filter_size=5,
                                                         filter_sigma=0.8, k1=0.02), A, B)
case("ssim_index_map", lambda tf, a, b: tf.image.ssim(a, b, 1.0, filter_size=7,
                                                      return_index_map=True), A, B)
case("ssim_multiscale", lambda tf, a: tf.image.ssim_multiscale(
    a, tf.clip_by_value(a + 0.05, 0.0, 1.0), 1.0, filter_size=3), BIG)
case("ssim_multiscale_3", lambda tf, a, b: tf.image.ssim_multiscale(
    a, b, 1.0, power_factors=(0.5, 0.3, 0.2), filter_size=5), A, B, grad=True)
case("total_variation_3d", lambda tf, a: tf.image.total_variation(a[0]), A)
case("total_variation", lambda tf, a: tf.image.total_variation(a), IMG, grad=True)
case("image_gradients", lambda tf, a: tf.image.image_gradients(a), IMG, grad=True)
case("sobel_edges", lambda tf, a: tf.image.sobel_edges(a), IMG, grad=True)
