"""`for x in ds:` inside tf.function: one staged loop, checked against plain
Python iteration (the eager run of the equivalence check)."""

import numpy as np
import pytest

import runtime as tf
from autograph import to_code
from autograph.impl.report import report

D = tf.data.Dataset
DS = D.from_tensor_slices(np.array([3, 8, -2, 7, 10, 4, 1], np.int32))


def brk_cont(ds):
    s = tf.constant(0)
    for x in ds:
        if x > 9:
            break
        if x % 2 == 0:
            continue
        s += x
    return s


def early_return(ds):
    for x in ds:
        if x < 0:
            return x * 100
    return tf.constant(-1)


def nested_range(ds):
    s = tf.constant(0)
    for x in ds:
        for i in tf.range(tf.maximum(x, 0)):
            s += i
    return s


def appended(ds):
    out = []
    for x in ds:
        out.append(x * 2)
    return tf.stack(out)


def tensor_array(ds):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for x in ds:
        ta = ta.write(ta.size(), x + 1)
    return ta.stack()


def built_inside(x):
    total = tf.constant(0.0)
    for a, b in D.from_tensor_slices((x, x * 2.0)).map(lambda a, b: (a + 1.0, b)):
        total += a * b
    return total


def iter_next(ds):
    it = iter(ds)
    a = next(it)
    b = next(it)
    return a - b, ds.reduce(tf.constant(0), lambda s, v: s + v)


def loop_over_iterator(ds):
    it = iter(ds)
    first = next(it)
    s = first
    for x in it:
        s += x
    return s


CASES = [(brk_cont, (DS,)), (early_return, (DS,)), (nested_range, (DS,)), (appended, (DS,)),
         (tensor_array, (DS,)), (built_inside, (tf.constant([1.0, 2.0, 3.0]),)),
         (iter_next, (DS,)), (loop_over_iterator, (DS,)),
         (brk_cont, (D.range(0).map(lambda v: tf.cast(v, tf.int32)),))]


@pytest.mark.parametrize("fn,args", CASES, ids=[c[0].__name__ for c in CASES])
def test_staged_dataset_loop_is_equivalent_to_python(fn, args):
    rep = tf.debugging.check_equivalence(fn, *args)
    assert rep.eager.error is None and rep.graph.error is None, str(rep)
    rep.raise_if_different()


def test_python_values():
    xs = [3, 8, -2, 7, 10, 4, 1]
    assert tf.function(brk_cont)(DS).numpy() == sum(x for x in xs[:4] if x % 2)
    assert tf.function(early_return)(DS).numpy() == -200
    assert tf.function(nested_range)(DS).numpy() == sum(sum(range(max(x, 0))) for x in xs)


def test_the_loop_is_one_staged_while_and_runs_fresh_each_call():
    f = tf.function(brk_cont)
    assert f(DS).numpy() == f(DS).numpy() == 3 + 7
    graph = f.get_concrete_function(DS).graph
    kinds = [n.type for n in graph.nodes]
    assert kinds.count("DatasetIterator") == 1 and "While" in kinds
    assert f.experimental_get_tracing_count() == 1


def test_to_code_and_report_name_the_dataset_loop():
    f = tf.function(brk_cont)
    f(DS)
    assert "ag__.for_stmt(ds" in to_code(brk_cont)
    text = str(report(brk_cont))
    assert "for x in ds:" in text and "staged as a dataset loop" in text


def test_next_past_the_end_in_a_graph_is_out_of_range():
    @tf.function
    def f():
        it = iter(D.range(2))
        next(it)
        next(it)
        return next(it)
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        f()


def test_get_next_as_optional_and_maximum_iterations_in_a_graph():
    @tf.function
    def f():
        it = iter(D.range(1))
        first = it.get_next_as_optional()
        second = it.get_next_as_optional()
        return first.has_value(), first.get_value(), second.has_value()
    has1, value, has2 = f()
    assert bool(has1.numpy()) and value.numpy() == 0 and not bool(has2.numpy())

    @tf.function
    def capped(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            tf.autograph.experimental.set_loop_options(maximum_iterations=3)
            s += x
        return s
    assert capped(D.range(10, 20)).numpy() == 10 + 11 + 12


def test_infinite_dataset_with_break_and_take():
    @tf.function
    def first_over(ds, limit):
        for x in ds:
            if x > limit:
                return x
        return tf.constant(-1, tf.int64)
    assert first_over(D.range(3).repeat(), tf.constant(1, tf.int64)).numpy() == 2
    assert first_over(D.range(100).repeat().take(5), tf.constant(50, tf.int64)).numpy() == -1


def test_dataset_options_are_kept():
    options = tf.data.Options()
    options.deterministic = False
    ds = D.range(3).with_options(options)
    assert ds.options().deterministic is False and len(ds) == 3


def test_a_dataset_argument_traces_once_per_element_spec():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s
    assert total(D.range(3)).numpy() == 3 and total(D.range(10)).numpy() == 45
    assert total(D.range(4).map(lambda x: x * 2)).numpy() == 12
    assert total.experimental_get_tracing_count() == 1          # one DatasetSpec
    assert total(D.range(4).batch(2)).numpy().tolist() == [2, 4]
    assert total.experimental_get_tracing_count() == 2          # another element_spec
    cf = total.get_concrete_function(D.range(2))
    assert cf(D.range(5)).numpy() == 10
    assert "ds (POSITIONAL_OR_KEYWORD): DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, " \
        "name=None), TensorShape([]))" in total.pretty_printed_concrete_signatures()
    with pytest.raises(TypeError, match="expected a Dataset of DatasetSpec"):
        cf(D.range(5).map(lambda x: tf.cast(x, tf.int32)))


def test_a_captured_shuffled_dataset_reshuffles_at_each_call():
    # TF 2.21: a dataset captured by a tf.function starts a fresh iteration at each call,
    # and shuffle (reshuffle_each_iteration=True) gives another order each time
    ds = D.range(30).shuffle(30, seed=4)

    @tf.function
    def order():
        out = []
        for x in ds:
            out.append(x)  # staged: a tensor list
        return tf.stack(out)
    a, b = order().numpy().tolist(), order().numpy().tolist()
    assert sorted(a) == sorted(b) == list(range(30)) and a != b


def test_enumerate_over_a_dataset_in_a_graph_says_what_to_write():
    @tf.function
    def f(ds):
        s = tf.constant(0, tf.int64)
        for i, x in enumerate(ds):
            s += i * x
        return s
    with pytest.raises(TypeError, match=r"write `for i, x in ds.enumerate\(\):`"):
        f(D.range(4))

    captured = D.range(4)

    @tf.function
    def g():
        s = tf.constant(0, tf.int64)
        for i, x in captured.enumerate():
            s += i * x
        return s, len(captured)               # a captured dataset's length is static
    assert [int(v) for v in g()] == [14, 4]
