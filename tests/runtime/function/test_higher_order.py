"""map_fn, scan, foldl, foldr, vectorized_map, switch_case and case: values
against numpy eagerly and inside tf.function, one loop per graph, TF's errors."""

import re

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

RNG = np.random.default_rng(16)


def _graph(fn):
    """fn run inside a tf.function (autograph on)."""
    return tf.function(fn)


def _modes(fn):
    return [fn, _graph(fn)]


def _np(result):
    return tuple(r.numpy() for r in result) if isinstance(result, tuple) else result.numpy()


# --- the loops, table-driven --------------------------------------------------------
# (name, function of the elems, elems, numpy reference)

X = RNG.normal(size=(5, 3)).astype(np.float32)
V = RNG.integers(-5, 5, size=7).astype(np.int32)
EMPTY = np.zeros((0, 3), np.float32)

LOOPS = [
    ("map square", lambda e: tf.map_fn(lambda x: x * x, e), X, X * X),
    ("map row sum to scalar",
     lambda e: tf.map_fn(tf.reduce_sum, e, fn_output_signature=tf.float32), X, X.sum(1)),
    ("map cast with dtype",
     lambda e: tf.map_fn(lambda x: tf.cast(x, tf.float64), e, dtype=tf.float64), V,
     V.astype(np.float64)),
    ("map nested in and out",
     lambda e: tf.map_fn(lambda p: (p[0] + p[1], p[0] * 2), (e, e * 3)), V,
     (V + 3 * V, 2 * V)),
    ("map dict", lambda e: tf.map_fn(lambda d: {"a": d["a"] - 1}, {"a": e})["a"], V, V - 1),
    ("map empty", lambda e: tf.map_fn(lambda x: x * 2, e), EMPTY, None),
    ("scan cumsum", lambda e: tf.scan(lambda a, x: a + x, e), V, np.cumsum(V, dtype=np.int32)),
    ("scan initializer", lambda e: tf.scan(lambda a, x: a * 2 + x, e, initializer=1), V,
     np.array([1 * 2 ** (k + 1) + sum(V[j] * 2 ** (k - j) for j in range(k + 1))
               for k in range(len(V))], np.int32)),
    ("scan reverse", lambda e: tf.scan(lambda a, x: a + x, e, reverse=True), V,
     np.cumsum(V[::-1], dtype=np.int32)[::-1]),
    ("scan rows", lambda e: tf.scan(lambda a, x: a + x, e), X, np.cumsum(X, 0)),
    ("scan nested accumulator",
     lambda e: tf.scan(lambda a, x: (a[0] + x, a[1] * 2), e, initializer=(0, 1)), V,
     (np.cumsum(V, dtype=np.int32), 2 ** np.arange(1, 8, dtype=np.int32))),
    ("scan empty with initializer",
     lambda e: tf.scan(lambda a, x: a + tf.reduce_sum(x), e, initializer=1.0), EMPTY,
     np.zeros((0,), np.float32)),
    ("foldl", lambda e: tf.foldl(lambda a, x: a - x, e), V, np.int32(V[0] - V[1:].sum())),
    ("foldl initializer", lambda e: tf.foldl(lambda a, x: a - x, e, initializer=10), V,
     np.int32(10 - V.sum())),
    ("foldr", lambda e: tf.foldr(lambda a, x: a - x, e), V, np.int32(V[-1] - V[:-1].sum())),
    ("foldr order", lambda e: tf.foldr(lambda a, x: a * 10 + x, e, initializer=0),
     np.array([1, 2, 3], np.int32), np.int32(321)),
    ("foldl nested elems",
     lambda e: tf.foldl(lambda a, x: (a[0] + x[0], a[1] + x[1]), (e, tf.cast(e, tf.float32))),
     V, (np.int32(V.sum()), np.float32(V.sum()))),
    ("foldl rows", lambda e: tf.foldl(lambda a, x: a + x, e, initializer=tf.zeros([3])), X,
     X.sum(0)),
    ("foldl empty with initializer",
     lambda e: tf.foldl(lambda a, x: a + x, e, initializer=tf.ones([3])), EMPTY,
     np.ones(3, np.float32)),
    ("vectorized_map", lambda e: tf.vectorized_map(lambda x: tf.reduce_sum(x * x), e), X,
     (X * X).sum(1)),
    ("vectorized_map nested",
     lambda e: tf.vectorized_map(lambda p: (p[0] + p[1], tf.cast(p[0], tf.float32)), (e, e)),
     V, (2 * V, V.astype(np.float32))),
    ("vectorized_map constant output", lambda e: tf.vectorized_map(lambda x: tf.constant(5), e),
     V, np.full(7, 5, np.int32)),
    ("vectorized_map empty", lambda e: tf.vectorized_map(lambda x: x * 2, e), EMPTY, EMPTY),
]


