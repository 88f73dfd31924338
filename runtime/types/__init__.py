"""`tf.types`: TensorFlow's abstract types (`tf.types.experimental`).

    isinstance(f, tf.types.experimental.PolymorphicFunction)   # a tf.function
    isinstance(cf, tf.types.experimental.ConcreteFunction)     # one of its traces
    f.function_type                # a tf.types.experimental.FunctionType
"""

from runtime.types import experimental

__all__ = ["experimental"]
