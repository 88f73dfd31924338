"""`tf.test.TestCase`: unittest's TestCase with TensorFlow's assertions on
tensors, arrays and nested structures of them.

    class SquareTest(tf.test.TestCase):
        def test_square(self):
            self.assertAllClose(tf.square([2.0, 3.0]), [4.0, 9.0])

    if __name__ == "__main__":
        tf.test.main()

What TF's does, on unittest (no absl): `setUp` seeds Python's, numpy's and
the global TF seed with 87654321; `evaluate` turns every tensor and Variable
of a structure into numpy; `assertAllClose` recurses through dicts, lists,
tuples and namedtuples (NaN equals NaN, shapes must match, no dtype-based
tolerance: that is `assertAllCloseAccordingToType`); `assertAllEqual` treats
NaN as equal to NaN in float arrays; `cached_session()`/`session()` give an
object whose `run` evaluates (there are no sessions here, as in TF 2's eager
mode). Of absl's assertions, the common ones are here too (`assertLen`,
`assertEmpty`, `assertStartsWith`, `assertItemsEqual`, `assertBetween`, ...).
"""

import contextlib
import os
import random
import re
import shutil
import tempfile
import threading
import unittest

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core import nest
from runtime._src.core.errors import OpError
from runtime._src.core.tensor import Tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops.random_ops import set_seed

__all__ = ["TestCase"]

DEFAULT_SEED = 87654321         # TF's random_seed.DEFAULT_GRAPH_SEED


def _to_numpy(value):
    if isinstance(value, Tensor) or reads_as_tensor(value):
        return value.numpy()
    return value


def _is_mapping(x):
    return isinstance(x, dict)


def _is_sequence(x):
    return isinstance(x, (list, tuple)) and not reads_as_tensor(x)


class _EagerSession:
    """What `cached_session()` yields: `run(fetches)` evaluates them."""

    def __init__(self, case):
        self._case = case

    def run(self, fetches, feed_dict=None):
        if feed_dict:
            raise ValueError("session.run: feed_dict needs a TF 1 graph; call the function "
                             "with its inputs instead")
        return self._case.evaluate(fetches)


class _CheckedThread:
    """A thread whose exception `join` re-raises in the test."""

    def __init__(self, case, target, args=(), kwargs=None):
        self._case, self._error = case, None

        def run():
            try:
                target(*args, **(kwargs or {}))
            except Exception as e:  # noqa: BLE001 (any error: join reports it)
                self._error = e
        self._thread = threading.Thread(target=run)

    def start(self):
        self._thread.start()

    def is_alive(self):
        return self._thread.is_alive()

    def join(self):
        self._thread.join()
        if self._error is not None:
            self._case.fail(f"checked thread raised {self._error!r}")


