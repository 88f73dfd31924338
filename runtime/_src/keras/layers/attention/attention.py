"""`keras.layers.Attention` (dot-product attention), and the masking helpers the
attention layers share.

    Attention(use_scale=False)([query, value])  or ([query, value, key])
        scores = query @ key^T (times the `scale` weight with use_scale)
        out = softmax(scores) @ value        (batch, Tq, dim)

Masked positions (a False in a value mask, `attention_mask`, or above the
diagonal with `use_causal_mask=True`) get their scores lowered by 1e9
before the softmax, as Keras 3 does. `return_attention_scores=True` also
returns the softmax weights.
"""


from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, nn_ops, random_ops, reduction_ops

__all__ = ["Attention"]


def _causal(scores):
    """(1, Tq, Tk) bool: True on and below the diagonal."""
    shape = array_ops.shape(scores)
    rows = array_ops.expand_dims(array_ops.range(shape[-2]), 1)
    cols = array_ops.expand_dims(array_ops.range(shape[-1]), 0)
    return array_ops.expand_dims(math_ops.greater_equal(rows, cols), 0)


def _masked(scores, keep):
    """scores - 1e9 where keep is False."""
    big = array_ops.constant(1e9, scores.dtype)
    return math_ops.where(keep, scores, math_ops.subtract(scores, big))


class Attention(ConfigurableLayer):
    """`keras.layers.Attention(use_scale=False, score_mode="dot", dropout=0.0)`."""

    _config_keys = ("use_scale", "score_mode", "dropout", "seed")

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of "
                             f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        self.use_scale, self.score_mode = bool(use_scale), score_mode
        self.dropout, self.seed = float(dropout), seed
        self.supports_masking = True

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale") \
            if self.use_scale else None
        self.concat_score_weight = self.add_weight(
            shape=(), initializer="ones", name="concat_score_weight") \
            if self.score_mode == "concat" else None
        self.built = True

    def _scores(self, q, k):
        if self.score_mode == "dot":
            scores = math_ops.matmul(q, k, transpose_b=True)
            return scores if self.scale is None else math_ops.multiply(scores, self.scale)
        total = math_ops.add(array_ops.expand_dims(q, -2), array_ops.expand_dims(k, -3))
        if self.scale is not None:
            total = math_ops.multiply(self.scale, total)
        return math_ops.multiply(self.concat_score_weight,
                                 reduction_ops.reduce_sum(math_ops.tanh(total), axis=-1))

    def call(self, inputs, mask=None, training=False, return_attention_scores=False,
             use_causal_mask=False):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(f"{type(self).__name__} layer must be called on a list of "
                             f"inputs, namely [query, value] or [query, value, key]. "
                             f"Received: inputs={inputs}.")
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        q_mask, v_mask = (mask[0], mask[1]) if mask else (None, None)
        scores = self._scores(q, k)
        keep = None
        if v_mask is not None:
            keep = array_ops.expand_dims(math_ops.cast(v_mask, dtypes.bool), -2)
        if use_causal_mask:
            causal = _causal(scores)
            keep = causal if keep is None else math_ops.logical_and(keep, causal)
        if keep is not None:
            scores = _masked(scores, keep)
        weights = nn_ops.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = random_ops.dropout(weights, self.dropout, seed=self.seed)
        out = math_ops.matmul(weights, v)
        if q_mask is not None:
            keep_q = array_ops.expand_dims(math_ops.cast(q_mask, dtypes.bool), -1)
            out = math_ops.where(keep_q, out, array_ops.zeros_like(out))
        return [out, weights] if return_attention_scores else out

    def compute_mask(self, inputs, mask=None):
        return None if not mask else mask[0]


