"""`tf.TensorShape`'s rank helpers and `num_elements`, and `Tensor.set_shape`,
with TF 2.21's results and messages (recorded by hand from TF 2.21)."""

import pytest

import runtime as tf


def test_num_elements_and_ndims():
    assert tf.TensorShape([2, 3]).num_elements() == 6
    assert tf.TensorShape([]).num_elements() == 1
    assert tf.TensorShape([None, 3]).num_elements() is None
    assert tf.TensorShape(None).num_elements() is None
    assert tf.TensorShape([2, 3]).ndims == 2 and tf.TensorShape(None).ndims is None


@pytest.mark.parametrize("call, message", [
    (lambda s: s.with_rank(3), r"Shape \(2, 3\) must have rank 3"),
    (lambda s: s.assert_has_rank(3), r"Shape \(2, 3\) must have rank 3"),
    (lambda s: s.assert_same_rank(tf.TensorShape([1])),
     r"Shapes \(2, 3\) and \(1,\) must have the same rank"),
    (lambda s: s.with_rank_at_least(3), r"Shape \(2, 3\) must have rank at least 3"),
    (lambda s: s.with_rank_at_most(1), r"Shape \(2, 3\) must have rank at most 1"),
])
def test_rank_checks_raise_tf_messages(call, message):
    with pytest.raises(ValueError, match=message):
        call(tf.TensorShape([2, 3]))


def test_rank_helpers_pass_through():
    unknown, known = tf.TensorShape(None), tf.TensorShape([2, 3])
    assert unknown.with_rank(2) == tf.TensorShape([None, None])
    assert unknown.with_rank_at_least(1) is unknown and known.with_rank(2) is known
    assert unknown.assert_same_rank(known) is None
    with pytest.raises(ValueError, match=r"Shape \(None, 3\) is not fully defined"):
        tf.TensorShape([None, 3]).assert_is_fully_defined()


def test_set_shape_eagerly_only_checks():
    t = tf.constant([1, 2])
    with pytest.raises(ValueError, match=r"Tensor's shape \(2,\) is not compatible with "
                                         r"supplied shape \(3,\)\."):
        t.set_shape([3])
    t.set_shape([None])
    assert t.shape == tf.TensorShape([2])


def test_set_shape_while_tracing_refines_the_static_shape():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        x.set_shape([None, 3])
        seen.append(x.shape)
        with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but "
                                             r"are 3 and 4\. Shapes are \[\?,3\] and \[2,4\]\."):
            x.set_shape([2, 4])
        return tf.reduce_sum(x, axis=1)

    assert f(tf.ones([2, 3])).numpy().tolist() == [3.0, 3.0]
    assert seen == [tf.TensorShape([None, 3])]


def test_most_specific_compatible_shape_of_equal_and_differing_shapes():
    from runtime._src.core.tensor_shape import TensorShape
    s = TensorShape([None, 3])
    assert s.most_specific_compatible_shape(TensorShape([None, 3])) is s   # equal: itself
    assert s.most_specific_compatible_shape([None, 3]) == s              # not a TensorShape
    assert TensorShape([]).most_specific_compatible_shape(TensorShape([])).dims == ()
    assert TensorShape([2, 3]).most_specific_compatible_shape([2, 4]).as_list() == [2, None]
    assert TensorShape([2, 3]).most_specific_compatible_shape([None, 3]).as_list() == [None, 3]
    assert TensorShape([2]).most_specific_compatible_shape([2, 3]).dims is None     # ranks differ
    assert TensorShape(None).most_specific_compatible_shape(s).dims is None
    assert s.most_specific_compatible_shape(TensorShape(None)).dims is None
