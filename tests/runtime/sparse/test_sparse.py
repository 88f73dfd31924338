"""tf.SparseTensor and tf.sparse against TensorFlow 2.21's recorded values
(tests/data/sparse_ops.json, written by tools/record_sparse.py from the cases
in sparse_cases.py): every case eagerly and inside tf.function, gradients
included; then SparseTensors and RaggedTensors going into and out of
tf.function (trace keys, input_signature, printing), nest expand_composites."""

import json

import numpy as np
import pytest

import runtime as tf
from runtime._src.core.errors import InvalidArgumentError
from tests.paths import DATA as TEST_DATA

from tests.runtime.sparse.sparse_cases import CASES, serialize

DATA = str(TEST_DATA / "sparse_ops.json")
with open(DATA) as _f:
    RECORDED = json.load(_f)["cases"]

# TF's error classes: eagerly, ours raise the same class.
_ERRORS = {"InvalidArgumentError": InvalidArgumentError, "ValueError": ValueError,
           "TypeError": TypeError}


def _same(got, want, path="result"):
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), (path, got, want)
        for k in want:
            _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-5), (path, got, want)
    else:
        assert got == want, (path, got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tf(name):
    want = RECORDED[name]
    if "error" in want:
        with pytest.raises(_ERRORS[want["error"]]):
            CASES[name](tf)
        # Traced, a run-time check raises InvalidArgumentError and a static one
        # (shapes, dtypes known while tracing) ValueError or TypeError, as TF's.
        with pytest.raises((InvalidArgumentError, ValueError, TypeError)):
            tf.function(lambda: CASES[name](tf))()
        return
    _same(serialize(CASES[name](tf)), want)
    _same(serialize(tf.function(lambda: CASES[name](tf))()), want, "traced")


# --- composites through tf.function (TF 2.21's behaviour, checked by hand) ------------------

def _sp(values=(1.0, 2.0), indices=((0, 1), (2, 3)), shape=(3, 4)):
    return tf.sparse.SparseTensor([list(i) for i in indices], list(values), list(shape))


def test_sparse_repr_and_spec():
    sp = _sp()
    assert repr(sp) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 1]\n [2 3]], shape=(2, 2), dtype=int64), "
        "values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), "
        "dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")
    assert str(sp) == repr(sp)
    assert sp.shape == tf.TensorShape([3, 4]) and sp.get_shape() == sp.shape
    assert sp.dtype == tf.float32 and sp.indices.dtype == tf.int64
    assert sp.consumers() == []
    spec = tf.type_spec_from_value(sp)
    assert repr(spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    assert spec == tf.SparseTensorSpec([3, 4], tf.float32)
    assert tf.SparseTensorSpec([None, 4]).is_compatible_with(sp)
    assert not tf.SparseTensorSpec([None, 5]).is_compatible_with(sp)
    assert [repr(c) for c in tf.SparseTensorSpec([None, 4], tf.float32)._component_specs] == [
        "TensorSpec(shape=(None, 2), dtype=tf.int64, name=None)",
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)",
        "TensorSpec(shape=(2,), dtype=tf.int64, name=None)"]
    assert tf.SparseTensorSpec([3]).value_type is tf.SparseTensor
    assert tf.is_tensor(sp) and tf.is_tensor(tf.ragged.constant([[1]]))
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.convert_to_tensor(sp)


