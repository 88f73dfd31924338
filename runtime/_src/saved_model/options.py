"""`tf.saved_model.SaveOptions` / `LoadOptions` and `contains_saved_model`.

The options take TensorFlow 2.21's keyword arguments so that code passing
them runs unchanged. None of them changes what is written or read here
(there are no devices, savers or protobuf formats): they are kept as
attributes, and `save`/`load` accept them.

    tf.saved_model.save(module, path, options=tf.saved_model.SaveOptions())
    tf.saved_model.contains_saved_model(path)      # True
"""

import enum
import os

from runtime._src.saved_model.format import JSON_FILE

__all__ = ["SaveOptions", "LoadOptions", "VariablePolicy", "contains_saved_model"]


class VariablePolicy(enum.Enum):
    """`tf.saved_model.experimental.VariablePolicy`: how a save treats variables'
    devices (TF's values; every policy saves the same here, there being one device)."""

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    def _save_variable_devices(self):
        return self != VariablePolicy.NONE

    def _expand_distributed_variables(self):
        return self == VariablePolicy.EXPAND_DISTRIBUTED_VARIABLES

    @staticmethod
    def from_obj(obj):
        """A policy from itself, None, or its value's string (any case)."""
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        key = str(obj).lower()
        for policy in VariablePolicy:
            if key == policy.value:
                return policy
        raise ValueError(f"Received invalid VariablePolicy value: {obj}.")


class SaveOptions:
    """Options for `save` (TensorFlow's keyword arguments; accepted, no effect here)."""

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases",
                 "experimental_debug_stripper", "experimental_io_device",
                 "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver",
                 "experimental_sharding_callback", "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = save_debug_info
        self.function_aliases = dict(function_aliases or {})
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


class LoadOptions:
    """Options for `load` (TensorFlow's keyword arguments; accepted, no effect here)."""

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device",
                 "experimental_skip_checkpoint", "experimental_variable_policy",
                 "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_load_function_aliases = experimental_load_function_aliases


def contains_saved_model(export_dir):
    """True when `export_dir` holds a model `save` wrote (its saved_model.json)."""
    return os.path.isfile(os.path.join(os.fspath(export_dir), JSON_FILE))


def check_options(options, kind, where):
    """TypeError unless `options` is None or a `kind` instance."""
    if options is not None and not isinstance(options, kind):
        raise TypeError(f"{where}: options must be a tf.saved_model.{kind.__name__}, got "
                        f"{type(options).__name__}")
