"""`tf.keras.utils`: `to_categorical`, `pad_sequences`, `normalize`,
`set_random_seed`, `plot_model`, `model_to_dot`, and the serialization
helpers Keras also lists here."""

from runtime._src.keras.io_utils import (disable_interactive_logging,
                                         enable_interactive_logging,
                                         is_interactive_logging_enabled)
from runtime._src.keras.sequence_utils import normalize, pad_sequences
from runtime._src.keras.serialization import (custom_object_scope, deserialize_keras_object,
                                              get_custom_objects, get_registered_name,
                                              get_registered_object,
                                              register_keras_serializable,
                                              serialize_keras_object)
from runtime._src.keras.utils import model_to_dot, plot_model, set_random_seed, to_categorical

__all__ = ["to_categorical", "set_random_seed", "plot_model", "model_to_dot",
           "custom_object_scope", "register_keras_serializable", "get_registered_name",
           "get_registered_object", "get_custom_objects", "serialize_keras_object",
           "deserialize_keras_object", "normalize", "pad_sequences",
           "disable_interactive_logging", "enable_interactive_logging",
           "is_interactive_logging_enabled"]
