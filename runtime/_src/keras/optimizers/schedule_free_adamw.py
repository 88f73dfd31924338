"""`keras.optimizers.ScheduleFreeAdamW`, with Keras 3's update rule (g: the gradient,
lr: the learning rate, t: iterations + 1):

    z (the "momentum" slot, starting at var) -= lr_t * g /
    (sqrt(v / (1 - beta_2^t)) + epsilon), v as Adam's; with
    x = (var - (1 - beta_1) z) / beta_1 (the new z, as Keras 3.15 on TF):
    x = (1 - 1/t) x + z / t and
    var = (1 - beta_1) z + beta_1 x  (lr_t warmed up over warmup_steps)"""

from runtime._src.core.context import init_scope
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import array_ops, math_ops

__all__ = ["ScheduleFreeAdamW"]


class ScheduleFreeAdamW(Optimizer):
    """`keras.optimizers.ScheduleFreeAdamW(learning_rate=0.0025, beta_1=0.9,
    beta_2=0.999, epsilon=1e-8, warmup_steps=0)`."""

    _slot_groups = (("momentum", "velocity"),)

    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999, epsilon=1e-8,
                 warmup_steps=0, name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.warmup_steps = warmup_steps

    def _own_config(self):
        return {"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                "warmup_steps": self.warmup_steps}

    def build_slots(self, variable):
        momentum = self.add_slot(variable, "momentum")
        with init_scope():
            momentum.assign(variable.read_value())
        return {"momentum": momentum, "velocity": self.add_slot(variable, "velocity")}

    def update_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        step = self._local_step(dtype)
        lr = math_ops.cast(lr, dtype)
        if self.warmup_steps > 0:
            lr = lr * math_ops.minimum(step / float(self.warmup_steps), 1.0)
        z, v = slots["momentum"], slots["velocity"]
        z_old, v_old, y_old = z.read_value(), v.read_value(), variable.read_value()
        b1 = array_ops.constant(self.beta_1, dtype)      # Keras's float32 arithmetic
        b2 = array_ops.constant(self.beta_2, dtype)
        correction = 1.0 - math_ops.pow(b2, step)
        v_new = v_old + (math_ops.square(grad) - v_old) * (1.0 - b2)
        z_new = z_old - lr * grad / (math_ops.sqrt(v_new / correction) + self.epsilon)
        weight = 1.0 / step
        # Keras 3.15 reads its momentum after updating it (`momentum.value` is the
        # variable itself on TF), so x comes from the new z
        x = (y_old - (1.0 - b1) * z_new) / b1
        x = (1.0 - weight) * x + weight * z_new
        v.assign(v_new)
        z.assign(z_new)      # every read above comes before these writes
        variable.assign((1.0 - b1) * z_new + b1 * x)
