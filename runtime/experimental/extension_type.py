"""`tf.experimental.extension_type`: `as_dict` (an extension type value's fields)."""

from runtime._src.extension.extension_type import as_dict

__all__ = ["as_dict"]
