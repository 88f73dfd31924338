"""LoRA (low-rank adaptation) for Dense, EinsumDense, Embedding and Conv1D/2D/3D,
as Keras 3.15: `lora_rank` / `lora_alpha` arguments and
`enable_lora(rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros")`.

    enable_lora     adds `lora_<w>_a` (w.shape[:-1] + (rank,)) and `lora_<w>_b`
                    (rank, w.shape[-1]), float32, with w's regularizer, and freezes w
                    (the kernel, or the embeddings table)
    forward         w + (lora_alpha / lora_rank) * a @ b (cast to the compute dtype),
                    which the layer's `kernel` / `embeddings` property returns;
                    a quantized layer adds (alpha / rank) * (x a) b to its output
    saving          Keras writes the merged weight (requantized when the layer is
                    int8 / int4) in the base weight's place and not a and b; loading
                    assigns it and zeros a and b (`MergedWeight`)
    config          lora_rank and lora_alpha when lora_rank is set

Dense and Embedding enable LoRA from `lora_rank` in build with alpha = rank
(Keras 3.15 drops their `lora_alpha` there); EinsumDense and the convolutions
keep `lora_alpha`.
"""

import numpy as np

from runtime._src.keras.initializers import initializers
from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp

__all__ = ["LoraMixin", "MergedWeight", "NoLora"]


class LoraMixin:
    """What LoRA adds to a layer; the layer names the weight it adapts."""

    _lora_weight = "kernel"          # the public property: "kernel" or "embeddings"
    _lora_alpha_on_build = True      # False: build enables LoRA with alpha = rank

    def _init_lora(self, kwargs):
        """Take `lora_rank` and `lora_alpha` out of the constructor's kwargs."""
        rank = alpha = None
        if not getattr(self, "_transpose", False):     # the transposed convolutions refuse it
            rank, alpha = kwargs.pop("lora_rank", None), kwargs.pop("lora_alpha", None)
        self.lora_rank = rank
        self.lora_alpha = alpha if alpha is not None else rank
        self.lora_enabled = False

    def _build_lora(self):
        """Enable LoRA at the end of build when `lora_rank` was given."""
        if self.lora_rank and not self.lora_enabled:
            alpha = self.lora_alpha if self._lora_alpha_on_build else None
            self.enable_lora(self.lora_rank, lora_alpha=alpha)

    def _lora_option(self, what):
        """The adapted weight's constraint or regularizer."""
        value = getattr(self, f"{self._lora_weight}_{what}", None)
        options = getattr(self, "_weight_options", None)
        if value is None and options is not None:
            value = options["kernel"][what]
        return value

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform",
                    b_initializer="zeros"):
        """Add the low-rank pair `a`, `b` (trainable, float32) and freeze the
        adapted weight; the layer then computes with w + (alpha / rank) a @ b."""
        word = "embedding" if self._lora_weight == "embeddings" else "kernel"
        if self._lora_option("constraint"):
            raise ValueError(f"Lora is incompatible with {word} constraints. In order to "
                             "enable lora on this layer, remove the "
                             f"`{self._lora_weight}_constraint` argument.")
        if not self.built:
            raise ValueError("Cannot enable lora on a layer that isn't yet built.")
        if self.lora_enabled:
            raise ValueError("lora is already enabled. This can only be done once per layer.")
        shape = tuple(getattr(self, self._lora_weight).shape.as_list())
        prefix = f"lora_{self._lora_weight}"
        regularizer = self._lora_option("regularizer")
        a = self.add_weight(name=f"{prefix}_a", shape=shape[:-1] + (rank,), dtype="float32",
                            initializer=initializers.get(a_initializer), regularizer=regularizer)
        b = self.add_weight(name=f"{prefix}_b", shape=(rank, shape[-1]), dtype="float32",
                            initializer=initializers.get(b_initializer), regularizer=regularizer)
        setattr(self, f"{prefix}_a", a)
        setattr(self, f"{prefix}_b", b)
        self._lora_base().trainable = False
        self.lora_enabled = True
        self.lora_rank = rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else rank

    def _lora_base(self):
        return getattr(self, "_" + self._lora_weight)

    def _lora_pair(self):
        prefix = f"lora_{self._lora_weight}"
        return getattr(self, f"{prefix}_a"), getattr(self, f"{prefix}_b")

    def _lora_delta(self):
        """(alpha / rank) * a @ b, float32."""
        a, b = self._lora_pair()
        return knp.multiply(self.lora_alpha / self.lora_rank, knp.matmul(a, b))

    def _lora_merged(self, weight):
        """`weight` + the LoRA delta in the compute dtype (`weight` when LoRA is off)."""
        if not getattr(self, "lora_enabled", False):
            return weight
        return kcore.cast(knp.add(weight, self._lora_delta()), self.compute_dtype)

    def _lora_output(self, x, lora_inputs):
        """`x` + (alpha / rank) * `lora_inputs` @ b (the quantized layers' way)."""
        if not self.lora_enabled:
            return x
        _, b = self._lora_pair()
        term = knp.multiply(self.lora_alpha / self.lora_rank, knp.matmul(lora_inputs, b))
        return kcore.cast(knp.add(x, term), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        if self.lora_rank:
            config = {**config, "lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha}
        return config

    def _lora_saved_order(self, quantized_order):
        """The weights Keras saves for a LoRA layer: the merged weight in place of
        the adapted one (requantized when quantized), without a and b."""
        base = self._lora_base()
        if quantized_order is None:
            bias = getattr(self, "bias", None)
            merged = MergedWeight(self, base, lambda: self._lora_merged(base).numpy())
            return [merged] + ([bias] if bias is not None else [])
        if self.quantization_mode not in ("int8", "int4"):       # float8, as Keras 3.15
            raise ValueError(f"Unsupported quantization mode: {self.quantization_mode}")
        requantize = self._lora_requantized
        names = {"_kernel": 0, "_embeddings": 0, "kernel_scale": 1, "embeddings_scale": 1,
                 "kernel_zero": 2, "embeddings_zero": 2}
        found = []
        for variable in quantized_order:
            slot = next((i for n, i in names.items()
                         if getattr(self, n, None) is variable), None)
            found.append(variable if slot is None else MergedWeight(
                self, variable, lambda i=slot: np.asarray(requantize()[i])))
        return found


class NoLora:
    """`enable_lora = NoLora()` hides the inherited method (Conv1DTranspose and
    Conv3DTranspose derive from Conv1D / Conv3D; Keras's transposes have none)."""

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, obj, owner=None):
        raise AttributeError(f"'{owner.__name__}' object has no attribute '{self._name}'")


class MergedWeight:
    """A LoRA layer's adapted weight in its saved file: Keras 3.15 writes the
    merged value, and loading assigns the saved value and zeros the LoRA pair."""

    def __init__(self, layer, variable, value):
        self.layer, self.variable, self._value = layer, variable, value
        self.shape, self.dtype = variable.shape, variable.dtype
        self.name, self.path, self.trainable = variable.name, variable.path, variable.trainable

    @property
    def covers(self):
        """The variables this entry stands for (the LoRA pair is not saved)."""
        return (self.variable,) + tuple(self.layer._lora_pair())

    def numpy(self):
        return np.asarray(self._value()).astype(self.dtype.as_numpy_dtype)

    def assign(self, value):
        self.variable.assign(value)
        for v in self.layer._lora_pair():
            v.assign(np.zeros(v.shape.as_list(), "float32"))
