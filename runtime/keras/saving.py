"""`tf.keras.saving`: `.keras` files and the registry of user classes
(runtime/_src/keras/saving/saving_lib.py, runtime/_src/keras/saving/serialization_lib.py)."""

from runtime._src.keras.saving.saving_lib import load_model, load_weights, save_model, save_weights
from runtime._src.keras.saving.serialization_lib import (CustomObjectScope, custom_object_scope,
                                                         deserialize_keras_object,
                                                         get_custom_objects, get_registered_name,
                                                         get_registered_object,
                                                         register_keras_serializable,
                                                         serialize_keras_object)

__all__ = ["load_model", "save_model", "register_keras_serializable", "get_registered_name",
           "get_registered_object", "get_custom_objects", "serialize_keras_object",
           "deserialize_keras_object",
           "custom_object_scope", "CustomObjectScope", "save_weights", "load_weights"]
