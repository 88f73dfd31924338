"""Gradient rules of the shape, indexing, scatter, sort, einsum and linspace ops
(runtime/_src/ops/shape_ops.py, scatter_ops.py, sort_ops.py, einsum_ops.py),
each against central finite differences in float64 on random inputs, eagerly
and inside tf.function (tests/runtime/gradient_check.py); second-order
gradients; the ops TF does not differentiate; and ops built from others
(sort, boolean_mask, tensordot, meshgrid) differentiated end to end.

test_gradients_rules.py has the first case of each rule; these are the others
(more axes, broadcasting, batch dims, ties, ellipses and repeated labels).
"""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients, check_second_order

rng = np.random.default_rng(7)


def r(*shape):
    return rng.uniform(-1.0, 1.0, shape)


def distinct(*shape):
    """Values far enough apart that finite differences never reorder them."""
    return rng.permutation(np.prod(shape, dtype=int)).reshape(shape) * 0.1 + r(*shape) * 0.01


W = {shape: tf.constant(r(*shape)) for shape in [(2, 3, 4), (4, 3), (7,), (2, 6), (3, 4)]}


def _sort_desc(x):
    return tf.sort(x, axis=0, direction="DESCENDING") * W[(4, 3)]


def _scatter_max(t, u):
    return tf.tensor_scatter_nd_max(t, [[0], [2], [1]], u)


def _scatter_min(t, u):
    return tf.tensor_scatter_nd_min(t, [[0, 1], [2, 0]], u)


# (named functions: autograph mis-converts a lambda whose call spans lines)
def _gather_nd_batch_slices(x):
    return tf.gather_nd(x, [[[1, 0], [0, 1]], [[2, 1], [2, 1]]], batch_dims=1)


def _gather_nd_batch2(x):
    return tf.gather_nd(x, [[[[1]], [[0]]], [[[0]], [[0]]]], batch_dims=2)


def _meshgrid(a, b):
    x, y = tf.meshgrid(a, b)
    return x * y + 2 * x


def _meshgrid_ij(a, b, c):
    x, y, z = tf.meshgrid(a, b, c, indexing="ij")
    return x * z - y


