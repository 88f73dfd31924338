"""`tf.keras.preprocessing.sequence`: `pad_sequences`."""

from runtime._src.keras.utils.sequence_utils import pad_sequences

__all__ = ["pad_sequences"]
