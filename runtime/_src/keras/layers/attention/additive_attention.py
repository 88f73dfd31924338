"""`keras.layers.AdditiveAttention(use_scale=True)`: Bahdanau scores
sum(scale * tanh(q + k)) over the features (scale (dim,) glorot-uniform)."""

from runtime._src.keras.layers.attention.attention import Attention
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["AdditiveAttention"]


class AdditiveAttention(Attention):
    """`keras.layers.AdditiveAttention(use_scale=True, dropout=0.0)`."""

    _config_keys = ("use_scale", "dropout", "seed")

    def __init__(self, use_scale=True, dropout=0.0, seed=None, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, seed=seed, **kwargs)

    def build(self, input_shape):
        dim = input_shape[0][-1]
        self.scale = self.add_weight(shape=(dim,), initializer="glorot_uniform",
                                     name="scale") if self.use_scale else None
        self.concat_score_weight = None
        self.built = True

    def _scores(self, q, k):
        total = math_ops.tanh(array_ops.expand_dims(q, -2) + array_ops.expand_dims(k, -3))
        if self.scale is not None:
            total = total * self.scale
        return reduction_ops.reduce_sum(total, axis=-1)
