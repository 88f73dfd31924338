"""`tf.image` against TensorFlow 2.21's recorded values: every resize method,
colour spaces and adjustments, non-max suppression, crops, patches, glimpses,
boxes and the image measures (the cases: tests/runtime/ops/image/image_cases.py; the
values: tests/data/image_ops.npz, written by tools/record_image.py). Each case
runs eagerly and inside `tf.function`, and where TF has gradients, their
values are TF's too. Then the argument checks and the random ops' rules."""

import pathlib
import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA as TEST_DATA

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import image_cases  # noqa: E402
from image_cases import CASES  # noqa: E402

DATA = np.load(TEST_DATA / "image_ops.npz")


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _close(got, want, what):
    got = np.asarray(got)
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    scale = max(1.0, float(np.nanmax(np.abs(want[np.isfinite(want)]), initial=0.0)))
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5 * scale, err_msg=what)


def _check(name, results):
    for i, t in enumerate(_outputs(results)):
        assert t.dtype.name == str(DATA[f"{name}/dtype{i}"]), (name, i)
        _close(t.numpy(), DATA[f"{name}/out{i}"], f"{name} output {i}")


def _grads(fn, tensors):
    floats = [t for t in tensors if t.dtype.is_floating]
    with tf.GradientTape() as tape:
        for t in floats:
            tape.watch(t)
        first = tf.cast(_outputs(fn(tf, *tensors))[0], tf.float32)
        w = (np.arange(int(np.prod(first.shape))) % 3 + 1).astype(np.float32)
        loss = tf.reduce_sum(first * tf.constant(w.reshape(first.shape)))
    return tape.gradient(loss, floats)


@pytest.mark.parametrize("name", list(CASES))
def test_values_are_tensorflows(name):
    fn, inputs, grad = CASES[name]
    tensors = [tf.constant(x) for x in inputs]
    _check(name, fn(tf, *tensors))
    _check(name, tf.function(lambda *t: fn(tf, *t))(*tensors))
    if grad:
        eager = _grads(fn, tensors)
        traced = tf.function(lambda *t: _grads(fn, list(t)))(*tensors)
        for j, (g, h) in enumerate(zip(eager, traced)):
            _close(g.numpy(), DATA[f"{name}/grad{j}"], f"{name} gradient {j}")
            _close(h.numpy(), DATA[f"{name}/grad{j}"], f"{name} traced gradient {j}")


def test_ops_without_a_gradient_in_tf_have_none_here():
    x = tf.constant(image_cases.RGB)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        hsv = tf.image.hsv_to_rgb(x)
        hue = tf.image.adjust_hue(x, 0.2)
        saturation = tf.image.adjust_saturation(x, 0.5)
    assert tape.gradient(hsv, x) is None          # TF: HSVToRGB is not differentiable
    for y, op in ((hue, "AdjustHue"), (saturation, "AdjustSaturation")):   # TF: LookupError
        with pytest.raises(LookupError, match=f"No gradient defined for operation '{op}'"):
            tape.gradient(y, x)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.image.resize(np.zeros([4, 4], np.float32), [2, 2]), ValueError,
     "must have either 3 or 4 dimensions"),
    (lambda: tf.image.resize(np.zeros([4, 4, 1], np.float32), [2, 2], "cubic"), ValueError,
     "Resize method is not implemented: cubic"),
    (lambda: tf.image.resize(np.zeros([4, 4, 1], np.float32), [2, 2, 2]), ValueError,
     "'size' must be a 1-D Tensor of 2 elements"),
    (lambda: tf.image.pad_to_bounding_box(np.zeros([4, 4, 1]), 1, 0, 4, 4), ValueError,
     "height must be <= target - offset"),
    (lambda: tf.image.crop_to_bounding_box(np.zeros([4, 4, 1]), 0, 2, 2, 3), ValueError,
     "width must be >= target \\+ offset."),
    (lambda: tf.image.resize_with_crop_or_pad(np.zeros([4, 4, 1]), 0, 3), ValueError,
     "target_height must be > 0."),
    (lambda: tf.image.adjust_hue(np.zeros([2, 2, 3], np.float32), 1.5), ValueError,
     "delta must be in the interval \\[-1, 1\\]"),
    (lambda: tf.image.rgb_to_hsv(np.zeros([2, 2, 4], np.float32)), ValueError,
     "input must have 3 channels but input only has 4 channels"),
    (lambda: tf.image.random_hue(np.zeros([2, 2, 3], np.float32), 0.7), ValueError,
     "max_delta must be <= 0.5."),
    (lambda: tf.image.random_contrast(np.zeros([2, 2, 3], np.float32), 1.0, 0.5), ValueError,
     "upper must be > lower."),
    (lambda: tf.image.random_brightness(np.zeros([2, 2, 3], np.float32), -0.1), ValueError,
     "max_delta must be non-negative."),
    (lambda: tf.image.non_max_suppression_padded(np.zeros([2, 3, 4], np.float32),
                                                 np.zeros([2, 3], np.float32), 2), ValueError,
     "must be True for batched input"),
    (lambda: tf.image.ssim(np.zeros([8, 8, 1], np.float32), np.zeros([8, 8, 1], np.float32),
                           1.0), ValueError, "at least filter_size"),
    (lambda: tf.image.crop_and_resize(np.zeros([1, 4, 4, 1], np.float32), [[0, 0, 1, 1]], [0],
                                      [2, 2], "bicubic"), ValueError,
     "method must be 'bilinear' or 'nearest'"),
    (lambda: tf.image.sample_distorted_bounding_box([4, 4, 3], np.zeros([1, 0, 4], np.float32)),
     tf.errors.InvalidArgumentError, "use_image_if_no_bounding_boxes"),
    (lambda: tf.image.random_crop(np.zeros([4, 4, 3]), [5, 2, 3]), ValueError,
     "Need value.shape >= size"),
    (lambda: tf.image.crop_and_resize(np.zeros([1, 4, 4, 1], np.float32), [[0, 0, 1, 1]], [3],
                                      [2, 2]), tf.errors.InvalidArgumentError,
     "box_index has values outside \\[0, batch_size\\)"),
])
def test_bad_arguments_name_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


