"""`tf.experimental.numpy` against TensorFlow 2.21's recorded values
(tests/data/tnp_tf221.json, written by tools/record_tnp.py): every name's
values and dtypes eagerly, a sample inside `tf.function`, gradients, and
`experimental_enable_numpy_behavior`'s methods, indexing and operator
promotion (with and without prefer_float32).

Where TF 2.21 itself raises on a case (its float functions call `.astype`,
which tensors have only once NumPy behaviour is on, so the case is
recorded with it on; a few kernels TF lacks, such as `arctan2` of ints),
the value is NumPy's own, recorded beside it.
"""

import json

import numpy as np
import pytest

import runtime as tf
import runtime.experimental.numpy as tnp
from runtime._src.ops.np_config import disable_numpy_behavior
from tests.paths import DATA as TEST_DATA

DATA = json.loads((TEST_DATA / "tnp_tf221.json").read_text())
SETUP = """
M = np.array([[1.0, -2.0, 3.0], [0.0, 5.0, -6.0]])
V = np.array([0.5, -1.5, 2.0, 0.0])
F32 = np.array([0.5, -1.5, 2.0, 0.0], np.float32)
I = np.array([3, -1, 0, 2], np.int32)
L = np.array([12, 18, -7, 0], np.int64)
B = np.array([True, False, True, True])
P = np.array([0.25, 1.0, 4.0, 9.0])
U = np.array([-0.5, 0.0, 0.25, 0.75])
N = np.array([1.0, np.nan, 3.0, np.inf])
C = np.array([1 + 2j, -3j, 2.0])
S = np.arange(24.0).reshape(2, 3, 4)
"""


def _env():
    env = {"tnp": tnp, "np": np, "tf": tf}
    exec(SETUP, env)  # noqa: S102 - the fixtures above
    return env


# Cases TF 2.21 refuses where we give NumPy's answer (docs/tf_differences.md).
NUMPY_WHERE_TF_RAISES = {
    "tnp.arctan2(I, 2)", "tnp.concatenate([M, S[0]], axis=None)", "tnp.cumsum(B)",
    "tnp.expand_dims(M, (0, 3))", "tnp.isinf(N)", "tnp.isneginf(-N)", "tnp.isposinf(-N)",
    "tnp.pad(M, 1, 'constant')", "tnp.pad(V, (1, 2), 'reflect')", "tnp.pad(V, 2, 'symmetric')",
    "tnp.power(2, I)", "tnp.random.uniform(1.0, 2.0, size=3).dtype", "tnp.reciprocal(I + 4)",
    "tnp.sort(B)", "tnp.square(B)", "tnp.var(M, axis=0, ddof=1)", "tnp.var(V, ddof=1)",
    "tnp.meshgrid([1, 2], [3, 4, 5], sparse=True)", "tnp.take([1, 2, 3], [])",
    "tnp.hypot(I, 4)", "tnp.pad(np.zeros((0,)), 1, 'constant')",
}


def _expected(expr):
    """TF's record for a case: with NumPy behaviour on, else plain; where TF
    raises in both, its error, or NumPy's answer for NUMPY_WHERE_TF_RAISES."""
    for got in (DATA["cases_np"][expr], DATA["cases"][expr]):
        if "error" not in got:
            return got
    if expr in NUMPY_WHERE_TF_RAISES:
        return DATA["cases"][expr]["numpy"]
    return DATA["cases_np"][expr]


def _values(record):
    if "re" in record:
        return np.asarray(record["re"]) + 1j * np.asarray(record["im"])
    raw = record["values"] if "values" in record else record["py"]
    return np.asarray(np.nan if raw is None else raw, dtype=object if _has_none(raw) else None)


def _has_none(raw):
    if isinstance(raw, list):
        return any(_has_none(r) for r in raw)
    return raw is None


