"""`keras.optimizers.Ftrl`: see `Ftrl.update_step` (McMahan et al.; Keras 3's arithmetic)."""

from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import math_ops

__all__ = ["Ftrl"]


class Ftrl(Optimizer):
    """`tf.keras.optimizers.Ftrl(learning_rate=0.001, learning_rate_power=-0.5,
    initial_accumulator_value=0.1, l1_regularization_strength=0.0,
    l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
    beta=0.0)`."""

    _slot_groups = (("accumulator", "linear"),)

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        if initial_accumulator_value < 0.0 or learning_rate_power > 0.0:
            raise ValueError("Ftrl: `initial_accumulator_value` must be >= 0 and "
                             "`learning_rate_power` <= 0. Received: initial_accumulator_value="
                             f"{initial_accumulator_value}, learning_rate_power="
                             f"{learning_rate_power}")
        self.learning_rate_power = float(learning_rate_power)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.l1_regularization_strength = float(l1_regularization_strength)
        self.l2_regularization_strength = float(l2_regularization_strength)
        self.l2_shrinkage_regularization_strength = float(l2_shrinkage_regularization_strength)
        self.beta = float(beta)

    def _own_config(self):
        return {"learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength":
                    self.l2_shrinkage_regularization_strength, "beta": self.beta}

    def build_slots(self, variable):
        return {"accumulator": self.add_slot(variable, "accumulator",
                                             self.initial_accumulator_value),
                "linear": self.add_slot(variable, "linear")}

    def update_step(self, grad, variable, lr, slots):
        power = self.learning_rate_power
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        accum, linear = slots["accumulator"], slots["linear"]
        var = variable.read_value()
        old = accum.read_value()
        grad_to_use = grad + var * (2.0 * self.l2_shrinkage_regularization_strength)
        new_accum = old + math_ops.square(grad)
        linear_new = linear.assign_add(grad_to_use - (
            math_ops.pow(new_accum, -power) - math_ops.pow(old, -power)) / lr * var)
        quadratic = math_ops.pow(new_accum, -power) / lr + 2.0 * l2
        l1 = self.l1_regularization_strength
        clipped = math_ops.clip_by_value(linear_new, -l1, l1)
        variable.assign((clipped - linear_new) / quadratic)
        accum.assign(new_accum)