IMAGE = np.random.default_rng(0).uniform(0, 1, [4, 6, 5, 3]).astype(np.float32)

STATELESS = [
    ("flip_left_right", lambda x, s: tf.image.stateless_random_flip_left_right(x, s)),
    ("flip_up_down", lambda x, s: tf.image.stateless_random_flip_up_down(x, s)),
    ("brightness", lambda x, s: tf.image.stateless_random_brightness(x, 0.3, s)),
    ("contrast", lambda x, s: tf.image.stateless_random_contrast(x, 0.2, 1.8, s)),
    ("hue", lambda x, s: tf.image.stateless_random_hue(x, 0.4, s)),
    ("saturation", lambda x, s: tf.image.stateless_random_saturation(x, 0.2, 1.8, s)),
    ("crop", lambda x, s: tf.image.stateless_random_crop(x, [2, 3, 3, 3], s)),
]


@pytest.mark.parametrize("name, call", STATELESS, ids=[s[0] for s in STATELESS])
def test_stateless_random_ops_are_a_function_of_the_seed(name, call):
    x = tf.constant(IMAGE)
    first = call(x, [1, 2]).numpy()
    np.testing.assert_array_equal(tf.function(call)(x, tf.constant([1, 2])).numpy(), first)
    assert not all(np.array_equal(call(x, [s, 7]).numpy(), first) for s in range(3, 8))


def test_random_flips_flip_whole_images_or_leave_them():
    x = tf.constant(IMAGE)
    tf.random.set_seed(5)
    out = tf.image.random_flip_left_right(x).numpy()
    flipped = [np.array_equal(o, i[:, ::-1]) for o, i in zip(out, IMAGE)]
    kept = [np.array_equal(o, i) for o, i in zip(out, IMAGE)]
    assert all(f or k for f, k in zip(flipped, kept))
    many = np.stack([tf.image.random_flip_up_down(x).numpy() for _ in range(6)])
    assert 0 < sum(np.array_equal(m[0], IMAGE[0, ::-1]) for m in many) < 6


def test_random_adjustments_stay_in_their_ranges():
    x = tf.constant(IMAGE)
    delta = tf.image.random_brightness(x, 0.2).numpy() - IMAGE
    assert np.ptp(delta) < 1e-6 and abs(delta.flat[0]) <= 0.2
    crop = tf.image.random_crop(x, [2, 4, 4, 3]).numpy()
    assert crop.shape == (2, 4, 4, 3)
    assert any(np.array_equal(crop, IMAGE[b:b + 2, i:i + 4, j:j + 4])
               for b in range(3) for i in range(3) for j in range(2))