def _check(got, want, where):
    if "seq" in want:
        assert isinstance(got, (tuple, list)) and len(got) == len(want["seq"]), where
        for g, w in zip(got, want["seq"]):
            _check(g, w, where)
        return
    if "dtype_name" in want:
        assert tf.as_dtype(got).name == want["dtype_name"], where
        return
    if "strings" in want:
        assert [v.decode() for v in got.numpy().ravel().tolist()] == want["strings"], where
        return
    if "dtype" in want:
        assert got.dtype.name == want["dtype"], (where, got.dtype.name, want["dtype"])
        got = got.numpy()
    elif isinstance(got, (tf.Tensor, tf.TensorShape)):
        got = got.numpy() if isinstance(got, tf.Tensor) else got.as_list()
    want_v = _values(want)
    if "shape" in want:
        want_v = want_v.reshape(want["shape"])
    if want_v.dtype == object:       # NaNs were recorded as None
        want_v = np.asarray([np.nan if v is None else v for v in want_v.ravel()],
                            float).reshape(want_v.shape)
    got = np.asarray(got)
    assert got.shape == want_v.shape, (where, got.shape, want_v.shape)
    if want_v.dtype.kind in "fc" or got.dtype.kind in "fc":
        np.testing.assert_allclose(got.astype(complex if got.dtype.kind == "c" else float),
                                   want_v, rtol=1e-6, atol=1e-12, equal_nan=True,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(got, want_v, err_msg=where)


def _run(expr, env):
    want = _expected(expr)
    if "error" in want:
        with pytest.raises(Exception):  # noqa: B017, PT011 - NumPy raised too
            eval(expr, env)  # noqa: S307
        return
    _check(eval(expr, env), want, expr)  # noqa: S307


CASES = [c for c in DATA["cases"]]


def test_every_tf_name_is_here_and_recorded():
    names = {n for n in tnp.__all__}
    assert len(names) == 229
    covered = {n for n in names if any(f"tnp.{n}" in c for c in CASES)}
    constants = {"ndarray", "experimental_enable_numpy_behavior", "bool_", "int8", "int16",
                 "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float64", "float_", "int_", "complex64", "complex128", "complex_",
                 "object_", "string_", "unicode_"}
    assert names - covered - constants == set()


@pytest.fixture
def seeded():
    """tnp.random.seed(0) for one test, then no global seed again."""
    tnp.random.seed(0)
    yield
    tf.random.set_seed(None)


@pytest.mark.parametrize("expr", CASES)
def test_values_and_dtypes_as_tf(expr, request):
    if "random" in expr:
        request.getfixturevalue("seeded")
    _run(expr, _env())


TRACED = CASES[::9]


def test_a_sample_inside_tf_function():
    env = _env()
    for expr in TRACED:
        if "random" in expr or "error" in _expected(expr):
            continue
        out = eval(expr, env)  # noqa: S307
        if not isinstance(out, (tf.Tensor, tuple, list)) or (
                isinstance(out, (tuple, list)) and not all(isinstance(o, tf.Tensor)
                                                           for o in out)):
            continue
        traced = tf.function(lambda e=expr: eval(e, env))()  # noqa: S307
        _check(traced, _expected(expr), "traced " + expr)


# TF 2.21's sinc has a NaN gradient at 0 (its where() divides by zero on the
# untaken side); ours is sinc'(0) = 0 (docs/tf_differences.md).
_NOT_TF = {"tnp.sinc(x)": {3: 0.0}}


@pytest.mark.parametrize("expr", list(DATA["grads"]))
def test_gradients_as_tf(expr):
    x = tf.constant([0.5, -1.5, 2.0, 0.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(eval(expr, {"tnp": tnp, "x": x}))  # noqa: S307
    want = list(DATA["grads"][expr])
    for i, v in _NOT_TF.get(expr, {}).items():
        want[i] = v
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), want, rtol=1e-6,
                               atol=1e-12, err_msg=expr)


@pytest.fixture
def numpy_behavior():
    """Turns NumPy behaviour on for one test, then off again (TF's switch is
    process-wide and for good; disable_numpy_behavior is ours, for tests)."""
    yield tnp.experimental_enable_numpy_behavior
    disable_numpy_behavior()


def _tensors():
    env = _env()
    env.update(i8=tf.constant([1, 2], tf.int8), u8=tf.constant([1, 2], tf.uint8),
               i32=tf.constant([1, 2], tf.int32), i64=tf.constant([1, 2], tf.int64),
               f16=tf.constant([1, 2], tf.float16), f32=tf.constant([1, 2], tf.float32),
               f64=tf.constant([1, 2], tf.float64), b=tf.constant([True, False]),
               x=tf.constant([[1.5, 2.5], [3.0, 4.0]]),
               y=tf.constant(np.arange(24).reshape(2, 3, 4)))
    return env


def _check_table(table, env):
    for expr, want in table.items():
        if "error" in want:
            with pytest.raises(Exception):  # noqa: B017, PT011
                eval(expr, env)  # noqa: S307
        else:
            _check(eval(expr, env), want, expr)  # noqa: S307


def test_operators_promote_as_tf_legacy(numpy_behavior):
    numpy_behavior()
    _check_table(DATA["legacy"], _tensors())


def test_operators_promote_as_tf_prefer_float32(numpy_behavior):
    numpy_behavior(prefer_float32=True)
    env = _tensors()
    _check_table(DATA["prefer_float32"], env)
    _check_table(DATA["prefer_float32_cases"], env)


def test_methods_and_indexing_as_tf(numpy_behavior):
    numpy_behavior()
    _check_table(DATA["methods"], _tensors())


def test_gradients_through_numpy_indexing(numpy_behavior):
    numpy_behavior()
    x = tf.constant([[1.5, 2.5], [3.0, 4.0]])
    for expr, want in DATA["numpy_index_grads"].items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(eval(expr, {"x": x}) * 2.0)  # noqa: S307
        assert tape.gradient(y, x).numpy().tolist() == want, expr


def test_mode_off_has_the_methods_but_no_promotion(numpy_behavior):
    numpy_behavior(dtype_conversion_mode="off")
    _check_table(DATA["off"], _tensors())
    assert tf.constant([[1, 2]]).T.shape == (2, 1)


def test_operators_inside_tf_function_promote(numpy_behavior):
    numpy_behavior()
    f = tf.function(lambda a, b: (a + b, a.T, a.reshape(-1), a[[1, 0]]))
    s, t, r, g = f(tf.constant([[1, 2], [3, 4]], tf.int32), tf.constant(1.5, tf.float64))
    assert s.dtype == tf.float64 and s.numpy().tolist() == [[2.5, 3.5], [4.5, 5.5]]
    assert t.numpy().tolist() == [[1, 3], [2, 4]] and r.shape == (4,)
    assert g.numpy().tolist() == [[3, 4], [1, 2]]


def test_numpy_behavior_is_switched_off_again(numpy_behavior):
    numpy_behavior(prefer_float32=True)
    assert tnp.asarray(1.5).dtype == tf.float32
    disable_numpy_behavior()
    assert not hasattr(tf.constant(1.0), "T") and not hasattr(tf.constant(1.0), "tolist")
    assert tnp.asarray(1.5).dtype == tf.float64
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1, tf.int32) + tf.constant(1, tf.int64)


