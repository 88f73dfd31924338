"""More optimizers, with Keras 3's update rules: `AdamW`, `Adagrad`,
`Adadelta`, `Adamax`, `Nadam`, `Ftrl`, `Lion` (SGD, Adam, RMSprop and the
shared machinery are in optimizers/optimizer.py).

g: the gradient, lr: the learning rate, t: iterations + 1.

    AdamW     Adam with weight_decay=0.004: var -= var * wd * lr first
    Adagrad   acc += g^2 (acc starts at initial_accumulator_value)
              var -= lr * g / sqrt(acc + epsilon)
    Adadelta  ag = rho * ag + (1 - rho) * g^2
              d = -sqrt(adv + eps) / sqrt(ag + eps) * g
              adv = rho * adv + (1 - rho) * d^2;  var += lr * d
    Adamax    m += (g - m) * (1 - beta_1);  u = max(beta_2 * u, |g|)
              var -= lr * m / ((1 - beta_1^t) * (u + epsilon))
    Nadam     u_t = beta_1 * (1 - 0.5 * 0.96^t), u_t1 likewise at t + 1;
              u_product *= u_t once per step (before the updates)
              m, v as Adam;  m_hat = u_t1 * m / (1 - u_product * u_t1)
                                    + (1 - u_t) * g / (1 - u_product)
              var -= lr * m_hat / (sqrt(v / (1 - beta_2^t)) + epsilon)
    Ftrl      see `Ftrl.update_step` (McMahan et al.; Keras 3's arithmetic)
    Lion      var -= lr * sign(beta_1 * m + (1 - beta_1) * g)
              m = beta_2 * m + (1 - beta_2) * g
"""

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.optimizers.optimizer import Adam, Optimizer
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops, math_ops

__all__ = ["AdamW", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl", "Lion"]


class AdamW(Adam):
    """`tf.keras.optimizers.AdamW(learning_rate=0.001, weight_decay=0.004,
    beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False)`."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="adamw", **kwargs):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name,
                         weight_decay=weight_decay, **kwargs)


class Adagrad(Optimizer):
    """`tf.keras.optimizers.Adagrad(learning_rate=0.001,
    initial_accumulator_value=0.1, epsilon=1e-7)`."""

    _slot_groups = (("accumulator",),)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="adagrad", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.epsilon = float(epsilon)

    def _own_config(self):
        return {"initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}

    def build_slots(self, variable):
        return {"accumulator": self.add_slot(variable, "accumulator",
                                             self.initial_accumulator_value)}

    def update_step(self, grad, variable, lr, slots):
        acc = slots["accumulator"]
        acc_new = acc.assign_add(math_ops.square(grad))
        variable.assign_sub(lr * grad / math_ops.sqrt(acc_new + self.epsilon))


class Adadelta(Optimizer):
    """`tf.keras.optimizers.Adadelta(learning_rate=0.001, rho=0.95, epsilon=1e-7)`."""

    _slot_groups = (("accumulated_grad", "accumulated_delta_var"),)

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="adadelta",
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


class Adamax(Optimizer):
    """`tf.keras.optimizers.Adamax(learning_rate=0.001, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7)`."""

    _slot_groups = (("momentum", "norm"),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="adamax", **kwargs):
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


class Nadam(Optimizer):
    """`tf.keras.optimizers.Nadam(learning_rate=0.001, beta_1=0.9, beta_2=0.999,
    epsilon=1e-7)`."""

    _slot_groups = (("momentum", "velocity"),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="nadam", **kwargs):
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


class Ftrl(Optimizer):
    """`tf.keras.optimizers.Ftrl(learning_rate=0.001, learning_rate_power=-0.5,
    initial_accumulator_value=0.1, l1_regularization_strength=0.0,
    l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
    beta=0.0)`."""

    _slot_groups = (("accumulator", "linear"),)

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, name="ftrl", **kwargs):
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


class Lion(Optimizer):
    """`tf.keras.optimizers.Lion(learning_rate=0.001, beta_1=0.9, beta_2=0.99)`."""

    _slot_groups = (("momentum",),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name="lion", **kwargs):
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
