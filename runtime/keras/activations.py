"""`tf.keras.activations`: activation functions, `get` (name -> function),
`serialize` and `deserialize`."""

from runtime._src.keras.activations.activations import (deserialize, elu, exponential, gelu, get,
                                                        hard_sigmoid, hard_silu, hard_swish,
                                                        leaky_relu, linear, log_softmax, mish, relu,
                                                        relu6, selu, serialize, sigmoid, silu,
                                                        softmax, softplus, softsign, swish, tanh)
from runtime._src.keras.activations.activations import (celu, glu, hard_shrink, hard_tanh,
                                                        log_sigmoid, soft_shrink, sparse_plus,
                                                        sparse_sigmoid, sparsemax, squareplus,
                                                        tanh_shrink, threshold)

__all__ = ["get", "serialize", "deserialize", "linear", "relu", "sigmoid", "softmax", "tanh",
           "exponential", "elu", "selu", "gelu", "softplus", "softsign", "relu6",
           "leaky_relu", "silu", "swish", "log_softmax", "hard_sigmoid", "hard_silu",
           "hard_swish", "mish"]
__all__ += ["celu", "glu", "hard_shrink", "hard_tanh", "log_sigmoid", "soft_shrink",
            "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "tanh_shrink",
            "threshold"]
