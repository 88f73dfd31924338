"""`keras.optimizers.SGD(learning_rate=0.01, momentum=0.0, nesterov=False)`, with
Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1):

    m = momentum * m - lr * g
    var += momentum * m - lr * g (nesterov)  |  var += m  |  var -= lr * g (no momentum)"""

import numbers
from runtime._src.keras.optimizers.optimizer import Optimizer

__all__ = ["SGD"]


def _check_fraction(name, value):
    if not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise ValueError(f"`{name}` must be a float between [0, 1]. Received: "
                         f"{name}={value!r} (of type {type(value)})")


class SGD(Optimizer):
    """`tf.keras.optimizers.SGD(learning_rate=0.01, momentum=0.0, nesterov=False)`."""

    _slot_groups = (("momentum",),)

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **kwargs):
        _check_fraction("momentum", momentum)
        super().__init__(learning_rate, name, **kwargs)
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)

    def _own_config(self):
        return {"momentum": self.momentum, "nesterov": self.nesterov}

    def build_slots(self, variable):
        return {"momentum": self.add_slot(variable, "momentum")} if self.momentum else {}

    def update_step(self, grad, variable, lr, slots):
        if not self.momentum:
            variable.assign_sub(grad * lr)
            return
        m = slots["momentum"]
        m_new = m.assign(m.read_value() * self.momentum - grad * lr)
        if self.nesterov:
            variable.assign_add(m_new * self.momentum - grad * lr)
        else:
            variable.assign_add(m_new)
