"""`tf.keras.config`: Keras's global settings (floatx, epsilon, the image
layout, the dtype policy, interactive logging, fit's epoch and step caps, ...),
defined in runtime/_src/keras/backend/keras_config.py."""

from runtime._src.keras.backend.keras_config import (backend, disable_flash_attention,
                                                     disable_interactive_logging,
                                                     disable_traceback_filtering, dtype_policy,
                                                     enable_flash_attention,
                                                     enable_interactive_logging,
                                                     enable_traceback_filtering,
                                                     enable_unsafe_deserialization, epsilon, floatx,
                                                     image_data_format, is_flash_attention_enabled,
                                                     is_interactive_logging_enabled, is_nnx_enabled,
                                                     is_traceback_filtering_enabled, max_epochs,
                                                     max_steps_per_epoch, set_backend,
                                                     set_dtype_policy, set_epsilon, set_floatx,
                                                     set_image_data_format, set_max_epochs,
                                                     set_max_steps_per_epoch)

__all__ = ["backend", "disable_flash_attention", "disable_interactive_logging",
           "disable_traceback_filtering", "dtype_policy", "enable_flash_attention",
           "enable_interactive_logging", "enable_traceback_filtering",
           "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
           "is_flash_attention_enabled", "is_interactive_logging_enabled", "is_nnx_enabled",
           "is_traceback_filtering_enabled", "max_epochs", "max_steps_per_epoch",
           "set_backend", "set_dtype_policy", "set_epsilon", "set_floatx",
           "set_image_data_format", "set_max_epochs", "set_max_steps_per_epoch"]
