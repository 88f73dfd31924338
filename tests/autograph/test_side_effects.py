"""Python side effects inside staged statements.

A call that changes Python state inside a tensor `if` or loop runs while
tracing, as in TensorFlow: a loop body once, both branches of an `if` once
each (the true branch first). The first time each call site is traced, one
`autograph.SideEffectWarning` names the call, its file and line, the staged
statement and what the user observes. Strict side effects (the setting, or
`experimental_autograph_options={"strict_side_effects": True}`) refuse them
with a ValueError, as before. Every expected value marked "TF 2.21" was
printed by TensorFlow 2.21 running the same function.
"""

import re
import warnings

import pytest

import autograph
import runtime as tf
from tests.autograph.equivalence import traced_order


def _traced(fn, *args):
    """(result, [SideEffectWarning messages]) of tf.function(fn)(*args)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = tf.function(fn)(*args)
    return out, [str(w.message) for w in caught if w.category is autograph.SideEffectWarning]


# --- the loop body runs once per trace -------------------------------------------

LOG = []


def append_to_global_list(x):
    for i in x:
        LOG.append(i)
    return x


def test_list_append_in_a_tensor_loop_runs_once_and_warns_once():
    LOG.clear()
    f = tf.function(append_to_global_list)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = f(tf.constant([1, 2, 3]))
        f(tf.constant([4, 5, 6]))                    # same trace: nothing runs
        f(tf.constant([4.0, 5.0]))                   # a new trace: runs again
    # TF 2.21: [1 2 3]; len(l) == 1 after the first call, holding the loop's
    # symbolic element (<tf.Tensor 'while/TensorArrayV2Read/...' shape=() dtype=int32>);
    # still 1 after a second call with the same signature.
    assert out.numpy().tolist() == [1, 2, 3]
    assert len(LOG) == 2 and tf.is_tensor(LOG[0])
    assert "shape=()" in repr(LOG[0]) and "dtype=int32" in repr(LOG[0])
    messages = [str(w.message) for w in caught if w.category is autograph.SideEffectWarning]
    assert len(messages) == 1                        # one warning per call site
    w = [w for w in caught if w.category is autograph.SideEffectWarning][0]
    assert w.filename == __file__ and w.lineno == append_to_global_list.__code__.co_firstlineno + 2
    assert re.search(r"'LOG\.append\(i\)' \(.*test_side_effects\.py:\d+\) changes Python state "
                     r"inside a tensor for loop \(.*test_side_effects\.py:\d+: for i in x:\)",
                     messages[0]), messages[0]
    assert "once per trace, not once per iteration" in messages[0]
    assert "symbolic tensor" in messages[0]
    assert issubclass(autograph.SideEffectWarning, UserWarning)


# --- both branches run, true first ----------------------------------------------

BRANCHES = []


def log_both_branches(x):
    if x > 0:
        BRANCHES.append("true")
        y = x
    else:
        BRANCHES.append("false")
        y = -x
    return y


@pytest.mark.parametrize("x", [1, -1])
def test_both_branches_run_while_tracing_true_first(x):
    BRANCHES.clear()
    out, messages = _traced(log_both_branches, tf.constant(x))
    assert int(out) == abs(x)
    assert BRANCHES == traced_order("true", "false")  # TF 2.21: ['true', 'false']
    if x == 1:                                       # the first trace warns, per call site
        assert len(messages) == 2
        assert "both branches are traced (the true branch first)" in messages[0]
        assert "inside a tensor if statement" in messages[0] and "if x > 0:" in messages[0]
    else:
        assert messages == []


CONFIG = {"a": 1}


def update_in_branch(x):
    if x > 0:
        CONFIG.update(b=2)
    return x


def test_dict_update_in_a_tensor_if_runs():
    CONFIG.clear()
    CONFIG["a"] = 1
    out, messages = _traced(update_in_branch, tf.constant(-1))
    assert int(out) == -1
    assert CONFIG == {"a": 1, "b": 2}                # TF 2.21: {'a': 1, 'b': 2}
    assert len(messages) == 1 and "'CONFIG.update(b=2)'" in messages[0]


class StagedLog:
    """Stands for an object whose `insert` is a graph op (a lookup table)."""

    __autograph_staged_methods__ = ("insert",)

    def __init__(self):
        self.calls = 0

    def insert(self, value):
        self.calls += 1
        return value

    def clear(self):
        self.calls = 0


STAGED = StagedLog()
NAMES = ["a"]


def staged_and_plain_calls(x):
    while x > 0:
        STAGED.insert(x)
        STAGED.clear()
        NAMES.insert(0, "b")
        x -= 1
    return x


def test_methods_an_object_stages_are_not_reported():
    # `STAGED.insert` is declared staged (`__autograph_staged_methods__`); its
    # `clear`, and a list's `insert`, are Python changes and still warn.
    out, messages = _traced(staged_and_plain_calls, tf.constant(2))
    assert int(out) == 0
    assert len(messages) == 2
    assert "'STAGED.clear()'" in messages[0] and "'NAMES.insert(0, \"b\")'" in messages[1]


STACK = [1, 2, 3]
ITEMS = iter([10, 20, 30])


def pop_in_while(x):
    while x > 0:
        STACK.pop()
        x -= 1
    return x


def next_in_for(x):
    s = x
    for _ in tf.range(x):
        s += next(ITEMS)
    return s


def test_pop_and_next_run_once_per_trace():
    out, _ = _traced(pop_in_while, tf.constant(2))
    assert int(out) == 0 and STACK == [1, 2]         # TF 2.21: 0, [1, 2]
    out, messages = _traced(next_in_for, tf.constant(3))
    assert int(out) == 33 and list(ITEMS) == [20, 30]    # TF 2.21: 33, [20, 30]
    assert len(messages) == 1 and "'s += next(ITEMS)'" in messages[0]


class Counter:
    count = 0


COUNTER = Counter()
TOTAL = 0


def bump(o):
    o.count += 1


def add_to_total(v):
    global TOTAL
    TOTAL = TOTAL + 1


def count_with_helpers(x):
    s = 0
    for i in tf.range(x):
        bump(COUNTER)
        add_to_total(i)
        s += i
    return s


def test_helpers_writing_attributes_and_globals_run_once():
    global TOTAL
    COUNTER.count, TOTAL = 0, 0
    out, messages = _traced(count_with_helpers, tf.constant(5))
    assert int(out) == 10
    assert COUNTER.count == 1 and TOTAL == 1         # TF 2.21: 10, count 1, total 1
    assert len(messages) == 2
    assert re.search(r"'o\.count \+= 1' \(.*test_side_effects\.py:\d+\) in bump\(\), called at "
                     r"'bump\(COUNTER\)' \(.*test_side_effects\.py:\d+\), changes Python state "
                     r"inside a tensor for loop \(.*: for i in tf\.range\(x\):\)", messages[0]), \
        messages[0]
    assert re.search(r"'add_to_total\(i\)' \(.*test_side_effects\.py:\d+\) calls add_to_total\(\) "
                     r"\(.*test_side_effects\.py:\d+\), which rebinds the global or nonlocal "
                     r"'TOTAL', inside a tensor for loop", messages[1]), messages[1]


GLOBAL_N = 0


def rebind_global_in_loop(x):
    global GLOBAL_N
    for _ in tf.range(x):
        GLOBAL_N = GLOBAL_N + 1
    return x


def test_global_rebound_in_a_tensor_loop_holds_the_loop_output():
    out, messages = _traced(rebind_global_in_loop, tf.constant(3))
    # TF 2.21: returns 3; the global holds the loop's symbolic output
    # (Tensor("while:3", shape=(), dtype=int32)).
    assert int(out) == 3 and tf.is_tensor(GLOBAL_N)
    assert len(messages) == 1 and "'GLOBAL_N = GLOBAL_N + 1'" in messages[0]


# --- strict side effects: today's error ------------------------------------------

STRICT_LOG = []


def append_in_loop_strict(x):
    for i in x:
        STRICT_LOG.append(i)
    return x


def test_strict_setting_refuses_with_the_call_and_line():
    autograph.set_strict_side_effects(True)
    try:
        assert autograph.is_strict_side_effects()
        with pytest.raises(ValueError, match=r"'STRICT_LOG\.append\(i\)' \(.*test_side_effects\.py:"
                                             r"\d+\) changes Python state .* inside a tensor for "
                                             r"loop .*strict side effects are on"):
            tf.function(append_in_loop_strict)(tf.constant([1, 2]))
    finally:
        autograph.set_strict_side_effects(False)
    assert STRICT_LOG == []
    assert not autograph.is_strict_side_effects()


def test_strict_through_experimental_autograph_options():
    f = tf.function(append_in_loop_strict,
                    experimental_autograph_options={"strict_side_effects": True})
    with pytest.raises(ValueError, match=r"'STRICT_LOG\.append\(i\)'.*strict side effects are on"):
        f(tf.constant([1, 2]))
    assert STRICT_LOG == [] and not autograph.is_strict_side_effects()
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['stict'\]"):
        tf.function(append_in_loop_strict, experimental_autograph_options={"stict": True})(
            tf.constant([1]))


def test_warning_can_be_made_an_error_by_category():
    def local_effect(x):
        if x > 0:
            STRICT_LOG.append(1)
        return x
    with warnings.catch_warnings():
        warnings.simplefilter("error", autograph.SideEffectWarning)
        with pytest.raises(autograph.SideEffectWarning):
            tf.function(local_effect)(tf.constant(1))


# --- keys and attributes first set inside a tensor loop ---------------------------

def key_first_set_in_loop(n):
    d = {}
    for i in tf.range(n):
        d["k"] = i
    return d["k"]


class Box:
    pass


def attribute_first_set_in_loop(n):
    o = Box()
    i = 0
    while i < n:
        o.w = i * 2
        i += 1
    return o.w


def key_added_beside_an_existing_one(n):
    d = {"a": 1}
    for i in tf.range(n):
        d["k"] = i
        d["a"] = d["a"] + 1
    return d


def test_key_or_attribute_first_set_in_a_tensor_loop_is_traced():
    f = tf.function(key_first_set_in_loop)
    assert int(f(tf.constant(3))) == 2               # TF 2.21: 2
    # TF 2.21: InvalidArgumentError "loop must iterate at least once to initialize d['k']"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("must iterate at least once to define 'd['k']'")):
        f(tf.constant(0))
    g = tf.function(attribute_first_set_in_loop)
    assert int(g(tf.constant(3))) == 4               # TF 2.21: 4
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("must iterate at least once to define 'o.w'")):
        g(tf.constant(0))
    out = tf.function(key_added_beside_an_existing_one)(tf.constant(2))
    assert {k: int(v) for k, v in out.items()} == {"a": 3, "k": 1}    # TF 2.21


def test_key_first_set_in_a_tensor_loop_is_refused_in_strict_mode():
    autograph.set_strict_side_effects(True)
    try:
        with pytest.raises(ValueError, match=re.escape("'d['k']' is first set inside a tensor "
                                                       "loop")):
            tf.function(key_first_set_in_loop)(tf.constant(3))
    finally:
        autograph.set_strict_side_effects(False)


# --- a list the loop carries as a tensor list ---------------------------------------

def append_and_pop_in_loop(a, b):
    lst = [a % 97, b % 97]
    y = b
    i = 0
    while i < a:
        i = i + 1
        lst.append(a)
        if lst:
            y = lst.pop(0) % 97
    return y


def test_other_changes_to_a_list_the_loop_appends_to_are_refused_clearly():
    # TF 2.21 keeps `lst` a Python list changed once while tracing (it returns 1
    # here); we stage the appends (a TensorArray), which cannot pop: a clear
    # ValueError naming the statement, not "'ListInLoop' object has no attribute 'pop'".
    with pytest.raises(ValueError, match=r"'y = lst\.pop\(0\) % 97' \(.*test_side_effects\.py:"
                                         r"\d+\) changes the list 'lst' inside a tensor while "
                                         r"loop \(.*: while i < a:\), which carries it as a "
                                         r"tensor list"):
        tf.function(append_and_pop_in_loop)(tf.constant(1), tf.constant(2))
