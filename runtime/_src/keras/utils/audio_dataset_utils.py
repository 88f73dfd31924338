"""`keras.utils.audio_dataset_from_directory`: the .wav files under a folder
as a `tf.data.Dataset` of (audio, label) batches.

    main/
      no/  a.wav b.wav ...        -> label 0
      yes/ c.wav ...              -> label 1
    ds = audio_dataset_from_directory("main", batch_size=32,
                                      output_sequence_length=16000)
    ds.class_names                                # ["no", "yes"]

Each file is read with `tf.audio.decode_wav` as float32 [samples, channels],
cut or zero-padded to `output_sequence_length` when it is given; otherwise a
batch is padded to its longest file (`padded_batch`), or with `ragged=True`
each element is a RaggedTensor. Labels, subsets and file order are as in
text_dataset_from_directory. `sampling_rate` needs tensorflow-io in Keras;
here, as there without it, it raises Keras's ImportError.
"""

import numpy as np

from runtime._src.data.dataset import Dataset
from runtime._src.keras.utils import io_utils
from runtime._src.keras.utils.dataset_utils import (chosen_subsets, index_directory,
                                                     labels_array)
from runtime._src.ops.audio_ops import decode_wav
from runtime._src.ops.io_ops import read_file
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["audio_dataset_from_directory", "ALLOWED_FORMATS"]

ALLOWED_FORMATS = (".wav",)


def _check(labels, label_mode, class_names, ragged, output_sequence_length, sampling_rate,
           validation_split, subset):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("The `labels` argument should be a list/tuple of integer labels, "
                             "of the same size as the number of audio files in the target "
                             "directory. If you wish to infer the labels from the "
                             'subdirectory names in the target directory, pass `labels="'
                             'inferred"`. If you wish to get a dataset that only contains '
                             f"audio samples (no labels), pass `labels=None`. Received: "
                             f"labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError('`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError("`sampling_rate` should have an integer value. Received: "
                             f"sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError("`sampling_rate` should be higher than 0. Received: "
                             f"sampling_rate={sampling_rate}")
        raise ImportError("To use the argument `sampling_rate`, you should install "
                          "tensorflow_io. You can install it via `pip install tensorflow-io`.")
    if (subset is None) != (validation_split is None):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in (None, "training", "validation", "both"):
        raise ValueError('`subset` must be either "training", "validation" or "both". '
                         f"Received: subset={subset}")


def _paths_dataset(paths, labels, label_mode, num_classes, length, ragged, shuffle, seed,
                   buffer):
    def read(path):
        audio, _ = decode_wav(read_file(path), desired_samples=-1 if length is None else length)
        return RaggedTensor.from_tensor(audio) if ragged else audio

    ds = Dataset.from_tensor_slices(np.array(paths, dtype=object))
    if label_mode:
        ds = Dataset.zip((ds, Dataset.from_tensor_slices(
            labels_array(labels, label_mode, num_classes))))
    if shuffle:
        ds = ds.shuffle(buffer, seed=seed)
    if label_mode:
        return ds.map(lambda path, label: (read(path), label))
    return ds.map(read)


def audio_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, batch_size=32, sampling_rate=None,
                                 output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None,
                                 follow_links=False, verbose=True):
    """The .wav files under `directory` as a batched Dataset with `class_names`
    (see the module's docstring)."""
    _check(labels, label_mode, class_names, ragged, output_sequence_length, sampling_rate,
           validation_split, subset)
    if labels is None or label_mode is None:
        labels = label_mode = None
    if seed is None:
        seed = np.random.randint(1e6)
    say = io_utils.print_msg if verbose else (lambda message: None)
    paths, found, names = index_directory(directory, labels, ALLOWED_FORMATS, class_names,
                                          follow_links, say)
    if label_mode == "binary" and len(names or ()) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={names}")
    datasets = []
    for part, part_paths, part_labels in chosen_subsets(paths, found, shuffle, seed,
                                                        validation_split, subset, say):
        if not part_paths:
            kind = {"all": "", "training": "training ", "validation": "validation "}[part]
            raise ValueError(f"No {kind}audio files found in directory {directory}. Allowed "
                             f"format(s): {ALLOWED_FORMATS}")
        ds = _paths_dataset(part_paths, part_labels, label_mode, len(names) if names else 0,
                            output_sequence_length, ragged,
                            shuffle and not (subset == "both" and part == "validation"), seed,
                            batch_size * 8 if batch_size is not None else 1024)
        ds = ds.prefetch(-1)
        if batch_size is not None:
            fixed = output_sequence_length is not None or ragged
            ds = ds.batch(batch_size) if fixed else ds.padded_batch(batch_size)
        ds.class_names = names
        datasets.append(ds)
    return tuple(datasets) if subset == "both" else datasets[0]
