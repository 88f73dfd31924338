"""`keras.optimizers.Adam(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7)`,
with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    m += (g - m) * (1 - beta_1);  v += (g^2 - v) * (1 - beta_2)
    var -= lr * sqrt(1 - beta_2^t) / (1 - beta_1^t) * m / (sqrt(v) + epsilon)"""

from runtime._src.ops import array_ops, math_ops
from runtime._src.keras.optimizers.optimizer import Optimizer

__all__ = ["Adam"]


class Adam(Optimizer):
    """`tf.keras.optimizers.Adam(learning_rate=0.001, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7, amsgrad=False)`."""

    _slot_groups = (("momentum", "velocity"), ("velocity_hat",))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2 = float(beta_1), float(beta_2)
        self.epsilon = float(epsilon)
        self.amsgrad = bool(amsgrad)

    def _own_config(self):
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                "amsgrad": self.amsgrad}

    def build_slots(self, variable):
        slots = {"momentum": self.add_slot(variable, "momentum"),
                 "velocity": self.add_slot(variable, "velocity")}
        if self.amsgrad:
            slots["velocity_hat"] = self.add_slot(variable, "velocity_hat")
        return slots

    def update_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        step = self._local_step(dtype)
        beta_1_power = math_ops.pow(array_ops.constant(self.beta_1, dtype), step)
        beta_2_power = math_ops.pow(array_ops.constant(self.beta_2, dtype), step)
        alpha = lr * math_ops.sqrt(1.0 - beta_2_power) / (1.0 - beta_1_power)
        m, v = slots["momentum"], slots["velocity"]
        m_new = m.assign_add((grad - m.read_value()) * (1.0 - self.beta_1))
        v_new = v.assign_add((math_ops.square(grad) - v.read_value()) * (1.0 - self.beta_2))
        if self.amsgrad:
            v_hat = slots["velocity_hat"]
            v_new = v_hat.assign(math_ops.maximum(v_hat.read_value(), v_new))
        variable.assign_sub(m_new * alpha / (math_ops.sqrt(v_new) + self.epsilon))
