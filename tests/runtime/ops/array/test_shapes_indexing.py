"""The shapes-and-indexing family (`tf.pad` ... `tf.bitcast`), one record per case,
each run eagerly and inside `tf.function` (with the inputs' static shapes and
again with every dimension unknown), against numpy references computed
independently of the kernels (numpy's own functions, or Python loops), checking
value, dtype, shape and the static shape seen while tracing.
"""

import numpy as np
import pytest

import runtime as tf

RNG = np.random.RandomState(17)
X = RNG.uniform(-3, 3, (3, 4)).astype(np.float32)
X3 = RNG.uniform(-3, 3, (2, 3, 4)).astype(np.float32)
I3 = RNG.randint(-5, 5, (2, 3, 4)).astype(np.int32)
I = RNG.randint(0, 4, (6,)).astype(np.int32)
EMPTY = np.zeros((0, 3), np.float32)
SCALAR = np.float32(1.5)
TIES = np.array([[3, 1, 3, 2, 1, 3], [0, 0, 5, 5, 0, 1]], np.int32)


class Rec:
    """`fn(*args)` equals `ref(*args)` (or the value `ref`); numpy args become tensors.

    `relaxed=False` skips the run with unknown dimensions (ops needing static sizes).
    """

    def __init__(self, name, fn, args, ref, relaxed=True):
        self.name, self.fn, self.args, self.ref, self.relaxed = name, fn, args, ref, relaxed

    def expected(self):
        out = self.ref(*self.args) if callable(self.ref) else self.ref
        return _flat(out, np.asarray)

    def __repr__(self):
        return self.name


def _flat(out, convert):
    if isinstance(out, (list, tuple)):
        return tuple(convert(o) for o in out)
    return (convert(out),)


# --- references, written independently of the kernels ----------------------------------

def ref_gather_nd(params, indices, batch_dims=0):
    if batch_dims:
        return np.stack([ref_gather_nd(p, i) for p, i in zip(params, indices)])
    m = indices.shape[-1]
    rows = [params[tuple(ix)] for ix in indices.reshape(-1, m)]
    return np.array(rows, params.dtype).reshape(indices.shape[:-1] + params.shape[m:])


def ref_scatter(target, indices, updates, combine):
    out = np.array(target, copy=True)
    m = indices.shape[-1]
    for ix, u in zip(indices.reshape(-1, m), updates.reshape((-1,) + out.shape[m:])):
        out[tuple(ix)] = combine(out[tuple(ix)], u)
    return out


def ref_unique(x, counts=False):
    seen, ys, idx = {}, [], []
    for v in x.tolist():
        if v not in seen:
            seen[v] = len(ys)
            ys.append(v)
        idx.append(seen[v])
    y, idx = np.array(ys, x.dtype), np.array(idx, np.int32)
    if counts:
        return y, idx, np.bincount(idx, minlength=len(ys)).astype(np.int32)
    return y, idx


def ref_top_k(x, k):
    """Largest first; equal values by lower index first."""
    rows = x.reshape(-1, x.shape[-1])
    order = np.array([sorted(range(len(r)), key=lambda i: (-r[i], i))[:k] for r in rows],
                     np.int32).reshape(x.shape[:-1] + (k,))
    return np.take_along_axis(x, order, -1), order


def ref_argsort(x, axis, descending):
    moved = np.moveaxis(x, axis, -1)
    sign = -1 if descending else 1
    rows = moved.reshape(-1, moved.shape[-1])
    order = np.array([sorted(range(len(r)), key=lambda i: (sign * r[i], i)) for r in rows],
                     np.int32).reshape(moved.shape)
    return np.moveaxis(order, -1, axis)


def ref_searchsorted(seq, values, side):
    s, v = seq.reshape(-1, seq.shape[-1]), values.reshape(-1, values.shape[-1])
    out = [[sum(1 for e in srow if (e < q if side == "left" else e <= q)) for q in vrow]
           for srow, vrow in zip(s, v)]
    return np.array(out, np.int32).reshape(values.shape)


def ref_linspace(start, stop, num):
    return np.linspace(start, stop, num).astype(np.float32)


def ref_sequence_mask(lengths, maxlen):
    return np.arange(maxlen) < np.asarray(lengths)[..., None]


