"""`keras.optimizers.Adadelta`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    ag = rho * ag + (1 - rho) * g^2
    d = -sqrt(adv + eps) / sqrt(ag + eps) * g
    adv = rho * adv + (1 - rho) * d^2;  var += lr * d"""

from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import math_ops

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """`tf.keras.optimizers.Adadelta(learning_rate=0.001, rho=0.95, epsilon=1e-7)`."""

    _slot_groups = (("accumulated_grad", "accumulated_delta_var"),)

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name=None,
                 **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.rho, self.epsilon = float(rho), float(epsilon)

    def _own_config(self):
        return {"rho": self.rho, "epsilon": self.epsilon}

    def build_slots(self, variable):
        return {"accumulated_grad": self.add_slot(variable, "accumulated_grad"),
                "accumulated_delta_var": self.add_slot(variable, "accumulated_delta_var")}

    def update_step(self, grad, variable, lr, slots):
        rho = self.rho
        ag, adv = slots["accumulated_grad"], slots["accumulated_delta_var"]
        ag_new = ag.assign(ag.read_value() * rho + math_ops.square(grad) * (1.0 - rho))
        adv_old = adv.read_value()
        delta = math_ops.negative(math_ops.sqrt(adv_old + self.epsilon) * grad
                                  / math_ops.sqrt(ag_new + self.epsilon))
        adv.assign(adv_old * rho + math_ops.square(delta) * (1.0 - rho))
        variable.assign_add(lr * delta)