# name: (function, argument values)
CASES = {
    # broadcast_to / pad / reverse / roll
    "broadcast_to_scalar": (lambda x: tf.broadcast_to(x, [2, 3]), [r()]),
    "broadcast_to_middle": (lambda x: tf.broadcast_to(x, [2, 3, 4]) * W[(2, 3, 4)],
                            [r(2, 1, 4)]),
    "pad_3d": (lambda x: tf.pad(x, [[0, 1], [2, 0], [1, 1]]), [r(1, 2, 2)]),
    "pad_constant_value": (lambda x: tf.pad(x, [[1, 1]], constant_values=2.5) * W[(7,)][:4],
                           [r(2)]),
    "mirror_pad_symmetric_full": (lambda x: tf.pad(x, [[3, 3]], "SYMMETRIC"), [r(3)]),
    "mirror_pad_reflect_3d": (lambda x: tf.pad(x, [[0, 0], [2, 1], [1, 0]], "REFLECT") ** 2,
                              [r(2, 3, 2)]),
    "reverse_two_axes": (lambda x: tf.reverse(x, [0, -1]) * W[(2, 3, 4)], [r(2, 3, 4)]),
    "reverse_none": (lambda x: tf.reverse(x, []) * W[(3, 4)], [r(3, 4)]),
    "roll_same_axis_twice": (lambda x: tf.roll(x, [2, -3], [1, 1]) * W[(3, 4)], [r(3, 4)]),
    "roll_tensor_shift": (lambda x: tf.roll(x, tf.constant(-1), tf.constant(0)) * W[(4, 3)],
                          [r(4, 3)]),
    # repeat / split / slice
    "repeat_scalar_axis0": (lambda x: tf.repeat(x, 2, axis=0) * W[(4, 3)], [r(2, 3)]),
    "repeat_negative_axis": (lambda x: tf.repeat(x, [1, 0, 2, 1], axis=-1), [r(2, 4)]),
    "repeat_flat_counts": (lambda x: tf.repeat(x, [1, 2, 0, 1, 1, 2]) * W[(7,)], [r(2, 3)]),
    "split_unused_parts": (lambda x: tf.split(x, 2, axis=-1)[0] * W[(2, 3, 4)][:, :, :2],
                           [r(2, 3, 4)]),
    "split_sizes_inferred": (lambda x: tf.split(x, [2, -1, 1], axis=1)[1] * 3, [r(2, 6)]),
    "split_sizes_all": (lambda x: tf.concat(tf.split(x, [1, 3, 2], axis=1)[::-1], 1) * W[(2, 6)],
                        [r(2, 6)]),
    "slice_to_end": (lambda x: tf.slice(x, [0, 1, 2], [-1, 2, -1]), [r(2, 3, 4)]),
    "slice_empty": (lambda x: tf.reduce_sum(tf.slice(x, [1, 1], [0, 2])) + tf.reduce_sum(x),
                    [r(3, 4)]),
    # linspace: start + w * (stop - start) along the new axis
    "linspace": (lambda a, b: tf.linspace(a, b, 5) * W[(7,)][:5], [r(), r()]),
    "linspace_broadcast": (lambda a, b: tf.linspace(a, b, 4, axis=-1), [r(2), r(3, 1)]),
    "linspace_axis1": (lambda a, b: tf.linspace(a, b, 4, axis=1), [r(2), r(3, 1)]),
    "linspace_one": (lambda a, b: tf.linspace(a, b, 1), [r(2), r(2)]),
    # gather_nd / scatter_nd / tensor_scatter_nd_*
    "gather_nd_slices": (lambda x: tf.gather_nd(x, [[1], [0], [1]]) * W[(4, 3)][:3],
                         [r(2, 3)]),
    "gather_nd_int64_indices": (lambda x: tf.gather_nd(x, np.array([[[0, 2], [1, 1]]])),
                                [r(2, 3)]),
    "gather_nd_batch": (lambda x: tf.gather_nd(x, [[1], [0]], batch_dims=1), [r(2, 3)]),
    "gather_nd_batch_slices": (_gather_nd_batch_slices, [r(2, 3, 2, 2)]),
    "gather_nd_batch2": (_gather_nd_batch2, [r(2, 2, 3)]),
    "scatter_nd_2d_coords": (lambda u: tf.scatter_nd([[0, 1], [2, 0], [0, 1]], u, [3, 2]),
                             [r(3)]),
    "scatter_nd_slices": (lambda u: tf.scatter_nd([[[1]], [[0]]], u, [3, 2, 2]),
                          [r(2, 1, 2, 2)]),
    "tensor_scatter_update_slices": (
        lambda t, u: tf.tensor_scatter_nd_update(t, [[1, 0]], u) * W[(2, 3, 4)],
        [r(2, 3, 4), r(1, 4)]),
    "tensor_scatter_add_dupes": (lambda t, u: tf.tensor_scatter_nd_add(t, [[0], [0], [2]], u),
                                 [r(3, 2), r(3, 2)]),
    "tensor_scatter_max": (_scatter_max, [r(4, 2), r(3, 2)]),
    "tensor_scatter_min": (_scatter_min, [r(4, 2), r(2)]),
    # top_k and what is built on it
    "top_k_3d": (lambda x: tf.math.top_k(x, 3).values, [distinct(2, 2, 5)]),
    "top_k_all": (lambda x: tf.math.top_k(x, 4).values * W[(3, 4)], [distinct(3, 4)]),
    "sort": (lambda x: tf.sort(x) * W[(3, 4)], [distinct(3, 4)]),
    "sort_axis0_descending": (_sort_desc, [distinct(4, 3)]),
    "argsort_gather": (lambda x: tf.gather(x, tf.argsort(x)) * W[(7,)][:5], [distinct(5)]),
    # boolean_mask / tensordot / meshgrid (built from other ops)
    "boolean_mask": (lambda x: tf.boolean_mask(x, [True, False, True]), [r(3, 2)]),
    "boolean_mask_axis": (lambda x: tf.boolean_mask(x, [[True, False], [True, True]], axis=1),
                          [r(2, 2, 2, 3)]),
    "tensordot_int": (lambda a, b: tf.tensordot(a, b, 1), [r(2, 3), r(3, 4)]),
    "tensordot_axes": (lambda a, b: tf.tensordot(a, b, [[0, 2], [2, 0]]), [r(2, 3, 4),
                                                                          r(4, 2, 2)]),
    "tensordot_outer": (lambda a, b: tf.tensordot(a, b, 0), [r(2), r(3)]),
    "meshgrid": (_meshgrid, [r(3), r(2)]),
    "meshgrid_ij": (_meshgrid_ij, [r(2), r(3), r(2)]),
}

