"""`keras.optimizers.Adafactor`, with Keras 3's update rule (g: the gradient, lr: the learning rate, t: iterations + 1, rms(x) = sqrt(mean(x^2))):

    lr = min(lr, 1/sqrt(t)) (relative_step, a constant rate);
    alpha = max(epsilon_2, rms(var)) * min(lr, 1/sqrt(t))
    b = 1 - t^beta_2_decay;  g2 = g^2 + epsilon_1
    a matrix (rank >= 2): r = b r + (1 - b) mean(g2, -1),
      c = b c + (1 - b) mean(g2, -2), v = (r / mean(r)) outer c
    otherwise v = b v + (1 - b) g2
    u = g / sqrt(v);  var -= alpha * u / max(1, rms(u) / clip_threshold)"""

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.optimizers.schedules.learning_rate_schedule import LearningRateSchedule
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Adafactor"]


def _rms(x):
    return math_ops.sqrt(reduction_ops.reduce_mean(math_ops.square(x)))


class Adafactor(Optimizer):
    """`keras.optimizers.Adafactor(learning_rate=0.001, beta_2_decay=-0.8,
    epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0, relative_step=True)`."""

    _slot_groups = (("r", "c", "velocity"),)

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30,
                 epsilon_2=1e-3, clip_threshold=1.0, relative_step=True, name=None,
                 **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_2_decay, self.epsilon_1 = beta_2_decay, epsilon_1
        self.epsilon_2, self.clip_threshold = epsilon_2, clip_threshold
        self.relative_step = relative_step

    def _own_config(self):
        return {"beta_2_decay": self.beta_2_decay, "epsilon_1": self.epsilon_1,
                "epsilon_2": self.epsilon_2, "clip_threshold": self.clip_threshold,
                "relative_step": self.relative_step}

    def build_slots(self, variable):
        """r and c (the factored second moments of the last two axes), then
        velocity, as Keras 3 makes them: a variable of rank below 2 gets an
        int32 zero as each of r and c, unused (Keras's placeholders), so the
        optimizer's variables are Keras's in number and order."""
        shape = list(variable.shape.dims)
        if len(shape) >= 2:
            slots = {"r": self._sized_slot(variable, shape[:-1], variable.dtype),
                     "c": self._sized_slot(variable, shape[:-2] + shape[-1:], variable.dtype)}
        else:
            slots = {"r": self._sized_slot(variable, [], dtypes.int32, placeholder=True),
                     "c": self._sized_slot(variable, [], dtypes.int32, placeholder=True)}
        slots["velocity"] = self.add_slot(variable, "velocity")
        return slots

    def _sized_slot(self, variable, shape, dtype, placeholder=False):
        """A zero slot named after the variable (Keras: `adafactor/kernel`; a
        placeholder just `bias`)."""
        with init_scope():
            value = array_ops.zeros(shape, dtype)
        name = variable.name[:-2] if variable.name.endswith(":0") else variable.name
        name = name.rsplit("/", 1)[-1]
        return KerasVariable(value, trainable=False, name=name,
                             path=name if placeholder else f"{self.name}/{name}")

    def update_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        step = self._local_step(dtype)
        lr = math_ops.cast(lr, dtype)
        inverse_root = 1.0 / math_ops.sqrt(step)
        if self.relative_step and not isinstance(self._learning_rate, LearningRateSchedule):
            lr = math_ops.minimum(lr, inverse_root)
        alpha = math_ops.maximum(array_ops.constant(self.epsilon_2, dtype),
                                 _rms(variable.read_value())) * math_ops.minimum(lr,
                                                                                 inverse_root)
        g2 = math_ops.square(grad) + self.epsilon_1
        b = 1.0 - math_ops.pow(step, array_ops.constant(self.beta_2_decay, dtype))
        v = slots["velocity"]
        if len(variable.shape.dims) >= 2:
            r = slots["r"].assign(b * slots["r"].read_value() +
                                  (1.0 - b) * reduction_ops.reduce_mean(g2, -1))
            c = slots["c"].assign(b * slots["c"].read_value() +
                                  (1.0 - b) * reduction_ops.reduce_mean(g2, -2))
            v_new = v.assign(array_ops.expand_dims(
                r / reduction_ops.reduce_mean(r, -1, keepdims=True), -1) *
                array_ops.expand_dims(c, -2))
        else:
            v_new = v.assign(b * v.read_value() + (1.0 - b) * g2)
        u = grad / math_ops.sqrt(v_new)
        u = u / math_ops.maximum(array_ops.constant(1.0, dtype), _rms(u) / self.clip_threshold)
        variable.assign_sub(alpha * u)
