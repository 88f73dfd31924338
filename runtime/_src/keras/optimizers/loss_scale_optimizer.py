"""`keras.optimizers.LossScaleOptimizer(inner, initial_scale=2**15,
dynamic_growth_steps=2000)`: `scale_loss(loss)` multiplies by the scale (Model.fit
does it); with all gradients finite the inner optimizer applies g / scale and the
scale doubles every dynamic_growth_steps such steps; otherwise nothing is applied
and the scale halves."""

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.function.control_flow import cond
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["LossScaleOptimizer"]


class LossScaleOptimizer(Optimizer):
    """`keras.optimizers.LossScaleOptimizer(inner_optimizer, initial_scale=2.0**15,
    dynamic_growth_steps=2000)`."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, "
                             "simply set `loss_scale_factor` directly on the "
                             "`inner_optimizer`.")
        for key, value in kwargs.items():
            if value not in (None, False, 0.99):
                raise ValueError(f"LossScaleOptimizer does not support `{key}`. Instead, "
                                 f"set `{key}` on the `inner_optimizer`.")
        if not isinstance(inner_optimizer, Optimizer):
            raise ValueError("LossScaleOptimizer takes an optimizer as `inner_optimizer`; "
                             f"received {inner_optimizer!r}")
        super().__init__(0.0, name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale, self.dynamic_growth_steps = initial_scale, dynamic_growth_steps
        with init_scope():
            self.step_counter = KerasVariable(convert_to_tensor(0, dtypes.int64),
                                              trainable=False, name="step_counter",
                                              path=f"{self.name}/step_counter")
            self.dynamic_scale = KerasVariable(
                convert_to_tensor(float(initial_scale), dtypes.float32), trainable=False,
                name="dynamic_scale", path=f"{self.name}/dynamic_scale")

    @property
    def variables(self):
        own = [self._iterations, self._learning_rate, self.step_counter, self.dynamic_scale]
        return own + self.inner_optimizer.variables

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def scale_loss(self, loss):
        """loss * the current scale."""
        loss = convert_to_tensor(loss)
        return loss * math_ops.cast(self.dynamic_scale.read_value(), loss.dtype)

    def apply_gradients(self, grads_and_vars, **kwargs):
        pairs = [(g, v) for g, v in grads_and_vars]
        grads = [convert_to_tensor(g) for g, _ in pairs if g is not None]
        finite = reduction_ops.reduce_all(array_ops.stack(
            [reduction_ops.reduce_all(math_ops.is_finite(g)) for g in grads]))
        self.built = True
        cond(finite, lambda: self._finite_step(pairs), self._skip_step)
        return self.iterations

    def _finite_step(self, pairs):
        scale = self.dynamic_scale.read_value()
        self.inner_optimizer.apply_gradients(
            [(None if g is None else convert_to_tensor(g) / math_ops.cast(scale, v.dtype), v)
             for g, v in pairs])
        grow = math_ops.equal(self.step_counter.read_value(), self.dynamic_growth_steps - 1)
        self.step_counter.assign(math_ops.where(grow, array_ops.zeros_like(
            self.step_counter.read_value()), self.step_counter.read_value() + 1))
        self.dynamic_scale.assign(math_ops.where(grow, scale * 2.0, scale))
        return array_ops.constant(True)

    def _skip_step(self):
        self.step_counter.assign(array_ops.zeros_like(self.step_counter.read_value()))
        self.dynamic_scale.assign(self.dynamic_scale.read_value() * 0.5)
        return array_ops.constant(False)

    def get_config(self):
        return {"name": self.name,
                "inner_optimizer": serialization.serialize_keras_object(self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        inner = serialization.deserialize_keras_object(config.pop("inner_optimizer"),
                                                       custom_objects,
                                                       module="keras.optimizers")
        return cls(inner, **config)
