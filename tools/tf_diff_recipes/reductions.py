"""tools/tf_diff.py's recipes for reductions, arg-reductions, scans, norms and moments.
Importing the module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F32, F64, I32, SPECIAL, _i, _u, recipe


# ---------------------------------------------------------------- reductions

@recipe("reduction", "reduce_sum reduce_prod reduce_max reduce_min reduce_mean "
        "reduce_logsumexp reduce_std reduce_variance reduce_euclidean_norm")
def _reduce(rng, name):
    x = _u(rng, (3, 4))
    yield Case("f32 all", x)
    yield Case("f32 axis=0", x, axis=0)
    yield Case("f32 axis=-1 keepdims", x, axis=-1, keepdims=True)
    yield Case("f32 axis=[0,1]", x, axis=[0, 1])
    yield Case("f32 axis=(-1,0) keepdims", x, axis=(-1, 0), keepdims=True)
    yield Case("f64[2,3,2] axis=1", _u(rng, (2, 3, 2), F64), axis=1)
    yield Case("f32 scalar", F32(2.5))
    yield Case("f32[0,3] axis=0", np.zeros((0, 3), F32), axis=0)
    yield Case("f32[0,3] all", np.zeros((0, 3), F32))
    yield Case("i32 axis=1", _i(rng, (3, 4)), axis=1)
    yield Case("f32 special", SPECIAL)
    yield Case("axis out of range", x, axis=2)


@recipe("reduction", "reduce_all reduce_any")
def _reduce_bool(rng):
    x = rng.uniform(size=(3, 4)) > 0.5
    yield Case("bool all", x)
    yield Case("bool axis=1 keepdims", x, axis=1, keepdims=True)
    yield Case("bool[0]", np.zeros(0, bool))


@recipe("reduction", "argmax argmin")
def _arg(rng):
    x = _u(rng, (3, 4))
    yield Case("f32 default axis", x)
    yield Case("f32 axis=1", x, axis=1)
    yield Case("f32 axis=-1 int32", x, axis=-1, output_type="int32")
    yield Case("i32 ties", np.array([1, 3, 3, 1], I32))
    yield Case("f32 nan", np.array([1.0, np.nan, 3.0], F32))


@recipe("reduction", "count_nonzero")
def _count_nonzero(rng):
    x = _i(rng, (3, 4), I32, -1, 2)
    yield Case("i32 all", x)
    yield Case("i32 axis=1 keepdims", x, axis=1, keepdims=True)
    yield Case("f32 dtype=int32", _u(rng, (4,)).round(), dtype="int32")
    yield Case("bool", x > 0)


@recipe("scan", "cumsum cumprod")
def _scan(rng):
    x = _u(rng, (3, 4), F32, 0.5, 1.5)
    for exclusive in (False, True):
        for reverse in (False, True):
            yield Case(f"f32 axis=1 exclusive={exclusive} reverse={reverse}", x, axis=1,
                       exclusive=exclusive, reverse=reverse)
    yield Case("f32 default axis", x)
    yield Case("i32 axis=-1", _i(rng, (2, 3)), axis=-1)
    yield Case("f32 scalar", F32(2.0))
    yield Case("f32[0]", np.zeros(0, F32))


@recipe("reduction", "norm")
def _norm(rng):
    x = _u(rng, (3, 4))
    yield Case("default", x)
    for ord_ in (1, 2, np.inf, "euclidean"):
        yield Case(f"ord={ord_} axis=1", x, ord=ord_, axis=1)
    yield Case("ord=fro axis=[0,1]", x, ord="fro", axis=[0, 1])
    yield Case("ord=1 axis=[-2,-1]", x, ord=1, axis=[-2, -1])
    yield Case("ord=inf axis=[0,1] keepdims", x, ord=np.inf, axis=[0, 1], keepdims=True)
    yield Case("ord=3 axis=0", x, ord=3, axis=0)


@recipe("reduction", "l2_normalize")
def _l2n(rng):
    yield Case("f32 axis=1", _u(rng, (3, 4)), axis=1)
    yield Case("f32 all", _u(rng, (3, 4)))
    yield Case("zeros", np.zeros(3, F32), axis=0)


@recipe("reduction", "nn.moments")
def _moments(rng):
    yield Case("axes=[0]", _u(rng, (3, 4)), axes=[0])
    yield Case("axes=[0,1] keepdims", _u(rng, (3, 4)), axes=[0, 1], keepdims=True)
