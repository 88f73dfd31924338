"""tools/tf_diff.py's recipes for neural-network ops: activations, softmax, bias_add, the
cross-entropies, embedding lookup, batch normalization, convolution and pooling.
Importing the module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F32, F64, I32, SPECIAL, _i, _u, recipe


# ---------------------------------------------------------------- nn

@recipe("nn", "relu relu6 elu selu gelu silu swish softplus softsign sigmoid tanh "
        "nn.leaky_relu")
def _activation(rng, name):
    yield Case("f32[3,4]", _u(rng, (3, 4), F32, -8, 8))
    yield Case("f64", _u(rng, (5,), F64, -8, 8))
    yield Case("f32 special", SPECIAL)
    yield Case("f32[0]", np.zeros(0, F32))
    yield Case("i32", _i(rng, (4,)))


@recipe("nn", "softmax log_softmax")
def _softmax(rng, name):
    yield Case("last axis", _u(rng, (3, 4)))
    yield Case("axis=0", _u(rng, (3, 4)), axis=0)
    yield Case("f64 1-d", _u(rng, (5,), F64))
    yield Case("large", np.array([1000.0, 0.0, -1000.0], F32))


@recipe("nn", "bias_add")
def _bias_add(rng):
    yield Case("NHWC", _u(rng, (2, 3, 4)), _u(rng, (4,)))
    yield Case("bad bias", _u(rng, (2, 3)), _u(rng, (2,)))


@recipe("nn", "l2_loss")
def _l2_loss(rng):
    yield Case("f32", _u(rng, (3, 4)))
    yield Case("f32 scalar", F32(2.0))


@recipe("nn", "sigmoid_cross_entropy_with_logits")
def _sig_ce(rng):
    yield Case("f32", labels=(rng.uniform(size=(3, 4)) > 0.5).astype(F32),
               logits=_u(rng, (3, 4), F32, -30, 30))
    yield Case("shape clash", labels=np.zeros(3, F32), logits=np.zeros(4, F32))


@recipe("nn", "weighted_cross_entropy_with_logits")
def _weighted_ce(rng):
    yield Case("f32", labels=(rng.uniform(size=(3, 4)) > 0.5).astype(F32),
               logits=_u(rng, (3, 4), F32, -30, 30), pos_weight=2.5)


@recipe("nn", "softmax_cross_entropy_with_logits")
def _softmax_ce(rng):
    labels = rng.dirichlet(np.ones(4), size=3).astype(F32)
    yield Case("f32", labels=labels, logits=_u(rng, (3, 4)))
    yield Case("axis=0", labels=labels.T.copy(), logits=_u(rng, (4, 3)), axis=0)


@recipe("nn", "sparse_softmax_cross_entropy_with_logits")
def _sparse_ce(rng):
    yield Case("f32", labels=np.array([0, 3, 1], I32), logits=_u(rng, (3, 4)))
    yield Case("label out of range", labels=np.array([4], I32), logits=_u(rng, (1, 4)))


@recipe("nn", "embedding_lookup")
def _embedding(rng):
    yield Case("ids", _u(rng, (5, 3)), np.array([[0, 4], [2, 2]], I32))


@recipe("nn", "batch_normalization")
def _batch_norm(rng):
    yield Case("f32", _u(rng, (2, 3)), _u(rng, (3,)), _u(rng, (3,), F32, 0.5, 2),
               _u(rng, (3,)), _u(rng, (3,)), 1e-3)


@recipe("nn", "conv2d")
def _conv2d(rng):
    x, w = _u(rng, (1, 5, 5, 2)), _u(rng, (3, 3, 2, 3))
    yield Case("VALID", x, w, 1, "VALID")
    yield Case("SAME stride 2", x, w, 2, "SAME")
    yield Case("dilations", x, w, 1, "SAME", dilations=2)


@recipe("nn", "conv1d")
def _conv1d(rng):
    yield Case("SAME", _u(rng, (2, 6, 2)), _u(rng, (3, 2, 4)), 1, "SAME")
    yield Case("VALID stride 2", _u(rng, (2, 7, 2)), _u(rng, (3, 2, 4)), 2, "VALID")


@recipe("nn", "max_pool2d avg_pool2d")
def _pool(rng, name):
    yield Case("2x2 VALID", _u(rng, (1, 4, 5, 2)), 2, 2, "VALID")
    yield Case("3x3 SAME stride 2", _u(rng, (1, 5, 5, 1)), 3, 2, "SAME")