def test_sparse_into_and_out_of_function():
    seen = []

    @tf.function
    def f(s):
        seen.append(str(s))
        assert s.shape == tf.TensorShape(s.shape)       # the spec's static shape
        seen.append(s.shape)
        return tf.sparse.map_values(tf.math.square, s)

    out = f(_sp())
    assert isinstance(out, tf.SparseTensor)
    np.testing.assert_array_equal(out.values.numpy(), [1.0, 4.0])
    np.testing.assert_array_equal(out.dense_shape.numpy(), [3, 4])
    assert seen[0] == (
        'SparseTensor(indices=Tensor("s:0", shape=(None, 2), dtype=int64), '
        'values=Tensor("s_1:0", shape=(None,), dtype=float32), '
        'dense_shape=Tensor("s_2:0", shape=(2,), dtype=int64))')
    assert seen[1] == tf.TensorShape([3, 4])
    f(_sp((1.0, 2.0, 3.0), ((0, 1), (2, 3), (2, 2))))     # other nnz: the same trace
    assert f.experimental_get_tracing_count() == 1
    f(_sp((1.0,), ((0, 1),), (3, 5)))                      # other dense shape: a new one
    assert f.experimental_get_tracing_count() == 2
    cf = f.get_concrete_function(_sp())
    assert repr(cf.structured_input_signature) == \
        "((SparseTensorSpec(TensorShape([3, 4]), tf.float32),), {})"
    assert [t.name for t in cf.inputs] == ["s:0", "s_1:0", "s_2:0"]
    assert "  s (POSITIONAL_OR_KEYWORD): SparseTensorSpec(TensorShape([3, 4]), tf.float32)" \
        in f.pretty_printed_concrete_signatures()


def test_sparse_input_signature():
    g = tf.function(lambda s: tf.sparse.reduce_sum(s),
                    input_signature=[tf.SparseTensorSpec([None, None], tf.float32)])
    assert float(g(_sp())) == 3.0
    assert float(g(_sp((5.0,), ((1, 1),), (2, 2)))) == 5.0
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        g(tf.ones([2, 2]))
    with pytest.raises(TypeError, match="Can not cast"):
        g(tf.sparse.SparseTensor([[0]], [1.0], [3]))          # rank 1
    with pytest.raises(TypeError, match="Can not cast"):
        g(tf.sparse.SparseTensor([[0, 0]], [1], [3, 3]))      # int32 values
    cf = tf.function(lambda s: s).get_concrete_function(tf.SparseTensorSpec([None, 4]))
    out = cf(_sp())
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 1], [2, 3]])


def test_sparse_gradient_through_function():
    f = tf.function(lambda s: tf.sparse.map_values(tf.math.square, s))
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = f(tf.sparse.SparseTensor([[0, 0], [1, 1]], v, [2, 2]))
        loss = tf.reduce_sum(tf.sparse.to_dense(y))
    np.testing.assert_array_equal(tape.gradient(loss, v).numpy(), [2.0, 4.0])