GND = np.array([[0, 1], [1, 2], [1, 0]], np.int32)
SND = np.array([[0], [2], [0], [3]], np.int32)
UPD = RNG.randint(-9, 9, (4,)).astype(np.int32)
SEQ = np.sort(RNG.randint(0, 10, (2, 5)), axis=-1).astype(np.int32)
VALS = RNG.randint(-1, 11, (2, 4)).astype(np.int32)
MASK = np.array([True, False, True], bool)
MASK2 = RNG.uniform(size=(3, 4)) > 0.5
LENS = np.array([1, 3, 0, 2], np.int32)
FLOAT_DUPS = np.array([1.5, -2.0, 1.5, 0.0, -2.0, 7.25], np.float32)

RECORDS = [
    # broadcast_to
    Rec("broadcast_to", lambda x: tf.broadcast_to(x, [2, 3, 4]), [X[:1]],
        lambda x: np.broadcast_to(x, (2, 3, 4))),
    Rec("broadcast_to_scalar", lambda x: tf.broadcast_to(x, [2, 2]), [SCALAR],
        np.full((2, 2), SCALAR)),
    Rec("broadcast_to_empty", lambda x: tf.broadcast_to(x, [2, 0, 3]), [EMPTY],
        np.zeros((2, 0, 3), np.float32)),
    # pad
    Rec("pad_constant", lambda x: tf.pad(x, [[1, 2], [0, 3]]), [X],
        lambda x: np.pad(x, [[1, 2], [0, 3]])),
    Rec("pad_constant_values", lambda x: tf.pad(x, [[1, 0], [2, 1]], constant_values=-7), [I3[0]],
        lambda x: np.pad(x, [[1, 0], [2, 1]], constant_values=-7)),
    Rec("pad_reflect", lambda x: tf.pad(x, [[2, 2], [3, 1]], mode="REFLECT"), [X],
        lambda x: np.pad(x, [[2, 2], [3, 1]], mode="reflect")),
    Rec("pad_symmetric_lowercase", lambda x: tf.pad(x, [[3, 0], [4, 4]], mode="symmetric"), [X],
        lambda x: np.pad(x, [[3, 0], [4, 4]], mode="symmetric")),
    Rec("pad_empty", lambda x: tf.pad(x, [[1, 1], [0, 0]]), [EMPTY], np.zeros((2, 3), np.float32)),
    Rec("pad_scalar", lambda x: tf.pad(x, np.zeros((0, 2), np.int32)), [SCALAR], SCALAR),
    # reverse / roll / repeat
    Rec("reverse", lambda x: tf.reverse(x, [0, -1]), [X3], lambda x: x[::-1, :, ::-1]),
    Rec("reverse_none", lambda x: tf.reverse(x, []), [X], lambda x: x),
    Rec("roll", lambda x: tf.roll(x, [1, -2], [0, 2]), [I3], lambda x: np.roll(x, (1, -2), (0, 2))),
    Rec("roll_repeated_axis", lambda x: tf.roll(x, [2, 3], [1, 1]), [X],
        lambda x: np.roll(x, 5, 1)),
    Rec("roll_scalar_shift", lambda x: tf.roll(x, 7, 0), [I], lambda x: np.roll(x, 7)),
    Rec("repeat_axis", lambda x: tf.repeat(x, [1, 0, 2], axis=0), [X],
        lambda x: np.repeat(x, [1, 0, 2], axis=0)),
    Rec("repeat_flat", lambda x: tf.repeat(x, 2), [X], lambda x: np.repeat(x, 2)),
    Rec("repeat_scalar", lambda x: tf.repeat(x, 3), [SCALAR], np.full(3, SCALAR)),
    Rec("repeat_neg_axis", lambda x: tf.repeat(x, 2, axis=-1), [I3],
        lambda x: np.repeat(x, 2, axis=-1)),
    # split / unstack / slice
    Rec("split_num", lambda x: tf.split(x, 2, axis=2), [X3], lambda x: np.split(x, 2, axis=2)),
    Rec("split_sizes", lambda x: tf.split(x, [1, -1, 0], axis=1), [X3],
        lambda x: (x[:, :1], x[:, 1:], x[:, 3:])),
    Rec("split_empty", lambda x: tf.split(x, 3, axis=1), [EMPTY], lambda x: np.split(x, 3, 1)),
    Rec("unstack", lambda x: tf.unstack(x, axis=1), [X3], lambda x: list(np.moveaxis(x, 1, 0)),
        relaxed=False),
    Rec("unstack_num_last", lambda x: tf.unstack(x, num=4, axis=-1), [I3],
        lambda x: [x[..., i] for i in range(4)]),
    Rec("slice", lambda x: tf.slice(x, [1, 0, 1], [1, -1, 2]), [X3], lambda x: x[1:2, :, 1:3]),
    Rec("slice_all", lambda x: tf.slice(x, [0, 0], [-1, -1]), [X], lambda x: x),
    Rec("slice_empty", lambda x: tf.slice(x, [0, 1], [0, 2]), [EMPTY], np.zeros((0, 2), np.float32)),
    # strided_slice, every mask
    Rec("strided_slice", lambda x: tf.strided_slice(x, [0, 1], [2, 3], [1, 1]), [X3],
        lambda x: x[0:2, 1:3]),
    Rec("strided_slice_strides", lambda x: tf.strided_slice(x, [-1, 0, 3], [0, 3, 0], [-1, 2, -2]),
        [X3], lambda x: x[-1:0:-1, 0:3:2, 3:0:-2]),
    Rec("strided_slice_begin_end_mask",
        lambda x: tf.strided_slice(x, [1, 1, 1], [2, 2, 2], begin_mask=0b101, end_mask=0b010),
        [X3], lambda x: x[:2, 1:, :2]),
    Rec("strided_slice_ellipsis", lambda x: tf.strided_slice(x, [0, 1], [0, 3], ellipsis_mask=1),
        [X3], lambda x: x[..., 1:3]),
    Rec("strided_slice_new_axis",
        lambda x: tf.strided_slice(x, [0, 0, 1], [0, 0, 2], new_axis_mask=0b011), [X3],
        lambda x: x[None, None, 1:2]),
    Rec("strided_slice_shrink",
        lambda x: tf.strided_slice(x, [1, 0, -1], [2, 3, 0], shrink_axis_mask=0b101), [I3],
        lambda x: x[1, 0:3, -1]),
    Rec("strided_slice_shrink_ignores_masks",
        lambda x: tf.strided_slice(x, [1], [0], begin_mask=1, end_mask=1, shrink_axis_mask=1),
        [X3], lambda x: x[1]),
    Rec("strided_slice_ellipsis_new_shrink",
        lambda x: tf.strided_slice(x, [0, 0, 2], [0, 0, 3], ellipsis_mask=0b001,
                                   new_axis_mask=0b010, shrink_axis_mask=0b100), [X3],
        lambda x: x[..., None, 2]),
    Rec("strided_slice_neg_stride_end_mask",
        lambda x: tf.strided_slice(x, [-1], [0], [-1], end_mask=1), [I], lambda x: x[::-1]),
    Rec("strided_slice_empty", lambda x: tf.strided_slice(x, [0], [0]), [EMPTY], EMPTY),
    # gather_nd / scatter_nd / tensor_scatter_nd_*
    Rec("gather_nd", lambda p, i: tf.gather_nd(p, i), [X3, GND], ref_gather_nd),
    Rec("gather_nd_full", lambda p: tf.gather_nd(p, [[1, 2, 3], [0, 0, 0]]), [I3],
        lambda p: np.array([p[1, 2, 3], p[0, 0, 0]])),
    Rec("gather_nd_batch", lambda p: tf.gather_nd(p, [[[1], [0]], [[2], [2]]], batch_dims=1),
        [X3], lambda p: ref_gather_nd(p, np.array([[[1], [0]], [[2], [2]]]), 1)),
    Rec("gather_nd_empty_indices", lambda p, i: tf.gather_nd(p, i),
        [X3, np.zeros((0, 2), np.int64)], np.zeros((0, 4), np.float32)),
    Rec("scatter_nd_duplicates_add", lambda i, u: tf.scatter_nd(i, u, [5]), [SND, UPD],
        lambda i, u: ref_scatter(np.zeros(5, np.int32), i, u, np.add)),
    Rec("scatter_nd_slices", lambda u: tf.scatter_nd([[1], [3]], u, [4, 4]), [X[:2]],
        lambda u: ref_scatter(np.zeros((4, 4), np.float32), np.array([[1], [3]]), u, np.add)),
    Rec("tensor_scatter_nd_update", lambda t, u: tf.tensor_scatter_nd_update(t, [[0, 1], [2, 3]], u),
        [X, X[0, :2]], lambda t, u: ref_scatter(t, np.array([[0, 1], [2, 3]]), u,
                                                  lambda a, b: b)),
    Rec("tensor_scatter_nd_add", lambda t, u: tf.tensor_scatter_nd_add(t, SND, u),
        [I3[0, 0], UPD], lambda t, u: ref_scatter(t, SND, u, np.add)),
    Rec("tensor_scatter_nd_sub", lambda t, u: tf.tensor_scatter_nd_sub(t, SND, u),
        [I3[0, 0], UPD], lambda t, u: ref_scatter(t, SND, u, np.subtract)),
    Rec("tensor_scatter_nd_max", lambda t, u: tf.tensor_scatter_nd_max(t, SND, u),
        [I3[0, 0], UPD], lambda t, u: ref_scatter(t, SND, u, np.maximum)),
    Rec("tensor_scatter_nd_min", lambda t, u: tf.tensor_scatter_nd_min(t, SND, u),
        [I3[0, 0], UPD], lambda t, u: ref_scatter(t, SND, u, np.minimum)),
    # boolean_mask / where
    Rec("boolean_mask", lambda x, m: tf.boolean_mask(x, m), [X, MASK], lambda x, m: x[m]),
    Rec("boolean_mask_axis", lambda x, m: tf.boolean_mask(x, m, axis=1), [X3, MASK],
        lambda x, m: x[:, m]),
    Rec("boolean_mask_2d", lambda x, m: tf.boolean_mask(x, m), [X, MASK2], lambda x, m: x[m]),
    Rec("boolean_mask_empty", lambda x, m: tf.boolean_mask(x, m), [EMPTY, np.zeros(0, bool)],
        EMPTY),
    Rec("where_coordinates", lambda m: tf.where(m), [MASK2], lambda m: np.argwhere(m)),
    Rec("where_numeric", lambda x: tf.where(x), [I3], lambda x: np.argwhere(x != 0)),
    Rec("where_empty", lambda m: tf.where(m), [np.zeros((0, 2), bool)],
        np.zeros((0, 2), np.int64)),
    # unique / sort / argsort / top_k / searchsorted
    Rec("unique", lambda x: tf.unique(x), [I], ref_unique),
    Rec("unique_float", lambda x: tf.unique(x), [FLOAT_DUPS], ref_unique),
    Rec("unique_with_counts", lambda x: tf.unique_with_counts(x), [I],
        lambda x: ref_unique(x, counts=True)),
    Rec("unique_with_counts_int64", lambda x: tf.unique_with_counts(x, out_idx=tf.int64), [I],
        lambda x: tuple(a.astype(np.int64) if a.dtype == np.int32 and i else a
                        for i, a in enumerate(ref_unique(x, counts=True)))),
    Rec("unique_empty", lambda x: tf.unique(x), [np.zeros(0, np.int32)],
        (np.zeros(0, np.int32), np.zeros(0, np.int32))),
    Rec("sort", lambda x: tf.sort(x), [X3], lambda x: np.sort(x, -1)),
    Rec("sort_axis0_desc", lambda x: tf.sort(x, axis=0, direction="DESCENDING"), [TIES],
        lambda x: -np.sort(-x, 0)),
    Rec("sort_int_extremes", lambda x: tf.sort(x), [np.array([5, -2**31, 2**31 - 1, 0], np.int32)],
        np.array([-2**31, 0, 5, 2**31 - 1], np.int32)),
    Rec("sort_uint8_desc", lambda x: tf.sort(x, direction="DESCENDING"),
        [np.array([3, 255, 0, 7], np.uint8)], np.array([255, 7, 3, 0], np.uint8)),
    Rec("argsort_stable", lambda x: tf.argsort(x), [TIES], lambda x: ref_argsort(x, -1, False)),
    Rec("argsort_desc_stable", lambda x: tf.argsort(x, direction="DESCENDING"), [TIES],
        lambda x: ref_argsort(x, -1, True)),
    Rec("argsort_axis1", lambda x: tf.argsort(x, axis=1), [X3], lambda x: ref_argsort(x, 1, False)),
    Rec("sort_empty", lambda x: tf.sort(x), [EMPTY], EMPTY),
    Rec("top_k", lambda x: tf.math.top_k(x, k=3), [X3], lambda x: ref_top_k(x, 3)),
    Rec("top_k_ties", lambda x: tf.nn.top_k(x, 4), [TIES], lambda x: ref_top_k(x, 4)),
    Rec("top_k_k_tensor", lambda x, k: tf.math.top_k(x, k), [X, np.int32(2)],
        lambda x, k: ref_top_k(x, 2), relaxed=False),
    Rec("top_k_zero", lambda x: tf.math.top_k(x, 0), [EMPTY],
        (np.zeros((0, 0), np.float32), np.zeros((0, 0), np.int32))),
    Rec("searchsorted_left", lambda s, v: tf.searchsorted(s, v), [SEQ, VALS],
        lambda s, v: ref_searchsorted(s, v, "left")),
    Rec("searchsorted_right_1d", lambda s, v: tf.searchsorted(s, v, side="right"),
        [SEQ[0], VALS[0]], lambda s, v: ref_searchsorted(s, v, "right")),
    Rec("searchsorted_int64", lambda s, v: tf.searchsorted(s, v, out_type=tf.int64),
        [SEQ, VALS], lambda s, v: ref_searchsorted(s, v, "left").astype(np.int64)),
    # linspace / meshgrid / sequence_mask
    Rec("linspace", lambda a, b: tf.linspace(a, b, 7), [np.float32(-1.5), np.float32(2.0)],
        lambda a, b: ref_linspace(a, b, 7)),
    Rec("linspace_one", lambda a: tf.linspace(a, 9.0, 1), [np.float32(2)], np.float32([2])),
    Rec("linspace_zero", lambda a: tf.linspace(a, 9.0, 0), [np.float32(2)], np.zeros(0, np.float32)),
    Rec("linspace_int_is_float64", lambda: tf.linspace(0, 10, 5), [],
        np.array([0, 2.5, 5, 7.5, 10], np.float64)),
    Rec("linspace_vector_axis", lambda a, b: tf.linspace(a, b, 4, axis=-1),
        [np.float64([0, 1]), np.float64([1, 4])],
        lambda a, b: np.stack([np.linspace(0, 1, 4), np.linspace(1, 4, 4)])),
    Rec("meshgrid_xy", lambda a, b: tf.meshgrid(a, b), [X[0], X[1, :3]],
        lambda a, b: np.meshgrid(a, b)),
    Rec("meshgrid_ij_3", lambda a, b, c: tf.meshgrid(a, b, c, indexing="ij"), [I[:2], I, I[:3]],
        lambda a, b, c: np.meshgrid(a, b, c, indexing="ij")),
    Rec("sequence_mask", lambda n: tf.sequence_mask(n), [LENS],
        lambda n: ref_sequence_mask(n, 3), relaxed=False),
    Rec("sequence_mask_maxlen_dtype", lambda n: tf.sequence_mask(n, 5, dtype=tf.float32),
        [LENS.reshape(2, 2)], lambda n: ref_sequence_mask(n, 5).astype(np.float32)),
    Rec("sequence_mask_empty", lambda n: tf.sequence_mask(n), [np.zeros(0, np.int32)],
        np.zeros((0, 0), bool), relaxed=False),
    # einsum / tensordot
    Rec("einsum_matmul", lambda a, b: tf.einsum("ij,jk->ik", a, b), [X, X.T],
        lambda a, b: a @ b),
    Rec("einsum_batch_ellipsis", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
        [X3, X.T[None]], lambda a, b: np.einsum("...ij,...jk->...ik", a, b)),
    Rec("einsum_implicit", lambda a, b: tf.einsum("ba,ac", a, b), [X, X.T],
        lambda a, b: np.einsum("ba,ac", a, b)),
    Rec("einsum_trace_diag", lambda a: tf.einsum("ii->i", a), [X[:3, :3]],
        lambda a: np.diagonal(a).copy()),
    Rec("einsum_outer_three", lambda a, b, c: tf.einsum("i,j,k->kji", a, b, c),
        [X[0], X[1, :2], X[2, :3]], lambda a, b, c: np.einsum("i,j,k->kji", a, b, c)),
    Rec("einsum_int", lambda a: tf.einsum("ijk->kj", a), [I3], lambda a: a.sum(0).T.astype(np.int32)),
    Rec("tensordot_int_axes", lambda a, b: tf.tensordot(a, b, 1), [X3, X.T],
        lambda a, b: np.tensordot(a, b, 1)),
    Rec("tensordot_pairs", lambda a, b: tf.tensordot(a, b, [[0, 2], [2, 0]]),
        [X3, X3.transpose(2, 1, 0)], lambda a, b: np.tensordot(a, b, [[0, 2], [2, 0]])),
    Rec("tensordot_outer", lambda a, b: tf.tensordot(a, b, 0), [X[0], X[1]],
        lambda a, b: np.multiply.outer(a, b)),
    # bitcast
    Rec("bitcast_same_size", lambda x: tf.bitcast(x, tf.int32), [X], lambda x: x.view(np.int32)),
    Rec("bitcast_narrower", lambda x: tf.bitcast(x, tf.uint8), [X[0]],
        lambda x: x.view(np.uint8).reshape(4, 4)),
    Rec("bitcast_wider", lambda x: tf.bitcast(x, tf.float64), [X[:, :2].copy()],
        lambda x: x.copy().view(np.float64).reshape(3)),
]


