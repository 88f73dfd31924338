"""`keras.layers.ReversibleEmbedding(input_dim, output_dim, tie_weights=True,
logit_soft_cap=None)`: an Embedding that also maps vectors back to logits
over the vocabulary (a language model's input and output layer in one).

    layer(ids)                  the embedding rows, as Embedding
    layer(x, reverse=True)      x @ embeddings^T (tie_weights) or
                                x @ reverse_embeddings (output_dim, input_dim);
                                with logit_soft_cap c: c * tanh(logits / c)
"""

from runtime._src.core import dtypes
from runtime._src.keras.layers.core.embedding import Embedding
from runtime._src.ops import einsum_ops, math_ops

__all__ = ["ReversibleEmbedding"]


class ReversibleEmbedding(Embedding):
    """See the module docstring."""

    def __init__(self, input_dim, output_dim, tie_weights=True,
                 embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero,
                         **kwargs)
        self.tie_weights, self.reverse_dtype = bool(tie_weights), reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer, name="reverse_embeddings")
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        kernel = self.reverse_embeddings.read_value() if not self.tie_weights else \
            self.embeddings.read_value()
        if self.reverse_dtype is not None:
            dtype = dtypes.as_dtype(self.reverse_dtype)
            inputs, kernel = math_ops.cast(inputs, dtype), math_ops.cast(kernel, dtype)
        logits = math_ops.matmul(inputs, kernel, transpose_b=self.tie_weights) \
            if inputs.shape.rank == 2 else einsum_ops.tensordot(
                inputs, kernel, [[inputs.shape.rank - 1], [1 if self.tie_weights else 0]])
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = math_ops.tanh(logits / cap) * cap
        return logits

    def compute_output_shape(self, input_shape, reverse=False):
        if reverse:
            return tuple(input_shape[:-1]) + (self.input_dim,)
        return super().compute_output_shape(input_shape)

    def get_config(self):
        return {**super().get_config(), "tie_weights": self.tie_weights,
                "reverse_dtype": self.reverse_dtype, "logit_soft_cap": self.logit_soft_cap}