def test_ragged_into_and_out_of_function():
    h = tf.function(lambda r: r * 2)
    out = h(tf.ragged.constant([[1, 2], [3]]))
    assert out.to_list() == [[2, 4], [6]]
    h(tf.ragged.constant([[1], [2, 3, 4]]))          # same rows, other lengths: one trace
    assert h.experimental_get_tracing_count() == 1
    assert repr(h.get_concrete_function(tf.ragged.constant([[1, 2], [3]]))
                .structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64),), {})"
    text = h.pretty_printed_concrete_signatures()
    assert "Output Type:\n  RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)" \
        in text
    sig = tf.function(lambda r: r.row_lengths(),
                      input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    np.testing.assert_array_equal(sig(tf.ragged.constant([[1, 2], [], [3]])).numpy(),
                                  [2, 0, 1])


def test_nest_expand_composites():
    rt = tf.ragged.constant([[1, 2], [3]])
    flat = tf.nest.flatten(rt, expand_composites=True)
    assert [t.numpy().tolist() for t in flat] == [[1, 2, 3], [0, 2, 3]]
    sp = _sp()
    flat = tf.nest.flatten({"a": sp, "b": 1}, expand_composites=True)
    assert len(flat) == 4 and flat[3] == 1
    back = tf.nest.pack_sequence_as({"a": sp, "b": 1}, flat, expand_composites=True)
    assert isinstance(back["a"], tf.SparseTensor) and back["b"] == 1
    assert tf.nest.flatten(sp) == [sp]
    doubled = tf.nest.map_structure(lambda t: t, [sp], expand_composites=True)
    np.testing.assert_array_equal(doubled[0].values.numpy(), [1.0, 2.0])


def test_print_sparse(capsys):
    sp = tf.sparse.SparseTensor([[0, 1], [2, 3]], [-1.5, 2.0], [3, 4])
    text = "'SparseTensor(indices=[[0 1]\n [2 3]], values=[-1.5 2], shape=[3 4])'"
    tf.print("x", sp)
    assert capsys.readouterr().err == f"x {text}\n"

    @tf.function
    def f(s):
        tf.print(s)
        return tf.sparse.reduce_sum(s)

    f(sp)
    assert capsys.readouterr().err == text + "\n"      # TF 2.21 prints the same, quotes too


def test_sparse_and_ragged_out_of_a_tensor_if():
    @tf.function
    def f(x, sp):
        if x > 0:
            out = tf.sparse.map_values(tf.math.square, sp)
        else:
            out = tf.sparse.SparseTensor([[0, 0]], [9.0], [3, 5])
        assert out.shape.as_list() == [3, None]       # the branches' common shape
        return tf.sparse.to_dense(out)

    sp = tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.0, 2.0], [3, 4])
    # TF 2.21's values.
    assert f(tf.constant(1), sp).numpy().tolist() == [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
    assert f(tf.constant(-1), sp).numpy().tolist() == [[9, 0, 0, 0, 0], [0] * 5, [0] * 5]
    g = tf.function(lambda p: tf.cond(p, lambda: tf.ragged.constant([[1, 2], [3]]),
                                      lambda: tf.ragged.constant([[4], [5, 6]])))
    assert g(tf.constant(False)).to_list() == [[4], [5, 6]]
    with pytest.raises(TypeError, match="in the true branch but"):
        tf.function(lambda p: tf.cond(p, lambda: sp, lambda: tf.ones([3, 4])))(
            tf.constant(True))


def test_sparse_and_ragged_loop_variables():
    # TF 2.21's values. (TF itself refuses the first loop: its map_values loses
    # the static dense shape; ours keeps it, so the loop variable keeps its spec.)
    @tf.function
    def f(sp, n):
        i = tf.constant(0)
        while i < n:
            sp = tf.sparse.map_values(tf.math.multiply, sp, 2.0)
            i += 1
        return sp

    sp = tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.0, 2.0], [3, 4])
    out = f(sp, tf.constant(3))
    assert out.values.numpy().tolist() == [8.0, 16.0]
    assert out.dense_shape.numpy().tolist() == [3, 4]
    g = tf.function(lambda s: tf.while_loop(lambda i, s: i < 2,
                                            lambda i, s: (i + 1, tf.sparse.add(s, s)), [0, s]))
    i, s = g(sp)
    assert int(i) == 2 and s.values.numpy().tolist() == [4.0, 8.0]

    @tf.function
    def h(rt):
        for _ in tf.range(2):
            rt = rt * 3
        return rt

    assert h(tf.ragged.constant([[1, 2], [3]])).to_list() == [[9, 18], [27]]


def test_saved_model_takes_and_returns_composites(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda s: tf.sparse.reduce_sum(s, axis=1),
                      input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    m.g = tf.function(lambda x: tf.sparse.from_dense(x),
                      input_signature=[tf.TensorSpec([None, 2], tf.int32)])
    m.h = tf.function(lambda r: r * 2,
                      input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    sp = tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.0, 2.0], [3, 4])
    assert loaded.f(sp).numpy().tolist() == [1.0, 0.0, 2.0]
    out = loaded.g(tf.constant([[0, 1], [2, 0]]))
    assert isinstance(out, tf.SparseTensor)
    assert out.indices.numpy().tolist() == [[0, 1], [1, 0]]
    assert out.values.numpy().tolist() == [1, 2]
    assert loaded.h(tf.ragged.constant([[1, 2], [3]])).to_list() == [[2, 4], [6]]
    with pytest.raises(TypeError, match="must be a value of SparseTensorSpec"):
        loaded.f(tf.ones([2]))


