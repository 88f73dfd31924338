"""`Adafactor`, `Lamb` and `LossScaleOptimizer`, with Keras 3's update rules
(g: the gradient, lr: the learning rate, t: iterations + 1, rms(x) =
sqrt(mean(x^2))):

    Adafactor  lr = min(lr, 1/sqrt(t)) (relative_step, a constant rate);
               alpha = max(epsilon_2, rms(var)) * min(lr, 1/sqrt(t))
               b = 1 - t^beta_2_decay;  g2 = g^2 + epsilon_1
               a matrix (rank >= 2): r = b r + (1 - b) mean(g2, -1),
                 c = b c + (1 - b) mean(g2, -2), v = (r / mean(r)) outer c
               otherwise v = b v + (1 - b) g2
               u = g / sqrt(v);  var -= alpha * u / max(1, rms(u) / clip_threshold)
    Lamb       m, v as Adam; update = (m / (1 - beta_1^t)) /
               (sqrt(v / (1 - beta_2^t)) + epsilon);
               var -= lr * (|var| / |update| when both are non-zero, else 1) * update
    Muon       a matrix (not an embedding, nor in exclude_layers): m += g + m (momentum - 1);
               u = g + momentum * m (nesterov) or m, orthogonalized by ns_steps
               Newton-Schulz steps (a, b, c); var -= lr * u * sqrt(max(rows, cols)) *
               rms_rate; every other variable: AdamW with lr * adam_lr_ratio and
               adam_weight_decay
    ScheduleFreeAdamW  z (the "momentum" slot, starting at var) -= lr_t * g /
               (sqrt(v / (1 - beta_2^t)) + epsilon), v as Adam's; with
               x = (var - (1 - beta_1) z) / beta_1 (the new z, as Keras 3.15 on TF):
               x = (1 - 1/t) x + z / t and
               var = (1 - beta_1) z + beta_1 x  (lr_t warmed up over warmup_steps)
    LossScaleOptimizer(inner, initial_scale=2**15, dynamic_growth_steps=2000)
               `scale_loss(loss)` multiplies by the scale (Model.fit does it);
               with all gradients finite the inner optimizer applies g / scale and
               the scale doubles every dynamic_growth_steps such steps; otherwise
               nothing is applied and the scale halves
"""

import re

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.function.control_flow import cond
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.optimizers.schedules.learning_rate_schedule import LearningRateSchedule
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Adafactor", "Lamb", "LossScaleOptimizer", "Muon", "ScheduleFreeAdamW"]


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
        slots = {}
        shape = list(variable.shape.dims)
        if len(shape) >= 2:
            slots["r"] = self._sized_slot(variable, "r", shape[:-1])
            slots["c"] = self._sized_slot(variable, "c", shape[:-2] + shape[-1:])
        slots["velocity"] = self.add_slot(variable, "velocity")
        return slots

    def _sized_slot(self, variable, slot_name, shape):
        with init_scope():
            value = array_ops.zeros(shape, variable.dtype)
        base = getattr(variable, "path", variable.name)
        base = (base[:-2] if base.endswith(":0") else base).replace("/", "_")
        name = f"{base}_{slot_name}"
        return KerasVariable(value, trainable=False, name=name, path=f"{self.name}/{name}")

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
        if "r" in slots:
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


def _swap_last(x):
    rank = x.shape.rank
    return array_ops.transpose(x, [*range(rank - 2), rank - 1, rank - 2])


