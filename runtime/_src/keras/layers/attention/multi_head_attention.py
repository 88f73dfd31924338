"""`keras.layers.MultiHeadAttention(num_heads, key_dim)(query, value, key=None)`:

    q, k, v = per-head projections (kernel (dim, heads, key_dim) + bias)
    scores = softmax(q k^T / sqrt(key_dim)) per head   (batch, heads, Tq, Tk)
    out = (scores v) projected back to the query's last dimension

Masked positions (`attention_mask`, the Keras masks of the query, value and
key, which reach `query_mask`, `value_mask` and `key_mask`, or above the
diagonal with `use_causal_mask=True`) get no weight, as in Keras 3: their
scores become -0.7 * float max before the softmax (Keras's fused
`dot_product_attention`), or, with dropout or `return_attention_scores`,
-1e9 and their softmax weights 0 (Keras's `Softmax` layer with a mask); no
gradient reaches them. The output keeps the query's mask. `return_attention_scores=True` also
returns the softmax weights."""

import math
from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, nn_ops, random_ops, reduction_ops
from runtime._src.ops.einsum_ops import einsum
from runtime._src.keras.layers.attention.attention import _causal

__all__ = ["MultiHeadAttention"]

_LETTERS = "abcdefghijklmnopqrstuvw"          # x, y, z name the heads, sizes, outputs


def _equations(rank, axes):
    """(scores = einsum(dot, key, query), out = einsum(combine, weights, value))
    for projected tensors of `rank` attending over `axes`: the other axes
    (batch, heads and the rest) are kept, scores are (kept..., query axes...,
    key axes...)."""
    query = _LETTERS[:rank]
    key = "".join(query[i] if i not in axes else _LETTERS[rank + axes.index(i)]
                  for i in range(rank))
    kept = [i for i in range(rank) if i not in axes and i != rank - 1]
    scores = "".join([query[i] for i in kept] + [query[i] for i in axes] +
                     [key[i] for i in axes])
    return f"{key},{query}->{scores}", f"{scores},{key}->{query}"


def _softmax(scores, n_axes):
    """Softmax over the last n_axes axes together."""
    if n_axes == 1:
        return nn_ops.softmax(scores, axis=-1)
    axes = list(range(-n_axes, 0))
    return math_ops.exp(scores - reduction_ops.reduce_logsumexp(scores, axes, keepdims=True))


def _expanded(attention_mask, scores, axes):
    """attention_mask (batch..., query axes..., key axes...) as bool, with axes of
    1 inserted before the attention axes up to the scores' rank (Keras's rule)."""
    keep = math_ops.cast(attention_mask, dtypes.bool)
    while keep.shape.rank < scores.shape.rank:
        keep = array_ops.expand_dims(keep, -len(axes) * 2 - 1)
    return keep


