"""Regression tests of converted code's exactness beyond test_exactness.py: calls and lists
(`lst.append` in closures, enumerate/zip over tensors, lists in tensor
loops), class statements and a user name `ag__` inside converted functions,
`and`/`or` with a tensor on the left, and returns inside loops and `try`.
Each case runs four ways where tensors apply (see equivalence.py)."""

import re

import pytest

import autograph
from tests.autograph.equivalence import check

import runtime as tf  # an import error must fail the module loudly


@pytest.fixture(autouse=True)
def _strict_side_effects():
    """Exactness: Python side effects in staged statements are refused
    (strict), see test_side_effects.py for the default (TensorFlow's)."""
    autograph.set_strict_side_effects(True)
    yield
    autograph.set_strict_side_effects(False)


# --- lst.append in a nested function ------------------------------------------
def closure_appends_nonlocal(n):
    log = []

    def record(v):
        nonlocal log
        log.append(v)
    for i in range(n):
        record(i)
    return log


def closure_with_own_list(n):
    log = []

    def record(v):
        mine = []
        mine.append(v)
        log.append(mine)
    for i in range(n):
        record(i)
    return log


def test_append_in_closures_uses_the_right_list():
    assert check(closure_appends_nonlocal, (3,))[1] == [0, 1, 2]
    assert check(closure_with_own_list, (2,))[1] == [[0], [1]]


def test_append_to_enclosing_list_is_not_rebound_in_the_closure():
    code = autograph.to_code(closure_with_own_list)
    assert "mine = ag__.list_append(mine, v)" in code
    assert "log.append(mine)" in code


# --- enumerate / zip over tensors ----------------------------------------------
def zip_of_enumerate(u, v):
    s = 0
    for (i, a), b in zip(enumerate(u), v):
        s += i * a * b
    return s


def enumerate_zip_start(u, v):
    s = 0
    for i, (a, b) in enumerate(zip(u, v), 1):
        s += i * a * b
    return s


@pytest.mark.parametrize("fn", [zip_of_enumerate, enumerate_zip_start], ids=lambda f: f.__name__)
def test_enumerate_and_zip_nest(fn):
    check(fn, ([1, 2, 3], [4, 5, 6]), ([1, 2, 3], [4, 5, 6]))


# --- class statements -------------------------------------------------------------
def class_in_loop(x, n):
    base = 10
    for i in range(n):
        class K:
            scale = base

            def get(self):
                return self.scale + i

            class Inner:
                w = 2
        x = x + K().get() * K.Inner.w
    return x


def class_with_base_and_super(x):
    class Base:
        def f(self):
            return 1

    class Child(Base):
        def f(self):
            return super().f() + 1
    if x > 0:
        x = x + Child().f()
    return x


@pytest.mark.parametrize("fn", [class_in_loop, class_with_base_and_super], ids=lambda f: f.__name__)
def test_class_statements_run_as_written(fn):
    args = (1, 3) if fn is class_in_loop else (2,)
    check(fn, args, args)


def test_class_statement_is_left_as_written_in_to_code():
    code = autograph.to_code(class_in_loop)
    assert "class K:\n" in code and "class Inner:\n" in code
    assert "return self.scale + i\n" in code


def test_class_in_one_tensor_branch_is_an_error_naming_it():
    def f(x):
        if x > 0:
            class A:
                v = 1
        else:
            class A:
                v = 2
        return x + A.v
    assert check(f, (1,))[1] == 2
    with pytest.raises(TypeError, match="'A' in the true branch"):
        tf.function(f)(tf.constant(1))


# --- the name ag__ ------------------------------------------------------------------
def param_named_ag(ag__, x):
    """A docstring stays first."""
    while x < 10:
        x = x + ag__
    return x, locals()["ag__"]


def _closure_named_ag():
    ag__ = 5

    def inner(x):
        if x > 0:
            x = x + ag__
        return x
    return inner


closure_named_ag = _closure_named_ag()


