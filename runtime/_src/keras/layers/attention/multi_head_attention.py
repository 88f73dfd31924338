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
from runtime._src.ops import array_ops, math_ops, nn_ops, random_ops
from runtime._src.ops.einsum_ops import einsum
from runtime._src.keras.layers.attention.attention import _causal

__all__ = ["MultiHeadAttention"]


class MultiHeadAttention(ConfigurableLayer):
    """`keras.layers.MultiHeadAttention(num_heads, key_dim, value_dim=None,
    dropout=0.0, use_bias=True, output_shape=None)`; call(query, value,
    key=None, attention_mask=None, return_attention_scores=False,
    training=None, use_causal_mask=False)."""

    _config_keys = ("num_heads", "key_dim", "value_dim", "dropout", "use_bias",
                    "output_shape", "kernel_initializer", "bias_initializer", "seed")

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", seed=None, **kwargs):
        super().__init__(**kwargs)
        if attention_axes is not None:
            raise NotImplementedError("MultiHeadAttention: attention_axes is not supported")
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
        y = einsum("abc,cde->abde", x, kernel)
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
        scores = einsum("aecd,abcd->acbe", k, q)
        keep = self._keep(scores, attention_mask, value_mask, use_causal_mask,
                          query_mask, key_mask)
        fused = not (self.dropout > 0 or return_attention_scores)
        if keep is not None:            # Keras's dot_product_attention, or its Softmax layer
            low = -0.7 * dtypes.as_dtype(scores.dtype).max if fused else -1e9
            scores = math_ops.where(keep, scores, array_ops.fill(
                array_ops.shape(scores), array_ops.constant(low, scores.dtype)))
        weights = nn_ops.softmax(scores, axis=-1)
        if keep is not None and not fused:
            weights = math_ops.where(keep, weights, array_ops.zeros_like(weights))
        if training and self.dropout > 0:
            weights = random_ops.dropout(weights, self.dropout, seed=self.seed)
        out = einsum("acbe,aecd->abcd", weights, v)
        kernel, bias = self._output_projection
        out = einsum("abcd,cde->abe", out, kernel)
        if bias is not None:
            out = math_ops.add(out, bias)
        return [out, weights] if return_attention_scores else out

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
