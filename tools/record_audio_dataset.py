"""Record TF 2.21's Keras `audio_dataset_from_directory` for
tests/data/audio_dataset_tf221.npz.

    $BENCH_TF_PYTHON tools/record_audio_dataset.py

The .wav files (random lengths, fixed seed) are recorded with the results
of each case of `CASES`: audio (ragged ones as values and row lengths),
labels, class names. The shuffled case's order is TF's random numbers: the
test compares its files, not their order.
"""

import pathlib
import tempfile

import numpy as np

from record_image_dataset import write_tree

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "audio_dataset_tf221.npz"

CASES = {
    "padded": {}, "fixed": {"output_sequence_length": 40},
    "ragged": {"ragged": True}, "categorical": {"label_mode": "categorical"},
    "unlabelled": {"labels": None},
    "validation": {"validation_split": 0.4, "subset": "validation", "seed": 5,
                   "shuffle": True, "batch_size": 1},
}


def arguments(case):
    args = {"batch_size": 3, "shuffle": False, "verbose": False}
    args.update(CASES[case])
    return args


def make_files(tf):
    rng = np.random.default_rng(21)
    files = {}
    for i in range(4):
        for cls in ("no", "yes"):
            audio = rng.uniform(-1, 1, (int(rng.integers(20, 60)), 1)).astype(np.float32)
            files[f"{cls}/{i}.wav"] = tf.audio.encode_wav(audio, 8000).numpy()
    return files


def flatten(batches):
    """(values, row lengths or shapes) of a list of batches, ragged or dense."""
    values, lengths = [], []
    for batch in batches:
        if hasattr(batch, "flat_values"):
            values.append(batch.flat_values.numpy().ravel())
            lengths.extend(batch.row_lengths().numpy().tolist())
        else:
            array = np.asarray(batch)
            values.append(array.ravel())
            lengths.extend(array.shape)
    return np.concatenate(values), np.array(lengths)


def main():
    import tensorflow as tf
    files = make_files(tf)
    data = {f"file|{name}": np.frombuffer(body, np.uint8) for name, body in files.items()}
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, files)
        for case in CASES:
            ds = tf.keras.utils.audio_dataset_from_directory(root, **arguments(case))
            elements = list(ds)
            if case == "validation":      # the test compares files, not TF's order
                elements.sort(key=lambda e: e[0].numpy().tobytes())
            audio = [e[0] if isinstance(e, tuple) else e for e in elements]
            data[f"audio|{case}"], data[f"lengths|{case}"] = flatten(audio)
            if isinstance(elements[0], tuple):
                data[f"labels|{case}"] = np.concatenate([e[1].numpy() for e in elements])
            data[f"classes|{case}"] = np.array(ds.class_names or [])
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    main()