def ag_in_class_and_strings(x):
    ag__ = "ag__"

    class C:
        ag__ = 4
    if x > 0:
        x = x + C.ag__ + len(ag__)
    return x


def test_user_name_ag():
    check(param_named_ag, (3, 1), (3, 1))
    for x in (2, -2):
        check(closure_named_ag, (x,), (x,))
        check(ag_in_class_and_strings, (x,), (x,))
    assert param_named_ag.__doc__ == autograph.to_graph(param_named_ag).__doc__
    code = autograph.to_code(param_named_ag)
    assert re.search(r'"""A docstring stays first."""\n\s+from autograph import operators as ag__1',
                     code), code
    assert "ag__1.while_stmt(" in code and "x = x + ag__\n" in code


def test_user_name_ag_in_errors():
    def f(x):
        if x > 0:
            ag__ = 1
        return ag__
    with pytest.raises(ValueError, match="'ag__' must also be initialized in the else branch"):
        tf.function(f)(tf.constant(1))


def test_ordinary_code_imports_nothing():
    code = autograph.to_code(class_in_loop)
    assert code.count("from autograph import operators as ag__\n") == 1
    assert "ag__1" not in code


# --- returns inside tensor loops and inside try ---------------------------------
def while_returns_nested_tuple(x, n):
    i = 0
    while i < n:
        if i > 2:
            return (x, (i, x * 2))
        i += 1
    return (-x, (n, x))


def returns_different_structures(x, n):
    for i in range(n):
        if i > 2:
            return x, i, 1
    return x, n


@pytest.mark.parametrize("n", [2, 5])
def test_tuple_returns_inside_tensor_loops(n):
    check(while_returns_nested_tuple, (1.0, n), (1.0, n))


def test_returns_of_different_structures_are_an_error_naming_the_line():
    # TF 2.21: TypeError "'retval_' must have the same nested structure in the
    # main and else branches"
    with pytest.raises(TypeError, match=r"'the return value' must have the same nested structure "
                                        r"in the main and else branches.*:\d+: return x, n\)"):
        tf.function(returns_different_structures)(tf.constant(1.0), tf.constant(5))


def raises_value_error():
    raise ValueError("no")


def return_in_nested_try(x):
    try:
        try:
            return raises_value_error()
        except KeyError:
            return -1
    except ValueError:
        pass
    if x > 0:
        try:
            return raises_value_error()
        except ValueError:
            x = x + 10
    return x


def return_in_except(x):
    try:
        raise KeyError(x)
    except KeyError:
        try:
            return raises_value_error()
        except ValueError:
            return 7


@pytest.mark.parametrize("x", [1, -1])
def test_return_value_raising_inside_try_does_not_return(x):
    check(return_in_nested_try, (x,), (x,))
    check(return_in_except, (x,))


# --- and / or with a tensor on the left -------------------------------------------
def and_bool_python_number(n):
    return (n < 100) and 7


def or_bool_python_number(n):
    return (n > 100) or 7


@pytest.mark.parametrize("fn", [and_bool_python_number, or_bool_python_number],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [3, 300])
def test_bool_tensor_and_python_number_is_refused_as_in_tensorflow(fn, n):
    check(fn, (n,))                     # Python values: the deciding operand
    assert fn(tf.constant(n)) == fn(n)  # eager tensors: Python semantics
    op = "and" if fn is and_bool_python_number else "or"
    with pytest.raises(TypeError, match=rf"'{op}' with a boolean tensor on the left and the "
                                        r"Python number 7 .*test_exactness_calls.py:\d+: "
                                        rf"return \(n [<>] 100\) {op} 7\)"):
        tf.function(fn)(tf.constant(n))


def and_or_same_dtype(x, y):
    return (x > 0) and (y > 0) or (x < -5)


def int_and_number(x):
    return x and 7


def or_python_bool(x):
    return (x > 0) or True


