"""Every call form takes the cheap road: keyword, mixed, defaulted, `*args`/
`**kwargs`, input_signature and ConcreteFunction calls bind through one plan
per shape of the arguments (runtime/_src/function/binder.py), build no
`function_type` unless there is an error, and give the same values and the
same errors as binding each call with `inspect`."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.function import binder, function_type, signature


def _f(x, y=2.0, *rest, scale=1.0, **named):
    total = x * y * scale
    for r in rest:
        total = total + r
    for k in sorted(named):
        total = total + named[k]
    return total


CASES = [   # (args, kwargs, expected value of _f)
    ((3.0,), {}, 6.0),
    ((3.0, 4.0), {}, 12.0),
    ((), {"x": 3.0}, 6.0),
    ((), {"y": 4.0, "x": 3.0}, 12.0),
    ((3.0,), {"y": 4.0}, 12.0),
    ((3.0, 4.0, 1.0, 2.0), {}, 15.0),
    ((3.0, 4.0), {"scale": 2.0}, 24.0),
    ((3.0,), {"a": 1.0, "b": 2.0}, 9.0),
    ((3.0, 4.0, 1.0), {"scale": 0.5, "c": 10.0}, 17.0),
]


@pytest.mark.parametrize("args,kwargs,expected", CASES)
def test_each_call_shape_binds_like_python(args, kwargs, expected):
    f = tf.function(_f)
    tensors = tuple(tf.constant(a) for a in args)
    named = {k: tf.constant(v) for k, v in kwargs.items()}
    for _ in range(3):                       # the first call makes the plan, the next use it
        assert f(*tensors, **named).numpy() == pytest.approx(expected)
    assert f.experimental_get_tracing_count() == 1


def test_a_plan_keeps_shared_defaults_and_fresh_kwargs():
    seen = []

    def g(x, memo=[], **named):              # noqa: B006 - the shared default is the point
        seen.append((memo, named))
        return x

    bind = binder.make_binder(tf.function(g)._bind_slowly)
    first, second = bind((1,), {}), bind((2,), {})
    assert first[1] is second[1]             # the default: one object, as Python passes it
    assert first[2] == {} and second[2] == {} and first[2] is not second[2]
    assert bind((), {"x": 5, "k": 6}) == [5, first[1], {"k": 6}]
    assert bind((), {"x": 7, "k": 8}) == [7, first[1], {"k": 8}]


def test_no_function_type_is_built_for_a_call_that_binds(monkeypatch):
    f = tf.function(lambda x, y=1.0: x + y)
    x = tf.constant(1.0)
    f(x, y=x)
    built = []
    original = function_type.polymorphic_type
    monkeypatch.setattr(function_type, "polymorphic_type",
                        lambda *a, **k: built.append(1) or original(*a, **k))
    for call in (lambda: f(x, y=x), lambda: f(x=x), lambda: f(x)):
        assert float(call()) == 2.0
    assert built == []
    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to "
                       r"`got an unexpected keyword argument 'z'`. Received args: \(<tf.Tensor: "
                       r"shape=\(\), dtype=float32, numpy=1.0>,\) and kwargs: \{'z': 1\} for signature: \(x, y=<captured_default_value>\)"):
        f(x, z=1)
    assert built == [1]                      # built for the error only


@pytest.mark.parametrize("call,message", [
    (lambda f, x: f(x, x, x), "too many positional arguments"),
    (lambda f, x: f(y=x), "missing a required argument: 'x'"),
    (lambda f, x: f(x, x=x), "multiple values for argument 'x'"),
])
def test_a_call_that_does_not_bind_raises_every_time(call, message):
    f = tf.function(lambda x, y=1.0: x + y)
    x = tf.constant(1.0)
    for _ in range(2):                       # no plan is kept for a shape that fails
        with pytest.raises(TypeError, match=message):
            call(f, x)


def test_input_signature_calls_skip_the_check_only_for_keys_that_passed():
    spec = tf.TensorSpec([None], tf.float32)
    f = tf.function(lambda x, y: x * y, input_signature=[spec, spec])
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    assert f(a, b).numpy().tolist() == [3.0, 8.0]
    assert f(x=a, y=b).numpy().tolist() == [3.0, 8.0]
    assert f(a, y=b).numpy().tolist() == [3.0, 8.0]
    assert f(a, 2.0 * b).numpy().tolist() == [6.0, 16.0]
    assert f(a, [1.0, 1.0]).numpy().tolist() == [1.0, 2.0]       # converted, checked each time
    with pytest.raises(signature.InputSignatureMismatchError, match="argument 'y'"):
        f(a, tf.constant([1, 2]))            # int32: the same key shape, another dtype
    with pytest.raises(signature.InputSignatureMismatchError, match="argument 'y'"):
        f(a, tf.constant([[1.0]]))
    assert f.experimental_get_tracing_count() == 1


def test_concrete_function_calls_take_the_plan_and_check_new_keys():
    f = tf.function(lambda x, n=2: x * n)
    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    a = tf.constant([1.0, 2.0])
    for _ in range(2):
        assert cf(a).numpy().tolist() == [2.0, 4.0]
        assert cf(x=a).numpy().tolist() == [2.0, 4.0]
        assert cf(a, n=2).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(TypeError, match="the Python value 2 it was traced with"):
        cf(a, n=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor "
                       "but is a int32 tensor"):
        cf(tf.constant([1, 2]))


def test_nested_arguments_key_like_flat_ones():
    f = tf.function(lambda pair: pair[0] * pair[1]["y"] + len(pair[1]))
    x, y = tf.constant(2.0), tf.constant(3.0)
    assert float(f((x, {"y": y}))) == 7.0
    assert float(f((y, {"y": x}))) == 7.0
    assert float(f([x, {"y": y}])) == 7.0               # a list: its own trace
    assert f.experimental_get_tracing_count() == 2
    feeds = []
    assert signature.call_key([(x, {"y": y, "b": 1})], feeds) == \
        ((tuple, (tf.float32, ()), (dict, ("b", 1), ("y", (tf.float32, ())))),)
    assert [float(v) for v in feeds] == [2.0, 3.0]


@pytest.mark.parametrize("value", [
    [(1.0, {"y": 2})], [[1, (2.0, [3])], {"a": [4.0, {"b": 5}]}], [float("nan"), [float("nan")]],
    [True, [False, 1]], [None, ("s", b"b", (None,))], [{"k": {"j": (1, 2.5)}}],
    [2 ** 70, [-0.0, float("inf")]],
])
def test_keys_made_in_line_equal_the_general_rule(value):
    """`_sequence_key` and `_dict_key` key tensors, numbers and containers in
    line; each answer is the one `_key` gives (the general dispatch)."""
    x = tf.constant([1.0, 2.0])
    value = [x, *value, {"t": x, "n": 3}]
    inline, general = [], []
    key = signature.call_key(value, inline)
    assert key == tuple(signature._key(v, general, None, None) for v in value)
    assert len(inline) == len(general) == 2
    assert all(a is b for a, b in zip(inline, general))


def test_nested_literals_key_by_value_and_nan_once():
    traces = []
    f = tf.function(lambda pair: traces.append(1) or pair[0] * pair[1][0])
    x = tf.constant(2.0)
    assert float(f((x, [3.0]))) == 6.0
    assert float(f((x, [3]))) == 6.0                    # 3 == 3.0: one key, as TF
    assert np.isnan(float(f((x, [float("nan")]))))
    assert np.isnan(float(f((x, [float("nan")]))))     # every NaN: one key
    assert float(f((x, [True]))) == 2.0                 # a bool is not the int 1
    assert len(traces) == 3
