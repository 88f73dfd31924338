"""tools/tf_diff.py's recipes for scatter ops, sorting, top_k, unique and searchsorted.
Importing the module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F32, I32, I64, _i, _u, recipe


# ---------------------------------------------------------------- scatter

@recipe("scatter", "scatter_nd")
def _scatter_nd(rng):
    yield Case("1-d", np.array([[1], [3], [1]], I32), _u(rng, (3,)), [5])
    yield Case("rows", np.array([[0], [2]], I32), _u(rng, (2, 3)), [4, 3])
    yield Case("out of range", np.array([[5]], I32), _u(rng, (1,)), [5])


@recipe("scatter", "tensor_scatter_nd_update tensor_scatter_nd_add tensor_scatter_nd_sub "
        "tensor_scatter_nd_max tensor_scatter_nd_min")
def _tensor_scatter(rng, name):
    yield Case("elements", _u(rng, (4, 3)), np.array([[0, 1], [3, 2]], I32), _u(rng, (2,)))
    yield Case("rows i32", _i(rng, (4, 3)), np.array([[1], [3]], I64), _i(rng, (2, 3)))
    yield Case("out of range", _u(rng, (4,)), np.array([[4]], I32), _u(rng, (1,)))
    yield Case("bad updates shape", _u(rng, (4,)), np.array([[1]], I32), _u(rng, (2,)))


# ---------------------------------------------------------------- sorting

@recipe("sort", "sort argsort")
def _sort(rng, name):
    yield Case("f32 default", _u(rng, (3, 4)))
    yield Case("DESCENDING axis=0", _u(rng, (3, 4)), axis=0, direction="DESCENDING")
    yield Case("i32 ties", np.array([3, 1, 3, 2, 1], I32))
    yield Case("nan", np.array([1.0, np.nan, -1.0], F32))
    yield Case("bad direction", _u(rng, (3,)), direction="UP")


@recipe("sort", "top_k")
def _top_k(rng):
    yield Case("k=2", _u(rng, (3, 5)), 2)
    yield Case("ties", np.array([1, 3, 3, 2], I32), 3)
    yield Case("k too large", _u(rng, (3,)), 4)
    yield Case("sorted=False", _u(rng, (4,)), k=1, sorted=False)


@recipe("sort", "unique unique_with_counts")
def _unique(rng, name):
    yield Case("i32", np.array([3, 1, 3, 2, 1], I32))
    yield Case("f32 empty", np.zeros(0, F32))
    yield Case("out_idx int64", np.array([1, 1, 2], I32), out_idx="int64")
    yield Case("2-d", np.array([[1, 2]], I32))


@recipe("sort", "searchsorted")
def _searchsorted(rng):
    seq = np.sort(_u(rng, (2, 5)), axis=-1)
    yield Case("left", seq, _u(rng, (2, 3)))
    yield Case("right", seq, seq[:, :3].copy(), side="right")
    yield Case("1-d int", np.array([1, 3, 3, 7], I32), np.array([0, 3, 8], I32))
