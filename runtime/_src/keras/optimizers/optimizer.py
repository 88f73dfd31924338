"""`keras.optimizers.Optimizer`: the base of the optimizers (sgd.py, adam.py, ...
one module each, as Keras 3).

    opt = SGD(learning_rate=0.1, momentum=0.9)
    opt.apply_gradients(zip(grads, model.trainable_variables))

`apply_gradients` skips pairs whose gradient is None, creates the slot
variables (momentums, velocities) of a variable the first time it sees it,
updates every variable, and adds 1 to `iterations` (an int64 Variable).
Slots are created once, outside any graph (`init_scope`), so a training step
traced by `tf.function` creates Variables only on its first trace.
`learning_rate` is a float32 Variable: assigning a new rate does not retrace.
It may also be a schedule (runtime/_src/keras/optimizers/schedules/learning_rate_schedule.py), called on
`iterations` in every `apply_gradients`, so the traced step reads the step
count from the Variable and is not traced again as the rate changes.
"""

import warnings

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.distribute import strategy as _strategy  # noqa: F401 - the default strategy
from runtime._src.distribute.context import all_reduce_list
from runtime._src.function.variables import Variable
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.utils.naming import to_snake_case, unique_name
from runtime._src.keras.optimizers.schedules.learning_rate_schedule import LearningRateSchedule
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Optimizer"]