class TestCase(unittest.TestCase):
    """`tf.test.TestCase`: see the module docstring."""

    def setUp(self):
        super().setUp()
        random.seed(DEFAULT_SEED)
        np.random.seed(DEFAULT_SEED)
        set_seed(DEFAULT_SEED)

    def tearDown(self):
        for path in getattr(self, "_temp_dirs", []):
            shutil.rmtree(path, ignore_errors=True)
        super().tearDown()

    # --- evaluation and sessions -------------------------------------------------

    def evaluate(self, tensors):
        """The numpy values of a structure of tensors and Variables."""
        return nest.map_structure(_to_numpy, tensors)

    def evaluate_if_both_tensors(self, a, b):
        if isinstance(a, Tensor) and isinstance(b, Tensor):
            return self.evaluate((a, b))
        return a, b

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        yield _EagerSession(self)

    session = cached_session

    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """As cached_session; skipped when unittest collects it as a test (TF's)."""
        if self._testMethodName == "test_session":
            self.skipTest("Not a test.")
        return self.cached_session(graph, config, use_gpu, force_gpu)

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802 (TF's name)
        return _CheckedThread(self, target, args or (), kwargs)

    # --- temporary files ---------------------------------------------------------

    def get_temp_dir(self):
        """A temporary directory for this test, removed after it."""
        if not hasattr(self, "_temp_dir"):
            self._temp_dir = self.create_tempdir()
        return self._temp_dir

    def create_tempdir(self, name=None):
        path = tempfile.mkdtemp(prefix=(name or self._testMethodName) + "_")
        self.__dict__.setdefault("_temp_dirs", []).append(path)
        return path

    def create_tempfile(self, file_path=None, content=None, mode="w"):
        folder = self.create_tempdir()
        path = os.path.join(folder, file_path or "tempfile")
        with open(path, mode) as f:
            if content is not None:
                f.write(content)
        return path

    # --- arrays ------------------------------------------------------------------

    def _array(self, a):
        a = _to_numpy(a)
        if isinstance(a, (list, tuple)):
            a = [_to_numpy(v) for v in a]
        return np.asarray(a)

    def _assert_close_arrays(self, a, b, rtol, atol, path, msg):
        a, b = self._array(a), self._array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape} with contents {b}. {msg or ''}")
        where = f"a{path}" if path else "a"
        other = f"b{path}" if path else "b"
        if not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            with np.errstate(all="ignore"):
                far = ~np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
            header = (f"Mismatched value: {where} is different from {other}. \n"
                      f"not close where = {np.nonzero(far)}\n"
                      f"not close lhs = {a[far]}\nnot close rhs = {b[far]}\n"
                      f"dtype = {a.dtype}, shape = {a.shape}\n{msg or ''}")
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=header)

    def _assert_close(self, a, b, rtol, atol, path, msg):
        a, b = _to_numpy(a), _to_numpy(b)
        if _is_mapping(a) or _is_mapping(b):
            if not (_is_mapping(a) and _is_mapping(b)):
                self.fail(f"{path or 'a'}: one is a dict and the other a "
                          f"{type(b if _is_mapping(a) else a).__name__}. {msg or ''}")
            self.assertEqual(set(a), set(b), f"mismatched keys at {path or 'the top'}: "
                                             f"{sorted(map(str, a))} vs {sorted(map(str, b))}")
            for key in a:
                self._assert_close(a[key], b[key], rtol, atol, f"{path}[{key!r}]", msg)
        elif _is_sequence(a) and _is_sequence(b) and self._as_array(a, b) is None:
            self.assertEqual(len(a), len(b), f"Length of {path or 'a'} {len(a)} differs "
                                             f"from that of b {len(b)}. {msg or ''}")
            for i, (x, y) in enumerate(zip(a, b)):
                self._assert_close(x, y, rtol, atol, f"{path}[{i}]", msg)
        else:
            self._assert_close_arrays(a, b, rtol, atol, path, msg)

    def _as_array(self, *values):
        """The values as numeric arrays, or None when one is not an array (a
        structure of different shapes or of non-numbers), as TF tries first."""
        try:
            arrays = [self._array(v) for v in values]
        except (ValueError, TypeError):
            return None
        return None if any(a.dtype == object for a in arrays) else arrays

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """a and b (tensors, arrays, numbers, or dicts/lists/tuples of them) are
        elementwise within atol + rtol * |b|, of equal shapes, NaN matching NaN."""
        self._assert_close(a, b, rtol, atol, "", msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6,  # noqa: N802
                                      float_rtol=1e-6, float_atol=1e-6, half_rtol=1e-3,
                                      half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """assertAllClose with the tolerance raised to float_*/half_* when a or b
        is float32/complex64 or float16."""
        kinds = {self._array(a).dtype, self._array(b).dtype}
        if kinds & {np.dtype(np.float32), np.dtype(np.complex64)}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        elif np.dtype(np.float16) in kinds:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        self.fail(msg or "The two values are close at all elements")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """a == b elementwise with equal shapes (NaN equal to NaN for floats)."""
        a, b = self._array(a), self._array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}."
                                           f" Contents: {b!r}. \n{msg or ''}.")
        same = a == b
        if a.dtype.kind in "fc" and b.dtype.kind in "fc":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            diff = np.logical_not(same)
            header = (f"\nnot equal where = {np.nonzero(diff)}\nnot equal lhs = {a[diff]!r}\n"
                      f"not equal rhs = {b[diff]!r}\n{msg or ''}")
            np.testing.assert_array_equal(a, b, err_msg=header)

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        self.fail(msg or "Expected unequal values, got equal ones")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self.assertGreater(np.min(self._array(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self.assertLess(np.max(self._array(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self.assertGreaterEqual(np.min(self._array(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self.assertLessEqual(np.max(self._array(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound,  # noqa: N802
                         open_lower_bound=False, open_upper_bound=False):
        """Every element of target in [lower, upper] (open ends as asked)."""
        target = self._array(target)
        if not np.issubdtype(target.dtype, np.number):
            raise AssertionError(f"The value of {target} does not have an ordered numeric "
                                 "type, instead it has type: " + str(target.dtype))
        below = target <= lower_bound if open_lower_bound else target < lower_bound
        above = target >= upper_bound if open_upper_bound else target > upper_bound
        bad = np.logical_or(np.logical_or(below, above), np.isnan(target))
        if np.any(bad):
            left, right = "(" if open_lower_bound else "[", ")" if open_upper_bound else "]"
            lines = [f"  {list(i)} : {target[i]}" for i in zip(*np.nonzero(bad))]
            raise AssertionError(
                f"{int(bad.sum())} of the {target.size} element(s) are outside the range "
                f"{left}{lower_bound}, {upper_bound}{right}. Subscript(s) and value(s) of the "
                "offending elements:\n" + "\n".join(lines))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        target = self._array(target)
        missing = np.setdiff1d(target.ravel(), np.asarray(list(expected_set)))
        if missing.size:
            raise AssertionError(f"{missing.size} unique element(s) are not in the set "
                                 f"{list(expected_set)}: {list(missing)}")

    def assertAllTrue(self, a):  # noqa: N802
        a = self._array(a)
        self.assertTrue(np.all(a), f"Expected all true, found false at {np.nonzero(~a)}")

    def assertAllFalse(self, a):  # noqa: N802
        a = self._array(a)
        self.assertFalse(np.any(a), f"Expected all false, found true at {np.nonzero(a)}")

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """target (an array, a tensor or a list of them) has the dtype expected
        (a numpy dtype or a runtime DType)."""
        expected = expected_dtype.np_dtype if isinstance(expected_dtype, dtypes.DType) else \
            np.dtype(expected_dtype)
        items = target if isinstance(target, list) else [target]
        for item in items:
            self.assertEqual(self._array(item).dtype, expected)

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        """The numpy array input_a has the shape of the tensor input_b."""
        if not isinstance(input_a, np.ndarray):
            raise TypeError(f"input_a must be a numpy array, got {type(input_a).__name__}")
        if not isinstance(input_b, Tensor):
            raise TypeError(f"input_b must be a Tensor, got {type(input_b).__name__}")
        self.assertAllEqual(list(input_a.shape), input_b.shape.as_list(), msg=msg)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err,
                        f"{f1!r} != {f2!r} +/- {err!r}{' (' + msg + ')' if msg else ''}")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) <= err,
                        msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        self.assertEqual(str(device1 or "").upper().replace("/DEVICE:", "/"),
                         str(device2 or "").upper().replace("/DEVICE:", "/"), msg=msg)

    # --- errors ------------------------------------------------------------------

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type,  # noqa: N802
                                       expected_err_re_or_predicate):
        """The block raises exception_type, and the predicate accepts it (or the
        regular expression is found in its message)."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                return re.search(expected_err_re_or_predicate, str(e)) is not None
        try:
            yield
        except exception_type as e:
            if not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e
        else:
            self.fail(exception_type.__name__ + " not raised")

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        return self.assertRaisesWithPredicateMatch(OpError, expected_err_re_or_predicate)

    # --- absl's common assertions ----------------------------------------------

    def assertItemsEqual(self, first, second, msg=None):  # noqa: N802
        self.assertCountEqual(first, second, msg)

    def assertLen(self, container, expected_len, msg=None):  # noqa: N802
        if len(container) != expected_len:
            self.fail(msg or f"{container!r} has length of {len(container)}, expected "
                             f"{expected_len}.")

    def assertEmpty(self, container, msg=None):  # noqa: N802
        if len(container):
            self.fail(msg or f"{container!r} has length of {len(container)}.")

    def assertNotEmpty(self, container, msg=None):  # noqa: N802
        if not len(container):
            self.fail(msg or f"{container!r} has length of 0.")

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        if not actual.startswith(expected_start):
            self.fail(msg or f"{actual!r} does not start with {expected_start!r}")

    def assertNotStartsWith(self, actual, unexpected_start, msg=None):  # noqa: N802
        if actual.startswith(unexpected_start):
            self.fail(msg or f"{actual!r} does start with {unexpected_start!r}")

    def assertEndsWith(self, actual, expected_end, msg=None):  # noqa: N802
        if not actual.endswith(expected_end):
            self.fail(msg or f"{actual!r} does not end with {expected_end!r}")

    def assertNotEndsWith(self, actual, unexpected_end, msg=None):  # noqa: N802
        if actual.endswith(unexpected_end):
            self.fail(msg or f"{actual!r} does end with {unexpected_end!r}")

    def assertBetween(self, value, minv, maxv, msg=None):  # noqa: N802
        if not minv <= value <= maxv:
            self.fail(msg or f"{value!r} is not between {minv!r} and {maxv!r}")

    def assertSameElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        self.assertEqual(set(expected_seq), set(actual_seq), msg)

    def assertContainsSubset(self, expected_subset, actual_set, msg=None):  # noqa: N802
        missing = set(expected_subset) - set(actual_set)
        if missing:
            self.fail(msg or f"Missing elements {sorted(map(repr, missing))}")

    def assertNoCommonElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        common = set(expected_seq) & set(actual_seq)
        if common:
            self.fail(msg or f"Common elements {sorted(map(repr, common))}")

    def assertSequenceStartsWith(self, prefix, whole, msg=None):  # noqa: N802
        if list(whole[:len(prefix)]) != list(prefix):
            self.fail(msg or f"{whole!r} does not start with {prefix!r}")
