"""Programs differential fuzzers found (tests/autograph/fuzz_found/), run four
ways (equivalence.check: plain Python, converted on Python values, eagerly
on tensors, traced by runtime.function), with TensorFlow 2.21's recorded
results; and the class of bug they showed: a name conversion adds (a jump
flag: continue_, break_, do_return; the return slot retval_) never becomes
a loop's state that a first iteration must define, so it never reaches a
user's error."""

import pytest

import autograph
import runtime as tf
from tests.autograph.equivalence import check
from tests.autograph.fuzz_found import continue_flag


# TF 2.21's recorded values: tf.function(f)(tf.constant(a), tf.constant(b)),
# the same as plain Python's f(a, b). (9, -72): the `while i0` loop runs
# zero times; the others run it, and the `for j0` loop with its continues.
FLAG_F = {
    (9, -72): (0, {"k0": -3, "k1": -2}, {"a0": 9, "a1": -9, "a3": 7}),
    (-7, 5): (6, {"k0": -3, "k1": -7}, {"a0": 35, "a1": -9, "a3": 7}),
    (-8, -3): (6, {"k0": -981, "k1": -2}, {"a0": 74, "a1": -9, "a3": 7}),
    (-12, 40): (0, {"k0": -3, "k1": -2}, {"a0": 76, "a1": -9, "a3": 7}),
    (-6, -1): (6, {"k0": 132, "k1": -2}, {"a0": 76, "a1": -9, "a3": 7}),
    (0, 0): (0, {"k0": -3, "k1": -2}, {"a0": 0, "a1": -9, "a3": 7}),
}
# TF 2.21's recorded values of the helper g alone.
FLAG_G = {(9, -72): 0, (4, 11): 6, (-5, 3): 2, (0, 0): 0, (7, 1): 1}


@pytest.mark.parametrize("args", sorted(FLAG_F))
def test_fuzz_found_program_runs_four_ways_with_tf_values(args):
    expected = check(continue_flag.f, args, args)
    assert expected[:2] == ("ok", FLAG_F[args])
    graph = tf.function(continue_flag.f)(*(tf.constant(x) for x in args))
    assert graph[0].dtype == tf.int32 and graph[1]["k0"].dtype == tf.int32


@pytest.mark.parametrize("args", sorted(FLAG_G))
def test_fuzz_found_helper_runs_four_ways_with_tf_values(args):
    assert check(continue_flag.g, args, args)[:2] == ("ok", FLAG_G[args])


def test_continue_flag_is_no_state_of_the_outer_loop():
    """vars(o) reads an object, not the namespace: nothing is made live by
    it, and the continue_ flag lives in the for body alone."""
    code = autograph.to_code(continue_flag.f)
    assert "Undefined('continue_')" not in code
    assert "'continue_', 'i0'" not in code
    # j0, j1 and i1 are not read after the loops
    assert "(i0, x1), ('i0', 'x1')" in code


# --- the class: a function that reads its namespace (locals()) ------------------
# Every local is live there, yet a jump flag stays out of the loops around
# the loop it belongs to.

def continue_in_for_in_while(a, b):
    x = 0
    j = 0
    i = 3
    while i > a:
        i = i - 1
        for j in range(a % 2):
            if b > 0:
                x += 1
                continue
            x += 3
    return x, len(locals())


def break_in_for_in_while(a, b):
    x = 0
    j = 0
    i = 3
    while i > a:
        i = i - 1
        for j in range(a % 3):
            if j + b > 1:
                break
            x += j + 1
    return x, len(locals())


def return_in_for_in_while(a, b):
    x = 0
    j = 0
    i = 3
    while i > a:
        i = i - 1
        for j in range(a % 3):
            if j + b > 4:
                return x + 100, len(locals())
            x += j + 1
    return x, len(locals())


# Python's values: locals() holds a, b, i, j and x. TF 2.21 gives the same x
# (and refuses the return inside a tensor loop), but its locals() also lists
# its generated names (do_return, continue__1, loop_body_1, ...: see
# docs/tf_differences.md).
NAMESPACE_CASES = [
    (continue_in_for_in_while, (9, -72), (0, 5)),
    (continue_in_for_in_while, (-3, 1), (6, 5)),
    (continue_in_for_in_while, (-3, -1), (18, 5)),
    (break_in_for_in_while, (9, 0), (0, 5)),
    (break_in_for_in_while, (-4, 0), (21, 5)),
    (break_in_for_in_while, (-4, 1), (7, 5)),
    (return_in_for_in_while, (9, 0), (0, 5)),
    (return_in_for_in_while, (-4, 4), (101, 5)),
]


@pytest.mark.parametrize("fn, args, want", NAMESPACE_CASES,
                         ids=[f"{c[0].__name__}{c[1]}" for c in NAMESPACE_CASES])
def test_flags_of_a_namespace_reading_function_are_no_loop_state(fn, args, want):
    assert check(fn, args, args)[:2] == ("ok", want)
    code = autograph.to_code(fn)
    for flag in ("continue_", "break_", "do_return"):
        assert f"Undefined('{flag}')" not in code


