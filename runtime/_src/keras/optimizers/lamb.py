"""`keras.optimizers.Lamb`, with Keras 3's update rule (g: the gradient, lr: the
learning rate, t: iterations + 1):

    m, v as Adam; update = (m / (1 - beta_1^t)) / (sqrt(v / (1 - beta_2^t)) + epsilon);
    var -= lr * (|var| / |update| when both are non-zero, else 1) * update"""

from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """`keras.optimizers.Lamb(learning_rate=0.001, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7)`."""

    _slot_groups = (("momentum", "velocity"),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _own_config(self):
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}

    def build_slots(self, variable):
        return {"momentum": self.add_slot(variable, "momentum"),
                "velocity": self.add_slot(variable, "velocity")}

    def update_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        step = self._local_step(dtype)
        m, v = slots["momentum"], slots["velocity"]
        m_new = m.assign_add((grad - m.read_value()) * (1.0 - self.beta_1))
        v_new = v.assign_add((math_ops.square(grad) - v.read_value()) * (1.0 - self.beta_2))
        m_hat = m_new / (1.0 - math_ops.pow(array_ops.constant(self.beta_1, dtype), step))
        v_hat = v_new / (1.0 - math_ops.pow(array_ops.constant(self.beta_2, dtype), step))
        update = m_hat / (math_ops.sqrt(v_hat) + self.epsilon)
        w_norm = math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(variable.read_value())))
        g_norm = math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(update)))
        one = array_ops.ones_like(w_norm)
        ratio = math_ops.where(math_ops.greater(w_norm, 0.0), math_ops.where(
            math_ops.greater(g_norm, 0.0), w_norm / math_ops.maximum(g_norm, 1e-30), one), one)
        variable.assign_sub(ratio * math_ops.cast(lr, dtype) * update)
