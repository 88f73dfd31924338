"""`keras.dtype_policies.DTypePolicyMap`: layer paths (or regular expressions
over them) mapped to dtype policies, with a default.

    policies = DTypePolicyMap(default_policy="float32")
    policies["encoder/dense"] = "bfloat16"          # an exact path
    policies["decoder/.*"] = "float16"              # a pattern, matched in full
    policies["decoder/attention"].name              # "float16"
    policies["head"].name                           # "float32": the default

A lookup takes the exact key first, else the one key whose pattern matches
the whole path (a ValueError when several do), else the default policy. The
map is itself a policy: its compute and variable dtypes are the default's, so
a layer given one computes in the default policy's dtypes.
"""

import re
from collections.abc import MutableMapping

from runtime._src.keras.dtype_policies import dtype_policy as policies
from runtime._src.keras.saving import serialization_lib as serialization

__all__ = ["DTypePolicyMap"]


class DTypePolicyMap(policies.DTypePolicy, MutableMapping):
    """`DTypePolicyMap(default_policy=None, policy_map=None)`: default_policy
    None means `keras.config.dtype_policy()` at each use."""

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError("If specified, `policy_map` must be a dict. Received: "
                            f"policy_map={policy_map} of type {type(policy_map)}")
        self._default_policy_arg = default_policy
        self._default_policy = policies.get(default_policy)
        self._policy_map = policy_map or {}

    @property
    def name(self):
        return f"map_{self.default_policy.name}"

    @property
    def default_policy(self):
        return policies.get(self._default_policy)

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    @property
    def quantization_mode(self):
        return self.default_policy.quantization_mode

    def __getitem__(self, key):
        if key in self._policy_map:
            return self._policy_map[key]
        matching = [p for p in self._policy_map if re.fullmatch(p, key)]
        if len(matching) > 1:
            raise ValueError(f"Path '{key}' matches multiple dtype policy specification keys: "
                             f"{matching}. Please make sure each path only matches at most one "
                             "dtype policy specification key in the DTypePolicyMap.")
        return self._policy_map[matching[0]] if matching else self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(f"{key} already exist in the DTypePolicyMap with value "
                             f"{self._policy_map[key]}. Please make sure to not use "
                             "duplicated keys.")
        try:
            policy = policies.get(policy)
        except (TypeError, ValueError):
            raise ValueError("Cannot interpret the assigned value by "
                             f"`keras.dtype_policies.get`. Received: {policy} of type "
                             f"{type(policy)}") from None
        self._policy_map[key] = policy

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__

    def get_config(self):
        return {"default_policy": self._default_policy_arg,
                "policy_map": serialization.serialize_keras_object(self._policy_map)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["policy_map"] = serialization.deserialize_keras_object(
            config["policy_map"], custom_objects=custom_objects)
        return cls(**config)

    def __repr__(self):
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return (f"<DTypePolicyMap at {hex(id(self))} default_policy="
                f"{self._default_policy.name}, mapping={mapping}>")


DTypePolicyMap._keras_module = "keras.dtype_policies"       # its config's "module", as Keras's
serialization.register_builtin("keras.dtype_policies", DTypePolicyMap)
