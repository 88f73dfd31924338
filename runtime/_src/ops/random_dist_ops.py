"""More stateful random ops: `random.poisson` and `random.gamma`.

They follow the seeding rules of `random_ops` (global seed, op seed, one
stream per op) and draw with numpy's generators, so the values are not
TensorFlow's, only their distribution is. The output shape is
`shape + the shape of the parameters` (lam; alpha and beta broadcast):

    poisson([10], lam=[1.0, 5.0])          # shape (10, 2), float32
    gamma([3], alpha=2.0, beta=0.5)        # shape (3,), mean alpha / beta

`gamma(..., beta)` divides a unit-rate draw by beta, so the gradient reaches
beta as TensorFlow's does; the gradient with respect to alpha (TF's implicit
reparameterization) is not implemented: alpha gets None.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.random_ops import (_check_dtype, _generator, _seed_attrs, _shape_tensor,
                                         _static_shape)
from runtime._src.ops.shape_rules import broadcast_shapes

__all__ = ["poisson", "gamma"]


def _infer_param_draw(inputs, attrs):
    lead = _static_shape(inputs[0])
    param = inputs[1].shape
    if lead.rank is None or param.rank is None:
        return [(attrs["dtype"], TensorShape(None))]
    return [(attrs["dtype"], TensorShape(list(lead.dims) + list(param.dims)))]


@define_op("RandomPoissonV2", infer=_infer_param_draw, stateful=True, side_effect=True)
def _random_poisson(shape, lam, *, dtype, seeds, stream):
    rng = _generator("RandomPoissonV2", dtype, seeds, stream)
    size = tuple(int(d) for d in shape) + np.shape(lam)
    return rng.poisson(np.asarray(lam, np.float64), size=size).astype(dtype.np_dtype)


@define_op("RandomGamma", infer=_infer_param_draw, stateful=True, side_effect=True)
def _random_gamma(shape, alpha, *, dtype, seeds, stream):
    rng = _generator("RandomGamma", dtype, seeds, stream)
    size = tuple(int(d) for d in shape) + np.shape(alpha)
    return rng.gamma(np.asarray(alpha, np.float64), size=size).astype(dtype.np_dtype)


not_differentiable("RandomPoissonV2", "RandomGamma")

_POISSON = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.poisson`: Poisson draws with rates `lam`, shape `shape + lam.shape`."""
    dtype = _check_dtype(dtype, _POISSON, "random.poisson")
    lam = convert_to_tensor(lam._as_tensor() if reads_as_tensor(lam) else lam,
                            None if hasattr(lam, "dtype") else dtypes.float32)
    if not lam.dtype.is_floating and not lam.dtype.is_integer:
        raise TypeError(f"random.poisson: lam must be numeric, got {lam.dtype.name}")
    return apply("RandomPoissonV2", [_shape_tensor(shape, "random.poisson"), lam],
                 {"dtype": dtype, **_seed_attrs(seed, "random.poisson")})


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.gamma`: Gamma(alpha, rate beta) draws, shape
    `shape + broadcast(alpha, beta).shape`."""
    dtype = _check_dtype(dtype, (dtypes.float16, dtypes.float32, dtypes.float64),
                         "random.gamma")
    alpha = convert_to_tensor(alpha, dtype)
    if beta is not None:
        beta = convert_to_tensor(beta, dtype)
        alpha = alpha + beta * 0 if beta.shape != alpha.shape else alpha
        full = broadcast_shapes(alpha.shape, beta.shape)
        if full.rank is not None and alpha.shape.rank != full.rank:
            raise ValueError(f"random.gamma: alpha {alpha.shape} and beta {beta.shape} do "
                             "not broadcast")
    draw = apply("RandomGamma", [_shape_tensor(shape, "random.gamma"), alpha],
                 {"dtype": dtype, **_seed_attrs(seed, "random.gamma")})
    return draw if beta is None else draw / beta
