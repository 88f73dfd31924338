"""Constructs on runtime tensors: list accumulation in staged loops, graph
asserts, builtin overloads, logical and conditional expressions (with
short-circuit evaluation kept), conditional return inside a tensor loop."""

import numpy as np
import pytest

from tests.autograph.corpus.constructs import binary_ones as numeric_truth
from tests.autograph.corpus.constructs import list_append_while as accumulate_while
from tests.autograph.equivalence import traced_order

import runtime as tf  # an import error must fail the module loudly


def accumulate_for(n):
    out = []
    for i in tf.range(n):
        out.append(i * 2)
    return out


@pytest.mark.parametrize("fn, n, expected", [
    (accumulate_for, 4, [0, 2, 4, 6]),
    (accumulate_while, 3, [0, 1, 2]),
])
def test_list_append_in_tensor_loop_is_stacked_after_it(fn, n, expected):
    f = tf.function(fn)
    result = f(tf.constant(n))
    assert result.dtype == tf.int32
    assert result.numpy().tolist() == expected
    assert f(tf.constant(1)).numpy().tolist() == expected[:1]       # same graph, new length
    assert f.experimental_get_tracing_count() == 1


def asserting(x):
    assert x > 0, "x must be positive"
    return x + 1


def test_assert_on_tensor_is_a_graph_assert():
    f = tf.function(asserting)
    assert f(tf.constant(2)).numpy() == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-2))
    assert f.experimental_get_tracing_count() == 1


def builtins_on_tensors(x, v):
    return (len(v), int(tf.cast(x, tf.float32) * 1.7), float(x), abs(-x), max(v), min(x, 3))


def test_builtins_on_tensors():
    results = tf.function(builtins_on_tensors)(tf.constant(3), tf.constant([1, 5, 2]))
    values = [r.numpy() if hasattr(r, "numpy") else r for r in results]
    assert [v.item() if hasattr(v, "item") else v for v in values] == [3, 5, 3.0, 3, 5, 3]
    assert [r.dtype.name for r in results[1:]] == ["int32", "float32", "int32", "int32", "int32"]


def enumerate_sum(v):
    s = 0
    for i, x in enumerate(v):
        s += i * x
    return s


def zip_dot(v, w):
    s = 0
    for a, b in zip(v, w):
        s += a * b
    return s


def logic(x, y):
    return (x > 0 and y > 0) or not (x < -5)


def guarded_division(x):
    return x > 0 and tf.math.floordiv(10, x) > 1


def nested_if_exp(x):
    return x * 2 if x > 0 else (x if x == 0 else -x)


def first_negative(v):
    for x in v:
        if x < 0:
            return x
    return 0


@pytest.mark.parametrize("fn, args", [
    (enumerate_sum, ([1, 2, 3],)), (enumerate_sum, ([],)),
    (zip_dot, ([1, 2, 3], [4, 5, 6])),
    (logic, (1, -1)), (logic, (-9, 1)), (logic, (2, 2)),
    (guarded_division, (0,)), (guarded_division, (3,)), (guarded_division, (20,)),
    (nested_if_exp, (-3,)), (nested_if_exp, (0,)), (nested_if_exp, (4,)),
    (first_negative, ([1, -2, 3],)), (first_negative, ([1, 2],)), (first_negative, ([],)),
    (numeric_truth, (13,)), (numeric_truth, (0,)),
])
def test_tensor_results_match_python(fn, args):
    expected = fn(*args)
    tensors = [tf.constant(np.array(a, dtype=np.int32)) for a in args]
    result = tf.function(fn)(*tensors)
    assert result.numpy().item() == expected


def test_short_circuit_right_side_runs_only_when_needed():
    calls = []

    def right():
        calls.append(1)
        return True

    import autograph

    def f(x):
        return x and right()
    g = autograph.to_graph(f)
    assert g(0) == 0 and calls == []
    assert g(1) is True and calls == [1]


def print_in_tensor_branches(x):
    if x > 0:
        print("positive branch")
        y = x
    else:
        print("negative branch")
        y = -x
    i = 0
    while i < x:
        print("loop body")
        i += 1
    return y + i


def test_python_print_runs_at_trace_time_both_branches_true_first(capsys):
    f = tf.function(print_in_tensor_branches)
    assert f(tf.constant(3)).numpy() == 6
    assert capsys.readouterr().out == "".join(traced_order("positive branch\n",
                                                           "negative branch\n")) + "loop body\n"
    assert f(tf.constant(-2)).numpy() == 2
    assert capsys.readouterr().out == ""


class Accumulator:
    def __init__(self):
        self.total = tf.constant(0)
        self.steps = 0

    def add_positive(self, x):
        if x > 0:
            self.total = self.total + x
        return self.total

    def add_range(self, n):
        for i in tf.range(n):
            self.total += i
        return self.total


def dict_update(x):
    d = {"a": x, "b": 0}
    if x > 2:
        d["a"] = x * 10
        d["b"] = 1
    return d["a"] + d["b"]


def test_attributes_and_subscripts_assigned_in_staged_code():
    acc = Accumulator()
    add = tf.function(acc.add_positive)
    assert add(tf.constant(3)).numpy() == 3
    assert add(tf.constant(-1)).numpy() == 0      # the graph reads the original total
    assert tf.function(Accumulator().add_range)(tf.constant(4)).numpy() == 6
    f = tf.function(dict_update)
    assert f(tf.constant(3)).numpy() == 31 and f(tf.constant(1)).numpy() == 1


def test_attribute_dtype_change_names_it():
    class Bad:
        def __init__(self):
            self.w = tf.constant(0)

        def step(self, x):
            if x > 0:
                self.w = tf.cast(x, tf.float32)
            return self.w
    with pytest.raises(TypeError, match=r"'self\.w'"):
        tf.function(Bad().step)(tf.constant(1))


def python_loop_tensor_break(x):
    s = 0
    for i in range(4):
        if x[i] > 2:
            break
        s += x[i]
    return s


def python_while_test_becomes_tensor(x):
    i = 0
    s = 0
    while s < 10:       # s starts as Python 0 and is a tensor after one step
        s = s + x
        i += 1
    return i


def python_loop_tensor_return(x):
    for i in range(3):
        if x[i] < 0:
            return i
    return -1


@pytest.mark.parametrize("fn, arg", [
    (python_loop_tensor_break, [1, 2, 3, 4]), (python_loop_tensor_break, [5, 1, 1, 1]),
    (python_loop_tensor_break, [1, 1, 1, 1]),
    (python_while_test_becomes_tensor, 3), (python_while_test_becomes_tensor, 20),
    (python_loop_tensor_return, [1, -1, 2]), (python_loop_tensor_return, [1, 1, 1]),
])
def test_python_loops_whose_jumps_depend_on_tensors(fn, arg):
    """An unrolled Python loop whose break/return flag becomes a tensor keeps
    unrolling with each later iteration guarded by a staged if; a Python while
    whose test becomes a tensor is staged from there on."""
    expected = fn(np.array(arg, np.int32) if isinstance(arg, list) else arg)
    assert tf.function(fn)(tf.constant(arg)).numpy() == expected