def loop_target_read_by_locals(a, b):
    x = 0
    i = 3
    while i > a:
        i = i - 1
        for j in range(a % 2):
            if b > 0:
                x += 1
                continue
            x += 3
    return x, sorted(locals())


def test_a_refusal_names_the_users_variable_not_a_flag():
    """j is read by locals() after a loop that may not bind it: the staged
    loop must run once to define it (TensorFlow's rule for a name first set
    in a loop); the message names j alone, never the loop's continue_ flag."""
    assert loop_target_read_by_locals(9, -72) == (0, ["a", "b", "i", "x"])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.function(loop_target_read_by_locals)(tf.constant(9), tf.constant(-72))
    message = str(e.value)
    assert "the loop must iterate at least once to define 'j'" in message
    assert "continue_" not in message


def test_vars_and_dir_of_an_object_read_no_local():
    """vars(o) / dir(o) name an object's attributes; only vars() and dir()
    without an argument read the namespace."""
    import gast

    from autograph.pyct.static_analysis import activity

    def calls(src):
        return [n for n in gast.walk(gast.parse(src)) if isinstance(n, gast.Call)]
    assert not activity.reads_namespace(calls("vars(o)\ndir(o)\nvars(object=o)"))
    for src in ("vars()", "dir()", "locals()", "eval('x')", "exec('y = 1')"):
        assert activity.reads_namespace(calls(src)), src


# --- the class: names a staged statement in a `try` binds ----------------------

def continue_under_try(a):
    x = 0
    i = 0
    try:
        while i < a:
            i += 1
            for j in range(a % 3):
                if j > 0:
                    x += 2
                    continue
                x += j
    except ValueError:
        pass
    return x


def break_under_try(a):
    x = 0
    i = 0
    try:
        while i < a:
            i += 1
            for j in range(a % 3):
                if j > 1:
                    x += 2
                    break
                x += j
    except ValueError:
        x = -1
    return x


# TF 2.21's recorded values of tf.function(fn)(tf.constant(a)) (Python's too).
TRY_CASES = [(continue_under_try, 0, 0), (continue_under_try, 5, 10),
             (break_under_try, 0, 0), (break_under_try, 5, 5)]


@pytest.mark.parametrize("fn, a, want", TRY_CASES,
                         ids=[f"{c[0].__name__}({c[1]})" for c in TRY_CASES])
def test_flags_and_unread_targets_under_try_are_no_loop_state(fn, a, want):
    """Names a staged loop inside `try` binds are shared with the handlers
    only when the handlers, `finally` or the code after read them: not the
    loop's flags, nor the target j nothing reads (before, a loop that ran
    zero times raised "must iterate at least once to define 'continue_', 'j'")."""
    assert check(fn, (a,), (a,))[:2] == ("ok", want)


def return_aborted_by_finally(xs):
    try:
        for x in xs:
            try:
                return x
            finally:
                if x > 0:
                    raise ValueError
    except ValueError:
        pass
    return -1


def test_a_return_a_finally_aborts_leaves_no_flag_behind():
    """The exception replaces the return, and the function goes on after
    the handler: Python returns -1 (TF 2.21's autograph returns 1 here, the
    aborted return's value). The do_return flag is the loop's state, so the
    aborted iteration leaves it unset."""
    assert check(return_aborted_by_finally, ([1, 2],)) == ("ok", -1, "", [[1, 2]])
    assert check(return_aborted_by_finally, ([0, 2],))[:2] == ("ok", 0)


def locals_in_staged_if(a):
    x = 0
    n = 0
    if a > 0:
        x = 1
        n = len(locals())
    return x, n


def test_locals_in_a_staged_body_shows_the_users_names_only():
    """locals() inside a body a tensor `if` stages looks outward past the
    operators' and the backend's frames (the runtime's cond has locals of
    its own) to the user's function: a, x and n, as in Python."""
    assert check(locals_in_staged_if, (2,), (2,))[:2] == ("ok", (1, 3))
    assert check(locals_in_staged_if, (-2,), (-2,))[:2] == ("ok", (0, 0))


# --- a slot of an object a staged branch creates ------------------------------------

class Box:
    pass


def object_made_in_one_branch(a):
    o = Box()
    o.b = 0
    if a > 0:
        nb = Box()
        nb.c = a
        o.b = nb.c
    return o.b, nb.c


def test_a_slot_of_an_object_one_branch_makes_is_a_clear_refusal():
    """nb exists after the if on one path only: the staged if refuses it by
    name (TF 2.21 fails inside its generated code instead: AttributeError
    "'Undefined' object has no attribute 'c'"); restoring the slot nb.c of
    the nb not yet bound raised UnboundLocalError before."""
    assert check(object_made_in_one_branch, (2,))[:2] == ("ok", (2, 2))
    for a in (2, -2):
        with pytest.raises(ValueError, match="'nb' must also be initialized in the else branch"):
            tf.function(object_made_in_one_branch)(tf.constant(a))
