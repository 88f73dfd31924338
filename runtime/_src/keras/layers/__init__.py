"""Keras layers, laid out as Keras 3's `keras.src.layers`: the `Layer` base and its config machinery here, the layers by kind in the subpackages."""
