"""`keras.layers.MultiHeadAttention(num_heads, key_dim)(query, value, key=None)`:

    q, k, v = per-head projections (kernel (dim, heads, key_dim) + bias)
    scores = softmax(q k^T / sqrt(key_dim)) per head   (batch, heads, Tq, Tk)
    out = (scores v) projected back to the query's last dimension

Masked positions (`attention_mask`, the Keras masks of the query, value and
key, which reach `query_mask`, `value_mask` and `key_mask`, above the
diagonal with `use_causal_mask=True`, or `sliding_window` or more positions
away) get no weight, as in Keras 3: their
scores become -0.7 * float max before the softmax (Keras's fused
`dot_product_attention`), or, with dropout or `return_attention_scores`,
-1e9 and their softmax weights 0 (Keras's `Softmax` layer with a mask); no
gradient reaches them. The output keeps the query's mask. `return_attention_scores=True` also
returns the softmax weights. `use_gate=True` multiplies (scores v) by
sigmoid(EinsumDense(query)) before the output projection."""

import math

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.layers.core.dense import set_weight_options, weight_options_config
from runtime._src.keras.layers.core.einsum_dense import EinsumDense
from runtime._src.keras.layers.layer import Layer
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


def _projection(free, bound, outputs):
    """Keras's projection equation and bias axes: `free` kept axes, `bound`
    summed ones, `outputs` new ones ("abc,cde->abde", "de")."""
    letters = _LETTERS[:free + bound + outputs]
    kept, summed, made = letters[:free], letters[free:free + bound], letters[free + bound:]
    return f"{kept}{summed},{summed}{made}->{kept}{made}", made


