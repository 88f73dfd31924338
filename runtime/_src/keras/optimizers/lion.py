"""`keras.optimizers.Lion`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    var -= lr * sign(beta_1 * m + (1 - beta_1) * g)
    m = beta_2 * m + (1 - beta_2) * g"""

from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import math_ops

__all__ = ["Lion"]


class Lion(Optimizer):
    """`tf.keras.optimizers.Lion(learning_rate=0.001, beta_1=0.9, beta_2=0.99)`."""

    _slot_groups = (("momentum",),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the "
                             f"optimizer degenerates to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = float(beta_1), float(beta_2)

    def _own_config(self):
        return {"beta_1": self.beta_1, "beta_2": self.beta_2}

    def build_slots(self, variable):
        return {"momentum": self.add_slot(variable, "momentum")}

    def update_step(self, grad, variable, lr, slots):
        m = slots["momentum"]
        old = m.read_value()
        variable.assign_sub(lr * math_ops.sign(old * self.beta_1 + grad * (1.0 - self.beta_1)))
        m.assign(old * self.beta_2 + grad * (1.0 - self.beta_2))
