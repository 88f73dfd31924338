"""Record TensorFlow 2.21's GIF frames for tests/data/gif_tf221.npz.

    $BENCH_TF_PYTHON tools/record_gif.py

The GIF files are written by Pillow (in TF's environment; the project does
not use it) from fixed seeds: an animation, partial frames over a still
background, a transparent index, an interlaced 256-colour image, a grey one.
Recorded: `file|<name>` (the bytes), `frames|<name>` (`tf.io.decode_gif`),
`image|<name>|<dtype>|<expand>` (`tf.io.decode_image`).
tests/runtime/ops/image/test_gif.py replays them.
"""

import io
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "gif_tf221.npz"


def _save(frames, **kwargs):
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=len(frames) > 1, append_images=frames[1:], **kwargs)
    return out.getvalue()


def files():
    from PIL import Image
    rng = np.random.default_rng(2026)
    noise = [Image.fromarray(rng.integers(0, 256, (7, 9, 3)).astype(np.uint8)).convert(
        "P", palette=Image.ADAPTIVE, colors=16) for _ in range(3)]
    moving = []
    for i in range(4):
        a = np.zeros((20, 30, 3), np.uint8)
        a[5:10, 3 + i * 5:8 + i * 5] = [255, 0, 0]
        a[12:] = [0, 0, 200]
        moving.append(Image.fromarray(a).convert("P"))
    big = Image.fromarray(rng.integers(0, 256, (40, 50, 3)).astype(np.uint8)).convert(
        "P", palette=Image.ADAPTIVE, colors=256)
    gray = Image.fromarray(rng.integers(0, 256, (5, 6)).astype(np.uint8), "L")
    return {"animation": _save(noise), "partial": _save(moving, optimize=True, disposal=1),
            "transparent": _save(moving, transparency=0, disposal=2),
            "interlaced": _save([big], interlace=True), "gray": _save([gray])}


def main():
    import tensorflow as tf
    data = {}
    for name, encoded in files().items():
        data[f"file|{name}"] = np.frombuffer(encoded, np.uint8)
        data[f"frames|{name}"] = tf.io.decode_gif(encoded).numpy()
        for dtype in ("uint8", "float32"):
            for expand in (True, False):
                data[f"image|{name}|{dtype}|{expand}"] = tf.io.decode_image(
                    encoded, dtype=getattr(tf, dtype), expand_animations=expand).numpy()
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    main()