class Optimizer:
    """Base class. Subclasses define `build_slots(var)` and `update_step(g, var, lr)`,
    and `_slot_groups`: the slot names in the groups Keras 3 creates them in
    (its order of `variables`, and of the optimizer's state in its files)."""

    _slot_groups = ()

    def __init__(self, learning_rate, name=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, weight_decay=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, **kwargs):
        for key in kwargs:
            if key not in ("jit_compile", "loss_scale_factor", "gradient_accumulation_steps"):
                raise TypeError(f"{type(self).__name__}: keyword argument not understood: "
                                f"{key!r}")
            if key in ("loss_scale_factor", "gradient_accumulation_steps") and kwargs[key]:
                raise TypeError(f"{type(self).__name__}: {key}={kwargs[key]!r} is not "
                                "supported by runtime.keras")
        if use_ema:
            _check_ema(ema_momentum, ema_overwrite_frequency)
        self.use_ema, self.ema_momentum = bool(use_ema), ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        if sum(v is not None for v in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can "
                             f"be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.name = name or unique_name(to_snake_case(type(self).__name__))
        self.clipnorm, self.clipvalue = clipnorm, clipvalue
        self.global_clipnorm, self.weight_decay = global_clipnorm, weight_decay
        with init_scope():
            self._iterations = KerasVariable(convert_to_tensor(0, dtypes.int64),
                                             trainable=False, name="iteration",
                                             path=f"{self.name}/iteration",
                                             aggregation="only_first_replica")
            if isinstance(learning_rate, dict):
                learning_rate = serialization.deserialize_keras_object(
                    learning_rate, module="keras.optimizers.schedules")
            if isinstance(learning_rate, LearningRateSchedule):
                self._learning_rate = learning_rate
            else:
                self._learning_rate = KerasVariable(
                    convert_to_tensor(float(learning_rate), dtypes.float32),
                    trainable=False, name="learning_rate", path=f"{self.name}/learning_rate",
                    aggregation="only_first_replica")
        self._slots = {}         # id(variable) -> (variable, {slot name: Variable})
        self._averages = {}      # with use_ema: id(variable) -> (variable, its average)
        self._extra_variables = []   # Nadam's u_product
        self.built = False       # set by the first apply_gradients (Model.summary)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("runtime._src.keras."):
            serialization.register_builtin("keras.optimizers", cls)

    def get_config(self):
        """Keras 3's optimizer config: the base arguments, then the subclass's."""
        rate = self._learning_rate
        if isinstance(rate, LearningRateSchedule):
            rate = serialization.serialize_keras_object(rate)
        else:
            rate = float(rate.numpy())
        return {"name": self.name, "learning_rate": rate, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency, "loss_scale_factor": None,
                "gradient_accumulation_steps": None, **self._own_config()}

    def _own_config(self):
        return {}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)

    @property
    def iterations(self):
        return self._iterations

    @property
    def learning_rate(self):
        """The rate Variable, or with a schedule the rate at `iterations` (a tensor)."""
        return self._current_learning_rate()

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(self._learning_rate, LearningRateSchedule):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object "
                            "as its `learning_rate` constructor argument, hence its learning "
                            "rate is not settable. If you need the learning rate to be "
                            "settable, you should instantiate the optimizer with a float "
                            "`learning_rate` argument.")
        self._learning_rate.assign(float(value))

    def _current_learning_rate(self):
        if isinstance(self._learning_rate, LearningRateSchedule):
            rate = self._learning_rate(self._iterations.read_value())
            return math_ops.cast(convert_to_tensor(rate), dtypes.float32)
        return self._learning_rate

    @property
    def variables(self):
        """Keras 3's order: iterations, the learning rate, the moving averages
        (use_ema), then for each group of `_slot_groups` each variable's slots
        of that group (variables in the order they were first updated), then
        Nadam's u_product."""
        found = [self._iterations]
        if isinstance(self._learning_rate, Variable):
            found.append(self._learning_rate)
        found.extend(average for _, average in self._averages.values())
        groups = self._slot_groups or (tuple(n for _, slots in self._slots.values()
                                             for n in slots),)
        for group in groups:
            for _, slots in self._slots.values():
                found.extend(slots[name] for name in group if name in slots)
        found.extend(self._extra_variables)
        return found

    def add_slot(self, variable, slot_name, initial_value=0.0):
        """A Variable shaped like `variable` filled with `initial_value`, made
        outside graphs; named as Keras 3 (`sequential_dense_kernel_momentum`)."""
        with init_scope():
            value = array_ops.fill(list(variable.shape.dims),
                                   array_ops.constant(initial_value, variable.dtype))
        base = getattr(variable, "path", variable.name)
        base = (base[:-2] if base.endswith(":0") else base).replace("/", "_")
        name = f"{base}_{slot_name}"
        return KerasVariable(value, trainable=False, name=name, path=f"{self.name}/{name}")

    def build_slots(self, variable):
        """{slot name: Variable} for a variable seen for the first time."""
        return {}

    def build(self, var_list):
        """Create the slots of `var_list` now (Keras 3's `build`; under a
        strategy's scope they are made there); a built optimizer is kept."""
        if self.built:
            return
        for variable in var_list:
            self._slots_of(variable)
        self.built = True

    def _slots_of(self, variable):
        entry = self._slots.get(id(variable))
        if entry is None or entry[0] is not variable:
            if self.use_ema:
                self._averages[id(variable)] = (variable, self.add_slot(variable, "average"))
            entry = self._slots[id(variable)] = (variable, self.build_slots(variable))
        return entry[1]

    def apply_gradients(self, grads_and_vars, **kwargs):
        """Apply each (gradient, variable) pair; returns `iterations`."""
        pairs, missing = [], []
        for grad, var in grads_and_vars:
            if not isinstance(var, Variable):
                raise TypeError(f"{type(self).__name__}.apply_gradients: expected "
                                f"(gradient, tf.Variable) pairs, got a {type(var).__name__} "
                                "where the variable should be")
            if grad is None:
                missing.append(var)
                continue
            pairs.append((grad, var))
        _check_some_gradients(pairs, missing)
        self.built = True
        pairs = _overwrite_with_gradients(pairs)
        lr = self._current_learning_rate()
        if isinstance(lr, Variable):
            lr = lr.read_value()
        grads = self._clipped([math_ops.cast(convert_to_tensor(g), v.dtype) for g, v in pairs])
        # Under a tf.distribute strategy's run: the replicas' gradients summed
        # (Keras 3 all-reduces after clipping); nothing added with one replica.
        grads = all_reduce_list("SUM", grads)
        pairs = [(g, v) for g, (_, v) in zip(grads, pairs)]
        slots = [self._slots_of(var) for _, var in pairs]
        self._apply_weight_decay([v for _, v in pairs], lr)
        self._before_updates()
        for (grad, var), var_slots in zip(pairs, slots):
            rate = lr if var.dtype == dtypes.float32 else math_ops.cast(lr, var.dtype)
            self.update_step(grad, var, rate, var_slots)
        if self.use_ema:
            self._update_averages()
        self._iterations.assign_add(convert_to_tensor(1, dtypes.int64))
        for _, var in pairs:
            constraint = getattr(var, "constraint", None)
            if constraint is not None:
                var.assign(constraint(var))
        return self._iterations

    def _update_averages(self):
        """Keras's EMA, after each step's update: average = m * average + (1 - m) *
        variable, m = ema_momentum (0 on the first step, so it starts at the
        variable); every `ema_overwrite_frequency` steps the variables take their
        averages."""
        step = self._iterations.read_value()
        for var, average in self._averages.values():
            m = math_ops.cast(math_ops.not_equal(step, 0), var.dtype) * math_ops.cast(
                self.ema_momentum, var.dtype)
            average.assign(m * average.read_value() + (1 - m) * var.read_value())
        if self.ema_overwrite_frequency:
            due = math_ops.equal((step + 1) % self.ema_overwrite_frequency, 0)
            for var, average in self._averages.values():
                var.assign(math_ops.where(due, average.read_value(), var.read_value()))

    def finalize_variable_values(self, var_list):
        """At the end of `fit`: with use_ema, each variable takes its moving average."""
        if not self.use_ema:
            return
        averages = [self._averages.get(id(v)) for v in var_list]
        if len(var_list) != len(self._averages) or None in averages:
            raise ValueError(
                f"The length of model variables ({len(var_list)}) to override does not match "
                "the length of model variables stored in the optimizer "
                f"({len(self._averages)}). Please check if the optimizer was called on your "
                "model.")
        for var, (_, average) in zip(var_list, averages):
            var.assign(average.read_value())

    def _before_updates(self):
        """A hook run once per step before the variables are updated (Nadam)."""

    def _apply_weight_decay(self, variables, lr):
        """var -= var * weight_decay * lr (Keras 3, before the update step)."""
        if not self.weight_decay:
            return
        for var in variables:
            rate = math_ops.cast(lr, var.dtype)
            var.assign(var.read_value() - var.read_value() * math_ops.cast(
                self.weight_decay, var.dtype) * rate)

    def apply(self, grads, trainable_variables=None):
        """Keras 3's spelling: `apply(grads, variables)` is
        `apply_gradients(zip(grads, variables))`."""
        if trainable_variables is None:
            raise ValueError(f"{type(self).__name__}.apply: pass the variables the gradients "
                             "are for: apply(grads, model.trainable_variables)")
        return self.apply_gradients(zip(grads, trainable_variables))

    def _clipped(self, grads):
        """Keras 3's clipping, one kind: clipnorm (each gradient), else
        global_clipnorm (all together), else clipvalue."""
        if self.clipnorm:
            return [_clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm:
            return _clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue:
            return [math_ops.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def update_step(self, grad, variable, lr, slots):
        raise NotImplementedError(f"{type(self).__name__}.update_step")

    def _local_step(self, dtype):
        """iterations + 1 as a float tensor of `dtype`."""
        return math_ops.cast(self._iterations.read_value() + 1, dtype)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _overwrite_with_gradients(pairs):
    """Keras 3's `overwrite_with_gradient` variables (float8 scales and amax
    histories) take their "gradient" as their new value; the other pairs go on."""
    rest = []
    for grad, var in pairs:
        if getattr(var, "overwrite_with_gradient", False):
            var.assign(math_ops.cast(convert_to_tensor(grad), var.dtype))
        else:
            rest.append((grad, var))
    return rest


def _check_ema(momentum, overwrite_frequency):
    if momentum > 1 or momentum < 0:
        raise ValueError("`ema_momentum` must be in the range [0, 1]. "
                         f"Received: ema_momentum={momentum}")
    if overwrite_frequency and (not isinstance(overwrite_frequency, int)
                                or overwrite_frequency < 1):
        raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. "
                         f"Received: ema_overwrite_frequency={overwrite_frequency}")


def _clip_by_norm(grad, clip_norm):
    """g * clip_norm / max(||g||, clip_norm) (0 stays 0)."""
    l2sum = reduction_ops.reduce_sum(math_ops.square(grad))
    positive = math_ops.greater(l2sum, 0.0)
    safe = math_ops.where(positive, l2sum, array_ops.ones_like(l2sum))
    norm = math_ops.where(positive, math_ops.sqrt(safe), l2sum)
    return grad * clip_norm / math_ops.maximum(norm, math_ops.cast(clip_norm, grad.dtype))


def _clip_by_global_norm(grads, clip_norm):
    """Every gradient times clip_norm / max(global norm, clip_norm)."""
    total = None
    for g in grads:
        part = math_ops.cast(reduction_ops.reduce_sum(math_ops.square(g)), dtypes.float32)
        total = part if total is None else total + part
    norm = math_ops.sqrt(total)
    scale = clip_norm * math_ops.minimum(1.0 / norm, 1.0 / clip_norm)
    return [g * math_ops.cast(scale, g.dtype) for g in grads]


def _check_some_gradients(pairs, missing):
    """Keras 3's rule for None gradients: none at all is an error, some missing
    is a warning naming their variables."""
    if not pairs:
        raise ValueError("No gradients provided for any variable.")
    if missing:
        warnings.warn(f"Gradients do not exist for variables {[v.name for v in missing]} "
                      "when minimizing the loss. If using `model.compile()`, did you "
                      "forget to provide a `loss` argument?", UserWarning, stacklevel=3)
