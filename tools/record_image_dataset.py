"""Record TF 2.21's Keras `image_dataset_from_directory` for
tests/data/image_dataset_tf221.npz.

    $BENCH_TF_PYTHON tools/record_image_dataset.py

`write_tree(root, files)` lays the recorded files out again (the test uses
it); the images are JPEG and PNG files of random sizes from a fixed seed.
For each case of `CASES` it records the images, labels, class names, file
order and element spec Keras gives (shuffle off, or a seeded split).
"""

import os
import pathlib
import tempfile

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "image_dataset_tf221.npz"

CASES = {
    "default": {}, "gray": {"color_mode": "grayscale", "image_size": (9, 7)},
    "nearest": {"interpolation": "nearest", "image_size": (5, 5)},
    "crop": {"crop_to_aspect_ratio": True, "image_size": (6, 12)},
    "pad": {"pad_to_aspect_ratio": True, "image_size": (12, 6)},
    "categorical": {"label_mode": "categorical", "image_size": (4, 4)},
    "channels_first": {"data_format": "channels_first", "image_size": (4, 5)},
    "validation": {"validation_split": 0.3, "subset": "validation", "seed": 3,
                   "image_size": (4, 4), "shuffle": True},
}


def arguments(case):
    args = {"batch_size": 4, "image_size": (8, 8), "shuffle": False, "verbose": False}
    args.update(CASES[case])
    return args


def write_tree(root, files):
    for name, data in files.items():
        path = os.path.join(root, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def make_files(tf):
    rng = np.random.default_rng(11)
    files = {}
    for i in range(5):
        for cls in ("cats", "dogs"):
            h, w = rng.integers(10, 30, 2)
            image = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
            if i % 2:
                files[f"{cls}/{i}.jpg"] = tf.io.encode_jpeg(image).numpy()
            else:
                files[f"{cls}/{i}.png"] = tf.io.encode_png(image).numpy()
    files["notes.txt"] = b"not an image"
    return files


def main():
    import tensorflow as tf
    files = make_files(tf)
    data = {f"file|{name}": np.frombuffer(body, np.uint8) for name, body in files.items()}
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, files)
        for case in CASES:
            ds = tf.keras.utils.image_dataset_from_directory(root, **arguments(case))
            images, labels = zip(*[(x.numpy(), y.numpy()) for x, y in ds])
            data[f"images|{case}"] = np.concatenate(images)
            data[f"labels|{case}"] = np.concatenate(labels)
            data[f"paths|{case}"] = np.array([os.path.relpath(p, root) for p in ds.file_paths])
            data[f"classes|{case}"] = np.array(ds.class_names)
            data[f"spec|{case}"] = np.array(str(ds.element_spec))
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    main()
