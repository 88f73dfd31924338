"""`keras.ops`, laid out as Keras 3's: `numpy` (NumPy's functions), `nn`
(activations, softmax, losses), `core` (conversion, slicing, control
flow), `math` (segments, top_k, logsumexp, FFTs), `linalg`, `image`; `operation` holds the
dtype rules and the KerasTensor dispatch they share."""
