"""`keras.optimizers.legacy`: the names of Keras 2's optimizers, which Keras 3
no longer has. As in Keras 3.15, each is one class that refuses to be built,
saying how to get Keras 2's optimizers (the `tf_keras` package)."""

__all__ = ["LegacyOptimizerWarning"]

MESSAGE = ("`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to "
           "continue using a `tf.keras.optimizers.legacy` optimizer, you can install the "
           "`tf_keras` package (Keras 2) and set the environment variable "
           "`TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use `tf_keras` when "
           "accessing `tf.keras`.")


class LegacyOptimizerWarning:
    """`keras.optimizers.legacy.Adam` (and `SGD`, `RMSprop`, ...): building one
    raises ImportError, whatever the arguments."""

    def __init__(self, *args, **kwargs):
        raise ImportError(MESSAGE)
