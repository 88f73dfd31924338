"""Learning-rate schedules: a learning rate that is a function of the step.

    lr = ExponentialDecay(0.1, decay_steps=100, decay_rate=0.5)
    opt = SGD(learning_rate=lr)    # each update uses lr(opt.iterations)

The optimizer calls the schedule on its `iterations` Variable inside
`apply_gradients`, so in a traced training step the rate is graph ops reading
that Variable: the step is traced once and the rate changes on every run.
Formulas (step: the number of updates applied so far, as float32):

    ExponentialDecay         lr0 * rate ** (step / decay_steps)
    InverseTimeDecay         lr0 / (1 + rate * step / decay_steps)
                             (staircase=True: floor(step / decay_steps) in both)
    PolynomialDecay          p = min(step, decay_steps) / decay_steps (cycle: decay_steps
                             times ceil(step / decay_steps), 1 at step 0);
                             (lr0 - end) * (1 - p) ** power + end
    PiecewiseConstantDecay   values[0] while step <= boundaries[0], values[i] while
                             boundaries[i-1] < step <= boundaries[i], values[-1] after
    CosineDecay              s = min(step, decay_steps);
                             lr0 * ((1 - alpha) * 0.5 * (1 + cos(pi * s / decay_steps)) + alpha);
                             with warmup_target: first a line from lr0 to warmup_target
                             over warmup_steps, then the cosine from warmup_target
    CosineDecayRestarts      f = step / first_decay_steps; i restarts so far
                             (floor(f), or floor(log(1 - f (1 - t_mul)) / log t_mul)),
                             f the fraction of the current period; lr0 * ((1 - alpha) *
                             0.5 m_mul**i (1 + cos(pi f)) + alpha)
"""

import math

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.function.control_flow import cond
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import math_ops

__all__ = ["LearningRateSchedule", "ExponentialDecay", "InverseTimeDecay",
           "PiecewiseConstantDecay", "CosineDecay", "CosineDecayRestarts", "PolynomialDecay",
           "serialize", "deserialize"]


def _float(value):
    return math_ops.cast(convert_to_tensor(value), dtypes.float32)


def _check_decay_steps(decay_steps):
    if decay_steps <= 0:
        raise ValueError(f"Argument `decay_steps` must be > 0. Received: "
                         f"decay_steps={decay_steps}")


class LearningRateSchedule:
    """`tf.keras.optimizers.schedules.LearningRateSchedule`: subclass it and
    define `__call__(step)` returning the rate (a float32 scalar)."""

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__ == __name__ and not cls.__name__.startswith("_"):
            serialization.register_builtin("keras.optimizers.schedules", cls)