class Muon(Optimizer):
    """`keras.optimizers.Muon(learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999,
    adam_weight_decay=0.004, epsilon=1e-7, weight_decay=0.004, exclude_layers=None,
    exclude_embeddings=True, muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315,
    adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True, rms_rate=0.2)`."""

    _slot_groups = (("momentum", "velocity"),)

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999,
                 adam_weight_decay=0.004, epsilon=1e-7, weight_decay=0.004, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, exclude_layers=None,
                 exclude_embeddings=True, muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315,
                 adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True, rms_rate=0.2,
                 **kwargs):
        super().__init__(learning_rate, name, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, weight_decay=weight_decay, **kwargs)
        self.adam_beta_1, self.adam_beta_2, self.epsilon = adam_beta_1, adam_beta_2, epsilon
        self.muon_a, self.muon_b, self.muon_c = muon_a, muon_b, muon_c
        self.adam_lr_ratio, self.momentum, self.ns_steps = adam_lr_ratio, momentum, ns_steps
        self.nesterov, self.exclude_embeddings = nesterov, exclude_embeddings
        self.exclude_layers = list(exclude_layers or [])
        self.adam_weight_decay, self.rms_rate = adam_weight_decay, rms_rate

    def _own_config(self):
        return {"adam_beta_1": self.adam_beta_1, "adam_beta_2": self.adam_beta_2,
                "epsilon": self.epsilon, "exclude_layers": self.exclude_layers,
                "muon_a": self.muon_a, "muon_b": self.muon_b, "muon_c": self.muon_c,
                "adam_lr_ratio": self.adam_lr_ratio, "momentum": self.momentum,
                "ns_steps": self.ns_steps, "nesterov": self.nesterov,
                "exclude_embeddings": self.exclude_embeddings,
                "adam_weight_decay": self.adam_weight_decay, "rms_rate": self.rms_rate}

    def _uses_adamw(self, variable):
        if variable.shape.rank != 2:
            return True
        path = str(getattr(variable, "path", variable.name))
        if self.exclude_embeddings and "embedding" in path.lower():
            return True
        return any(re.search(keyword, path) for keyword in self.exclude_layers)

    def build_slots(self, variable):
        slots = {"momentum": self.add_slot(variable, "momentum")}
        if self._uses_adamw(variable):
            slots["velocity"] = self.add_slot(variable, "velocity")
        return slots

    def _apply_weight_decay(self, variables, lr):
        for var in variables:
            decay = self.adam_weight_decay if self._uses_adamw(var) else self.weight_decay
            if decay is None:
                continue
            rate = math_ops.cast(lr, var.dtype)
            var.assign(var.read_value() - var.read_value() * math_ops.cast(decay, var.dtype)
                       * rate)

    def update_step(self, grad, variable, lr, slots):
        if "velocity" in slots:
            return self._adamw_step(grad, variable, lr * self.adam_lr_ratio, slots)
        m = slots["momentum"]
        m_new = m.assign_add(grad + m.read_value() * (self.momentum - 1.0))
        g = grad + self.momentum * m_new if self.nesterov else m_new
        update = self._orthogonalized(g)
        if self.rms_rate is not None:
            rows, cols = variable.shape.as_list()
            update = update * (max(rows, cols) ** 0.5) * self.rms_rate
        variable.assign_sub(math_ops.cast(lr, variable.dtype) * update)

    def _adamw_step(self, grad, variable, lr, slots):
        dtype = variable.dtype
        step = self._local_step(dtype)
        b1 = math_ops.pow(array_ops.constant(self.adam_beta_1, dtype), step)
        b2 = math_ops.pow(array_ops.constant(self.adam_beta_2, dtype), step)
        alpha = math_ops.cast(lr, dtype) * math_ops.sqrt(1.0 - b2) / (1.0 - b1)
        m, v = slots["momentum"], slots["velocity"]
        m_new = m.assign_add((grad - m.read_value()) * (1.0 - self.adam_beta_1))
        v_new = v.assign_add((math_ops.square(grad) - v.read_value()) * (1.0 - self.adam_beta_2))
        variable.assign_sub(m_new * alpha / (math_ops.sqrt(v_new) + self.epsilon))

    def _orthogonalized(self, x):
        """Keras's quintic Newton-Schulz iteration towards U V^T of x's SVD."""
        rows, cols = x.shape.as_list()[-2:]
        if rows > cols:
            x = _swap_last(x)
        norm = math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(x), axis=[-2, -1],
                                                      keepdims=True))
        x = x / (norm + 1e-7)
        for _ in range(self.ns_steps):
            a = math_ops.matmul(x, _swap_last(x))
            b = self.muon_b * a + self.muon_c * math_ops.matmul(a, a)
            x = self.muon_a * x + math_ops.matmul(b, x)
        return _swap_last(x) if rows > cols else x


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


class LossScaleOptimizer(Optimizer):
    """`keras.optimizers.LossScaleOptimizer(inner_optimizer, initial_scale=2.0**15,
    dynamic_growth_steps=2000)`."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, "
                             "simply set `loss_scale_factor` directly on the "
                             "`inner_optimizer`.")
        for key, value in kwargs.items():
            if value not in (None, False, 0.99):
                raise ValueError(f"LossScaleOptimizer does not support `{key}`. Instead, "
                                 f"set `{key}` on the `inner_optimizer`.")
        if not isinstance(inner_optimizer, Optimizer):
            raise ValueError("LossScaleOptimizer takes an optimizer as `inner_optimizer`; "
                             f"received {inner_optimizer!r}")
        super().__init__(0.0, name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale, self.dynamic_growth_steps = initial_scale, dynamic_growth_steps
        with init_scope():
            self.step_counter = KerasVariable(convert_to_tensor(0, dtypes.int64),
                                              trainable=False, name="step_counter",
                                              path=f"{self.name}/step_counter")
            self.dynamic_scale = KerasVariable(
                convert_to_tensor(float(initial_scale), dtypes.float32), trainable=False,
                name="dynamic_scale", path=f"{self.name}/dynamic_scale")

    @property
    def variables(self):
        own = [self._iterations, self._learning_rate, self.step_counter, self.dynamic_scale]
        return own + self.inner_optimizer.variables

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def scale_loss(self, loss):
        """loss * the current scale."""
        loss = convert_to_tensor(loss)
        return loss * math_ops.cast(self.dynamic_scale.read_value(), loss.dtype)

    def apply_gradients(self, grads_and_vars, **kwargs):
        pairs = [(g, v) for g, v in grads_and_vars]
        grads = [convert_to_tensor(g) for g, _ in pairs if g is not None]
        finite = reduction_ops.reduce_all(array_ops.stack(
            [reduction_ops.reduce_all(math_ops.is_finite(g)) for g in grads]))
        self.built = True
        cond(finite, lambda: self._finite_step(pairs), self._skip_step)
        return self.iterations

    def _finite_step(self, pairs):
        scale = self.dynamic_scale.read_value()
        self.inner_optimizer.apply_gradients(
            [(None if g is None else convert_to_tensor(g) / math_ops.cast(scale, v.dtype), v)
             for g, v in pairs])
        grow = math_ops.equal(self.step_counter.read_value(), self.dynamic_growth_steps - 1)
        self.step_counter.assign(math_ops.where(grow, array_ops.zeros_like(
            self.step_counter.read_value()), self.step_counter.read_value() + 1))
        self.dynamic_scale.assign(math_ops.where(grow, scale * 2.0, scale))
        return array_ops.constant(True)

    def _skip_step(self):
        self.step_counter.assign(array_ops.zeros_like(self.step_counter.read_value()))
        self.dynamic_scale.assign(self.dynamic_scale.read_value() * 0.5)
        return array_ops.constant(False)

    def get_config(self):
        return {"name": self.name,
                "inner_optimizer": serialization.serialize_keras_object(self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        inner = serialization.deserialize_keras_object(config.pop("inner_optimizer"),
                                                       custom_objects,
                                                       module="keras.optimizers")
        return cls(inner, **config)
