"""`tf.autograph.experimental.set_loop_options` as the first statement(s) of
a loop body: the converter removes it and passes its arguments to the loop
operator as `opts`; a staged loop honours `maximum_iterations` and
`shape_invariants`; a Python loop ignores them. Also
`tf.autograph.experimental.Feature`, accepted where TensorFlow accepts it."""

import numpy as np
import pytest

import autograph
import runtime as tf
from autograph import backend as ag_backend
from autograph.experimental import Feature, set_loop_options


def counted_for(n):
    k = 0
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(maximum_iterations=3)
        k += 1
    return k


def counted_while(n):
    i = 0
    while i < n:
        set_loop_options(parallel_iterations=1, swap_memory=True)
        set_loop_options(maximum_iterations=4)
        i += 1
    return i


def growing():
    v = tf.constant((0,))
    for i in tf.range(3):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
    return v


def only_the_directive(n):
    i = 0
    for _ in range(n):
        set_loop_options(maximum_iterations=2)
    return i


def python_loop(n):
    k = 0
    for _ in range(n):
        set_loop_options(maximum_iterations=3)
        k += 1
    return k


def test_generated_code_passes_the_options():
    code = autograph.to_code(counted_while)
    assert "set_loop_options" not in code
    assert ("opts={'parallel_iterations': 1, 'swap_memory': True, "
            "'maximum_iterations': 4})") in code
    assert "opts={'maximum_iterations': 3})" in autograph.to_code(counted_for)
    assert "pass" in autograph.to_code(only_the_directive)


def test_maximum_iterations_stops_a_staged_loop():
    f = tf.function(counted_for)
    assert f(tf.constant(10)).numpy() == 3
    assert f(tf.constant(2)).numpy() == 2
    assert tf.function(counted_while)(tf.constant(10)).numpy() == 4


def test_shape_invariants_are_matched_to_the_loop_variable():
    np.testing.assert_array_equal(tf.function(growing)().numpy(), [0, 0, 1, 2])


def test_shape_invariants_must_be_pairs():
    def bad(n):
        k = 0
        for _ in tf.range(n):
            set_loop_options(shape_invariants=5)
            k += 1
        return k

    with pytest.raises(TypeError, match="shape_invariants must be a list of \\(variable, shape\\)"):
        tf.function(bad)(tf.constant(2))


def test_python_loops_ignore_them():
    assert autograph.to_graph(python_loop)(10) == 10
    assert tf.function(python_loop)(10).numpy() == 10
    assert set_loop_options(maximum_iterations=1) is None      # run as Python: nothing


def test_misplaced_directive_is_a_conversion_error():
    def late(n):
        k = 0
        while k < n:
            k += 1
            set_loop_options(maximum_iterations=2)
        return k

    def outside(n):
        set_loop_options(maximum_iterations=2)
        return n

    def unknown(n):
        while n > 0:
            set_loop_options(maximum_iteration=2)
            n -= 1
        return n

    with pytest.raises(autograph.ConversionError,
                       match="set_loop_options must be the first statement of a loop body "
                             r"\(.*test_loop_options.py:\d+: set_loop_options"):
        autograph.to_code(late)
    with pytest.raises(autograph.ConversionError, match="must be the first statement"):
        autograph.to_code(outside)
    with pytest.raises(autograph.ConversionError,
                       match="unknown option 'maximum_iteration'; the options are "
                             "parallel_iterations, swap_memory, maximum_iterations, "
                             "shape_invariants"):
        autograph.to_code(unknown)


class Box:
    def __init__(self, value):
        self.value = value

    def __lt__(self, other):
        return Box(self.value < getattr(other, "value", other))

    def __gt__(self, other):
        return Box(self.value > getattr(other, "value", other))

    def __add__(self, other):
        return Box(self.value + getattr(other, "value", other))

    __radd__ = __add__


class OptionsBackend(ag_backend.Backend):
    """Records the opts a staged loop passes (the interface other backends
    implement: while_loop(cond_fn, body_fn, loop_vars, names, opts=None))."""

    def __init__(self):
        self.opts = []

    def is_tensor(self, value):
        return isinstance(value, Box)

    def cond(self, pred, branches, names):
        raise NotImplementedError

    def while_loop(self, cond_fn, body_fn, loop_vars, names, opts=None):
        self.opts.append(opts)
        count = 0
        limit = (opts or {}).get("maximum_iterations")
        while cond_fn(*loop_vars).value and (limit is None or count < limit):
            loop_vars = body_fn(*loop_vars)
            count += 1
        return loop_vars


class OldBackend(OptionsBackend):
    """A backend written before opts existed."""

    def while_loop(self, cond_fn, body_fn, loop_vars, names):
        return super().while_loop(cond_fn, body_fn, loop_vars, names)


def plain_while(n):
    i = 0
    while i < n:
        i = i + 1
    return i


@pytest.mark.parametrize("backend_class", [OptionsBackend, OldBackend])
def test_backends_get_opts_only_when_given(backend_class):
    backend = backend_class()
    ag_backend.register_backend(backend)
    try:
        assert autograph.to_graph(plain_while)(Box(5)) == 5
        assert backend.opts == [None]
        if backend_class is OptionsBackend:
            assert autograph.to_graph(counted_while)(Box(9)) == 4
            assert backend.opts[-1] == {"parallel_iterations": 1, "swap_memory": True,
                                        "maximum_iterations": 4}
    finally:
        ag_backend.unregister_backend(backend)


# --- Feature ----------------------------------------------------------------------

def test_feature_has_tensorflows_members():
    assert [(m.name, m.value) for m in Feature] == [
        (n, n) for n in ("ALL", "AUTO_CONTROL_DEPS", "ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS",
                         "EQUALITY_OPERATORS", "LISTS", "NAME_SCOPES")]
    assert tf.autograph.experimental.Feature is Feature


def equal_zero(x):
    if x == 0:
        return x + 1
    return x


@pytest.mark.parametrize("features", [None, Feature.ALL, (Feature.EQUALITY_OPERATORS,),
                                      [Feature.LISTS, Feature.ASSERT_STATEMENTS]])
def test_optional_features_are_accepted(features):
    f = tf.function(equal_zero, experimental_autograph_options=features)
    assert f(tf.constant(0)).numpy() == 1 and f(tf.constant(3)).numpy() == 3
    assert autograph.to_graph(equal_zero, experimental_optional_features=features)(0) == 1
    assert "ag__.if_stmt" in autograph.to_code(equal_zero,
                                               experimental_optional_features=features)


@pytest.mark.parametrize("call, argument", [
    (lambda: tf.function(equal_zero, experimental_autograph_options="ALL"),
     "function: experimental_autograph_options"),
    (lambda: autograph.to_graph(equal_zero, experimental_optional_features=[1]),
     "to_graph: experimental_optional_features"),
    (lambda: autograph.to_code(equal_zero, experimental_optional_features=3),
     "to_code: experimental_optional_features"),
])
def test_other_values_are_a_type_error(call, argument):
    with pytest.raises(TypeError, match=f"{argument}: expected a "
                                        "tf.autograph.experimental.Feature or a list or tuple"):
        call()
