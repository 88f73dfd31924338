"""The `tf.nn` namespace: activations, losses, convolutions and pooling,
`embedding_lookup`, `batch_normalization` (and `dropout`, from the random ops).

    >>> import runtime as tf
    >>> tf.nn.relu(tf.constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
"""

from runtime._src.ops.reduction_ops import l2_normalize, moments
from runtime._src.ops.cross_entropy_ops import (sigmoid_cross_entropy_with_logits,
                                                softmax_cross_entropy_with_logits,
                                                sparse_softmax_cross_entropy_with_logits,
                                                weighted_cross_entropy_with_logits)
from runtime._src.ops.nn_ops import (batch_normalization, bias_add, elu,
                                     embedding_lookup, gelu, l2_loss, leaky_relu,
                                     log_softmax, relu, relu6, selu, sigmoid,
                                     softmax, softplus, softsign, silu, swish)
from runtime._src.ops.conv_ops import (avg_pool, avg_pool1d, avg_pool2d, conv1d,
                                       conv2d, convolution, max_pool, max_pool1d, max_pool2d)

from runtime._src.ops.conv_more_ops import (conv1d_transpose,
                                            conv2d_transpose, depthwise_conv2d,
                                            local_response_normalization,
                                            separable_conv2d)
from runtime._src.distribute.losses import compute_average_loss, scale_regularization_loss
from runtime._src.ops.conv_more_ops import local_response_normalization as lrn
from runtime._src.ops.sort_ops import top_k  # also tf.math.top_k
from runtime._src.ops.space_ops import depth_to_space, space_to_batch, space_to_depth
from runtime._src.ops.nn_stats_ops import (batch_norm_with_global_normalization,
                                           collapse_repeated, crelu, isotonic_regression,
                                           log_poisson_loss, normalize_moments,
                                           sufficient_statistics, weighted_moments)
from runtime._src.ops.math_ops import tanh
from runtime._src.ops.ctc_ops import ctc_loss, ctc_unique_labels
from runtime._src.ops.conv_family_ops import (atrous_conv2d, atrous_conv2d_transpose,
                                              conv_transpose, max_pool_with_argmax, pool,
                                              with_space_to_batch)
from runtime._src.autodiff.conv_backprop import (depthwise_conv2d_backprop_filter,
                                                 depthwise_conv2d_backprop_input)
from runtime._src.ops.math_more_ops import (approx_max_k, approx_min_k,  # also tf.math's
                                            in_top_k, zero_fraction)
from runtime._src.ops.candidate_sampling_ops import (  # also tf.random's
    all_candidate_sampler, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler)

from runtime._src.ops.conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from runtime._src.ops.morphology_ops import dilation2d, erosion2d
from runtime._src.ops.fractional_pool_ops import fractional_avg_pool, fractional_max_pool
from runtime._src.sparse.ctc_decode import (compute_accidental_hits, ctc_beam_search_decoder,
                                            ctc_greedy_decoder)
from runtime._src.sparse.sampled_losses import nce_loss, sampled_softmax_loss
from runtime._src.sparse.embedding_sparse import (embedding_lookup_sparse,
                                                  safe_embedding_lookup_sparse)

# tf.nn.dropout is defined with the random ops (runtime/_src/ops/random_ops.py).
from runtime._src.ops.random_ops import dropout

import types as _types

from runtime._src.ops.dropout_ops import general_dropout as _general_dropout
from runtime._src.ops.dropout_ops import stateless_dropout as _stateless_dropout

experimental = _types.SimpleNamespace(general_dropout=_general_dropout,
                                      stateless_dropout=_stateless_dropout)

_CELL_WRAPPERS = ("RNNCellDeviceWrapper", "RNNCellDropoutWrapper", "RNNCellResidualWrapper")


def __getattr__(name):
    """The RNN cell wrappers (Keras layers) on first use: `import runtime` loads no
    Keras module."""
    if name in _CELL_WRAPPERS:
        from runtime._src.keras.layers.rnn import cell_wrappers
        return getattr(cell_wrappers, name)
    raise AttributeError(f"module 'runtime.nn' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_CELL_WRAPPERS))