@pytest.mark.parametrize("name, fn, elems, expected", LOOPS, ids=[r[0] for r in LOOPS])
@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_loop_values(name, fn, elems, expected, graph):
    got = (_graph(fn) if graph else fn)(tf.constant(elems))
    if expected is None:   # map_fn on no elements: TF gives (0,) eagerly, (0, 3) in graphs
        expected = EMPTY if graph else np.zeros((0,), np.float32)
    got = _np(got)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got, expected):
        e = np.asarray(e)
        assert g.dtype == e.dtype and g.shape == e.shape, (g.dtype, e.dtype, g.shape, e.shape)
        np.testing.assert_allclose(g, e, rtol=1e-5)


def _while_nodes(text):
    return len(re.findall(r"= while ", text))


@pytest.mark.parametrize("fn", [
    lambda e: tf.map_fn(lambda x: x * 2.0, e),
    lambda e: tf.scan(lambda a, x: a + x, e),
    lambda e: tf.foldl(lambda a, x: a + x, e),
    lambda e: tf.foldr(lambda a, x: a + x, e),
    lambda e: tf.vectorized_map(lambda x: x + 1.0, e),
], ids=["map_fn", "scan", "foldl", "foldr", "vectorized_map"])
def test_one_loop_whatever_the_number_of_elements(fn):
    f = tf.function(fn)
    texts = [str(f.get_concrete_function(tf.TensorSpec([n], tf.float32)).graph)
             for n in (2, 50)]
    assert _while_nodes(texts[0]) == _while_nodes(texts[1]) == 1
    sizes = [len(t.splitlines()) for t in texts]
    assert sizes[0] == sizes[1]


def test_map_fn_converts_fn_with_autograph():
    def absolute(x):
        if x > 0:
            return x
        return -x

    f = tf.function(lambda e: tf.map_fn(absolute, e))
    np.testing.assert_array_equal(f(tf.constant([-1, 2, -3])).numpy(), [1, 2, 3])


def test_map_fn_captures_outer_tensors_and_accepts_parallel_iterations():
    @tf.function
    def f(e, k):
        return tf.map_fn(lambda x: x * k, e, parallel_iterations=4, back_prop=False)

    np.testing.assert_array_equal(f(tf.constant([1, 2]), tf.constant(3)).numpy(), [3, 6])


