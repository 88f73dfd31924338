"""`keras.quantizers.QuantizationConfig` and its int8 / int4 / float8 kinds: how
`layer.quantize(...)` / `model.quantize(...)` quantize weights (and inputs),
as Keras 3.15.

    model.quantize("int8")                                   # the default config
    model.quantize(config=Int8QuantizationConfig(
        weight_quantizer=AbsMaxQuantizer(axis=0), activation_quantizer=None))
    model.quantize(config=Int4QuantizationConfig(block_size=32))

Int8QuantizationConfig's default activation quantizer is AbsMaxQuantizer()
(each input row scaled to [-127, 127]); Int4QuantizationConfig quantizes no
activations, and with block_size > 0 (default 128) keeps a scale and a zero
point per group of `block_size` input rows (None / -1: one abs-max scale per
output channel). Float8QuantizationConfig takes no quantizers (float8 training,
layers/core/float8_quantization.py).
"""

import re
import warnings

from runtime._src.keras.dtype_policies import dtype_policy as policies
from runtime._src.keras.quantizers import quantizers
from runtime._src.keras.saving import serialization_lib

__all__ = ["Float8QuantizationConfig", "Int4QuantizationConfig", "Int8QuantizationConfig",
           "QuantizationConfig", "quantize_model",
           "get_block_size_for_layer", "should_quantize_layer", "validate_and_resolve_config"]


class QuantizationConfig:
    """`keras.quantizers.QuantizationConfig(weight_quantizer=None,
    activation_quantizer=None)`: the base class; its subclasses name the `mode`."""

    def __init__(self, weight_quantizer=None, activation_quantizer=None):
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self):
        raise NotImplementedError("Subclasses must implement this property. Do not "
                                  "instantiate QuantizationConfig directly.")

    def get_config(self):
        ser = serialization_lib.serialize_keras_object
        return {"weight_quantizer": ser(self.weight_quantizer),
                "activation_quantizer": ser(self.activation_quantizer)}

    @classmethod
    def from_config(cls, config):
        return cls(**_quantizers_from(config))

    @staticmethod
    def weight_quantizer_or_default(config, default):
        """The config's weight quantizer, else `default`."""
        if config is not None and config.weight_quantizer is not None:
            return config.weight_quantizer
        return default

    @staticmethod
    def activation_quantizer_or_default(config, default):
        """The config's activation quantizer (None included), else `default`."""
        return config.activation_quantizer if config is not None else default


def _quantizers_from(config):
    des = serialization_lib.deserialize_keras_object
    return {"weight_quantizer": des(config.get("weight_quantizer")),
            "activation_quantizer": des(config.get("activation_quantizer"))}


class Int8QuantizationConfig(QuantizationConfig):
    """`keras.quantizers.Int8QuantizationConfig(weight_quantizer=None,
    activation_quantizer="default")`: "default" is AbsMaxQuantizer() (axis -1);
    a weight quantizer must give int8."""

    def __init__(self, weight_quantizer=None, activation_quantizer="default"):
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = quantizers.AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if weight_quantizer is not None and weight_quantizer.output_dtype != "int8":
            raise ValueError("Int8QuantizationConfig requires a weight_quantizer with "
                             "output_dtype='int8'. Received: "
                             f"output_dtype={weight_quantizer.output_dtype}")

    @property
    def mode(self):
        return "int8"


class Int4QuantizationConfig(QuantizationConfig):
    """`keras.quantizers.Int4QuantizationConfig(weight_quantizer=None,
    activation_quantizer="default", block_size=128)`: "default" is no activation
    quantizer; custom quantizers need block_size None or -1 (per channel), a
    weight quantizer with value_range (-8, 7) and output_dtype "int8"."""

    def __init__(self, weight_quantizer=None, activation_quantizer="default",
                 block_size=128):
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = None
        super().__init__(weight_quantizer, activation_quantizer)
        if block_size is not None and block_size != -1 and block_size <= 0:
            raise ValueError("block_size must be None, -1, or a positive integer. "
                             f"Received: block_size={block_size}")
        self.block_size = block_size
        custom = weight_quantizer is not None or activation_quantizer is not None
        if block_size is not None and block_size > 0 and custom:
            raise ValueError(
                "Int4 sub-channel quantization (block_size > 0) does not support custom "
                "quantizers. Either set block_size to None or -1 for per-channel "
                "quantization, or remove the custom quantizer arguments. Received: "
                f"block_size={block_size}")
        if weight_quantizer is not None:
            if tuple(weight_quantizer.value_range) != (-8, 7):
                raise ValueError("Int4QuantizationConfig requires a weight_quantizer with "
                                 "value_range=(-8, 7). Received: "
                                 f"value_range={weight_quantizer.value_range}")
            if weight_quantizer.output_dtype != "int8":
                raise ValueError("Int4QuantizationConfig requires a weight_quantizer with "
                                 "output_dtype='int8'. Received: "
                                 f"output_dtype={weight_quantizer.output_dtype}")

    @property
    def mode(self):
        return "int4"

    def get_config(self):
        return {**super().get_config(), "block_size": self.block_size}

    @classmethod
    def from_config(cls, config):
        return cls(**_quantizers_from(config), block_size=config.get("block_size"))