# einsum equations: one operand's gradient is an einsum per operand, including
# repeated labels (diagonals, traces), labels summed in one operand only, and
# ellipses that broadcast.
EINSUM = {
    "ii->i": [r(3, 3)],
    "ii": [r(3, 3)],
    "ijj->ij": [r(2, 3, 3)],
    "iii->": [r(2, 2, 2)],
    "ii,ij->j": [r(3, 3), r(3, 2)],
    "ij,ij->": [r(2, 3), r(2, 3)],
    "ji": [r(2, 3)],
    "ij->": [r(2, 3)],
    "i,i,i->i": [r(3), r(3), r(3)],
    "ij,jk,kl->il": [r(2, 3), r(3, 2), r(2, 4)],
    "...ij,...jk->...ik": [r(2, 1, 2, 3), r(3, 3, 2)],
    "...i,...i->...": [r(1, 3), r(2, 3)],
    "i...,i...->i...": [r(2, 3, 1), r(2, 3, 4)],
    "b...,b->b...": [r(2, 3), r(2)],
    "...,...": [r(2, 3), r(3)],
    "i...i->...": [r(3, 2, 3)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_matches_finite_differences(name):
    fn, values = CASES[name]
    check_gradients(fn, values)


@pytest.mark.parametrize("equation", sorted(EINSUM))
def test_einsum_matches_finite_differences(equation):
    check_gradients(lambda *a: tf.einsum(equation, *a), EINSUM[equation])


# Gradients of gradients: the rules' helper ops (PadGrad, MirrorPadGrad, RepeatGrad,
# SliceGrad, TopKGrad) have rules of their own.
SECOND_ORDER = {
    "pad": (lambda x: tf.pad(x, [[1, 0], [0, 2]]) ** 2, [r(2, 2)]),
    "mirror_pad_reflect": (lambda x: tf.pad(x, [[2, 1], [1, 2]], "REFLECT") ** 2, [r(3, 3)]),
    "mirror_pad_symmetric": (lambda x: tf.pad(x, [[1, 2], [2, 0]], "SYMMETRIC") ** 2, [r(3, 3)]),
    "repeat": (lambda x: tf.repeat(x, [2, 0, 3], axis=1) ** 2, [r(2, 3)]),
    "slice": (lambda x: tf.slice(x, [1, 0], [1, 2]) ** 2, [r(3, 4)]),
    "top_k": (lambda x: tf.math.top_k(x, 2).values ** 2, [distinct(3, 5)]),
    "gather_nd": (lambda x: tf.gather_nd(x, [[1], [0]], batch_dims=1) ** 2, [r(2, 3)]),
    "scatter_nd": (lambda u: tf.scatter_nd([[1], [3], [1]], u, [4, 2]) ** 2, [r(3, 2)]),
    "tensor_scatter_update": (lambda t, u: tf.tensor_scatter_nd_update(t, [[0], [2]], u) ** 3,
                              [r(3, 2), r(2, 2)]),
    "einsum_diag": (lambda a, b: tf.einsum("ii,ij->j", a, b) ** 2, [r(3, 3), r(3, 2)]),
    "einsum_ellipsis": (lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
                        [r(2, 1, 2, 3), r(3, 3, 2)]),
    "roll_reverse_split": (lambda x: tf.split(tf.roll(tf.reverse(x, [0]), 1, 0), 2)[1] ** 2,
                           [r(4)]),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order(name):
    fn, values = SECOND_ORDER[name]
    check_second_order(fn, values)


def _grads(fn, *values):
    args = [tf.convert_to_tensor(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(args)
        y = fn(*args)
    return tape.gradient(y, args)


def _eager_and_graph(fn, *values):
    return _grads(fn, *values), tf.function(lambda: _grads(fn, *values))()


# TF's answer: None for these inputs (integer outputs, shape arithmetic, bit
# reinterpretation, a pad's constant value).
NO_GRADIENT = {
    "searchsorted": (lambda s, v: tf.cast(tf.searchsorted(s, v), tf.float64),
                     [np.array([1.0, 2.0, 3.0]), np.array([1.5, 3.5])]),
    "argsort": (lambda x: tf.cast(tf.argsort(x), tf.float64), [np.array([3.0, 1.0, 2.0])]),
    "top_k_indices": (lambda x: tf.cast(tf.math.top_k(x, 2).indices, tf.float64),
                      [np.array([3.0, 1.0, 2.0])]),
    "bitcast": (lambda x: tf.cast(tf.bitcast(x, tf.int64), tf.float64), [np.array([1.0])]),
    "broadcast_dynamic_shape": (
        lambda x: tf.cast(tf.broadcast_dynamic_shape(tf.cast(x, tf.int32), [3, 1]), tf.float64),
        [np.array([1.0, 2.0])]),
    "unique_idx": (lambda x: tf.cast(tf.unique(x).idx, tf.float64), [np.array([1.0, 2.0, 1.0])]),
}


@pytest.mark.parametrize("name", sorted(NO_GRADIENT))
def test_not_differentiable_gives_none(name):
    fn, values = NO_GRADIENT[name]
    for label, grads in zip(("eager", "tf.function"), _eager_and_graph(fn, *values)):
        assert grads == [None] * len(values), label


def test_pad_constant_values_gets_none():
    x, c = tf.constant(r(2)), tf.constant(1.5, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, c])
        y = tf.reduce_sum(tf.pad(x, [[1, 1]], constant_values=c))
    gx, gc = tape.gradient(y, [x, c])
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0])
    assert gc is None


@pytest.mark.parametrize("unique", [tf.unique, tf.unique_with_counts])
def test_unique_values_have_no_gradient(unique):
    # As in TF: Unique has no gradient rule, so a gradient through y is an error.
    def fn(x):
        return unique(x).y
    for run in (lambda: _grads(fn, [1.0, 2.0, 1.0]),
                lambda: tf.function(lambda: _grads(fn, [1.0, 2.0, 1.0]))()):
        with pytest.raises(LookupError, match="No gradient defined for operation .*Unique"):
            run()


def test_ties_share_as_tf():
    # tensor_scatter_nd_max splits a tie between the tensor and the updates;
    # top_k sends a tie's gradient to the lower index it picked.
    t, u = tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 0.5, 5.0])
    for grads in _eager_and_graph(lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [0], [1]], u),
                                  t, u):
        np.testing.assert_allclose(grads[0].numpy(), [0.5, 0.0, 1.0])
        np.testing.assert_allclose(grads[1].numpy(), [0.5, 0.0, 1.0])
    for grads in _eager_and_graph(lambda x: tf.math.top_k(x, 2).values, np.ones(3)):
        np.testing.assert_array_equal(grads[0].numpy(), [1.0, 1.0, 0.0])
    # tensor_scatter_nd_update with a repeated index: every update gets the gradient.
    for grads in _eager_and_graph(lambda t, u: tf.tensor_scatter_nd_update(t, [[0], [0]], u),
                                  t, u[:2]):
        np.testing.assert_array_equal(grads[0].numpy(), [0.0, 1.0, 1.0])
        np.testing.assert_array_equal(grads[1].numpy(), [1.0, 1.0])


