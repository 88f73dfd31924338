"""The `tf.image` cases of tests/runtime/ops/image/test_image_ops.py, written once for
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


# --- PNG and BMP bytes made here (both sides decode the same files) ---------------------

def _png_chunk(kind, body):
    import struct
    import zlib
    return (struct.pack(">I", len(body)) + kind + body +
            struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def _pack_rows(samples, depth):
    """Scanline bytes of [h, w, s] integer samples at `depth` bits."""
    h = samples.shape[0]
    flat = samples.reshape(h, -1)
    if depth == 16:
        return flat.astype(">u2").view(np.uint8).reshape(h, -1)
    if depth == 8:
        return flat.astype(np.uint8)
    bits = ((flat[:, :, None] >> np.arange(depth - 1, -1, -1)) & 1).astype(np.uint8)
    return np.packbits(bits.reshape(h, -1), axis=1)


def _filtered(rows, filt, bpp):
    """Rows with PNG filter `filt` applied (the reverse of decoding)."""
    out, prev = [], np.zeros(rows.shape[1], np.int32)
    for row in rows.astype(np.int32):
        if filt == 0:
            line = row
        else:
            line = np.zeros_like(row)
            for i in range(len(row)):
                a = row[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if filt == 1:
                    pred = a
                elif filt == 2:
                    pred = b
                elif filt == 3:
                    pred = (a + b) >> 1
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (row[i] - pred) & 255
        out.append(np.concatenate([[filt], line]).astype(np.uint8))
        prev = row
    return np.concatenate(out).tobytes() if out else b""


def make_png(samples, depth, color, extra=(), interlace=False, filt=0):
    """PNG bytes of [h, w, s] samples (colour type `color`), with extra chunks."""
    import struct
    import zlib
    h, w, s = samples.shape
    bpp = max(1, depth * s // 8)
    if interlace:
        passes = [(0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2),
                  (0, 1, 2, 2), (1, 0, 2, 1)]
        raw = b"".join(_filtered(_pack_rows(samples[r::dr, c::dc], depth), filt, bpp)
                       for r, c, dr, dc in passes if samples[r::dr, c::dc].size)
    else:
        raw = _filtered(_pack_rows(samples, depth), filt, bpp)
    header = struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, int(interlace))
    body = [_png_chunk(b"IHDR", header)] + [_png_chunk(k, v) for k, v in extra]
    return (b"\x89PNG\r\n\x1a\n" + b"".join(body) + _png_chunk(b"IDAT", zlib.compress(raw)) +
            _png_chunk(b"IEND", b""))


def make_bmp(pixels, top_down=False):
    """Uncompressed BMP bytes of [h, w, c] uint8 pixels (c: 1, 3 or 4; RGB order)."""
    import struct
    h, w, c = pixels.shape
    px = pixels[..., [2, 1, 0, 3][:c]] if c >= 3 else pixels
    rows = px.reshape(h, -1)
    pad = (-rows.shape[1]) % 4
    rows = np.concatenate([rows, np.zeros([h, pad], np.uint8)], axis=1)
    if not top_down:
        rows = rows[::-1]
    palette = bytes(np.repeat(np.arange(256, dtype=np.uint8), 4)) if c == 1 else b""
    offset = 54 + len(palette)
    data = rows.tobytes()
    return (b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) +
            struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, 8 * c, 0, len(data),
                        2835, 2835, 256 if c == 1 else 0, 0) + palette + data)


_pr = np.random.default_rng(7)
_G8 = _pr.integers(0, 256, [5, 7, 1])
_RGB8 = _pr.integers(0, 256, [6, 9, 3])
_RGBA16 = _pr.integers(0, 65536, [4, 5, 4])
_IDX = _pr.integers(0, 5, [5, 6, 1])
_PLTE = (b"PLTE", bytes(_pr.integers(0, 256, 15, dtype=np.uint8)))
_RGB8[0, :3] = [[10, 20, 30], [10, 20, 30], [1, 2, 3]]
CODECS = {        # name -> (bytes, decode function name, kwargs)
    "png_gray8": (make_png(_G8, 8, 0), "decode_png", {}),
    "png_gray8_to_rgb": (make_png(_G8, 8, 0), "decode_png", {"channels": 3}),
    "png_gray8_to_rgba": (make_png(_G8, 8, 0), "decode_png", {"channels": 4}),
    "png_gray8_to_16": (make_png(_G8, 8, 0), "decode_png", {"dtype": "uint16"}),
    "png_gray1": (make_png(_G8 % 2, 1, 0), "decode_png", {}),
    "png_gray2": (make_png(_G8 % 4, 2, 0), "decode_png", {}),
    "png_gray4_trns": (make_png(_G8 % 16, 4, 0, [(b"tRNS", b"\x00\x03")]), "decode_png", {}),
    "png_rgb8_sub": (make_png(_RGB8, 8, 2, filt=1), "decode_png", {}),
    "png_rgb8_up": (make_png(_RGB8, 8, 2, filt=2), "decode_png", {}),
    "png_rgb8_avg": (make_png(_RGB8, 8, 2, filt=3), "decode_png", {}),
    "png_rgb8_paeth": (make_png(_RGB8, 8, 2, filt=4), "decode_png", {}),
    "png_rgb8_interlaced": (make_png(_RGB8, 8, 2, interlace=True, filt=4), "decode_png", {}),
    "png_rgb8_to_gray": (make_png(_RGB8, 8, 2), "decode_png", {"channels": 1}),
    "png_rgb8_trns": (make_png(_RGB8, 8, 2, [(b"tRNS", b"\x00\x0a\x00\x14\x00\x1e")]),
                      "decode_png", {}),
    "png_rgba16": (make_png(_RGBA16, 16, 6), "decode_png", {"dtype": "uint16"}),
    "png_rgba16_to_8": (make_png(_RGBA16, 16, 6), "decode_png", {}),
    "png_rgba16_to_gray": (make_png(_RGBA16, 16, 6), "decode_png", {"channels": 1,
                                                                    "dtype": "uint16"}),
    "png_rgba16_to_gray8": (make_png(_RGBA16, 16, 6), "decode_png", {"channels": 1}),
    "png_rgba16_to_rgb": (make_png(_RGBA16, 16, 6), "decode_png", {"channels": 3,
                                                                   "dtype": "uint16"}),
    "png_gray_alpha8": (make_png(_RGB8[..., :2], 8, 4), "decode_png", {}),
    "png_gray_alpha8_to_gray": (make_png(_RGB8[..., :2], 8, 4), "decode_png", {"channels": 1}),
    "png_gray_alpha8_to_rgba": (make_png(_RGB8[..., :2], 8, 4), "decode_png", {"channels": 4}),
    "png_rgba8_to_gray": (make_png(_RGBA16 // 256, 8, 6), "decode_png", {"channels": 1}),
    "png_palette_to_gray": (make_png(_IDX, 8, 3, [_PLTE]), "decode_png", {"channels": 1}),
    "png_palette": (make_png(_IDX, 8, 3, [_PLTE]), "decode_png", {}),
    "png_palette4": (make_png(_IDX, 4, 3, [_PLTE]), "decode_png", {}),
    "png_palette_trns": (make_png(_IDX, 8, 3, [_PLTE, (b"tRNS", b"\x00\x80")]), "decode_png",
                         {}),
    "png_interlaced_1x1": (make_png(_G8[:1, :1], 8, 0, interlace=True), "decode_png", {}),
    "png_gray2_interlaced": (make_png(_pr.integers(0, 4, [11, 13, 1]), 2, 0, interlace=True,
                                      filt=1), "decode_png", {}),
    "image_png": (make_png(_RGB8, 8, 2), "decode_image", {}),
    "image_png_float": (make_png(_RGB8, 8, 2), "decode_image", {"dtype": "float32"}),
    "bmp24": (make_bmp(_RGB8.astype(np.uint8)), "decode_bmp", {}),
    "bmp32_top_down": (make_bmp(_RGBA16.astype(np.uint8), top_down=True), "decode_bmp", {}),
    "bmp8": (make_bmp(_G8.astype(np.uint8)), "decode_bmp", {}),
    "image_bmp": (make_bmp(_RGB8.astype(np.uint8)), "decode_image", {}),
    "image_bmp_float": (make_bmp(_RGB8.astype(np.uint8)), "decode_image", {"dtype": "float32"}),
    "image_bmp_uint16": (make_bmp(_RGB8.astype(np.uint8)), "decode_image", {"dtype": "uint16"}),
    "image_png_uint16": (make_png(_RGB8, 8, 2), "decode_image", {"dtype": "uint16",
                                                                 "channels": 1}),
}
TO_ENCODE = {    # pixels TF's encode_png turns into PNG bytes (libpng's filters)
    "gray": _pr.integers(0, 256, [7, 5, 1]).astype(np.uint8),
    "gray_alpha": _pr.integers(0, 256, [4, 6, 2]).astype(np.uint8),
    "rgb": np.tile(np.arange(40, dtype=np.uint8)[None, :, None] * 6, [9, 1, 3]) +
    _pr.integers(0, 3, [9, 40, 3]).astype(np.uint8),
    "rgba16": _pr.integers(0, 65536, [5, 8, 4]).astype(np.uint16),
}
