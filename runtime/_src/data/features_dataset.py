"""`tf.data.experimental.make_batched_features_dataset`: batches of parsed
`tf.train.Example` records (a dict of features, or (features, label)).

    ds = make_batched_features_dataset("train-*.tfrecord", 32,
                                       {"x": tf.io.FixedLenFeature([2], tf.float32),
                                        "y": tf.io.FixedLenFeature([], tf.int64)},
                                       label_key="y")

Files in sorted order (shuffled per epoch when `shuffle`); records are read by
`reader` (TFRecordDataset), repeated `num_epochs` times (None: forever),
batched and then parsed with `tf.io.parse_example`, as TensorFlow's.
"""

import glob
import os

from runtime._src.data.dataset import AUTOTUNE, Dataset, TFRecordDatasetV2
from runtime._src.io.parsing_ops import parse_example

__all__ = ["make_batched_features_dataset"]


def _files(file_pattern):
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes, os.PathLike)) \
        else list(file_pattern)
    files = sorted({f for p in patterns for f in glob.glob(os.fsdecode(p))})
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return files


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None,
                                  label_key=None, reader_args=None, num_epochs=None,
                                  shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key}) must be one of the "
                         f"`features` keys: {features.keys()}.")
    files = Dataset.from_tensor_slices(_files(file_pattern))
    if shuffle:
        files = files.shuffle(len(_files(file_pattern)), shuffle_seed)
    reader = reader or TFRecordDatasetV2
    ds = files.flat_map(lambda name: reader(name, *(reader_args or [])))
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size, shuffle_seed)
    ds = ds.batch(batch_size, drop_remainder=drop_final_batch)

    def parse(records):
        parsed = parse_example(records, features)
        if label_key is None:
            return parsed
        label = parsed.pop(label_key)
        return parsed, label
    ds = ds.map(parse)
    return ds.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