class MultiHeadAttention(Layer):
    """`keras.layers.MultiHeadAttention(num_heads, key_dim, value_dim=None,
    dropout=0.0, use_bias=True, output_shape=None, attention_axes=None,
    sliding_window=None, use_gate=False)` (attention over the given axes of the
    inputs, all but the batch and feature axes by default); call(query, value,
    key=None, attention_mask=None, return_attention_scores=False,
    training=None, use_causal_mask=False). Its projections are EinsumDense
    sublayers named query, key, value, gate and attention_output
    (`query_dense`, ..., `output_dense`), as Keras 3's, so their weights, paths
    and saved files are Keras's."""

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, sliding_window=None,
                 flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 use_gate=False, seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            raise ValueError("`attention_axes` must be an int, list, or tuple."
                             f"Received: attention_axes={attention_axes}")
        if sliding_window is not None and (not isinstance(sliding_window, int)
                                           or sliding_window <= 0):
            raise ValueError("`sliding_window` must be `None` or a positive integer. "
                             f"Received: sliding_window={sliding_window}")
        self.attention_axes = None if attention_axes is None else tuple(attention_axes)
        self.num_heads, self.key_dim = int(num_heads), int(key_dim)
        self.value_dim = int(value_dim) if value_dim else self.key_dim
        self.dropout, self.use_bias = float(dropout), bool(use_bias)
        self.output_shape, self.sliding_window = output_shape, sliding_window
        self.use_gate, self.seed = bool(use_gate), seed
        set_weight_options(self, kernel_initializer, bias_initializer, kernel_regularizer,
                           bias_regularizer, kernel_constraint, bias_constraint)
        # None until built; set in this order, the order of Keras's weights
        self._query_dense = self._key_dense = self._gate_dense = None
        self._value_dense = self._output_dense = None

    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def _dense(self, equation, shape, bias_axes, name, activation=None):
        init = self.kernel_initializer
        return EinsumDense(equation, shape, activation=activation,
                           bias_axes=bias_axes if self.use_bias else None, name=name,
                           kernel_initializer=type(init).from_config(init.get_config()),
                           bias_initializer=type(self.bias_initializer).from_config(
                               self.bias_initializer.get_config()),
                           kernel_regularizer=self.kernel_regularizer,
                           bias_regularizer=self.bias_regularizer,
                           kernel_constraint=self.kernel_constraint,
                           bias_constraint=self.bias_constraint, dtype=self.dtype_policy)

    def _heads(self, shape, size, name, activation=None):
        """An EinsumDense projecting inputs of `shape` to (..., heads, size)."""
        rank = len(shape)
        equation, bias_axes = _projection(rank - 1, 1, 2)
        layer = self._dense(equation, (None,) * (rank - 2) + (self.num_heads, size),
                            bias_axes, name, activation)
        layer.build(tuple(shape))
        return layer

    def build(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        value_shape = query_shape if value_shape is None else tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        self._query_dense = self._heads(query_shape, self.key_dim, "query")
        self._key_dense = self._heads(key_shape, self.key_dim, "key")
        if self.use_gate:
            self._gate_dense = self._heads(query_shape, self.value_dim, "gate", "sigmoid")
        self._value_dense = self._heads(value_shape, self.value_dim, "value")
        out = self.output_shape
        out = [query_shape[-1]] if out is None else \
            list(out) if isinstance(out, (list, tuple)) else [out]
        rank = len(query_shape)
        equation, bias_axes = _projection(rank - 1, 2, len(out))
        self._output_dense = self._dense(equation, (None,) * (rank - 2) + tuple(out),
                                         bias_axes, "attention_output")
        self._output_dense.build(query_shape[:-1] + (self.num_heads, self.value_dim))
        self.built = True

    def compute_mask(self, inputs, mask=None):
        """The query's mask (Keras 3 sets it on the output)."""
        return mask

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        query, value = convert_to_tensor(query), convert_to_tensor(value)
        key = value if key is None else convert_to_tensor(key)
        if self._query_dense is None:
            self.build(tuple(query.shape.dims), tuple(value.shape.dims), tuple(key.shape.dims))
        gate = self._gate_dense(query) if self.use_gate else None
        q = self._query_dense(query)
        k = self._key_dense(key)
        v = self._value_dense(value)
        q = math_ops.multiply(q, array_ops.constant(1.0 / math.sqrt(self.key_dim), q.dtype))
        axes = self.attention_axes = self._axes(q.shape.rank)   # kept as Keras keeps them
        dot, combine = _equations(q.shape.rank, axes)
        scores = einsum(dot, k, q)
        band = None if self.sliding_window is None else self._band(query, value)
        if q.shape.rank == 4:
            keep = self._keep(scores, attention_mask, value_mask, use_causal_mask,
                              query_mask, key_mask, band)
        else:
            if band is not None:
                attention_mask = band if attention_mask is None else math_ops.logical_and(
                    math_ops.cast(attention_mask, dtypes.bool), band)
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
        if gate is not None:
            out = math_ops.multiply(out, gate)
        out = self._output_dense(out)
        return [out, weights] if return_attention_scores else out

    def _band(self, query, value):
        """(1, T, S): the keys less than `sliding_window` positions from each query."""
        rows = array_ops.reshape(array_ops.range(array_ops.shape(query)[1]), [1, -1, 1])
        cols = array_ops.reshape(array_ops.range(array_ops.shape(value)[1]), [1, 1, -1])
        return math_ops.less(math_ops.abs(rows - cols), self.sliding_window)

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        out = self.output_shape
        if out is None:
            return tuple(query_shape)
        return tuple(query_shape[:-1]) + (tuple(out) if isinstance(out, (list, tuple))
                                          else (out,))

    def get_config(self):
        return {**super().get_config(), "num_heads": self.num_heads, "key_dim": self.key_dim,
                "value_dim": self.value_dim, "dropout": self.dropout,
                "use_bias": self.use_bias, "use_gate": self.use_gate,
                "output_shape": self.output_shape, "attention_axes": self.attention_axes,
                "sliding_window": self.sliding_window, **weight_options_config(self),
                "seed": self.seed}

    def _axes(self, rank):
        """The attention axes of the projected (batch, ..., heads, size) tensors."""
        if self.attention_axes is None:
            return tuple(range(1, rank - 2))
        return tuple(a if a >= 0 else (rank - 1) + a for a in self.attention_axes)

    @staticmethod
    def _keep(scores, attention_mask, value_mask, use_causal_mask, query_mask=None,
              key_mask=None, band=None):
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
        if band is not None:
            band = array_ops.expand_dims(band, 1)
            keep = band if keep is None else math_ops.logical_and(keep, band)
        return keep
