"""`tf.keras.preprocessing.sequence`: `pad_sequences`, and Keras 2's
TimeseriesGenerator, make_sampling_table and skipgrams."""

from runtime._src.keras.legacy.preprocessing.sequence import (TimeseriesGenerator,
                                                               make_sampling_table, skipgrams)
from runtime._src.keras.utils.sequence_utils import pad_sequences

__all__ = ["TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"]