class Float8QuantizationConfig(QuantizationConfig):
    """`keras.quantizers.Float8QuantizationConfig()`: float8 training (inputs and
    kernel cast to float8_e4m3fn, the output's gradient to float8_e5m2, each
    with a delayed scale); it takes no quantizers."""

    def __init__(self):
        super().__init__(None, None)

    @property
    def mode(self):
        return "float8"

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls()


_DEFAULTS = {"int8": Int8QuantizationConfig, "int4": Int4QuantizationConfig,
             "float8": Float8QuantizationConfig}


def _check_mode(mode):
    if mode is not None and mode not in policies.QUANTIZATION_MODES:
        raise ValueError("Invalid quantization mode. Expected one of "
                         f"{policies.QUANTIZATION_MODES}. Received: mode={mode}")


def validate_and_resolve_config(mode, config):
    """The QuantizationConfig `quantize(mode, config)` uses: `config` (a mode
    string counts as the mode), else the mode's default config."""
    if isinstance(config, str):
        mode, config = config, None
    _check_mode(mode)
    if config is None:
        if mode is None:
            raise ValueError("You must provide either `mode` or `config` to `quantize`.")
        config = _DEFAULTS[mode]()
    elif not isinstance(config, QuantizationConfig):
        raise ValueError("Argument `config` must be an instance of `QuantizationConfig`. "
                         f"Received: config={config} (of type {type(config)})")
    if mode is not None and config.mode != mode:
        raise ValueError(f"Contradictory arguments: mode='{mode}' but "
                         f"config.mode='{config.mode}'")
    _check_mode(config.mode)
    return config


def get_block_size_for_layer(layer, config):
    """The int4 block size: the config's, else the layer's Int4DTypePolicy's
    (-1 read as None, per channel), else None."""
    if isinstance(config, Int4QuantizationConfig):
        return config.block_size
    policy = layer.dtype_policy
    if isinstance(policy, policies.Int4DTypePolicy):
        return None if policy.block_size == -1 else policy.block_size
    return None


def should_quantize_layer(layer, filters):
    """`model.quantize`'s `filters`: None (all), a regular expression or a list
    of them searched in the layer's name, or a callable given the layer."""
    if filters is None:
        return True
    if isinstance(filters, str):
        return bool(re.search(filters, layer.name))
    if isinstance(filters, (list, tuple)):
        return any(re.search(pattern, layer.name) for pattern in filters)
    return bool(filters(layer))


for _cls in (QuantizationConfig, Int8QuantizationConfig, Int4QuantizationConfig,
             Float8QuantizationConfig):
    _cls._keras_module = "keras.quantizers"
    serialization_lib.register_builtin("keras.quantizers", _cls)
quantizers.ALL_OBJECTS_DICT.update(
    {name: cls for c in (QuantizationConfig, Int8QuantizationConfig, Int4QuantizationConfig,
                         Float8QuantizationConfig)
     for name, cls in ((c.__name__, c), (quantizers.to_snake_case(c.__name__), c))})


def quantize_model(model, mode=None, config=None, filters=None, **kwargs):
    """`model.quantize(mode=None, config=None, filters=None)`: quantize each of
    its layers (without sublayers) that `filters` selects; a layer that cannot
    be quantized is skipped with a warning (its NotImplementedError's text)."""
    type_check = kwargs.pop("type_check", True)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments passed to {type(model).__name__}: "
                         f"{kwargs}")
    if filters is not None and not isinstance(filters, (str, list, tuple)) \
            and not callable(filters):
        raise ValueError("The `filters` argument must be a regex string, a list of regex "
                         f"strings, or a callable. Received: {type(filters)}")
    modified = False
    for layer in [model] + model._all_sublayers():
        if layer.layers or not should_quantize_layer(layer, filters):
            continue
        try:
            layer.quantize(mode, type_check=type_check, config=config)
            modified = True
        except NotImplementedError as e:
            warnings.warn(str(e), stacklevel=3)
    state = getattr(model, "_keras_state", None)
    if modified and state is not None:
        state.functions.clear()          # the traced steps read the float weights
