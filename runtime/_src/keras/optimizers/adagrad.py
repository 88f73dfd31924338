"""`keras.optimizers.Adagrad`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    acc += g^2 (acc starts at initial_accumulator_value)
    var -= lr * g / sqrt(acc + epsilon)"""

from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import math_ops

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """`tf.keras.optimizers.Adagrad(learning_rate=0.001,
    initial_accumulator_value=0.1, epsilon=1e-7)`."""

    _slot_groups = (("accumulator",),)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name=None, **kwargs):
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
