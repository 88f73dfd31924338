"""bfloat16 kernels that compute in float32, as TensorFlow's CPU kernels do.

numpy runs bfloat16 arrays through ml_dtypes' ufuncs, which compute each
elementwise op in float32 and round the result to bfloat16 (to nearest, ties
to even): TF's values for `+`, `*`, `exp`, casts. A kernel made of several
numpy steps would round after each one, and numpy's reductions would
accumulate in bfloat16 (`reduce_sum` of 1000 ones would stop at 256). TF's
kernels of the ops below compute in float32 and round once, so here their
bfloat16 inputs are widened to float32 and their float32 results rounded
back: `reduce_sum(ones([1000], bfloat16))` is 1000, `softmax([1., 2., 3.])`
is [0.0898438, 0.245117, 0.664062] as in TF 2.21. (TF's fused elementwise
kernels, SigmoidGrad and the like, round after each step as Eigen's bfloat16
does; the gradient rules here, made of ops, do too, though in their own order:
such results can differ from TF's by a bfloat16 unit in the last place.)
"""

import functools

import numpy as np

from runtime._src.core import dtypes
from runtime._src.graph.op_registry import OPS

__all__ = ["FLOAT32_COMPUTED", "computed_in_float32"]

_BF16, _F32 = dtypes.bfloat16.np_dtype, np.dtype(np.float32)

# Ops whose TF kernel computes bfloat16 in float32 and rounds once.
FLOAT32_COMPUTED = (
    "MatMul", "Sum", "Mean", "EuclideanNorm", "L2Loss",
    "Softmax", "Softsign", "Elu", "Selu",
    "Rsqrt", "Conv2D", "Conv2DBackpropFilter",
    "Conv2DBackpropInput", "AvgPool", "AvgPoolGrad", "Einsum",
)


def computed_in_float32(kernel):
    """`kernel`, run on float32 copies of its bfloat16 array arguments, its float32
    results rounded to bfloat16; unchanged when no argument is bfloat16."""
    @functools.wraps(kernel)
    def run(*args, **attrs):
        if not any(getattr(a, "dtype", None) == _BF16 for a in args):
            return kernel(*args, **attrs)
        out = kernel(*(_widen(a) for a in args), **attrs)
        if isinstance(out, tuple):
            return tuple(_round(o) for o in out)
        return _round(out)
    run.computes_bfloat16_in_float32 = True
    return run


def _widen(value):
    return value.astype(_F32) if getattr(value, "dtype", None) == _BF16 else value


def _round(value):
    return value.astype(_BF16) if getattr(value, "dtype", None) == _F32 else value


for _name in FLOAT32_COMPUTED:
    OPS[_name].kernel = computed_in_float32(OPS[_name].kernel)
