"""`keras.DTypePolicy`: the dtypes a layer computes in and keeps its weights in.

    policy = DTypePolicy("float64")
    policy.compute_dtype, policy.variable_dtype      # "float64", "float64"
    Dense(2, dtype=policy).dtype_policy              # <DTypePolicy "float64">

A policy is a dtype name, or "mixed_float16" / "mixed_bfloat16" (compute in
16 bits, weights in float32). A layer with a mixed policy keeps float32
weights, casts its inputs to its 16-bit dtype and reads its weights in it
inside `call`.

A quantized policy ("int8_from_float32", "int4/128_from_float32") is what
`layer.quantize(mode)` gives a layer: its quantization mode over the source
policy whose dtypes it computes in (`QuantizedDTypePolicy`, `Int4DTypePolicy`,
`QuantizedFloat8DTypePolicy` for "float8_from_float32").
"""

from runtime._src.core import dtypes
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.saving import serialization_lib as serialization

__all__ = ["DTypePolicy", "FloatDTypePolicy", "Int4DTypePolicy", "QUANTIZATION_MODES",
           "QuantizedDTypePolicy", "QuantizedFloat8DTypePolicy", "layer_policy", "global_policy",
           "set_global_policy", "get",
           "serialize", "deserialize"]

QUANTIZATION_MODES = ("int8", "float8", "int4")       # Keras 3.15 also has gptq and awq

_MIXED = {"mixed_float16": ("float16", "float32"), "mixed_bfloat16": ("bfloat16", "float32")}