def test_reduce_retracing_relaxes_a_composite_spec():
    # TF 2.21: 2 traces each, the second for SparseTensorSpec(TensorShape([3, None])).
    f = tf.function(lambda s: tf.sparse.reduce_sum(s), reduce_retracing=True)
    for n in [4, 5, 6]:
        f(tf.sparse.SparseTensor([[0, 1]], [1.0], [3, n]))
    assert f.experimental_get_tracing_count() == 2
    assert "SparseTensorSpec(TensorShape([3, None]), tf.float32)" in \
        f.pretty_printed_concrete_signatures()
    g = tf.function(lambda s: tf.sparse.reduce_sum(s))
    for n in [4, 5, 4]:
        g(tf.sparse.SparseTensor([[0, 1]], [1.0], [3, n]))
    assert g.experimental_get_tracing_count() == 2
    h = tf.function(lambda r: r * 2, reduce_retracing=True)
    for rows in ([[1], [2]], [[1], [2], [3]], [[1]] * 4):
        h(tf.ragged.constant(rows))
    assert h.experimental_get_tracing_count() == 2


def test_nest_assert_same_structure_expand_composites():
    sp = tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.0, 2.0], [3, 4])
    tf.nest.assert_same_structure(sp, sp, expand_composites=True)
    tf.nest.assert_same_structure(sp, tf.sparse.SparseTensor([[0]], [1.0], [3]),
                                  expand_composites=True)       # TF 2.21: same structure
    for other in (tf.ragged.constant([[1.0]]), tf.constant(1.0)):
        with pytest.raises(ValueError, match="don't have the same nested structure"):
            tf.nest.assert_same_structure(sp, other, expand_composites=True)


def test_op_and_graph_only_while_tracing():
    sp = tf.sparse.SparseTensor([[0, 1]], [1.0], [3, 4])
    with pytest.raises(AttributeError):
        sp.op
    seen = []

    @tf.function
    def f(s):
        seen.append((s.op is s.indices.op, s.graph is s.values.graph))
        return s.values

    f(sp)
    assert seen == [(True, True)]


_SYMBOLIC_OPS = {
    "to_dense": lambda s, t: tf.sparse.to_dense(s),
    "add": lambda s, t: tf.sparse.add(s, t),
    "concat": lambda s, t: tf.sparse.concat(1, [s, t]),
    "reduce_sum_sparse": lambda s, t: tf.sparse.reduce_sum(s, 1, output_is_sparse=True),
    "matmul": lambda s, t: tf.sparse.sparse_dense_matmul(s, tf.ones([4, 2])),
    "reshape": lambda s, t: tf.sparse.reshape(s, [2, -1]),
    "slice": lambda s, t: tf.sparse.slice(s, [1, 0], [2, 3]),
    "retain": lambda s, t: tf.sparse.retain(s, s.values > 0),
    "fill_empty_rows": lambda s, t: tf.sparse.fill_empty_rows(s, 0.0),
    "split": lambda s, t: tf.sparse.split(sp_input=s, num_split=2, axis=1),
    "transpose": lambda s, t: tf.sparse.transpose(s),
    "maximum": lambda s, t: tf.sparse.maximum(s, t),
    "softmax": lambda s, t: tf.sparse.softmax(s),
    "shape_size": lambda s, t: [tf.shape(s), tf.size(s), tf.rank(s)],
    "sets_union": lambda s, t: tf.sets.union(tf.cast(s, tf.int32), tf.cast(t, tf.int32)),
    "cross": lambda s, t: tf.sparse.cross([tf.cast(s, tf.int64), tf.cast(t, tf.int64)]),
}


@pytest.mark.parametrize("name", sorted(_SYMBOLIC_OPS))
def test_ops_on_sparse_arguments_of_unknown_shape(name):
    """Traced with SparseTensorSpec([None, None]) arguments (no static nnz or
    dense shape), each op gives what it gives eagerly (checked against TF above)."""
    sp = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2], [2, 3]], [1.0, -2.0, 3.0, 4.0], [3, 4])
    other = tf.sparse.SparseTensor([[0, 0], [1, 0], [2, 3]], [5.0, 2.0, 1.0], [3, 4])
    spec = tf.SparseTensorSpec([None, None], tf.float32)
    fn = _SYMBOLIC_OPS[name]
    traced = tf.function(fn, input_signature=[spec, spec])
    _same(serialize(traced(sp, other)), serialize(fn(sp, other)))
