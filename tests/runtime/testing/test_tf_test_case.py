"""tf.test: TestCase's assertions (as TF 2.21's: messages, nested structures,
NaN, shapes, dtypes), evaluate, cached_session, the seeds of setUp,
compute_gradient (TF 2.21's Jacobians), and the build queries."""

import collections
import unittest

import numpy as np
import pytest

import runtime as tf


class _Case(tf.test.TestCase):
    __test__ = False           # driven by the tests below, not collected

    def runTest(self):  # noqa: N802 (unittest's name)
        pass


@pytest.fixture
def case():
    c = _Case()
    c.setUp()
    yield c
    c.tearDown()


def test_assert_all_close_takes_tensors_and_nested_structures(case):
    Pair = collections.namedtuple("Pair", ["a", "b"])
    case.assertAllClose({"a": [tf.constant(1.0), [2.0, 3.0]], "b": Pair(1, np.ones(2))},
                        {"a": [1.0, np.array([2.0, 3.0])], "b": Pair(1.0, [1.0, 1.0])})
    case.assertAllClose([np.nan, 1.0], [np.nan, 1.0 + 1e-7])
    case.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-6])
    with pytest.raises(AssertionError, match=r"Mismatched value: a\['a'\] is different from "
                                             r"b\['a'\]"):
        case.assertAllClose({"a": [1.0]}, {"a": [2.0]})
    with pytest.raises(AssertionError, match=r"not close where = \(array\(\[1\]\),\)"):
        case.assertAllClose([1.0, 2.0], [1.0, 2.1])
    with pytest.raises(AssertionError, match=r"Shape mismatch: expected \(2,\), got \(1,\)"):
        case.assertAllClose([1.0, 2.0], [1.0])
    with pytest.raises(AssertionError, match="mismatched keys"):
        case.assertAllClose({"a": 1.0}, {"b": 1.0})
    # no dtype-based tolerance in assertAllClose (TF 2.21 fails this too)
    with pytest.raises(AssertionError):
        case.assertAllClose(np.float16([1.0]), np.float16([1.0009]))
    case.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.0009]))
    case.assertAllClose([1.0], [1.1], rtol=0.2)
    case.assertNotAllClose([1.0], [1.1])
    with pytest.raises(AssertionError):
        case.assertNotAllClose([1.0], [1.0])


def test_assert_all_equal_and_comparisons(case):
    case.assertAllEqual(tf.constant([[1, 2]]), [[1, 2]])
    case.assertAllEqual([np.nan], [np.nan])                 # NaN equals NaN, as TF
    case.assertAllEqual(tf.constant([b"a", b"b"]), [b"a", b"b"])
    with pytest.raises(AssertionError, match=r"not equal lhs = array\(\[2\]\)"):
        case.assertAllEqual([1, 2], [1, 3])
    with pytest.raises(AssertionError, match="Shape mismatch"):
        case.assertAllEqual([1, 2], [[1, 2]])
    case.assertNotAllEqual([1, 2], [1, 3])
    case.assertAllGreater(tf.constant([2, 3]), 1)
    case.assertAllLess([2, 3], 4)
    case.assertAllGreaterEqual([2, 3], 2)
    case.assertAllLessEqual([2, 3], 3)
    with pytest.raises(AssertionError, match="not greater than 1"):
        case.assertAllGreater([1, 2], 1)
    case.assertAllInRange([0, 1], 0, 1)
    with pytest.raises(AssertionError, match=r"1 of the 2 element\(s\) are outside the range "
                                             r"\[0, 1\]"):
        case.assertAllInRange([1, 2], 0, 1)
    with pytest.raises(AssertionError, match=r"outside the range \(0, 1\]"):
        case.assertAllInRange([0, 1], 0, 1, open_lower_bound=True)
    case.assertAllInSet([1, 1, 2], {1, 2})
    with pytest.raises(AssertionError, match=r"1 unique element\(s\) are not in the set \[1\]"):
        case.assertAllInSet([1, 2], [1])
    case.assertAllTrue([True, True])
    case.assertAllFalse(tf.constant([False]))


def test_dtype_shape_and_near_assertions(case):
    case.assertDTypeEqual(np.float32(1), tf.float32)
    case.assertDTypeEqual([tf.constant([1, 2])], np.int32)
    with pytest.raises(AssertionError):
        case.assertDTypeEqual(tf.constant([1.0]), tf.float64)
    case.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3]))
    with pytest.raises(AssertionError):
        case.assertShapeEqual(np.zeros([2]), tf.zeros([3]))
    case.assertNear(1.0, 1.05, 0.1)
    case.assertArrayNear([1.0, 2.0], [1.01, 2.0], 0.02)
    case.assertNDArrayNear(np.ones(3), np.ones(3) + 1e-3, 0.01)
    with pytest.raises(AssertionError, match=r"1.0 != 2.0 \+/- 0.1"):
        case.assertNear(1.0, 2.0, 0.1)
    case.assertLen([1, 2], 2)
    case.assertEmpty([])
    case.assertStartsWith("tensor", "ten")
    case.assertItemsEqual([1, 2, 2], [2, 1, 2])
    case.assertBetween(2, 1, 3)


