"""`keras.optimizers.Adamax`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    m += (g - m) * (1 - beta_1);  u = max(beta_2 * u, |g|)
    var -= lr * m / ((1 - beta_1^t) * (u + epsilon))"""

from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import array_ops, math_ops

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """`tf.keras.optimizers.Adamax(learning_rate=0.001, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7)`."""

    _slot_groups = (("momentum", "norm"),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _own_config(self):
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}

    def build_slots(self, variable):
        return {"momentum": self.add_slot(variable, "momentum"),
                "norm": self.add_slot(variable, "norm")}

    def update_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        beta_1_power = math_ops.pow(array_ops.constant(self.beta_1, dtype),
                                    self._local_step(dtype))
        m, u = slots["momentum"], slots["norm"]
        m_new = m.assign_add((grad - m.read_value()) * (1.0 - self.beta_1))
        u_new = u.assign(math_ops.maximum(u.read_value() * self.beta_2, math_ops.abs(grad)))
        variable.assign_sub(lr * m_new / ((1.0 - beta_1_power) * (u_new + self.epsilon)))
