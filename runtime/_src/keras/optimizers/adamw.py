"""`keras.optimizers.AdamW(weight_decay=0.004)`: Adam, with var -= var * wd * lr first."""

from runtime._src.keras.optimizers.adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """`tf.keras.optimizers.AdamW(learning_rate=0.001, weight_decay=0.004,
    beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False)`."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name=None, **kwargs):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name,
                         weight_decay=weight_decay, **kwargs)
