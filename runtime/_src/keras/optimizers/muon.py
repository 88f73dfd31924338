"""`keras.optimizers.Muon`, with Keras 3's update rule (g: the gradient, lr: the
learning rate):

    a matrix (not an embedding, nor in exclude_layers): m += g + m (momentum - 1);
    u = g + momentum * m (nesterov) or m, orthogonalized by ns_steps
    Newton-Schulz steps (a, b, c); var -= lr * u * sqrt(max(rows, cols)) *
    rms_rate; every other variable: AdamW with lr * adam_lr_ratio and
    adam_weight_decay"""

import re
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Muon"]


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
