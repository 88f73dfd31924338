"""Record TensorFlow 2.21's JPEG bytes and pixels for tests/data/jpeg_tf221.npz.

    $BENCH_TF_PYTHON tools/record_jpeg.py

The images are made here from fixed seeds (`images()`); the test imports
this module for them. Recorded:
- `enc|<image>|<options>`: what `tf.io.encode_jpeg` writes (uint8 bytes);
- `file|<name>`: JPEG files to decode: TF's own, plus Pillow's 4:2:2 and
  4:4:4 files, progressive, with restart markers and Adobe CMYK (Pillow is in
  TF's environment; the project does not use it);
- `dec|<name>|<options>`: `tf.io.decode_jpeg`'s pixels for those files;
- `crop|<name>|<window>`: `tf.io.decode_and_crop_jpeg`'s pixels;
- `image|<name>|<...>`: decode_image's dtypes, adjust_jpeg_quality and
  stateless_random_jpeg_quality.
tests/runtime/ops/image/test_jpeg.py replays them and asks for equal bytes.
"""

import io
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "jpeg_tf221.npz"

ENCODE_OPTIONS = {
    "default": {}, "q0": {"quality": 0}, "q10": {"quality": 10}, "q100": {"quality": 100},
    "444": {"chroma_downsampling": False}, "progressive": {"progressive": True},
    "progressive_q40": {"progressive": True, "quality": 40},
    "optimize": {"optimize_size": True}, "cm": {"density_unit": "cm", "x_density": 72,
                                                 "y_density": 96},
    "xmp": {"xmp_metadata": "<x:xmpmeta/>"},
}
DECODE_OPTIONS = {
    "default": {}, "accurate": {"dct_method": "INTEGER_ACCURATE"}, "gray": {"channels": 1},
    "rgb": {"channels": 3}, "ratio2": {"ratio": 2}, "ratio4": {"ratio": 4},
    "ratio8": {"ratio": 8}, "box": {"fancy_upscaling": False},
}
WINDOWS = [(0, 0, 1, 1), (3, 5, 11, 17), (8, 16, 9, 9), (0, 16, 23, 2), (0, 16, 23, 3),
           (1, 1, 20, 30), (22, 36, 1, 1)]


def images():
    """name -> uint8 image, from fixed seeds."""
    rng = np.random.default_rng(2026)
    smooth = (np.arange(23)[:, None, None] * 5 + np.arange(37)[None, :, None] * 3
              + np.array([0, 60, 120])) % 256
    noisy = np.clip(smooth + rng.normal(0, 12, smooth.shape), 0, 255)
    return {
        "smooth": noisy.astype(np.uint8),
        "noise": rng.integers(0, 256, (29, 41, 3)).astype(np.uint8),
        "tiny": rng.integers(0, 256, (5, 3, 3)).astype(np.uint8),
        "dot": np.array([[[200, 30, 90]]], np.uint8),
        "gray": noisy[:19, :27, 1:2].astype(np.uint8),
        "flat": np.full((17, 17, 3), 77, np.uint8),
    }


def _pillow_files(images):
    from PIL import Image
    smooth = Image.fromarray(images["smooth"])
    files = {}
    for name, kwargs in {"pil_422": {"subsampling": 1, "quality": 85},
                         "pil_444": {"subsampling": 0, "quality": 90},
                         "pil_420_progressive": {"subsampling": 2, "progressive": True,
                                                 "optimize": True},
                         "pil_restart": {"subsampling": 2, "restart_marker_blocks": 3}}.items():
        out = io.BytesIO()
        smooth.save(out, "JPEG", **kwargs)
        files[name] = out.getvalue()
    out = io.BytesIO()
    Image.fromarray(images["noise"]).save(out, "JPEG", subsampling=1, quality=70)
    files["pil_noise_422"] = out.getvalue()
    out = io.BytesIO()
    inks = np.concatenate([images["noise"], images["noise"][..., :1]], axis=-1)
    Image.fromarray(inks, "CMYK").save(out, "JPEG", quality=80)      # Adobe CMYK
    files["pil_cmyk"] = out.getvalue()
    return files


def record(tf):
    data = {}
    imgs = images()
    files = {}
    for name, image in imgs.items():
        for option, kwargs in ENCODE_OPTIONS.items():
            encoded = tf.io.encode_jpeg(image, **kwargs).numpy()
            data[f"enc|{name}|{option}"] = np.frombuffer(encoded, np.uint8)
            if option in ("default", "444", "progressive", "q10"):
                files[f"{name}_{option}"] = encoded
    files.update(_pillow_files(imgs))
    files["truncated"] = files["smooth_default"][:len(files["smooth_default"]) * 2 // 3]
    for name, encoded in files.items():
        data[f"file|{name}"] = np.frombuffer(encoded, np.uint8)
        if name == "truncated":
            data[f"dec|{name}|recover"] = tf.io.decode_jpeg(
                encoded, try_recover_truncated=True, acceptable_fraction=0.5).numpy()
            continue
        for option, kwargs in DECODE_OPTIONS.items():
            if name == "pil_cmyk" and option == "gray":
                continue                 # TF: "Unsupported color conversion request"
            data[f"dec|{name}|{option}"] = tf.io.decode_jpeg(encoded, **kwargs).numpy()
    for name in ("smooth_default", "smooth_444", "gray_default", "pil_422", "smooth_progressive"):
        for window in WINDOWS:
            h, w = tf.io.extract_jpeg_shape(files[name]).numpy()[:2]
            if window[0] + window[2] <= h and window[1] + window[3] <= w:
                key = f"crop|{name}|{','.join(map(str, window))}"
                data[key] = tf.io.decode_and_crop_jpeg(files[name], window).numpy()
    smooth = files["smooth_default"]
    data["image|smooth|uint16"] = tf.io.decode_image(smooth, dtype=tf.uint16).numpy()
    data["image|smooth|float32"] = tf.io.decode_image(smooth, dtype=tf.float32).numpy()
    data["image|adjust|q30"] = tf.image.adjust_jpeg_quality(imgs["smooth"], 30).numpy()
    data["image|adjust|float"] = tf.image.adjust_jpeg_quality(
        imgs["smooth"].astype(np.float32) / 255, 50, dct_method="INTEGER_ACCURATE").numpy()
    data["image|stateless|1,2"] = tf.image.stateless_random_jpeg_quality(
        imgs["smooth"], 10, 90, seed=(1, 2)).numpy()
    return data


def main():
    import tensorflow as tf
    data = record(tf)
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    main()
