"""`keras.DTypePolicy`: the dtypes a layer computes in and keeps its weights in.

    policy = DTypePolicy("float64")
    policy.compute_dtype, policy.variable_dtype      # "float64", "float64"
    Dense(2, dtype=policy).dtype_policy              # <DTypePolicy "float64">

A policy is a dtype name, or "mixed_float16" / "mixed_bfloat16" (compute in
16 bits, weights in float32). A layer with a mixed policy keeps float32
weights, casts its inputs to its 16-bit dtype and reads its weights in it
inside `call`.
"""

from runtime._src.core import dtypes
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.saving import serialization_lib as serialization

__all__ = ["DTypePolicy", "FloatDTypePolicy", "layer_policy", "global_policy",
           "set_global_policy", "get", "serialize", "deserialize"]

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
        return f'<DTypePolicy "{self._name}">'

    def __eq__(self, other):
        return type(other) in (DTypePolicy, FloatDTypePolicy) and other._name == self._name

    __hash__ = None


class FloatDTypePolicy(DTypePolicy):
    """`keras.FloatDTypePolicy`: another name of `DTypePolicy`."""


def layer_policy(dtype):
    """A layer's `dtype` argument (a name, a DTypePolicy or its config) as
    (compute dtype name, variable dtype name, policy name)."""
    if isinstance(dtype, dict):
        dtype = dtype.get("config", {}).get("name")
    if not isinstance(dtype, (str, DTypePolicy)):
        dtype = dtypes.as_dtype(dtype).name
    policy = dtype if isinstance(dtype, DTypePolicy) else DTypePolicy(dtype)
    policy = getattr(policy, "default_policy", policy)     # a DTypePolicyMap: its default
    return policy.compute_dtype, policy.variable_dtype, policy.name

for _cls in (DTypePolicy, FloatDTypePolicy):
    serialization.register_builtin("keras", _cls)
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
        policy = DTypePolicy(policy)
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
        return DTypePolicy(identifier)
    raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance of "
                     f"DTypePolicy. Received: dtype={identifier}")