class _StepDecay(LearningRateSchedule):
    """The arguments ExponentialDecay and InverseTimeDecay share; `_decayed(lr0,
    rate, p)` with p = step / decay_steps (floored when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name=None):
        _check_decay_steps(decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.decay_rate = decay_steps, decay_rate
        self.staircase, self.name = staircase, name or type(self).__name__

    def __call__(self, step):
        p = math_ops.divide(_float(step), _float(self.decay_steps))
        if self.staircase:
            p = math_ops.floor(p)
        return self._decayed(_float(self.initial_learning_rate), _float(self.decay_rate), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_StepDecay):
    """`ExponentialDecay(initial_learning_rate, decay_steps, decay_rate,
    staircase=False, name="ExponentialDecay")`: lr0 * rate ** p."""

    def _decayed(self, lr0, rate, p):
        return math_ops.multiply(lr0, math_ops.pow(rate, p))


class InverseTimeDecay(_StepDecay):
    """`InverseTimeDecay(initial_learning_rate, decay_steps, decay_rate,
    staircase=False, name="InverseTimeDecay")`: lr0 / (1 + rate * p)."""

    def _decayed(self, lr0, rate, p):
        return math_ops.divide(lr0, math_ops.add(_float(1.0), math_ops.multiply(rate, p)))


class PiecewiseConstantDecay(LearningRateSchedule):
    """`PiecewiseConstantDecay(boundaries, values, name="PiecewiseConstant")`:
    len(values) == len(boundaries) + 1."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        step = _float(step)
        rate = _float(self.values[-1])
        for boundary, value in reversed(list(zip(self.boundaries, self.values))):
            rate = math_ops.where(math_ops.less_equal(step, _float(boundary)),
                                  _float(value), rate)
        return rate

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """`CosineDecay(initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
    warmup_target=None, warmup_steps=0)`."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        _check_decay_steps(decay_steps)
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.alpha, self.name = alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decay(self, step, decay_steps, decay_from):
        fraction = math_ops.divide(step, decay_steps)
        cosine = math_ops.multiply(_float(0.5), math_ops.add(
            _float(1.0), math_ops.cos(math_ops.multiply(_float(math.pi), fraction))))
        decayed = math_ops.add(math_ops.multiply(_float(1.0 - self.alpha), cosine),
                               _float(self.alpha))
        return math_ops.multiply(decay_from, decayed)

    def __call__(self, step):
        lr0 = _float(self.initial_learning_rate)
        decay_steps = _float(self.decay_steps)
        step = _float(step)
        if self.warmup_target is None:
            return self._decay(math_ops.minimum(step, decay_steps), decay_steps, lr0)
        target, warmup = _float(self.warmup_target), _float(self.warmup_steps)
        step = math_ops.minimum(step, math_ops.add(decay_steps, warmup))

        def warming():
            delta = math_ops.subtract(target, lr0)
            return math_ops.add(math_ops.multiply(delta, math_ops.divide(step, warmup)), lr0)
        return cond(math_ops.less(step, warmup), warming,
                    lambda: self._decay(math_ops.subtract(step, warmup), decay_steps, target))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """`CosineDecayRestarts(initial_learning_rate, first_decay_steps, t_mul=2.0,
    m_mul=1.0, alpha=0.0, name="SGDRDecay")`: cosine decay that restarts,
    each period `t_mul` times longer and its peak `m_mul` times lower."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name="SGDRDecay"):
        if first_decay_steps <= 0:
            raise ValueError("Argument `first_decay_steps` must be > 0. Received: "
                             f"first_decay_steps={first_decay_steps}")
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, \
            first_decay_steps
        self.t_mul, self.m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def _period(self, fraction):
        """(restarts so far, the fraction of the current period done)."""
        if self.t_mul == 1.0:
            restarts = math_ops.floor(fraction)
            return restarts, math_ops.subtract(fraction, restarts)
        t_mul = _float(self.t_mul)
        restarts = math_ops.floor(math_ops.divide(
            math_ops.log(math_ops.subtract(_float(1.0), math_ops.multiply(
                fraction, math_ops.subtract(_float(1.0), t_mul)))),
            math_ops.log(t_mul)))
        done = math_ops.divide(math_ops.subtract(_float(1.0), math_ops.pow(t_mul, restarts)),
                               math_ops.subtract(_float(1.0), t_mul))
        return restarts, math_ops.divide(math_ops.subtract(fraction, done),
                                         math_ops.pow(t_mul, restarts))

    def __call__(self, step):
        fraction = math_ops.divide(_float(step), _float(self.first_decay_steps))
        restarts, fraction = self._period(fraction)
        peak = math_ops.pow(_float(self.m_mul), restarts)
        cosine = math_ops.multiply(math_ops.multiply(_float(0.5), peak), math_ops.add(
            _float(1.0), math_ops.cos(math_ops.multiply(_float(math.pi), fraction))))
        decayed = math_ops.add(math_ops.multiply(_float(1.0 - self.alpha), cosine),
                               _float(self.alpha))
        return math_ops.multiply(_float(self.initial_learning_rate), decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self.t_mul,
                "m_mul": self.m_mul, "alpha": self.alpha, "name": self.name}


def serialize(learning_rate_schedule):
    """`keras.optimizers.schedules.serialize`: the schedule's
    {"module", "class_name", "config", "registered_name"}."""
    return serialization.serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    """`keras.optimizers.schedules.deserialize`: the schedule `config` describes."""
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.optimizers.schedules")


class PolynomialDecay(LearningRateSchedule):
    """`PolynomialDecay(initial_learning_rate, decay_steps, end_learning_rate=0.0001,
    power=1.0, cycle=False, name="PolynomialDecay")`."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name="PolynomialDecay"):
        _check_decay_steps(decay_steps)
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power = end_learning_rate, power
        self.cycle, self.name = cycle, name

    def __call__(self, step):
        step = _float(step)
        decay_steps = _float(self.decay_steps)
        if self.cycle:
            multiplier = math_ops.where(math_ops.equal(step, _float(0.0)), _float(1.0),
                                        math_ops.ceil(math_ops.divide(step, decay_steps)))
            decay_steps = math_ops.multiply(decay_steps, multiplier)
        else:
            step = math_ops.minimum(step, decay_steps)
        p = math_ops.divide(step, decay_steps)
        end = _float(self.end_learning_rate)
        span = math_ops.subtract(_float(self.initial_learning_rate), end)
        return math_ops.add(math_ops.multiply(span, math_ops.pow(
            math_ops.subtract(_float(1.0), p), _float(self.power))), end)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}
