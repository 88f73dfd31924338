"""`keras.utils.text_dataset_from_directory` (also in
`keras.preprocessing`): the `.txt` files under a folder as a `tf.data.Dataset`
of (text, label) batches.

    main/
      neg/ a.txt b.txt ...       -> label 0
      pos/ c.txt ...             -> label 1
    ds = text_dataset_from_directory("main", batch_size=32)
    ds.class_names                                # ["neg", "pos"]

With `labels="inferred"` each subfolder (in alphanumeric order, or the order
of `class_names`) is a class and its `.txt` files, searched recursively in
sorted order, are its samples; `labels=None` (or `label_mode=None`) takes every
`.txt` file under the folder; a list gives each file's label (files in the
same sorted order; `class_names` are then the labels' strings).
`label_mode` is "int" (int32), "categorical" (float32 one-hot), "binary"
(float32, shape (n, 1), exactly two classes) or None. `validation_split` with
`subset` "training" / "validation" / "both" keeps the first / last part of
the (shuffled, when `shuffle`) files. Shuffling uses numpy's generator seeded
by `seed`, so the order differs from Keras's for the same seed.
"""

import numpy as np

from runtime._src.data.dataset import Dataset
from runtime._src.keras.utils import io_utils
from runtime._src.keras.utils.dataset_utils import (chosen_subsets, index_directory,
                                                     labels_array)

__all__ = ["text_dataset_from_directory"]


def _check(labels, label_mode, class_names, validation_split, subset):
    if labels not in ("inferred", None) and not isinstance(labels, (list, tuple)):
        raise ValueError("`labels` argument should be a list/tuple of integer labels, of the "
                         "same size as the number of text files in the target directory. If "
                         "you wish to infer the labels from the subdirectory names in the "
                         'target directory, pass `labels="inferred"`. If you wish to get a '
                         "dataset that only contains text samples (no labels), pass "
                         f"`labels=None`. Received: labels={labels}")
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError('`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')
    if class_names is not None and labels != "inferred":
        raise ValueError("You can only pass `class_names` if `labels='inferred'`. Received: "
                         f"labels={labels}, and class_names={class_names}")
    if (subset is None) != (validation_split is None):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in (None, "training", "validation", "both"):
        raise ValueError('`subset` must be either "training", "validation" or "both". '
                         f"Received: subset={subset}")
    if validation_split is not None and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")


def _dataset(paths, labels, label_mode, num_classes, batch_size, max_length):
    texts = []
    for path in paths:
        with open(path, "rb") as f:
            text = f.read()
        texts.append(text[:max_length] if max_length is not None else text)
    texts = np.array(texts, dtype=object)
    if labels is None or label_mode is None:
        ds = Dataset.from_tensor_slices(texts)
    else:
        ds = Dataset.from_tensor_slices((texts, labels_array(labels, label_mode,
                                                                num_classes)))
    return ds if batch_size is None else ds.batch(batch_size)


def text_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                class_names=None, batch_size=32, max_length=None,
                                shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):
    """The texts under `directory` as a batched Dataset with `class_names`
    (see the module's docstring)."""
    _check(labels, label_mode, class_names, validation_split, subset)
    if format != "tf":
        raise ValueError(f"format={format!r}: runtime.keras makes tf.data datasets ('tf')")
    if labels is None:
        label_mode = None
    elif label_mode is None and labels == "inferred":
        labels = None           # no labels wanted: every file under `directory`
    say = io_utils.print_msg if verbose else (lambda message: None)
    paths, found, names = index_directory(directory, labels, (".txt",), class_names,
                                         follow_links, say)
    if label_mode == "binary" and len(names or ()) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={names}")
    num_classes = len(names) if names else (max(found) + 1 if found else 0)
    datasets = []
    for _, part_paths, part_labels in chosen_subsets(paths, found, shuffle, seed,
                                                     validation_split, subset, say):
        ds = _dataset(part_paths, part_labels, label_mode, num_classes, batch_size, max_length)
        ds.class_names = names
        datasets.append(ds)
    return datasets if subset == "both" else datasets[0]
