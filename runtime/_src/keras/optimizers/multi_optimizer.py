"""`keras.optimizers.MultiOptimizer` and `OptimizerMap`: different optimizers
for different variables, as Keras 3.15.

    MultiOptimizer(OptimizerMap(default_optimizer=SGD(), optimizer_map={
        "encoder/.*": Adam()}))                 # by variable path
    MultiOptimizer(lambda variable: ...)        # or any function of the variable

An OptimizerMap finds a variable's optimizer by its path: an exact key
first, else the one key that matches the whole path as a regular
expression (two matches are an error), else the default. Each step hands
each optimizer its own variables' gradients; `iterations` counts the
MultiOptimizer's steps, and each inner optimizer counts its own.
"""

import re
from collections.abc import MutableMapping

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer

__all__ = ["MultiOptimizer", "OptimizerMap"]


def _check_inner(optimizer, what):
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"{what} must be a Keras Optimizer instance. Received: {optimizer}")
    if isinstance(optimizer, LossScaleOptimizer):
        raise ValueError("LossScaleOptimizer cannot be used inside an MultiOptimizer.")
    if isinstance(optimizer, MultiOptimizer):
        raise ValueError("MultiOptimizer cannot be used inside an MultiOptimizer.")


class OptimizerMap(MutableMapping):
    """`keras.optimizers.OptimizerMap(default_optimizer, optimizer_map=None)`."""

    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError("default_optimizer must be a Keras Optimizer instance. "
                            f"Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer = default_optimizer
        self._optimizer_map = dict(optimizer_map or {})

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matches = [p for p in self._optimizer_map if re.fullmatch(p, key)]
        if len(matches) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        return self._optimizer_map[matches[0]] if matches else self._default_optimizer

    def __setitem__(self, key, optimizer):
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value "
                             f"{self._optimizer_map[key]}. Please make sure to not use "
                             "duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        _check_inner(optimizer, "optimizer")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[str(getattr(variable, "path", variable.name))]

    def get_config(self):
        ser = serialization.serialize_keras_object
        return {"default_optimizer": ser(self._default_optimizer),
                "optimizer_map": {k: ser(v) for k, v in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        def load(c):
            return serialization.deserialize_keras_object(c, custom_objects,
                                                          module="keras.optimizers")
        return cls(load(config["default_optimizer"]),
                   {k: load(v) for k, v in config["optimizer_map"].items()})


class MultiOptimizer(Optimizer):
    """`keras.optimizers.MultiOptimizer(optimizer_map, loss_scale_factor=None,
    name=None)`: optimizer_map an OptimizerMap or a function of a variable."""

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        super().__init__(0.0, name, loss_scale_factor=loss_scale_factor)
        self._optimizer_map = optimizer_map
        self._inner_optimizers = []
        values = list(optimizer_map.values()) if hasattr(optimizer_map, "values") else []
        default = getattr(optimizer_map, "default_optimizer", None)
        for opt in values + ([default] if default is not None else []):
            if opt not in self._inner_optimizers:
                self._inner_optimizers.append(opt)
        self._assigned = {}          # id(variable) -> its optimizer

    @property
    def optimizers(self):
        return self._inner_optimizers

    @property
    def variables(self):
        own = [self._iterations, self._learning_rate]
        return own + [v for opt in self._inner_optimizers for v in opt.variables]

    @property
    def learning_rate(self):
        raise AttributeError("Learning rate cannot be accessed on a MultiOptimizer. Access "
                             "the learning rate on the individual sub-optimizers instead.")

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError("Learning rate cannot be set on a MultiOptimizer. Set the "
                             "learning rate on the individual sub-optimizers instead.")

    def _optimizer_for(self, variable):
        opt = self._assigned.get(id(variable))
        if opt is None:
            opt = self._optimizer_map(variable)
            _check_inner(opt, f"Optimizer for variable {variable.name}")
            if opt not in self._inner_optimizers:
                self._inner_optimizers.append(opt)
            self._assigned[id(variable)] = opt
        return opt

    def finalize_variable_values(self, var_list):
        """Each inner optimizer's, on the variables it updates."""
        for opt in self._inner_optimizers:
            opt.finalize_variable_values(
                [v for v in var_list if self._assigned.get(id(v)) is opt])

    def apply_gradients(self, grads_and_vars, **kwargs):
        groups = {}
        for grad, var in grads_and_vars:
            groups.setdefault(id(self._optimizer_for(var)), []).append((grad, var))
        self.built = True
        for opt in self._inner_optimizers:
            pairs = groups.get(id(opt))
            if pairs:
                opt.apply_gradients(pairs)
        self._iterations.assign_add(convert_to_tensor(1, dtypes.int64))
        return self._iterations