def test_unsupported_conversion_mode_is_named():
    with pytest.raises(ValueError, match="dtype_conversion_mode must be one of .*'bogus'"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="bogus")
    assert not hasattr(tf.constant(1.0), "T")


def test_random_draws_follow_the_seed(seeded):
    tnp.random.seed(3)
    a = tnp.random.rand(3)
    tnp.random.seed(3)
    assert a.numpy().tolist() == tnp.random.rand(3).numpy().tolist()
    x = tnp.random.uniform(2.0, 5.0, size=1000).numpy()
    assert x.min() >= 2.0 and x.max() < 5.0
    k = tnp.random.randint(3, 7, size=500).numpy()
    assert set(k.tolist()) == {3, 4, 5, 6}
    with pytest.raises(ValueError, match="int32 or int64"):
        tnp.random.randint(3, dtype=tnp.float32)


DYNAMIC = {
    "sum": lambda x: tnp.sum(x, axis=0), "take": lambda x: tnp.take(x, [0, 9]),
    "tril": lambda x: tnp.tril(x, -1), "triu": lambda x: tnp.triu(x, 1),
    "diagonal": lambda x: tnp.diagonal(x, 1), "kron": lambda x: tnp.kron(x, x),
    "average": lambda x: tnp.average(x, returned=True), "size": lambda x: tnp.size(x),
    "take_along_axis": lambda x: tnp.take_along_axis(x, tnp.argsort(x, axis=1), 1),
    "roll": lambda x: tnp.roll(x, 1), "pad": lambda x: tnp.pad(x, 1, "constant"),
    "var": lambda x: tnp.var(x, axis=1, ddof=1),
    "matmul": lambda x: tnp.matmul(x, tnp.transpose(x)),
}


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_sizes_unknown_while_tracing(name):
    x = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    f = DYNAMIC[name]
    traced = tf.function(f, input_signature=[tf.TensorSpec([None, None], tf.float64)])(x)
    eager = f(tnp.asarray(x))
    for t, e in zip(tf.nest.flatten(traced), tf.nest.flatten(eager)):
        np.testing.assert_allclose(np.asarray(t), np.asarray(e), err_msg=name)


def test_a_tuple_inside_the_key_indexes_as_a_sequence(numpy_behavior):
    # TF 2.21's tf_numpy guide: x[:, (True, False, True)] picks rows 0 and 2 of
    # each block, x[1, (0, 0, 1), tnp.asarray([0, 1, 1])] is [12 13 17]
    numpy_behavior()
    x = tf.reshape(tf.range(24, dtype=tf.int64), [2, 3, 4])
    assert x[:, (True, False, True)].numpy().tolist() == [
        [[0, 1, 2, 3], [8, 9, 10, 11]], [[12, 13, 14, 15], [20, 21, 22, 23]]]
    assert x[1, (0, 0, 1), tf.constant([0, 1, 1])].numpy().tolist() == [12, 13, 17]
    assert x[:, (0, 2), 1].numpy().tolist() == [[1, 9], [13, 21]]