def test_errors_evaluate_sessions_and_seeds(case):
    with case.assertRaisesOpError("Integer division by zero"):
        tf.math.floordiv(tf.constant([1]), tf.constant([0]))
    with case.assertRaisesWithPredicateMatch(ValueError, lambda e: "bad" in str(e)):
        raise ValueError("bad input")
    with pytest.raises(AssertionError, match="ValueError not raised"):
        with case.assertRaisesWithPredicateMatch(ValueError, "x"):
            pass
    values = case.evaluate({"a": tf.constant(1), "b": [tf.Variable(2.0)], "c": 3})
    assert values == {"a": 1, "b": [2.0], "c": 3} and isinstance(values["a"], np.integer)
    with case.cached_session() as session:
        assert session.run(tf.constant([3])).tolist() == [3]
    case.setUp()   # seeds Python, numpy and the global TF seed with 87654321, as TF
    first = (np.random.rand(), tf.random.uniform([2]).numpy().tolist())
    case.setUp()
    assert (np.random.rand(), tf.random.uniform([2]).numpy().tolist()) == first
    np.random.seed(87654321)
    assert first[0] == np.random.rand()
    assert case.get_temp_dir() == case.get_temp_dir()


def test_unittest_runs_a_test_case_and_skips_test_session():
    class Squares(tf.test.TestCase):
        def test_square(self):
            self.assertAllClose(tf.square([2.0, 3.0]), [4.0, 9.0])

        def test_fails(self):
            self.assertAllEqual(tf.constant([1]), [2])

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Squares).run(result)
    assert result.testsRun == 3 and len(result.failures) == 1 and len(result.skipped) == 1
    assert "test_fails" in result.failures[0][0].id()


def test_compute_gradient_is_tfs():
    # TF 2.21's Jacobians ([output size, input size]; delta 1/1024)
    theoretical, numerical = tf.test.compute_gradient(
        lambda x, y: x * y + tf.reduce_sum(x), [tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])])
    for jacobians in (theoretical, numerical):
        np.testing.assert_allclose(jacobians[0], [[4, 1], [1, 5]], rtol=1e-6)
        np.testing.assert_allclose(jacobians[1], [[1, 0], [0, 2]], rtol=1e-6)
        assert jacobians[0].dtype == np.float32
    theoretical, numerical = tf.test.compute_gradient(
        lambda x: tf.stack([x, x * x], 0), [tf.constant([1.0, 2.0, 3.0], tf.float64)])
    expected = np.vstack([np.eye(3), np.diag([2.0, 4.0, 6.0])])
    np.testing.assert_allclose(theoretical[0], expected)
    np.testing.assert_allclose(numerical[0], expected, atol=1e-9)
    with pytest.raises(ValueError, match="list or tuple"):
        tf.test.compute_gradient(tf.sin, tf.constant(1.0))


def test_build_queries_and_benchmark():
    assert tf.test.is_gpu_available() is False and tf.test.gpu_device_name() == ""
    assert not tf.test.is_built_with_cuda() and not tf.test.is_built_with_rocm()
    assert not tf.test.is_built_with_gpu_support()
    assert tf.test.experimental.sync_devices() is None
    bench = tf.test.Benchmark()
    report = bench.run_op_benchmark(None, tf.function(lambda: tf.constant(1) + 1), burn_iters=1,
                                    min_iters=2, name="add")
    assert report["iters"] == 2 and report["name"] == "add" and report["wall_time"] > 0
    assert bench.evaluate([tf.constant(2)]) == [2]


def _graph_def(fn):
    spec = tf.TensorSpec([], tf.float32)
    return tf.function(fn).get_concrete_function(spec, spec).graph.as_graph_def()


def _add(x, y):
    return x + y


def _mul(x, y):
    return x * y


def _add_reversed(x, y):
    return y + x


def test_assert_equal_graph_def_messages_are_tfs():
    tf.test.assert_equal_graph_def(_graph_def(_add), _graph_def(_add))
    # nodes match by name: x * y's node is Mul, x + y's AddV2 (TF names them alike)
    with pytest.raises(AssertionError, match=r"Found unexpected node '\{\{node Mul\}\} = "
                                             r"Mul\[T=.*\]\(x, y\)'"):
        tf.test.assert_equal_graph_def(_graph_def(_add), _graph_def(_mul))
    with pytest.raises(AssertionError, match=r"Did not find expected node '\{\{node Mul\}\}"):
        tf.test.assert_equal_graph_def(_graph_def(lambda x, y: (x + y, x * y)), _graph_def(_add))
    with pytest.raises(AssertionError, match=r"has input 0 'y' that doesn't match expected 'x'"):
        tf.test.assert_equal_graph_def(_graph_def(_add), _graph_def(_add_reversed))
    with pytest.raises(TypeError, match="Expected tf.GraphDef for expected, got int"):
        tf.test.assert_equal_graph_def(1, _graph_def(_add))