class MultiHeadAttention(ConfigurableLayer):
    """`keras.layers.MultiHeadAttention(num_heads, key_dim, value_dim=None,
    dropout=0.0, use_bias=True, output_shape=None, attention_axes=None)`
    (attention over the given axes of the inputs, all but the batch and feature
    axes by default); call(query, value,
    key=None, attention_mask=None, return_attention_scores=False,
    training=None, use_causal_mask=False)."""

    _config_keys = ("num_heads", "key_dim", "value_dim", "dropout", "use_bias",
                    "output_shape", "attention_axes", "kernel_initializer",
                    "bias_initializer", "seed")

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            raise ValueError("`attention_axes` must be an int, list, or tuple."
                             f"Received: attention_axes={attention_axes}")
        self.attention_axes = None if attention_axes is None else tuple(attention_axes)
        self.num_heads, self.key_dim = int(num_heads), int(key_dim)
        self.value_dim = int(value_dim) if value_dim else self.key_dim
        self.dropout, self.use_bias = float(dropout), bool(use_bias)
        self.output_shape = output_shape
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.seed = seed
        self._projections = None

    def build(self, input_shape):
        self.built = True      # the weights need the value's shape too: made by the first call

    def _make_weights(self, q_dim, k_dim, v_dim):
        h = self.num_heads

        def dense(name, dim, size):
            kernel = self.add_weight(shape=(dim, h, size), name=f"{name}/kernel",
                                     initializer=self.kernel_initializer)
            bias = self.add_weight(shape=(h, size), name=f"{name}/bias",
                                   initializer=self.bias_initializer) if self.use_bias else None
            return kernel, bias
        out_dim = self.output_shape if self.output_shape is not None else q_dim
        if isinstance(out_dim, (list, tuple)):
            out_dim = out_dim[-1]
        self._projections = [dense("query", q_dim, self.key_dim),
                             dense("key", k_dim, self.key_dim),
                             dense("value", v_dim, self.value_dim)]
        kernel = self.add_weight(shape=(h, self.value_dim, out_dim),
                                 name="attention_output/kernel",
                                 initializer=self.kernel_initializer)
        bias = self.add_weight(shape=(out_dim,), name="attention_output/bias",
                               initializer=self.bias_initializer) if self.use_bias else None
        self._output_projection = (kernel, bias)

    def compute_mask(self, inputs, mask=None):
        """The query's mask (Keras 3 sets it on the output)."""
        return mask

    @staticmethod
    def _project(x, kernel, bias):
        free = _LETTERS[:x.shape.rank - 1]
        y = einsum(f"{free}z,zxy->{free}xy", x, kernel)
        return y if bias is None else math_ops.add(y, bias)

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        query, value = convert_to_tensor(query), convert_to_tensor(value)
        key = value if key is None else convert_to_tensor(key)
        if self._projections is None:
            self._make_weights(query.shape.dims[-1], key.shape.dims[-1], value.shape.dims[-1])
        (wq, bq), (wk, bk), (wv, bv) = self._projections
        q = self._project(query, wq, bq)
        k = self._project(key, wk, bk)
        v = self._project(value, wv, bv)
        q = math_ops.multiply(q, array_ops.constant(1.0 / math.sqrt(self.key_dim), q.dtype))
        axes = self.attention_axes = self._axes(q.shape.rank)   # kept as Keras keeps them
        dot, combine = _equations(q.shape.rank, axes)
        scores = einsum(dot, k, q)
        if q.shape.rank == 4:
            keep = self._keep(scores, attention_mask, value_mask, use_causal_mask,
                              query_mask, key_mask)
        else:
            keep = None if attention_mask is None else _expanded(attention_mask, scores, axes)
        fused = not (self.dropout > 0 or return_attention_scores or q.shape.rank != 4)
        if keep is not None:            # Keras's dot_product_attention, or its Softmax layer
            low = -0.7 * dtypes.as_dtype(scores.dtype).max if fused else -1e9
            scores = math_ops.where(keep, scores, array_ops.fill(
                array_ops.shape(scores), array_ops.constant(low, scores.dtype)))
        weights = _softmax(scores, len(axes))
        if keep is not None and not fused:
            weights = math_ops.where(keep, weights, array_ops.zeros_like(weights))
        if training and self.dropout > 0:
            weights = random_ops.dropout(weights, self.dropout, seed=self.seed)
        out = einsum(combine, weights, v)
        kernel, bias = self._output_projection
        free = _LETTERS[:out.shape.rank - 2]
        out = einsum(f"{free}xy,xyz->{free}z", out, kernel)
        if bias is not None:
            out = math_ops.add(out, bias)
        return [out, weights] if return_attention_scores else out

    def _axes(self, rank):
        """The attention axes of the projected (batch, ..., heads, size) tensors."""
        if self.attention_axes is None:
            return tuple(range(1, rank - 2))
        return tuple(a if a >= 0 else (rank - 1) + a for a in self.attention_axes)

    @staticmethod
    def _keep(scores, attention_mask, value_mask, use_causal_mask, query_mask=None,
              key_mask=None):
        """(batch or 1, 1, Tq, Tk) bool of the scores to keep, or None: the
        attention mask and the masks of the query (rows), value and key (columns)."""
        keep = None
        if attention_mask is not None:
            keep = array_ops.expand_dims(math_ops.cast(attention_mask, dtypes.bool), 1)
        if query_mask is not None:
            qm = math_ops.cast(query_mask, dtypes.bool)
            qm = array_ops.expand_dims(array_ops.expand_dims(qm, 1), -1)
            keep = qm if keep is None else math_ops.logical_and(keep, qm)
        for mask in (value_mask, key_mask):
            if mask is not None:
                vm = math_ops.cast(mask, dtypes.bool)
                vm = array_ops.expand_dims(array_ops.expand_dims(vm, 1), 1)
                keep = vm if keep is None else math_ops.logical_and(keep, vm)
        if use_causal_mask:
            causal = array_ops.expand_dims(_causal(scores), 0)
            keep = causal if keep is None else math_ops.logical_and(keep, causal)
        return keep
