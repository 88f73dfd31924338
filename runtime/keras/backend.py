"""`tf.keras.backend`: `clear_session` (runtime/_src/keras/utils.py)."""

from runtime._src.keras.utils import clear_session

__all__ = ["clear_session"]
