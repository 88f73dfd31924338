"""Constructs on the JAX backend one by one: what they stage into, the types
JAX gives their results, and the errors (naming the user's variable and
line) where JAX cannot stage them."""

import contextlib
import io
import re

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
jnp = pytest.importorskip("jax.numpy")

import autograph
import autograph.jax
from tests.autograph.corpus.constructs import collatz


def jit(fn, **kwargs):
    return jax.jit(autograph.to_graph(fn), **kwargs)


def aval(x):
    return jax.typeof(x) if hasattr(jax, "typeof") else jax.core.get_aval(x)


# --- if and conditional expressions: types unified as JAX promotes ------------------

def int_or_float(x):
    if x > 0:
        y = 1
    else:
        y = 2.5
    return y


def python_int_or_array(x):
    y = 0 if x > 0 else x
    return y


def strong_dtypes_differ(x):
    if x > 0:
        y = jnp.int32(1)
    else:
        y = jnp.float32(2.0)
    return y


def shapes_differ(x):
    if x > 0:
        y = jnp.zeros(3)
    else:
        y = jnp.zeros(2)
    return y


def test_branch_outputs_take_the_promoted_dtype_and_weak_type():
    out = jit(int_or_float)(jnp.int32(1))
    assert float(out) == 1.0 and aval(out).dtype == jnp.float32 and aval(out).weak_type
    assert float(jit(int_or_float)(jnp.int32(-1))) == 2.5
    out = jit(python_int_or_array)(jnp.float32(-3.0))
    assert float(out) == -3.0 and aval(out).dtype == jnp.float32 and not aval(out).weak_type
    assert "cond[" in str(jax.make_jaxpr(autograph.to_graph(python_int_or_array))(1.0))


def test_branch_dtype_and_shape_mismatches_name_the_variable_and_line():
    with pytest.raises(TypeError, match=r"'y' has dtype int32 in the true branch but float32 "
                                        r"in the false branch.*test_jax_constructs.py:\d+: "
                                        r"if x > 0:"):
        jit(strong_dtypes_differ)(1)
    with pytest.raises(ValueError, match=r"'y' has shape \(3,\) in the true branch but \(2,\) "
                                         r"in the false branch.*if x > 0:"):
        jit(shapes_differ)(1)


# --- logical operators, comparisons -----------------------------------------------------

def logic(x, y):
    if (x > 0 and y > 0) or not x < -5:
        r = 1
    else:
        r = 2
    return r if 0 < x < 10 else r + 10


@pytest.mark.parametrize("x, y", [(1, 1), (1, -1), (-7, 3), (-2, 2), (12, 1)])
def test_and_or_not_and_chained_comparisons(x, y):
    assert int(jit(logic)(x, y)) == logic(x, y)


# --- loops ----------------------------------------------------------------------------

def traced_range(n, start):
    s = 0
    for i in range(start, n, 2):
        if i == 7:
            continue
        s += i
        if s > 40:
            break
    return s


def rows_with_return(xs):
    for i, row in enumerate(xs):
        if jnp.sum(row) < 0:
            return i
    return -1


def builtins_on_arrays(xs, ys):
    s = 0
    for a, b in zip(xs, ys):
        s += max(a, b) - min(a, b) + abs(a - b)
    return s + len(xs) + int(float(max(xs)) * 1.5) + min(ys)


def test_while_and_if_stage_into_while_and_cond():
    jaxpr = str(jax.make_jaxpr(autograph.to_graph(collatz))(27))
    assert "while[" in jaxpr and "cond[" in jaxpr
    assert int(jit(collatz)(27)) == 111


@pytest.mark.parametrize("n, start", [(0, 0), (5, 1), (20, 0), (30, 3)])
def test_range_with_traced_bounds_break_continue(n, start):
    assert int(jit(traced_range)(n, start)) == traced_range(n, start)


def test_return_inside_a_loop_over_rows():
    xs = np.array([[1, 2], [3, -9], [-5, 0]], np.int32)
    assert int(jit(rows_with_return)(xs)) == 1
    assert int(jit(rows_with_return)(np.abs(xs))) == -1


