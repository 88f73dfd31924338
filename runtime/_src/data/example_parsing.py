"""`tf.data.experimental.parse_example_dataset`: a transformation that parses
a dataset of serialized Example vectors (batches) into dicts of tensors.

    ds = tf.data.TFRecordDataset(files).batch(32)
    ds = ds.apply(parse_example_dataset({"x": tf.io.FixedLenFeature([2], tf.int64)}))
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import TensorSpec
from runtime._src.io.parsing_ops import parse_example

__all__ = ["parse_example_dataset"]


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """A function for `Dataset.apply`: `dataset.map(parse_example(., features))`
    over a dataset of string vectors."""
    def apply(dataset):
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string or \
                spec.shape.rank != 1:
            raise TypeError("Input dataset should be a dataset of vectors of strings. "
                            f"Instead it is `{spec!r}`.")
        return dataset.map(lambda serialized: parse_example(serialized, features))
    return apply
