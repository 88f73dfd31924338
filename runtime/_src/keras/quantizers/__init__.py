"""Keras 3's quantizers (`keras.quantizers`)."""
