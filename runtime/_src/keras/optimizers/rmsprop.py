"""`keras.optimizers.RMSprop(learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
centered=False)`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    v = rho * v + (1 - rho) * g^2;  increment = lr * g / sqrt(v + epsilon)
    (centered: a = rho * a + (1 - rho) * g, the denominator is v - a^2 + epsilon)
    var -= increment   |   mom = momentum * mom + increment; var -= mom"""

from runtime._src.ops import math_ops
from runtime._src.keras.optimizers.optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """`tf.keras.optimizers.RMSprop(learning_rate=0.001, rho=0.9, momentum=0.0,
    epsilon=1e-7, centered=False)`."""

    _slot_groups = (("velocity",), ("momentum",), ("average_gradient",))

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.rho, self.momentum = float(rho), float(momentum)
        self.epsilon = float(epsilon)
        self.centered = bool(centered)

    def _own_config(self):
        return {"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                "centered": self.centered}

    def build_slots(self, variable):
        slots = {"velocity": self.add_slot(variable, "velocity")}
        if self.momentum > 0:
            slots["momentum"] = self.add_slot(variable, "momentum")
        if self.centered:
            slots["average_gradient"] = self.add_slot(variable, "average_gradient")
        return slots

    def update_step(self, grad, variable, lr, slots):
        rho = self.rho
        v = slots["velocity"]
        v_new = v.assign(v.read_value() * rho + math_ops.square(grad) * (1.0 - rho))
        if self.centered:
            a = slots["average_gradient"]
            a_new = a.assign(a.read_value() * rho + grad * (1.0 - rho))
            denominator = v_new - math_ops.square(a_new) + self.epsilon
        else:
            denominator = v_new + self.epsilon
        increment = lr * grad / math_ops.sqrt(denominator)
        if self.momentum > 0:
            mom = slots["momentum"]
            variable.assign_sub(mom.assign(mom.read_value() * self.momentum + increment))
        else:
            variable.assign_sub(increment)