@pytest.mark.parametrize("x", [-9, -1, 0, 2])
def test_and_or_give_the_deciding_operand_when_dtypes_agree(x):
    check(and_or_same_dtype, (x, 1), (x, 1))
    check(and_or_same_dtype, (x, -1), (x, -1))
    check(int_and_number, (x,), (x,))
    check(or_python_bool, (x,), (x,))


def test_and_of_tensors_of_different_dtypes_names_the_line():
    def f(x):
        return (x > 0) and tf.constant(7)
    with pytest.raises(TypeError, match=r"'and' has dtype int32 in the true branch but bool"
                                        r".*return \(x > 0\) and tf.constant\(7\)\)"):
        tf.function(f)(tf.constant(1))


def test_stateful_right_operands_run_only_when_needed():
    v = tf.Variable(0)

    def f(x):
        return ((x > 0) and v.assign_add(1) > 0) or v.assign_add(10) > 100

    g = tf.function(f)
    assert bool(g(tf.constant(-1))) is False and int(v.numpy()) == 10     # or's right only
    assert bool(g(tf.constant(1))) is True and int(v.numpy()) == 11       # and's right only


# --- lists appended to in tensor loops -------------------------------------------
def len_while_appending(n):
    lst = []
    i = 0
    while i < n:
        lst.append(i * 2)
        if len(lst) >= 3:
            break
        i += 1
    return len(lst), lst


def appends_after_loops(n):
    lst = []
    for i in range(n):
        lst.append(i)
    lst.append(99)
    for j in range(n):
        lst.append(j * 10)
    lst.append(-1)
    return lst


def tuples_appended(n):
    lst = [(7, 8)]
    for i in range(n):
        lst.append((i, i * 2))
    return lst


def alias_after_the_loop(n):
    lst = []
    for i in range(n):
        lst.append(i)
    m = lst
    return len(m)


@pytest.mark.parametrize("fn", [len_while_appending, appends_after_loops, tuples_appended,
                                alias_after_the_loop], ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [1, 4])
def test_lists_appended_in_tensor_loops_give_python_results(fn, n):
    from tests.autograph.equivalence import plain
    check(fn, (n,))
    got = plain(tf.function(fn)(tf.constant(n)))
    want = plain(fn(n))
    if fn is tuples_appended:
        want = [list(t) for t in want]
    assert got == want


def mixed_dtype_tuples(x, n):
    lst = []
    for i in range(n):
        lst.append((x, i))
    return lst


def test_tensor_list_of_mixed_dtypes_is_an_error_naming_it():
    with pytest.raises(TypeError, match=r"'lst' is appended to in a tensor for loop.*"
                                        r"test_exactness_calls.py:\d+: for i in range\(n\).*"
                                        r"mixing float32, int32"):
        tf.function(mixed_dtype_tuples)(tf.constant(1.0), tf.constant(3))


def test_append_to_a_scalar_tensor_names_the_line():
    def f(x):
        t = x * 2
        t.append(1)
        return t
    with pytest.raises(TypeError, match=r"cannot append to a scalar tensor.*"
                                        r"test_exactness_calls.py:\d+: t.append\(1\)\)"):
        tf.function(f)(tf.constant(1))


def alias_before_the_loop(n):
    lst = []
    box = {"items": lst}
    for i in range(n):
        lst.append(i)
    return len(box["items"])


@pytest.mark.parametrize("fn", [alias_before_the_loop], ids=lambda f: f.__name__)
def test_appending_to_an_aliased_list_in_a_tensor_loop_is_refused(fn):
    assert check(fn, (3,))[1] == 3
    with pytest.raises(ValueError, match=r"'lst.append\(i\)' \(.*test_exactness_calls.py:\d+\)"):
        tf.function(fn)(tf.constant(3))


def test_aliased_lists_are_appended_in_place():
    code = autograph.to_code(alias_before_the_loop)
    assert "lst.append(i)" in code and "list_append" not in code
    code = autograph.to_code(alias_after_the_loop)
    assert "lst = ag__.list_append(lst, i)" in code