# --- running a record ---------------------------------------------------------------------

def _check(got, rec, static=None):
    expected = rec.expected()
    got = _flat(got, lambda t: t)
    assert len(got) == len(expected), (len(got), len(expected))
    for i, (g, e) in enumerate(zip(got, expected)):
        assert isinstance(g, tf.Tensor)
        value = g.numpy()
        assert value.dtype == e.dtype, (i, value.dtype, e.dtype)
        assert value.shape == e.shape, (i, value.shape, e.shape)
        if e.dtype.kind == "f":
            np.testing.assert_allclose(value, e, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(value, e)
        if static is not None:
            dtype, shape = static[i]
            assert dtype == g.dtype
            assert shape.is_compatible_with(e.shape), (i, shape, e.shape)


def _tensors(rec):
    return [tf.constant(a) for a in rec.args]


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_eager(rec):
    _check(rec.fn(*_tensors(rec)), rec)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_in_tf_function(rec):
    static = []

    def f(*xs):
        out = rec.fn(*xs)
        static.append([(t.dtype, t.shape) for t in _flat(out, lambda t: t)])
        return out
    tensors = _tensors(rec)
    _check(tf.function(f)(*tensors), rec, static[-1])
    expected = rec.expected()
    # With the inputs' static shapes, every output shape is known exactly except
    # for data-dependent sizes (where, boolean_mask, unique).
    for (_, shape), e in zip(static[-1], expected):
        assert shape.rank == e.ndim
    if rec.relaxed and rec.args:
        specs = [tf.TensorSpec([None] * np.ndim(a), tf.dtypes.as_dtype(np.asarray(a).dtype))
                 for a in rec.args]
        _check(tf.function(f, input_signature=specs)(*tensors), rec, static[-1])


STATIC = [
    (lambda x: tf.pad(x, [[1, 2], [0, 3]], mode="SYMMETRIC"), (2, 3), [5, 6]),
    (lambda x: tf.broadcast_to(x, [4, 2, 3]), (2, 3), [4, 2, 3]),
    (lambda x: tf.repeat(x, [1, 3], axis=0), (2, 3), [4, 3]),
    (lambda x: tf.split(x, [1, -1], axis=1)[1], (2, 3), [2, 2]),
    (lambda x: tf.slice(x, [1, 0], [-1, 2]), (2, 3), [1, 2]),
    (lambda x: tf.strided_slice(x, [0, 0], [1, 0], end_mask=2, new_axis_mask=0), (2, 3), [1, 3]),
    (lambda x: tf.gather_nd(x, [[0], [1], [1]]), (2, 3), [3, 3]),
    (lambda x: tf.math.top_k(x, 2).indices, (2, 3), [2, 2]),
    (lambda x: tf.einsum("ij,kj->ik", x, x), (2, 3), [2, 2]),
    (lambda x: tf.sequence_mask([1, 2], 4), (2, 3), [2, 4]),
    (lambda x: tf.linspace(0.0, 1.0, 5), (2, 3), [5]),
    (lambda x: tf.bitcast(x, tf.int8), (2, 3), [2, 3, 4]),
    (lambda x: tf.where(x > 0), (2, 3), [None, 2]),
    (lambda x: tf.unique(tf.reshape(x, [-1])).y, (2, 3), [None]),
    # unknown dimensions stay unknown, known ones stay known
    (lambda x: tf.pad(x, [[1, 1], [2, 0]]), (None, 3), [None, 5]),
    (lambda x: tf.broadcast_to(x, [7, 2, 3]), (None, 3), [7, 2, 3]),
    (lambda x: tf.tensordot(x, tf.ones([3, 5]), 1), (None, 3), [None, 5]),
    (lambda x: tf.roll(x, 1, 0), (None, 3), [None, 3]),
    (lambda x: tf.reverse(x, [1]), (None, 3), [None, 3]),
    (lambda x: tf.split(x, 3, axis=1)[0], (None, 3), [None, 1]),
    (lambda x: tf.sort(x, axis=0), (None, 3), [None, 3]),
    (lambda x: tf.meshgrid(x[0], tf.ones([4]))[0], (None, 3), [4, 3]),
]


@pytest.mark.parametrize("fn, shape, expected", STATIC, ids=[str(i) for i in range(len(STATIC))])
def test_static_shapes_while_tracing(fn, shape, expected):
    seen = []

    def f(x):
        seen.append(fn(x).shape)
        return x
    tf.function(f).get_concrete_function(tf.TensorSpec(shape, tf.float32))
    assert seen[-1].as_list() == expected


def test_ops_are_staged_as_graph_nodes():
    def f(x, i):
        return [tf.pad(x, [[1, 1], [1, 1]], mode="REFLECT"), tf.pad(x, [[1, 0], [0, 0]]),
                tf.reverse(x, [0]), tf.roll(x, 1, 0), tf.repeat(x, 2, axis=0),
                tf.split(x, 2, axis=0)[0], tf.split(x, [1, 1], axis=0)[0],
                tf.slice(x, [0, 0], [1, 1]), tf.broadcast_to(x, [2, 2, 2]),
                tf.gather_nd(x, [[0, 0]]), tf.scatter_nd([[0]], x[:1], [2, 2]),
                tf.tensor_scatter_nd_add(x, [[0, 0]], [1.0]), tf.math.top_k(x, 1).values,
                tf.unique(i).y, tf.unique_with_counts(i).count, tf.searchsorted(i, i),
                tf.linspace(x[0, 0], 1.0, 3), tf.einsum("ij->j", x), tf.bitcast(x, tf.int32)]
    cf = tf.function(f).get_concrete_function(tf.TensorSpec([2, 2], tf.float32),
                                              tf.TensorSpec([3], tf.int32))
    text = str(cf.graph)
    for op in ("MirrorPad", "PadV2", "ReverseV2", "Roll", "Repeat", "Split", "SplitV", "Slice",
               "BroadcastTo", "GatherNd", "ScatterNd", "TensorScatterAdd", "TopKV2", "Unique",
               "UniqueWithCounts", "LowerBound", "LinSpace", "Einsum", "Bitcast"):
        assert f" = {op.lower()} " in text, op


def test_names_and_namespaces():
    assert tf.newaxis is None
    assert tf.nn.top_k is tf.math.top_k
    assert tf.dtypes.as_dtype is tf.as_dtype
    x = tf.constant(X)
    np.testing.assert_array_equal(x[:, tf.newaxis].numpy(), X[:, None])
    values, indices = tf.math.top_k(x, 2)
    assert tf.math.top_k(x, 2)._fields == ("values", "indices")
    assert tf.unique(tf.constant(I))._fields == ("y", "idx")
    assert tf.unique_with_counts(tf.constant(I))._fields == ("y", "idx", "count")


@pytest.mark.parametrize("value, dtype", [
    ("float32", tf.float32), ("float", tf.float32), ("double", tf.float64), ("half", tf.float16),
    ("int64", tf.int64), ("bool", tf.bool), ("string", tf.string), (np.float64, tf.float64),
    (np.dtype("int8"), tf.int8), (np.uint8, tf.uint8), (float, tf.float32), (bool, tf.bool),
    (object, tf.string), (np.str_, tf.string), (tf.int16, tf.int16), (1, tf.float32),
    (3, tf.int32), (9, tf.int64), (10, tf.bool), (19, tf.float16),
])
def test_as_dtype(value, dtype):
    assert tf.as_dtype(value) is dtype
    assert tf.dtypes.as_dtype(value) is dtype


@pytest.mark.parametrize("value", [int, str, bytes, None, 1000, [1]], ids=repr)
def test_as_dtype_rejects_what_tf_rejects(value):
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`"):
        tf.as_dtype(value)


@pytest.mark.parametrize("name", ["int", "flot32", "uint128"])
def test_as_dtype_unknown_names_list_the_known_ones(name):
    with pytest.raises(TypeError, match=f"unknown dtype '{name}'; expected one of bfloat16, bool, complex128, complex64, double"):
        tf.as_dtype(name)


def test_strided_slice_with_bounds_known_only_at_run_time():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.int32)])
    def f(begin, stop):
        out = tf.strided_slice(tf.constant(X3), begin, [2, stop], shrink_axis_mask=0b01)
        seen.append(out.shape)
        return out
    np.testing.assert_array_equal(f(tf.constant([1, 0]), tf.constant(2)).numpy(), X3[1, 0:2])
    np.testing.assert_array_equal(f(tf.constant([-2, 1]), tf.constant(-1)).numpy(), X3[-2, 1:-1])
    assert seen[-1].as_list() == [None, 4]


def test_slice_and_pad_with_tensor_arguments_in_graphs():
    @tf.function
    def f(x, begin, paddings):
        return tf.slice(x, begin, [1, -1, 2]), tf.pad(x, paddings, mode="SYMMETRIC")
    begin = np.array([1, 1, 2], np.int64)
    paddings = np.array([[1, 0], [0, 2], [3, 3]], np.int32)
    a, b = f(tf.constant(X3), tf.constant(begin), tf.constant(paddings))
    np.testing.assert_array_equal(a.numpy(), X3[1:2, 1:, 2:4])
    np.testing.assert_array_equal(b.numpy(), np.pad(X3, paddings, mode="symmetric"))


def test_saved_model_round_trip(tmp_path):
    """Every attr kind the family uses (dtypes, modes, equations, masks) saves and loads."""
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([3, 4], tf.float32),
                                      tf.TensorSpec([5], tf.int32)])
        def f(self, x, i):
            return (tf.pad(x, [[1, 1], [0, 2]], mode="SYMMETRIC"), tf.math.top_k(x, 2).indices,
                    tf.einsum("ij,kj->ik", x, x), tf.bitcast(x, tf.int32),
                    tf.unique_with_counts(i, out_idx=tf.int64).count,
                    tf.split(x, [1, -1], axis=0)[1],
                    tf.strided_slice(x, [0, 1], [0, 3], ellipsis_mask=1),
                    tf.sort(x, axis=0, direction="DESCENDING"), tf.gather_nd(x, [[1, 2]]),
                    tf.tensor_scatter_nd_max(x, [[0, 0]], [9.0]),
                    tf.searchsorted(tf.sort(i), i, side="right", out_type=tf.int64),
                    tf.linspace(x[0, 0], 1.0, 3), tf.repeat(i, 2), tf.roll(i, 2, 0),
                    tf.reverse(x, [1]), tf.slice(x, [1, 1], [-1, 2]), tf.boolean_mask(i, i > 1),
                    tf.sequence_mask(i, 4), tf.where(i))
    m = M()
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    x, i = tf.constant(X), tf.constant([3, 1, 3, 0, 2])
    for a, b in zip(m.f(x, i), loaded.f(x, i)):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())


UNKNOWN_RANK = [
    lambda x: tf.pad(x, [[1, 1], [0, 1], [2, 0]], mode="REFLECT"),
    lambda x: tf.broadcast_to(x, [3, 2, 3, 4]), lambda x: tf.reverse(x, [0, 2]),
    lambda x: tf.roll(x, 1, 2), lambda x: tf.repeat(x, 2, axis=1), lambda x: tf.repeat(x, 2),
    lambda x: tf.split(x, [1, 2], axis=1), lambda x: tf.slice(x, [0, 1, 1], [1, -1, 2]),
    lambda x: tf.strided_slice(x, [0, 1], [1, 3], shrink_axis_mask=1),
    lambda x: tf.gather_nd(x, [[0, 1]]),
    lambda x: tf.tensor_scatter_nd_update(x, [[0, 1]], tf.ones([1, 4])),
    lambda x: tf.boolean_mask(x, [True, False]), lambda x: tf.where(x > 3),
    lambda x: tf.argsort(x, direction="DESCENDING"), lambda x: tf.math.top_k(x, 2),
    lambda x: tf.searchsorted(x, x), lambda x: tf.einsum("ijk,ijk->i", x, x),
    lambda x: tf.bitcast(x, tf.uint8), lambda x: tf.unique(tf.reshape(x, [-1])),
]


@pytest.mark.parametrize("fn", UNKNOWN_RANK, ids=[str(i) for i in range(len(UNKNOWN_RANK))])
def test_inputs_of_unknown_rank(fn):
    traced = tf.function(fn, input_signature=[tf.TensorSpec(None, tf.float32)])
    for got, want in zip(_flat(traced(tf.constant(X3)), lambda t: t),
                         _flat(fn(tf.constant(X3)), lambda t: t)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want.numpy())
