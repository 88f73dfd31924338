"""Keras 2's serialization format (`keras.legacy.saving`)."""
