"""`keras.layers.Embedding(input_dim, output_dim)`: gather(embeddings, ids),
embeddings (input_dim, output_dim) uniform in [-0.05, 0.05]."""

import numbers
from runtime._src.core import dtypes
from runtime._src.keras.constraints import constraints
from runtime._src.keras.initializers import initializers
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.layers.core import quantization
from runtime._src.keras.layers.core.lora import LoraMixin
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.quantizers import quantizers
from runtime._src.keras.saving.serialization_lib import serialize_keras_object as _serialize
from runtime._src.ops import array_ops, math_ops

__all__ = ["Embedding"]


class Embedding(LoraMixin, Layer):
    """`tf.keras.layers.Embedding(input_dim, output_dim,
    embeddings_initializer="uniform", mask_zero=False, lora_rank=None,
    lora_alpha=None)`: row `i` of the table for each id `i`; mask_zero=True
    makes id 0 padding (backend/masking.py); `quantize("int8" / "int4")`
    (layers/core/quantization.py); `enable_lora` (lora.py)."""

    _lora_weight = "embeddings"
    _lora_alpha_on_build = False    # Keras 3.15's build enables LoRA with alpha = rank

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 **kwargs):
        kwargs.pop("input_length", None)
        self.quantization_config = quantization.config_argument(
            kwargs.pop("quantization_config", None))
        self._init_lora(kwargs)
        super().__init__(**kwargs)
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"Both `input_dim` and `output_dim` should be positive, "
                                 f"Received input_dim = {input_dim} and "
                                 f"output_dim = {output_dim}")
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = bool(mask_zero)
        self.embeddings = None

    def get_config(self):
        return {**super().get_config(), "input_dim": self.input_dim,
                "output_dim": self.output_dim,
                "embeddings_initializer": _serialize(self.embeddings_initializer),
                "embeddings_regularizer": _serialize(self.embeddings_regularizer),
                "activity_regularizer": _serialize(self.activity_regularizer),
                "embeddings_constraint": _serialize(self.embeddings_constraint),
                "mask_zero": self.mask_zero,
                "quantization_config": _serialize(self.quantization_config)}

    @property
    def embeddings(self):
        """The table variable (int8 when quantized; int4: the unpacked values;
        with LoRA: table + (alpha / rank) * a @ b)."""
        table = self._embeddings
        if self.quantization_mode == "int4" and table is not None:
            table = quantizers.unpack_int4(table, self.output_dim, axis=-1)
        return self._lora_merged(table)

    @embeddings.setter
    def embeddings(self, value):
        self._embeddings = value

    def _quantize(self, mode, type_check, config):
        if type_check and type(self) is not Embedding:
            raise self._not_implemented_error("quantize")
        quantization.embedding_quantize(self, mode, config)

    def _saved_weights_order(self):
        order = quantization.saved_weights_order(self)
        return self._lora_saved_order(order) if self.lora_enabled else order

    def _lora_requantized(self):
        return quantization.embedding_requantized(self, self._lora_delta())

    def compute_mask(self, inputs, mask=None):
        """True where the id is not 0 (with mask_zero=True), else None."""
        if not self.mask_zero:
            return None
        return math_ops.not_equal(inputs, array_ops.zeros_like(inputs))

    def build(self, input_shape=None):
        if self.quantization_mode:
            quantization.embedding_quantized_build(self, (self.input_dim, self.output_dim),
                                                   self.quantization_mode,
                                                   self.quantization_config)
            self.built = True
            self._build_lora()
            return
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint,
                                          name="embeddings")
        self.built = True
        self._build_lora()

    def call(self, inputs):
        if self.quantization_mode:
            outputs = quantization.embedding_quantized_call(self, inputs)
            if not self.lora_enabled:
                return outputs
            ids = inputs if inputs.dtype in (dtypes.int32, dtypes.int64) else \
                math_ops.cast(inputs, dtypes.int32)
            return self._lora_output(outputs, array_ops.gather(self.lora_embeddings_a, ids))
        if inputs.dtype not in (dtypes.int32, dtypes.int64):
            inputs = math_ops.cast(inputs, dtypes.int32)
        return array_ops.gather(self.embeddings, inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)
