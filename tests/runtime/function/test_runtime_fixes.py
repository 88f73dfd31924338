"""Runtime fixes: run-time kernel errors name the user's line, TensorArray as
an autograph loop variable, methods bound on temporary instances, numpy
ufuncs / partials / callable objects / builtins given to `function`.

Where it applies, each case runs three ways: the original Python function
(eager tensors), the autograph-converted function, and the traced graph.
"""

import functools
import gc
import inspect
import weakref

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

THIS_FILE = __file__


def _line_of(fn, marker):
    """The file line number of the line of `fn` containing `marker`."""
    lines, start = inspect.getsourcelines(fn)
    for offset, text in enumerate(lines):
        if marker in text:
            return start + offset
    raise AssertionError(f"{marker!r} not in {fn.__name__}")


def _three_ways(fn, *args):
    """Results of the original, the converted function and the traced graph."""
    converted = tf.autograph.to_graph(fn)
    return fn(*args), converted(*args), tf.function(fn)(*args)


def _load(tmp_path, name, source):
    """Functions defined in a real file of their own (pytest rewrites the
    `assert` statements of test modules, so those are not the source's code)."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    namespace = {"tf": tf}
    exec(compile(source, str(path), "exec"), namespace)  # test source
    return namespace, str(path)


def _run_error(fn, *args):
    with pytest.raises(InvalidArgumentError) as info:
        tf.function(fn)(*args)
    return info.value


# --- 1. run-time kernel errors name the op and the user's line ----------------------

def gather_in_branch(x, i):
    if x > 0:
        y = tf.gather(x * tf.ones([3]), i)   # BRANCH
    else:
        y = x
    return y


def gather_top(x, i):
    return tf.gather(x, i)   # TOP


def gather_in_loop(x, n):
    s = tf.constant(0.0)
    for i in tf.range(n):
        s = s + tf.gather(x, i)   # LOOP
    return s


def gather_in_nested_loop(x, n):
    s = tf.constant(0.0)
    i = tf.constant(0)
    while i < n:
        for j in tf.range(i + 1):
            if j >= 0:
                s = s + tf.gather(x, j)   # NESTED
        i += 1
    return s


@pytest.mark.parametrize("fn, marker, args, index, size", [
    (gather_in_branch, "# BRANCH", (1.0, 7), 7, 3),
    (gather_top, "# TOP", ([1.0, 2.0], 7), 7, 2),
    (gather_in_loop, "# LOOP", ([1.0, 2.0], 5), 2, 2),
    (gather_in_nested_loop, "# NESTED", ([1.0, 2.0], 5), 2, 2),
], ids=["branch", "top", "loop-body", "nested-loop"])
def test_kernel_error_names_op_and_user_line(fn, marker, args, index, size):
    tensors = [tf.constant(a) for a in args]
    error = _run_error(fn, *tensors)
    message = str(error)
    line = _line_of(fn, marker)
    assert message.startswith(f"GatherV2: indices[] = {index} is not in [0, {size})")
    assert f"(at {THIS_FILE}:{line}: " in message
    assert "tf.gather(" in message.splitlines()[-1]
    assert message.count(f"{THIS_FILE}:{line}") == 1
    assert error.op_name.startswith("GatherV2")
    # The original Python (eager) and the converted function fail the same way.
    with pytest.raises(InvalidArgumentError, match=r"is not in \[0, "):
        fn(*tensors)
    with pytest.raises(InvalidArgumentError, match=r"is not in \[0, "):
        tf.autograph.to_graph(fn)(*tensors)


def test_kernel_error_graph_still_works_after_failure():
    f = tf.function(gather_in_branch)
    with pytest.raises(InvalidArgumentError):
        f(tf.constant(1.0), tf.constant(7))
    assert f(tf.constant(2.0), tf.constant(1)).numpy() == pytest.approx(2.0)
    assert f(tf.constant(-2.0), tf.constant(9)).numpy() == pytest.approx(-2.0)
    assert f.experimental_get_tracing_count() == 1


def test_kernel_error_in_deeply_nested_branches_located_once(tmp_path):
    # Deeper than the code generator inlines: the inner If runs as a kernel.
    src = "def deep(x, i):\n    y = x\n"
    indent = "    "
    for k in range(10):
        src += f"{indent}if x > {k - 100}:\n"
        indent += "    "
    src += f"{indent}y = tf.gather(x * tf.ones([3]), i)\n    return y\n"
    namespace, path = _load(tmp_path, "deep_branches", src)
    error = _run_error(namespace["deep"], tf.constant(1.0), tf.constant(7))
    message = str(error)
    assert message.count(f"{path}:13") == 1
    assert message.startswith("GatherV2: indices[] = 7 is not in [0, 3)")
    assert f"(at {path}:13: y = tf.gather(x * tf.ones([3]), i))" in message


def test_failing_assert_message_is_not_located_twice(tmp_path):
    namespace, path = _load(tmp_path, "asserting", (
        "def check(x):\n"
        "    assert x > 0, 'x must be positive'\n"
        "    return x\n"))
    error = _run_error(namespace["check"], tf.constant(-1))
    assert str(error).startswith("assertion failed: [x must be positive")
    assert str(error).count(f"(at {path}:2)") == 1
    assert str(error).count(f"{path}:2") == 2      # the assert's text, then where


def test_py_function_error_is_located_at_the_py_function_call():
    def bad(x):
        raise_from_numpy = np.asarray(x)[5]
        return raise_from_numpy

    def f(x):
        return tf.py_function(bad, [x], tf.int32)   # PYFUNC
    error = _run_error(f, tf.constant([1, 2]))
    assert f"{THIS_FILE}:{_line_of(f, '# PYFUNC')}" in str(error)
    assert "IndexError" in str(error)


# --- 2. TensorArray as an autograph loop variable --------------------------------

def ta_for(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        a = a.write(i, i * 2)
    return a.stack()


def ta_while(n):
    a = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    i = tf.constant(0)
    while i < n:
        a = a.write(i, tf.cast(i, tf.float32) * 0.5)
        i += 1
    return a.stack(), a.size()


def ta_element_shape(n):
    a = tf.TensorArray(tf.int32, size=n, element_shape=[2])
    for i in tf.range(n):
        a = a.write(i, tf.stack([i, -i]))
    return a.stack()


def ta_several(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    b = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        a = a.write(i, i)
        b = b.write(i, tf.cast(i * i, tf.float32))
    return a.stack(), b.stack()


def ta_and_list(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    items = []
    for i in tf.range(n):
        a = a.write(i, i + 10)
        items.append(i * 3)
    return a.stack(), items


def ta_in_branches(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        if i % 2 == 0:
            a = a.write(i, i)
        else:
            a = a.write(i, -i)
    return a.stack()


def ta_nested(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    k = 0
    for i in tf.range(n):
        for j in tf.range(i):
            a = a.write(k, i * 10 + j)
            k += 1
    return a.stack(), a.size()


def ta_first_defined_in_body(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        y = i * 2
        a = a.write(i, y)
    return a.stack()


def ta_break(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        if i > 2:
            break
        a = a.write(i, i)
    return a.stack()


def ta_read_only(x):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    a = a.unstack(x)
    s = 0
    for i in tf.range(a.size()):
        s += a.read(i)
    return s


def _values(result):
    if isinstance(result, (tuple, list)):
        return [np.asarray(r).tolist() for r in result]
    return np.asarray(result).tolist()


@pytest.mark.parametrize("fn, arg, expected", [
    (ta_for, 4, [0, 2, 4, 6]),
    (ta_for, 0, []),
    (ta_while, 4, [[0.0, 0.5, 1.0, 1.5], 4]),
    (ta_while, 0, [[], 0]),
    (ta_element_shape, 3, [[0, 0], [1, -1], [2, -2]]),
    (ta_several, 3, [[0, 1, 2], [0.0, 1.0, 4.0]]),
    (ta_and_list, 3, [[10, 11, 12], [0, 3, 6]]),
    (ta_in_branches, 4, [0, -1, 2, -3]),
    (ta_nested, 4, [[10, 20, 21, 30, 31, 32], 6]),
    (ta_first_defined_in_body, 4, [0, 2, 4, 6]),
    (ta_break, 6, [0, 1, 2]),
    (ta_read_only, [1, 2, 3], 6),
], ids=["for", "for-zero-trips", "while-size", "while-zero-trips", "element-shape",
        "several", "with-list-append", "in-branches", "nested", "probe", "break",
        "read-only"])
def test_tensor_array_loop_variable_three_ways(fn, arg, expected):
    original, converted, traced = _three_ways(fn, tf.constant(arg))
    assert _values(original) == expected
    assert _values(converted) == expected
    assert _values(traced) == expected


def test_tensor_array_loop_dtypes_and_shapes():
    f = tf.function(ta_element_shape)
    concrete = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    out = concrete.structured_outputs
    assert out.dtype == tf.int32
    assert out.shape.as_list() == [None, 2]
    stacked, size = tf.function(ta_while)(tf.constant(2))
    assert stacked.dtype == tf.float32 and size.dtype == tf.int32


def test_tensor_array_loop_is_one_while_op():
    f = tf.function(ta_for)
    graph = f.get_concrete_function(tf.constant(3)).graph
    ops = [op.type for op in graph.get_operations()]
    assert ops.count("While") == 1
    assert "TensorArrayStackV3" in ops
    assert f(tf.constant(5)).numpy().tolist() == [0, 2, 4, 6, 8]
    assert f.experimental_get_tracing_count() == 1


def test_tensor_array_wrong_dtype_in_loop_names_it():
    def bad(n):
        a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            a = a.write(i, tf.cast(i, tf.float32))
        return a.stack()
    with pytest.raises(TypeError, match="TensorArray.write: value has dtype float32"):
        tf.function(bad)(tf.constant(3))


# --- 3. methods bound like Python bound methods -------------------------------------

class Counter:
    def __init__(self, k=1):
        self.k = k
        self.traces = 0

    @tf.function
    def f(self, x):
        self.traces += 1
        return x + self.k


def test_method_on_a_temporary_instance():
    assert Counter().f(tf.constant(3)).numpy() == 4
    assert Counter(10).f(tf.constant(3)).numpy() == 13
    assert Counter.f._bound == {}


def test_bound_method_keeps_its_instance_alive_like_a_python_method():
    obj = Counter(5)
    method = obj.f
    ref = weakref.ref(obj)
    del obj
    gc.collect()
    assert ref() is not None
    assert method(tf.constant(1)).numpy() == 6
    del method
    gc.collect()
    assert ref() is None
    assert Counter.f._bound == {}


def test_dropped_instance_is_collected_with_its_traces():
    obj = Counter(2)
    assert obj.f(tf.constant(1)).numpy() == 3
    concrete = obj.f.get_concrete_function(tf.constant(1))
    ref, concrete_ref = weakref.ref(obj), weakref.ref(concrete)
    del obj, concrete
    gc.collect()
    assert ref() is None
    assert concrete_ref() is None
    assert Counter.f._bound == {}


def test_traces_survive_dropping_the_bound_method():
    obj = Counter(1)
    for i in range(3):
        assert obj.f(tf.constant(i)).numpy() == i + 1
    assert obj.traces == 1
    assert obj.f.experimental_get_tracing_count() == 1
    assert obj.f is obj.f
    assert obj.f.python_function.__self__ is obj
    assert isinstance(obj.f, tf.Function)


def test_two_instances_have_separate_traces():
    a, b = Counter(1), Counter(100)
    assert a.f(tf.constant(1)).numpy() == 2
    assert b.f(tf.constant(1)).numpy() == 101
    assert a.f(tf.constant(2)).numpy() == 3
    assert (a.traces, b.traces) == (1, 1)
    assert a.f is not b.f
    assert a.f.experimental_get_tracing_count() == 1
    assert b.f.experimental_get_tracing_count() == 1


def test_method_with_input_signature_on_a_temporary_instance():
    class Scale:
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def f(self, x):
            return x * 2.0
    assert Scale().f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert Scale.f(Scale(), tf.constant([3.0])).numpy().tolist() == [6.0]


def test_method_called_through_the_class_with_an_instance():
    obj = Counter(4)
    assert Counter.f(obj, tf.constant(1)).numpy() == 5


# --- 4, 5. ufuncs, partials, callable objects, builtins ------------------------------

def clipped_difference(a, b, scale=1):
    if a > b:
        return (a - b) * scale
    return (b - a) * scale


class Model:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        if x > 0:
            return x * self.w
        return -x


@pytest.mark.parametrize("make", [
    lambda: functools.partial(clipped_difference, scale=3),
    lambda: functools.partial(clipped_difference, tf.constant(4), scale=3),
], ids=["keyword", "bound-tensor"])
def test_function_of_partial_three_ways(make):
    p = make()
    args = (tf.constant(1),) if p.args else (tf.constant(5), tf.constant(2))
    original, converted, traced = _three_ways(p, *args)
    assert original.numpy() == converted.numpy() == traced.numpy() == 9
    f = tf.function(p)
    other = (tf.constant(7),) if p.args else (tf.constant(1), tf.constant(2))
    assert f(*other).numpy() == (9 if p.args else 3)
    assert f(*args).numpy() == 9
    assert f.experimental_get_tracing_count() == 1


def test_function_of_callable_object_three_ways():
    model = Model(3)
    for x, expected in [(2, 6), (-2, 2)]:
        original, converted, traced = _three_ways(model, tf.constant(x))
        assert original.numpy() == converted.numpy() == traced.numpy() == expected
    f = tf.function(model)
    f(tf.constant(1))
    f(tf.constant(-1))
    assert f.experimental_get_tracing_count() == 1
    ops = [op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "If" in ops


@pytest.mark.parametrize("arg, expected", [(-3, 3), (2.5, 2.5)])
def test_function_of_builtin_abs(arg, expected):
    f = tf.function(abs)
    out = f(tf.constant(arg))
    assert out.numpy() == expected
    assert out.dtype == tf.constant(arg).dtype
    assert f(arg).numpy() == expected


def test_function_of_builtin_max_on_tensors_is_a_clear_error():
    # As in TensorFlow: the builtin runs unconverted and compares tensors.
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="symbolic tf.Tensor"):
        tf.function(max)(tf.constant(1), tf.constant(3))
    assert tf.function(max)(1, 3).numpy() == 3


def test_kernel_error_in_explicit_while_loop_body_names_the_line():
    def f(x, n):
        def body(i, s):
            return i + 1, s + tf.gather(x, i)   # EXPLICIT
        return tf.while_loop(lambda i, s: i < n, body, (tf.constant(0), tf.constant(0.0)))[1]
    error = _run_error(f, tf.constant([1.0, 2.0]), tf.constant(3))
    assert str(error).startswith("GatherV2: indices[] = 2 is not in [0, 2)")
    assert f"(at {THIS_FILE}:{_line_of(f, '# EXPLICIT')}: " in str(error)
    assert tf.function(f)(tf.constant([1.0, 2.0]), tf.constant(2)).numpy() == 3.0


def ta_branch_then_range(x, n):
    a = tf.TensorArray(tf.int32, size=1, dynamic_size=True)
    if x > 0:
        a = a.write(0, x)
    else:
        a = a.write(0, -x)
    for i in range(n):
        a = a.write(i + 1, i)
    return a.stack(), a.size()


def test_tensor_array_through_if_and_range_loop_three_ways():
    for x in (-5, 7):
        results = _three_ways(ta_branch_then_range, tf.constant(x), tf.constant(3))
        for stacked, size in results:
            assert stacked.numpy().tolist() == [abs(x), 0, 1, 2]
            assert size.numpy() == 4


def test_scatter_indices_and_updates_pack_lists_of_tensors():
    # TF 2.21 packs a nested list holding tensors, as convert_to_tensor does:
    # tensor_scatter_nd_update(steps, [[i]], [x[i] * 2]) in a tf.range loop gives [2 4 6]
    import runtime as tf

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def doubled(x):
        steps = tf.zeros_like(x)
        for i in tf.range(tf.size(x)):
            steps = tf.tensor_scatter_nd_update(steps, [[i]], [x[i] * 2])
        return steps

    assert doubled(tf.constant([1, 2, 3])).numpy().tolist() == [2, 4, 6]
    eager = tf.tensor_scatter_nd_add(tf.zeros([3], tf.int32), [[tf.constant(1)]], [tf.constant(5)])
    assert eager.numpy().tolist() == [0, 5, 0]


def test_float_floordiv_by_a_constant_in_a_graph_keeps_infinities():
    # TF 2.21: inf // 2.0 is inf and -inf // 2.0 is -inf, eagerly and in tf.function
    # (numpy's float // gives nan there; the graph once inlined it)
    import numpy as np
    import runtime as tf
    x = tf.constant([np.inf, -np.inf, 5.0, -7.5], tf.float32)
    want = [np.inf, -np.inf, 2.0, -4.0]
    assert (x // 2.0).numpy().tolist() == want
    assert tf.function(lambda v: v // 2.0)(x).numpy().tolist() == want
