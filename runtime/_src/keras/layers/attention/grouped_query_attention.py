"""`keras.layers.GroupQueryAttention(head_dim, num_query_heads,
num_key_value_heads)` (the class GroupedQueryAttention, as Keras names it): attention in which groups of query heads share one key
and value head, as Keras 3.15.

    q = EinsumDense("bqm,muh->bquh")(query)        (b, T, query heads, head_dim)
    k, v = EinsumDense("bkm,mvh->bkvh")(key / value) (b, S, kv heads, head_dim),
           each kv head repeated num_query_heads // num_key_value_heads times
    scores = softmax(q k^T / sqrt(head_dim))      masked positions set to -1e9
    out = EinsumDense("bquh,uhm->bqm")(scores v)  back to the query's features

`use_gate=True` multiplies (scores v) by sigmoid(EinsumDense(query)) first;
`sliding_window=w` keeps the keys less than w positions away. The masks (the
query's, value's and key's Keras masks, `attention_mask`, the causal mask)
are combined with AND. `return_attention_scores=True` also returns the
softmax weights (b, query heads, T, S).
"""

import math

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.initializers import initializers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.core.dense import weight_options_config
from runtime._src.keras.layers.core.einsum_dense import EinsumDense
from runtime._src.ops import array_ops, math_ops, nn_ops, random_ops, shape_ops
from runtime._src.ops.einsum_ops import einsum

__all__ = ["GroupedQueryAttention"]


class GroupedQueryAttention(Layer):
    """See the module docstring."""

    _keras_class_name = "GroupQueryAttention"     # the name Keras 3 saves it under

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0,
                 use_bias=True, sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        if sliding_window is not None and sliding_window <= 0:
            raise ValueError("`sliding_window` must be a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        self.head_dim, self.num_query_heads = head_dim, num_query_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout, self.use_bias, self.use_gate = float(dropout), use_bias, use_gate
        self.sliding_window, self.seed = sliding_window, seed
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self._scale = 1.0 / math.sqrt(float(head_dim))

    def _dense(self, equation, shape, bias_axes, name, activation=None):
        init = self.kernel_initializer
        return EinsumDense(equation, shape, activation=activation,
                           bias_axes=bias_axes if self.use_bias else None, name=name,
                           kernel_initializer=type(init).from_config(init.get_config()),
                           bias_initializer=self.bias_initializer,
                           kernel_regularizer=self.kernel_regularizer,
                           bias_regularizer=self.bias_regularizer,
                           kernel_constraint=self.kernel_constraint,
                           bias_constraint=self.bias_constraint)

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = query_shape if value_shape is None else value_shape
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        q_heads, kv_heads = self.num_query_heads, self.num_key_value_heads
        self._query_dense = self._dense("bqm,muh->bquh", (None, q_heads, self.head_dim),
                                        "uh", "query")
        self._query_dense.build(query_shape)
        self._key_dense = self._dense("bkm,mvh->bkvh", (None, kv_heads, self.head_dim),
                                      "vh", "key")
        self._key_dense.build(key_shape)
        if self.use_gate:
            self._gate_dense = self._dense("bqm,muh->bquh", (None, q_heads, self.head_dim),
                                           "uh", "gate", activation="sigmoid")
            self._gate_dense.build(query_shape)
        self._value_dense = self._dense("bkm,mvh->bkvh", (None, kv_heads, self.head_dim),
                                        "vh", "value")
        self._value_dense.build(value_shape)
        self._output_dense = self._dense("bquh,uhm->bqm", (None, self.feature_dim), "m",
                                         "attention_output")
        self._output_dense.build((None, None, q_heads, self.head_dim))
        self.built = True

    def _mask(self, t, s, query_mask, value_mask, key_mask, attention_mask, causal):
        """(b or 1, T, S) bool, or None."""
        parts = []
        if query_mask is not None:
            parts.append(array_ops.expand_dims(math_ops.cast(query_mask, dtypes.bool), -1))
        for m in (value_mask, key_mask):
            if m is not None:
                parts.append(array_ops.expand_dims(math_ops.cast(m, dtypes.bool), -2))
        rows = array_ops.reshape(array_ops.range(t), [1, -1, 1])
        cols = array_ops.reshape(array_ops.range(s), [1, 1, -1])
        if causal:
            parts.append(math_ops.greater_equal(rows, cols))
        if self.sliding_window is not None:
            parts.append(math_ops.less(math_ops.abs(rows - cols), self.sliding_window))
        if attention_mask is not None:
            parts.append(math_ops.cast(convert_to_tensor(attention_mask), dtypes.bool))
        if not parts:
            return None
        mask = parts[0]
        for p in parts[1:]:
            mask = math_ops.logical_and(mask, p)
        return mask

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        key = value if key is None else key
        t, s = array_ops.shape(query)[1], array_ops.shape(value)[1]
        mask = self._mask(t, s, query_mask, value_mask, key_mask, attention_mask,
                          use_causal_mask)
        gate = self._gate_dense(query) if self.use_gate else None
        q = self._query_dense(query) * self._scale
        k = shape_ops.repeat(self._key_dense(key), self.num_repeats, axis=2)
        v = shape_ops.repeat(self._value_dense(value), self.num_repeats, axis=2)
        scores = einsum("bquh,bkuh->buqk", q, k)
        if mask is not None:
            keep = array_ops.expand_dims(mask, 1)
            scores = math_ops.where(keep, scores, array_ops.fill(array_ops.shape(scores),
                                                                 -1e9))
        weights = nn_ops.softmax(scores, axis=-1)
        if mask is not None:        # as Keras's Softmax: a fully masked row gives zeros
            weights = math_ops.where(keep, weights, array_ops.zeros_like(weights))
        dropped = weights
        if training and self.dropout > 0:
            dropped = random_ops.dropout(weights, self.dropout, seed=self.seed)
        out = einsum("buqk,bkuh->bquh", dropped, v)
        if gate is not None:
            out = out * gate
        out = self._output_dense(out)
        return (out, weights) if return_attention_scores else out

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        value_shape = query_shape if value_shape is None else value_shape
        key_shape = value_shape if key_shape is None else key_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError("The last dimension of `query_shape` and `value_shape` must be "
                             f"equal, but are {query_shape[-1]}, {value_shape[-1]}. Received: "
                             f"query_shape={query_shape}, value_shape={value_shape}")
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must "
                             f"be equal. Received: value_shape={value_shape} and "
                             f"key_shape={key_shape}")
        return tuple(query_shape)

    def get_config(self):
        return {**super().get_config(), "head_dim": self.head_dim,
                "num_query_heads": self.num_query_heads,
                "num_key_value_heads": self.num_key_value_heads, "use_bias": self.use_bias,
                "use_gate": self.use_gate, "sliding_window": self.sliding_window,
                "dropout": self.dropout, **weight_options_config(self), "seed": self.seed}


serialization.register_builtin("keras.layers", GroupedQueryAttention, "GroupQueryAttention")