@pytest.mark.parametrize("stateless", [False, True])
def test_sample_distorted_bounding_box_keeps_its_constraints(stateless):
    boxes = tf.constant([[[0.1, 0.2, 0.5, 0.6]]])
    kwargs = dict(min_object_covered=0.6, aspect_ratio_range=[0.5, 2.0],
                  area_range=[0.1, 0.8])
    for k in range(8):
        if stateless:
            begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
                [40, 50, 3], boxes, seed=[k, 1], **kwargs)
        else:
            begin, size, box = tf.image.sample_distorted_bounding_box(
                [40, 50, 3], boxes, seed=k + 1, **kwargs)
        (y, x, z), (h, w, c) = begin.numpy(), size.numpy()
        assert begin.dtype == tf.int32 and (z, c) == (0, -1) and box.shape == (1, 1, 4)
        assert 0 <= y and y + h <= 40 and 0 <= x and x + w <= 50
        assert 0.1 * 2000 <= h * w <= 0.8 * 2000
        covered = max(0, min(y + h, 20) - max(y, 4)) * max(0, min(x + w, 30) - max(x, 10))
        assert covered >= 0.6 * 16 * 20
        np.testing.assert_allclose(box.numpy()[0, 0], [y / 40, x / 50, (y + h) / 40,
                                                       (x + w) / 50], rtol=1e-6)


# --- PNG and BMP ---------------------------------------------------------------------------

def _decode(fn, contents, kwargs):
    kwargs = {k: getattr(tf, v) if k == "dtype" else v for k, v in kwargs.items()}
    return getattr(tf.image, fn)(contents, **kwargs)


@pytest.mark.parametrize("name", list(image_cases.CODECS))
def test_decoding_is_tensorflows(name):
    contents, fn, kwargs = image_cases.CODECS[name]
    want = DATA[f"codec/{name}"]
    for run in (lambda c: _decode(fn, c, kwargs), tf.function(lambda c: _decode(fn, c, kwargs))):
        got = run(tf.constant(contents))
        assert got.dtype.as_numpy_dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", list(image_cases.TO_ENCODE))
def test_png_encoding_round_trips_and_reads_tensorflows_files(name):
    pixels = image_cases.TO_ENCODE[name]
    tf_bytes = DATA[f"tfpng/{name}"].tobytes()
    dtype = tf.uint16 if pixels.dtype == np.uint16 else tf.uint8
    np.testing.assert_array_equal(tf.io.decode_png(tf_bytes, dtype=dtype).numpy(), pixels)
    ours = tf.io.encode_png(pixels)
    assert ours.dtype == tf.string and ours.shape == ()
    data = ours.numpy()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert data[16:26] == tf_bytes[16:26]          # width, height, depth, colour type: TF's
    again = tf.function(lambda p: tf.io.decode_png(tf.io.encode_png(p, compression=9),
                                                   dtype=dtype))(tf.constant(pixels))
    np.testing.assert_array_equal(again.numpy(), pixels)
    np.testing.assert_array_equal(tf.io.decode_image(data, dtype=dtype).numpy(), pixels)


@pytest.mark.parametrize("call, message", [
    (lambda: tf.io.decode_png(b"not a png"), "Unknown image file format"),
    (lambda: tf.io.decode_png(image_cases.CODECS["png_gray8"][0], channels=2),
     "`channels` must be 0, 1, 3 or 4 but got 2"),
    (lambda: tf.io.decode_bmp(image_cases.CODECS["bmp24"][0], channels=4),
     "channels attribute 4 does not match bits per pixel from file 3"),
    (lambda: tf.io.decode_image(b"\xff\xd8\xff\xe0 jpeg data"), "Invalid JPEG data or crop window"),
    (lambda: tf.io.decode_image(b"GIF89a gif data"), "Wrong record type detected"),
    (lambda: tf.io.decode_image(b"what is this"), "Unknown image file format"),
])
def test_undecodable_contents_say_why(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


def test_encode_png_checks_the_image():
    with pytest.raises(ValueError, match="image must have 1, 2, 3, or 4 channels, got 5"):
        tf.io.encode_png(np.zeros([2, 2, 5], np.uint8))
    with pytest.raises(TypeError, match="must be uint8 or uint16, got float32"):
        tf.io.encode_png(np.zeros([2, 2, 1], np.float32))


def test_is_jpeg_reads_the_magic_bytes():
    # TF 2.21: [True, False, False, False]
    contents = tf.constant([b"\xff\xd8\xff\xe0abc", b"\xff\xd8", b"", b"\x89PNG\r\n\x1a\n"])
    for run in (tf.io.is_jpeg, tf.function(tf.image.is_jpeg)):
        got = run(contents)
        assert got.dtype == tf.bool
        assert got.numpy().tolist() == [True, False, False, False]