def _two_einsums(a, b):
    return tf.einsum("ij,jk->ik", a, b) + tf.einsum("ii,ik->k", a, b)


# Rules under a tf.function whose input shapes are unknown while tracing: the
# gradients read shapes at run time and match the eager ones.
UNKNOWN_SHAPES = {
    "einsum": (_two_einsums, [r(3, 3), r(3, 2)]),
    "einsum_summed_label": (lambda a, b: tf.einsum("ij,k->k", a, b), [r(2, 3), r(4)]),
    "gather_nd_batch": (lambda x, y: tf.gather_nd(x * y, [[1], [0]], batch_dims=1),
                        [r(2, 3), r(2, 3)]),
    "linspace": (lambda a, b: tf.linspace(a, b, 4, axis=-1), [r(2), r(3, 1)]),
    "slice_repeat": (lambda a, b: tf.repeat(tf.slice(a * b, [0, 1], [2, -1]), 2, axis=1),
                     [r(3, 4), r(3, 4)]),
    "broadcast_to": (lambda a, b: tf.broadcast_to(a, tf.shape(b)) * b, [r(1, 4), r(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(UNKNOWN_SHAPES))
def test_unknown_shapes_in_graph(name):
    fn, values = UNKNOWN_SHAPES[name]
    weights = tf.constant(rng.uniform(0.5, 1.5, fn(*map(tf.constant, values)).shape.dims))

    def weighted(*args):
        return tf.reduce_sum(fn(*args) * weights)
    signature = [tf.TensorSpec([None] * np.ndim(v), tf.float64) for v in values]
    staged = tf.function(lambda *a: _grads(weighted, *a), input_signature=signature)
    expected = _grads(weighted, *values)
    for e, g in zip(expected, staged(*values)):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-12)
