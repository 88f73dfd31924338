"""`keras.legacy`: Keras 2's serialization format (`keras.legacy.saving`)."""

from runtime.keras.legacy import saving

__all__ = ["saving"]
