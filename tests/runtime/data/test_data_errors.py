"""Bad input: errors of TensorFlow's type naming the dataset op (and, for
functions, the user's file and line). Types recorded from TF 2.21."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.saved_model.format import SavedModelError

D = tf.data.Dataset


def test_mismatched_first_dimensions():
    # TF 2.21: ValueError "Dimensions 3 and 4 are not compatible"
    with pytest.raises(ValueError, match=r"from_tensor_slices: Dimensions 3 and 4 are not "
                                         r"compatible"):
        D.from_tensor_slices((np.zeros(3), np.zeros(4)))


def test_batch_zero():
    # TF 2.21: InvalidArgumentError "Batch size must be greater than zero."
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Dataset.batch: Batch size must be greater than zero"):
        D.range(3).batch(0)


def test_map_returning_a_non_tensor_names_the_function_and_line():
    def bad(x):
        return object()
    line = bad.__code__.co_firstlineno
    # TF 2.21: TypeError "Unsupported return value from function passed to Dataset.map()"
    with pytest.raises(TypeError, match=rf"Unsupported return value from function passed to "
                                        rf"Dataset.map\(\).*'bad' \(.*test_data_errors.py:{line}\)"):
        D.range(3).map(bad)
    with pytest.raises(TypeError, match=r"Dataset.map\(\): None"):
        D.range(3).map(lambda x: None)


def test_ragged_elements_batched_without_padding():
    # TF 2.21: InvalidArgumentError "Cannot add tensor to the batch: number of elements
    # does not match. Shapes are: [tensor]: [1], [batch]: [2]"
    ragged = D.from_generator(lambda: iter([[1, 2], [3]]),
                              output_signature=tf.TensorSpec((None,), tf.int32))
    ds = ragged.batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Dataset.batch: Cannot add tensor to the batch: number of "
                             r"elements does not match. Shapes are: \[tensor\]: \[1\], "
                             r"\[batch\]: \[2\]. Use padded_batch"):
        list(ds)
    assert [b.tolist() for b in ragged.padded_batch(2).as_numpy_iterator()] == [[[1, 2], [3, 0]]]


def test_concatenate_incompatible_and_filter_non_bool():
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        D.range(3).concatenate(D.from_tensor_slices([1.0]))
    with pytest.raises(ValueError, match="filter: the predicate .* must return a scalar bool"):
        D.range(3).filter(lambda x: x)


def test_error_inside_a_map_function_names_it():
    def check(x):
        tf.debugging.assert_less(x, tf.constant(2, tf.int64))
        return x
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Dataset.map: in the function "
                                                             r"'check' \(.*test_data_errors.py"):
        list(D.range(5).map(check).filter(lambda x: True))


def test_saved_models_keep_datasets_out():
    ds = D.range(4)

    class M(tf.Module):
        @tf.function(input_signature=[])
        def total(self):
            s = tf.constant(0, tf.int64)
            for x in ds:
                s += x
            return s
    m = M()
    assert m.total().numpy() == 6
    with pytest.raises(SavedModelError, match="DatasetIterator"):
        tf.saved_model.save(m, "/tmp/never-written-data-model")


def test_as_numpy_iterator_inside_a_function_is_refused():
    @tf.function
    def f():
        return list(D.range(2).as_numpy_iterator())
    with pytest.raises(RuntimeError, match="not supported inside a tf.function"):
        f()


def test_map_capturing_a_tensor_of_the_enclosing_function_names_the_user_line():
    @tf.function
    def f(x, scale):
        s = tf.constant(0.0)
        for v in D.from_tensor_slices(x).map(lambda v: v * scale):
            s += v
        return s
    line = f.python_function.__code__.co_firstlineno + 3
    with pytest.raises(TypeError, match=rf"Dataset.map: the function '<lambda>' "
                                        rf"\(.*test_data_errors.py:{line}\) uses a tensor of the "
                                        rf"enclosing tf.function \(tensor scale:0\)"):
        f(tf.constant([1.0, 2.0]), tf.constant(3.0))

    @tf.function
    def g(x, scale):             # the suggested rewrite works
        s = tf.constant(0.0)
        pairs = D.zip((D.from_tensor_slices(x), D.from_tensors(scale).repeat()))
        for v in pairs.map(lambda v, k: v * k):
            s += v
        return s
    assert g(tf.constant([1.0, 2.0]), tf.constant(3.0)).numpy() == 9.0


def test_python_iteration_of_a_dataset_in_a_graph_stops_with_a_clear_error():
    @tf.function
    def f():
        return tf.stack(list(D.range(3)))
    with pytest.raises(TypeError, match=r"iterated 10000 times by Python inside a "
                                        r"tf.function \(list\(ds\)"):
        f()
