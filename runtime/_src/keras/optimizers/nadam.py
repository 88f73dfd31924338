"""`keras.optimizers.Nadam`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    u_t = beta_1 * (1 - 0.5 * 0.96^t), u_t1 likewise at t + 1;
    u_product *= u_t once per step (before the updates)
    m, v as Adam;  m_hat = u_t1 * m / (1 - u_product * u_t1)
                          + (1 - u_t) * g / (1 - u_product)
    var -= lr * m_hat / (sqrt(v / (1 - beta_2^t)) + epsilon)"""

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops, math_ops

__all__ = ["Nadam"]


class Nadam(Optimizer):
    """`tf.keras.optimizers.Nadam(learning_rate=0.001, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7)`."""

    _slot_groups = (("momentum", "velocity"),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        with init_scope():
            self._u_product = KerasVariable(convert_to_tensor(1.0, dtypes.float32),
                                            trainable=False, name="u_product",
                                            path=f"{self.name}/u_product")
        self._extra_variables.append(self._u_product)

    def _own_config(self):
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}

    def build_slots(self, variable):
        return {"momentum": self.add_slot(variable, "momentum"),
                "velocity": self.add_slot(variable, "velocity")}

    def _u(self, step):
        return self.beta_1 * (1.0 - 0.5 * math_ops.pow(array_ops.constant(0.96), step))

    def _before_updates(self):
        self._u_product.assign(self._u_product.read_value()
                               * self._u(self._local_step(dtypes.float32)))

    def update_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        step = self._local_step(dtype)
        u_t, u_t1 = self._u(step), self._u(step + 1.0)
        # u_product was already multiplied by u_t this step (Keras 3's order)
        u_product_t = math_ops.cast(self._u_product.read_value(), dtype)
        u_product_t1 = u_product_t * u_t1
        beta_2_power = math_ops.pow(array_ops.constant(self.beta_2, dtype), step)
        m, v = slots["momentum"], slots["velocity"]
        m_new = m.assign_add((grad - m.read_value()) * (1.0 - self.beta_1))
        v_new = v.assign_add((math_ops.square(grad) - v.read_value()) * (1.0 - self.beta_2))
        m_hat = u_t1 * m_new / (1.0 - u_product_t1) + (1.0 - u_t) * grad / (1.0 - u_product_t)
        v_hat = v_new / (1.0 - beta_2_power)
        variable.assign_sub(m_hat * lr / (math_ops.sqrt(v_hat) + self.epsilon))
