"""What Keras 3 keeps in `keras.src.backend.common`: the global settings (`floatx`, `epsilon`, `keras.config`), `KerasTensor`, `keras.Variable`, `StatelessScope` and masks."""