def test_map_fn_tensorspec_signature_gives_static_shape():
    f = tf.function(lambda e: tf.map_fn(lambda x: tf.stack([x, x]), e,
                                        fn_output_signature=tf.TensorSpec([2], tf.int32)))
    cf = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
    assert cf.graph.outputs[0].shape.as_list() == [None, 2]
    assert tf.map_fn(lambda x: tf.stack([x, x]), tf.zeros([0], tf.int32),
                     fn_output_signature=tf.TensorSpec([2], tf.int32)).shape == (0, 2)


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.map_fn(lambda x: x, tf.constant(1)), ValueError,
     "Elements in elems must be 1\\+ dimensional Tensors, not scalars"),
    (lambda: tf.map_fn(lambda x: x, [1, 2]), ValueError, "1\\+ dimensional"),
    (lambda: tf.map_fn(lambda x: x[0], (tf.constant([1, 2]), tf.constant([3, 4, 5]))),
     ValueError, "Dimensions 2 and 3 are not compatible"),
    (lambda: tf.map_fn(lambda p: p[0] + p[1], (tf.constant([1]), tf.constant([2]))),
     ValueError, "structure does not match the output signature"),
    (lambda: tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1])), TypeError,
     "fn returned a float32 tensor for output 0, but the output signature says int32"),
    (lambda: tf.map_fn(lambda x: None, tf.constant([1])), ValueError, "structure|None"),
    (lambda: tf.map_fn(lambda x: x, tf.constant([1]), dtype=tf.int32,
                       fn_output_signature=tf.int32), ValueError, "cannot both be specified"),
    (lambda: tf.map_fn(3, tf.constant([1])), TypeError, "fn must be callable"),
    (lambda: tf.scan(lambda a, x: (a, a), tf.constant([1, 2])), ValueError,
     "structure of the accumulator"),
    (lambda: tf.scan(lambda a, x: a + x, tf.zeros([0])), InvalidArgumentError,
     "index 0 is out of range"),
    (lambda: tf.foldl(lambda a, x: a + x, tf.zeros([0])), InvalidArgumentError,
     "index 0 is out of range"),
])
def test_loop_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_loop_errors_in_graph():
    f = tf.function(lambda e: tf.foldl(lambda a, x: a + x, e))
    with pytest.raises(InvalidArgumentError, match="out of range"):
        f(tf.zeros([0]))
    g = tf.function(lambda e: tf.map_fn(lambda x: tf.cast(x, tf.float32), e))
    with pytest.raises(TypeError, match="output signature says int32"):
        g(tf.constant([1]))


# --- switch_case ------------------------------------------------------------------

BRANCHES = [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)]


@pytest.mark.parametrize("index, plain, with_default", [
    (0, 10, 10), (1, 20, 20), (2, 30, 30), (3, 30, -5), (-1, 30, -5), (100, 30, -5),
])
@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_switch_case_out_of_range_runs_default_or_last(index, plain, with_default, graph):
    def plain_fn(i):
        return tf.switch_case(i, BRANCHES)

    def default_fn(i):
        return tf.switch_case(i, BRANCHES, default=lambda: tf.constant(-5))

    wrap = _graph if graph else (lambda f: f)
    for dtype in (tf.int32, tf.int64):
        i = tf.constant(index, dtype)
        assert wrap(plain_fn)(i).numpy() == plain
        assert wrap(default_fn)(i).numpy() == with_default


@pytest.mark.parametrize("branch_fns", [
    {1: BRANCHES[1], 0: BRANCHES[0]},
    [(1, BRANCHES[1]), (0, BRANCHES[0])],
    (BRANCHES[0], BRANCHES[1]),
], ids=["dict", "pairs", "tuple"])
def test_switch_case_branch_fns_forms(branch_fns):
    for f in _modes(lambda i: tf.switch_case(i, branch_fns)):
        assert f(tf.constant(1)).numpy() == 20
        assert f(tf.constant(0)).numpy() == 10


def test_switch_case_graph_is_a_chain_of_conds_and_runs_one_branch(capsys):
    @tf.function
    def f(i):
        return tf.switch_case(i, [lambda: tf.print("zero") or tf.constant(0),
                                  lambda: tf.print("one") or tf.constant(1)])

    assert f(tf.constant(1)).numpy() == 1
    assert capsys.readouterr().err == "one\n"
    assert str(f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph).count("= if ") == 1


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.switch_case(1, BRANCHES), TypeError,
     "'branch_index' must be a Tensor, got <class 'int'>"),
    (lambda: tf.switch_case(tf.constant(1.0), BRANCHES), TypeError,
     "'branch_index' must be an integer Tensor"),
    (lambda: tf.switch_case(tf.constant([1]), BRANCHES), ValueError, "must be a scalar"),
    (lambda: tf.switch_case(tf.constant(1), []), ValueError,
     "Must provide at least one item in 'branch_fns'"),
    (lambda: tf.switch_case(tf.constant(1), [1, 2]), TypeError,
     "Each entry in 'branch_fns' must be a 2-tuple. Received 1."),
    (lambda: tf.switch_case(tf.constant(1), {"a": BRANCHES[0]}), TypeError,
     "key must be a Python `int`, got <class 'str'>"),
    (lambda: tf.switch_case(tf.constant(1), {0: BRANCHES[0], 2: BRANCHES[2]}), ValueError,
     re.escape("branch indices (keys) must form contiguous range of [0 to 2) but found {0,2}")),
    (lambda: tf.switch_case(tf.constant(1), [(0, 5)]), TypeError,
     "fn for key 0 must be callable"),
])
def test_switch_case_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_switch_case_branches_must_agree_in_graph():
    f = tf.function(lambda i: tf.switch_case(i, [lambda: tf.constant(1),
                                                 lambda: tf.constant(1.0)]))
    with pytest.raises(TypeError, match="int32 .* float32"):
        f(tf.constant(0))