class DTypePolicy:
    """`keras.DTypePolicy(name=None)`: `name` ("float32", "mixed_float16",
    ...; None: floatx) with its `compute_dtype` and `variable_dtype`."""

    def __init__(self, name=None):
        if name is None:
            name = backend_config.floatx()
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)

    @staticmethod
    def _parse_name(name):
        if not isinstance(name, str):
            raise TypeError("'name' must be a string, such as 'mixed_float16'. "
                            f"Received: name={name} (of type {type(name)})")
        if name in _MIXED:
            return _MIXED[name]
        try:
            dtype = dtypes.as_dtype(name).name
        except (TypeError, ValueError):
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid "
                             "policies include 'mixed_float16', 'mixed_bfloat16', and the name "
                             "of any float dtype such as 'float32'.") from None
        return dtype, dtype

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        """The dtype of the layer's inputs, computations and outputs."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype of the layer's weights."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        """None: these policies are not quantized."""
        return None

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        name = "DTypePolicy" if type(self) is FloatDTypePolicy else type(self).__name__
        return f'<{name} "{self._name}">'

    def __eq__(self, other):
        if type(self) in (DTypePolicy, FloatDTypePolicy):
            return type(other) in (DTypePolicy, FloatDTypePolicy) and other._name == self._name
        return type(other) is type(self) and other._name == self._name

    __hash__ = None


class FloatDTypePolicy(DTypePolicy):
    """`keras.FloatDTypePolicy`: another name of `DTypePolicy`."""


class QuantizedDTypePolicy(DTypePolicy):
    """`keras.dtype_policies.QuantizedDTypePolicy(mode, source_name=None)`: a
    layer quantized to `mode` ("int8", "int4") computing in the dtypes of the
    policy `source_name` (None: `keras.config.dtype_policy()`'s name); its name
    is "<mode>_from_<source_name>"."""

    def __init__(self, mode, source_name=None):
        if source_name is None:
            source_name = global_policy().name
        self._compute_dtype, self._variable_dtype = self._parse_name(source_name)
        _check_mode(mode, self._compute_dtype)
        self._name = f"{mode}_from_{source_name}"
        self._source_name = source_name
        self._quantization_mode = mode

    @property
    def quantization_mode(self):
        """The mode: "int8" or "int4"."""
        return self._quantization_mode

    def get_config(self):
        return {"mode": self._quantization_mode, "source_name": self._source_name}


class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """`keras.dtype_policies.QuantizedFloat8DTypePolicy(mode, source_name=None,
    amax_history_length=1024)`: float8 training's policy; the layer keeps the
    last `amax_history_length` maxima of |x| to scale its float8 casts."""

    default_amax_history_length = 1024

    def __init__(self, mode, source_name=None, amax_history_length=1024):
        super().__init__(mode, source_name)
        if not isinstance(amax_history_length, int):
            raise TypeError("`amax_history_length` must be an integer. Received: "
                            f"amax_history_length={amax_history_length}")
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self):
        """The length of the amax history window."""
        return self._amax_history_length

    def __eq__(self, other):
        return super().__eq__(other) and \
            self._amax_history_length == other._amax_history_length

    __hash__ = None

    def get_config(self):
        return {**super().get_config(), "amax_history_length": self._amax_history_length}


class Int4DTypePolicy(QuantizedDTypePolicy):
    """`keras.dtype_policies.Int4DTypePolicy(mode, source_name=None)`: int4 with
    its block size, mode "int4/<block_size>" (-1: one scale per output channel,
    n > 0: a scale and zero point per group of n input rows)."""

    def __init__(self, mode, source_name=None):
        parts = mode.split("/") if isinstance(mode, str) else [mode]
        if len(parts) != 2 or parts[0] != "int4":
            raise ValueError("Invalid mode for Int4DTypePolicy. Expected format "
                             f"'int4/<block_size>', but got '{mode}'.")
        try:
            block_size = int(parts[1])
        except ValueError:
            raise ValueError("Invalid mode for Int4DTypePolicy. <block_size> must be an "
                             "integer. Expected format 'int4/<block_size>', but got "
                             f"'{mode}'.") from None
        if block_size < -1 or block_size == 0:
            raise ValueError("Invalid block_size in mode. Supported values are -1 "
                             "(per-channel) or a positive integer (sub-channel), but got "
                             f"{block_size} from '{mode}'.")
        super().__init__("int4", source_name)
        self._name = f"{mode}_from_{self._source_name}"
        self.mode, self.block_size = "int4", block_size

    def get_config(self):
        return {"mode": f"int4/{self.block_size}", "source_name": self._source_name}


def _check_mode(mode, compute_dtype):
    if mode not in QUANTIZATION_MODES:
        raise ValueError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. "
                         f"Received: mode={mode}")
    if compute_dtype == "float16" and mode == "int8":
        raise ValueError(f"Quantization mode='{mode}' doesn't work well with "
                         "compute_dtype='float16'.")


def quantized_policy_by_name(name):
    """"int8_from_float32" -> QuantizedDTypePolicy, "int4/128_from_float32" ->
    Int4DTypePolicy ("int4_from_..." a QuantizedDTypePolicy), as Keras 3.15."""
    parts = name.split("_from_")
    if len(parts) != 2:
        raise ValueError("Cannot convert `policy` into a valid pair (`mode`, `source_name`) "
                         f"to instantiate `QuantizedDTypePolicy`. Received: policy={name}")
    mode, source = parts
    if mode.startswith("int4") and "/" in mode:
        return Int4DTypePolicy(mode, source)
    if mode.startswith("float8"):
        return QuantizedFloat8DTypePolicy(mode, source)
    return QuantizedDTypePolicy(mode, source)


def quantized_layer_policy(dtype):
    """The QuantizedDTypePolicy a layer's `dtype` argument names (a policy, its
    name or its config), else None."""
    if isinstance(dtype, dict) and "source_name" in dtype.get("config", {}):
        dtype = deserialize(dtype)
    if _names_quantized_policy(dtype):
        dtype = quantized_policy_by_name(dtype)
    return dtype if isinstance(dtype, QuantizedDTypePolicy) else None


def _names_quantized_policy(dtype):
    """"int8_from_float32" does; a layer's plain "int8" or "float8_e4m3fn" dtype
    does not (an InputLayer's int8 inputs)."""
    return isinstance(dtype, str) and dtype.startswith(QUANTIZATION_MODES) and "_from_" in dtype


def layer_policy(dtype):
    """A layer's `dtype` argument (a name, a DTypePolicy or its config) as
    (compute dtype name, variable dtype name, policy name)."""
    if isinstance(dtype, dict):
        dtype = deserialize(dtype) if "source_name" in dtype.get("config", {}) else \
            dtype.get("config", {}).get("name")
    if _names_quantized_policy(dtype):
        dtype = quantized_policy_by_name(dtype)
    if isinstance(dtype, QuantizedDTypePolicy):
        dtype = dtype._source_name
    if not isinstance(dtype, (str, DTypePolicy)):
        dtype = dtypes.as_dtype(dtype).name
    policy = dtype if isinstance(dtype, DTypePolicy) else DTypePolicy(dtype)
    policy = getattr(policy, "default_policy", policy)     # a DTypePolicyMap: its default
    return policy.compute_dtype, policy.variable_dtype, policy.name

for _cls in (DTypePolicy, FloatDTypePolicy):
    serialization.register_builtin("keras", _cls)
    serialization.register_builtin("keras.dtype_policies", _cls)
for _cls in (QuantizedDTypePolicy, QuantizedFloat8DTypePolicy, Int4DTypePolicy):
    _cls._keras_module = "keras.dtype_policies"
    serialization.register_builtin("keras.dtype_policies", _cls)


_GLOBAL = {"policy": None}


def global_policy():
    """The global DTypePolicy (`keras.config.dtype_policy()`); unset,
    `DTypePolicy(floatx())`, which is then kept (a later `set_floatx` no longer
    changes it, as in Keras)."""
    if _GLOBAL["policy"] is None:
        _GLOBAL["policy"] = DTypePolicy(backend_config.floatx())
    return _GLOBAL["policy"]


def set_global_policy(policy):
    """Set the policy of layers made without `dtype`: a DTypePolicy or its name."""
    if isinstance(policy, str):
        policy = get(policy)
    if not isinstance(policy, DTypePolicy):
        raise ValueError("Invalid `policy` argument. Expected the string name of a policy "
                         "(such as 'mixed_float16') or a `DTypePolicy` instance. Received: "
                         f"policy={policy} (of type {type(policy)})")
    _GLOBAL["policy"] = policy


def serialize(dtype_policy):
    """`keras.dtype_policies.serialize`: {"module": "keras", "class_name":
    "DTypePolicy", "config": {"name": ...}, "registered_name": None}."""
    return serialization.serialize_keras_object(dtype_policy)


def deserialize(config, custom_objects=None):
    """`keras.dtype_policies.deserialize`: the policy `config` describes (a
    string is returned as it is, as Keras does)."""
    if isinstance(config, str):
        return serialization.deserialize_name(config, custom_objects,
                                              module="keras.dtype_policies")
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.dtype_policies")


def get(identifier):
    """A DTypePolicy from a policy, its name, its config, or None (the global
    policy, `keras.config.dtype_policy()`)."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier.startswith(QUANTIZATION_MODES):
            return quantized_policy_by_name(identifier)
        return DTypePolicy(identifier)
    raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance of "
                     f"DTypePolicy. Received: dtype={identifier}")
