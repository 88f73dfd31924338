"""Keras 2's formats that Keras 3 still reads and writes (`keras.legacy`)."""