def test_len_min_max_abs_int_float_enumerate_zip():
    xs, ys = np.array([3, -1, 4], np.int32), np.array([2, 7, -3], np.int32)
    assert int(jit(builtins_on_arrays)(xs, ys)) == builtins_on_arrays(list(xs), list(ys))


def loop_promotes(x):
    s = 0
    i = 0
    while i < 3:
        s = s + x
        i += 1
    return s


def loop_changes_strong_dtype(x):
    s = jnp.int32(0)
    i = 0
    while i < x:
        s = s + 0.5 * x
        i += 1
    return s


def test_loop_variables_widen_as_python_would_and_refuse_strong_changes():
    out = jit(loop_promotes)(jnp.float32(1.5))
    assert float(out) == 4.5 and aval(out).dtype == jnp.float32
    with pytest.raises(TypeError, match=r"'s' has dtype int32 before the loop but float32 "
                                        r"after the loop body.*while i < x:"):
        jit(loop_changes_strong_dtype)(jnp.float32(2.0))


# --- lists ----------------------------------------------------------------------------

def stack_rows(xs):
    out = []
    for row in xs:
        out.append(row * 2)
        out.append(row + 1)
    return out


def test_appends_in_a_static_loop_stack():
    xs = np.arange(6, dtype=np.int32).reshape(3, 2)
    got = jit(stack_rows)(xs)
    np.testing.assert_array_equal(got, np.array(stack_rows(list(xs))))
    assert "scan[" in str(jax.make_jaxpr(autograph.to_graph(stack_rows))(xs))


# --- assert and print --------------------------------------------------------------------

def checked(x):
    assert x > 0, "x must be positive"
    return x * 2


def prints(x):
    print("tracing", x.shape)
    if x > 0:
        x = x - 1
    return x


def test_assert_on_a_traced_value_needs_checkify():
    with pytest.raises(TypeError, match=r"assert on a traced JAX value: x must be positive "
                                        r"\(.*assert x > 0.*\)\. .*checkify"):
        jit(checked)(3)
    f = autograph.jax.jit(checked, checkify=True)
    assert int(f(3)) == 6
    from jax.experimental import checkify
    with pytest.raises(checkify.JaxRuntimeError, match=r"x must be positive"):
        f(-1)


def test_print_runs_while_tracing_only():
    f = jit(prints)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert int(f(3)) == 2
        assert int(f(5)) == 4
    assert out.getvalue() == "tracing ()\n"


# --- the entry point -------------------------------------------------------------------

@autograph.jax.jit(static_argnums=1)
def power(x, n):
    r = jnp.eye(x.shape[0], dtype=x.dtype)
    for _ in range(n):
        r = x @ r
    return r


def test_entry_point_forwards_jit_arguments():
    x = jnp.asarray([[1, 1], [0, 1]], jnp.int32)
    np.testing.assert_array_equal(power(x, 5), np.linalg.matrix_power(np.asarray(x), 5))
    f = autograph.jax.jit(collatz, donate_argnums=0)
    assert int(f(jnp.int32(27))) == 111
    assert autograph.jax.jit(collatz).lower(27).compile() is not None


# --- len() and sum() of a list a JAX loop appends to: refused at the user's line -----

def len_of_appended_list(v):
    out = []
    x = 0
    for e in v:
        out.append(e)
        x = x + len(out)
    return x


def sum_of_appended_list(v):
    out = []
    x = 0
    for e in v:
        out.append(e)
        x = sum(out)
    return x


@pytest.mark.parametrize("fn,what,line", [
    (len_of_appended_list, "len", "x = x + len(out)"), (sum_of_appended_list, "sum", "x = sum(out)")])
def test_len_and_sum_of_an_appended_list_name_the_line(fn, what, line):
    with pytest.raises(TypeError, match=rf"{what}\(\) of a list being appended to in a JAX loop "
                                        rf"is not supported.*test_jax_constructs.py:\d+: "
                                        rf"{re.escape(line)}"):
        jit(fn)(jnp.arange(3))