# --- case ---------------------------------------------------------------------------

F1, F2, DEFAULT = (lambda: tf.constant(17)), (lambda: tf.constant(23)), (lambda: tf.constant(-1))


@pytest.mark.parametrize("x, y, expected", [(1, 2, 17), (2, 1, 23), (1, 1, -1)])
@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_case_first_true_pred_or_default(x, y, expected, graph):
    def f(a, b):
        return tf.case([(a < b, F1), (a > b, F2)], default=DEFAULT)

    f = _graph(f) if graph else f
    assert f(tf.constant(x), tf.constant(y)).numpy() == expected


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_case_without_default_and_exclusive(graph):
    def first_true(a):
        return tf.case([(a < 2, F1), (a < 5, F2)])

    def exclusive(a):
        return tf.case([(a < 2, F1), (a < 5, F2)], default=DEFAULT, exclusive=True)

    wrap = _graph if graph else (lambda f: f)
    assert wrap(first_true)(tf.constant(1)).numpy() == 17
    assert wrap(first_true)(tf.constant(3)).numpy() == 23
    with pytest.raises(InvalidArgumentError, match="None of conditions evaluated as True"):
        wrap(first_true)(tf.constant(7))
    assert wrap(exclusive)(tf.constant(3)).numpy() == 23
    assert wrap(exclusive)(tf.constant(9)).numpy() == -1
    with pytest.raises(InvalidArgumentError, match="exclusive=True: more than 1 conditions"):
        wrap(exclusive)(tf.constant(1))


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.case([(True, F1)], default=DEFAULT), TypeError, "pred must be a Tensor, got: True"),
    (lambda: tf.case([F1], default=DEFAULT), TypeError,
     "Each entry in 'pred_fn_pairs' must be a 2-tuple"),
    (lambda: tf.case([(tf.constant(1), F1)]), TypeError, "pred must be Tensor of type bool: int32"),
    (lambda: tf.case([(tf.constant(True), 3)]), TypeError, "must be callable"),
    (lambda: tf.case([], default=DEFAULT), ValueError, "at least one"),
])
def test_case_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_loop_nodes_are_named_in_the_op_scope_as_tf_names_them():
    f = tf.function(lambda e: (tf.map_fn(lambda x: x * 2.0, e), tf.foldl(lambda a, x: a + x, e),
                               tf.scan(lambda a, x: a + x, e, name="running")))
    names = [n.name for n in f.get_concrete_function(tf.TensorSpec([3])).graph.nodes]
    for expected in ("map/while", "foldl/while", "running/while"):
        assert expected in names, names


def test_vectorized_map_converts_fn_also_eagerly():
    def signed_sum(v):
        if v[0] > 0:
            return tf.reduce_sum(v)
        return -tf.reduce_sum(v)

    x = tf.constant([[1, 2], [-3, 4]])
    np.testing.assert_array_equal(tf.vectorized_map(signed_sum, x).numpy(), [3, -1])
    np.testing.assert_array_equal(tf.function(lambda e: tf.vectorized_map(signed_sum, e))(x)
                                  .numpy(), [3, -1])
