"""`function`: decorator forms, tracing, the cache-key rules, outputs, hooks."""

import functools
import gc
import importlib
import threading
import weakref

import numpy as np
import pytest

import runtime as tf

from tests.runtime.seed_programs import mean_of_squares

# `runtime.function` is the decorator; the module that defines it is here:
function_module = importlib.import_module("runtime._src.function.function")


def traced(fn=None, **options):
    """A Function that counts how often its Python body runs (= traces).

    autograph is off by default here: these tests are about the cache, and
    autograph would convert the wrapped function, not the counting wrapper.
    """
    options.setdefault("autograph", False)

    def wrap(f):
        calls = []

        @functools.wraps(f)  # keeps f's signature for binding
        def body(*args, **kwargs):
            calls.append(1)
            return f(*args, **kwargs)
        func = tf.function(body, **options)
        func.python_calls = calls
        return func
    return wrap if fn is None else wrap(fn)


# --- decorator forms and basic tracing -----------------------------------------

def test_decorator_forms_return_functions():
    def f(x):
        return x + 1

    @tf.function
    def g(x):
        return x + 1

    @tf.function(autograph=False)
    def h(x):
        return x + 1

    for func in (tf.function(f), g, h):
        assert isinstance(func, tf.Function)
        assert func(tf.constant(1)).numpy() == 2
    assert tf.function(f).python_function is f
    assert g.__name__ == "g"


def test_python_side_effects_run_only_while_tracing(capsys):
    @tf.function
    def f(x, y):
        print("Tracing with", x, y)
        return tf.multiply(tf.add(x, y), 2)

    assert f(tf.constant(1), tf.constant(2)).numpy() == 6
    assert f(tf.constant(3), tf.constant(4)).numpy() == 14
    out = capsys.readouterr().out
    assert out == ('Tracing with Tensor("x:0", shape=(), dtype=int32) '
                   'Tensor("y:0", shape=(), dtype=int32)\n')
    assert f.experimental_get_tracing_count() == 1


def test_traced_matches_eager():
    f = mean_of_squares
    g = tf.function(f)
    x = tf.constant([[2.0, 3.0]])
    y = tf.constant([[3.0, -2.0]])
    assert f(x, y).numpy() == g(x, y).numpy()
    assert g(x, y).dtype == tf.float32


# --- cache keys ----------------------------------------------------------------

class Thing:
    pass


_THING = Thing()
_T1 = tf.constant([1, 2])

CACHE_CASES = [
    # (description, first call args, second call args, traces after both)
    ("same dtype and shape", (tf.constant(1),), (tf.constant(5),), 1),
    ("new dtype", (tf.constant(1),), (tf.constant(1.0),), 2),
    ("new shape", (tf.constant([1, 2]),), (tf.constant([1, 2, 3]),), 2),
    ("new rank", (tf.constant([1]),), (tf.constant([[1]]),), 2),
    ("same Python int", (2,), (2,), 1),
    ("different Python int", (2,), (3,), 2),
    ("int and equal float share", (2,), (2.0,), 1),
    ("bool and int differ", (True,), (1,), 2),
    ("same string", ("a",), ("a",), 1),
    ("different string", ("a",), ("b",), 2),
    ("None", (None,), (None,), 1),
    ("equal tuples", ((1, 2),), ((1, 2),), 1),
    ("different list values", ([1, 2],), ([1, 3],), 2),
    ("list vs tuple", ([1, 2],), ((1, 2),), 2),
    ("equal dicts", ({"a": 1, "b": 2},), ({"b": 2, "a": 1},), 1),
    ("same object", (_THING,), (_THING,), 1),
    ("different objects", (Thing(),), (Thing(),), 2),
    ("numpy arrays key like tensors", (np.zeros(3, np.float32),), (np.ones(3, np.float32),), 1),
    ("numpy array and tensor", (np.array([1, 2], np.int32),), (_T1,), 1),
    ("nested tensors", ((tf.constant(1), [tf.constant(2.0)]),),
     ((tf.constant(3), [tf.constant(4.0)]),), 1),
    ("NaN", (float("nan"),), (float("nan"),), 1),
]


@pytest.mark.parametrize("first,second,expected", [c[1:] for c in CACHE_CASES],
                         ids=[c[0] for c in CACHE_CASES])
def test_cache_keys(first, second, expected):
    @traced
    def f(x):
        return tf.constant(0)

    f(*first)
    f(*second)
    assert f.experimental_get_tracing_count() == expected
    assert len(f.python_calls) == expected


def test_keyword_positional_and_default_calls_share_a_trace():
    @traced
    def f(x, y=2):
        return x * y

    x = tf.constant(3)
    results = [f(x), f(x, 2), f(x, y=2), f(x=x), f(y=2, x=x), f(x, 2.0)]
    assert [r.numpy() for r in results] == [6] * 6
    assert f.experimental_get_tracing_count() == 1
    f(x, 3)
    assert f.experimental_get_tracing_count() == 2


def test_var_args_and_kwargs():
    @traced
    def f(*args, scale=1, **kwargs):
        total = sum(args, tf.constant(0)) * scale
        return total + sum(kwargs.values(), tf.constant(0))

    a, b = tf.constant(1), tf.constant(2)
    assert f(a, b).numpy() == 3
    assert f(a, b, scale=2, c=tf.constant(10)).numpy() == 16
    assert f(tf.constant(5), tf.constant(6)).numpy() == 11
    assert f.experimental_get_tracing_count() == 2


def test_wrong_arguments_name_the_function():
    @tf.function
    def f(x, y):
        return x

    with pytest.raises(TypeError, match=r"f\(\): missing a required argument: 'y'"):
        f(tf.constant(1))


def test_dead_objects_are_not_kept_alive_by_the_cache():
    @tf.function
    def f(obj, x):
        return x + obj.value

    obj = Thing()
    obj.value = 5
    assert f(obj, tf.constant(1)).numpy() == 6
    ref = weakref.ref(obj)
    del obj
    gc.collect()
    assert ref() is None
    other = Thing()
    other.value = 7
    assert f(other, tf.constant(1)).numpy() == 8


# --- outputs -----------------------------------------------------------------

OUTPUT_CASES = [
    ("python int", lambda x: 3, tf.int32, 3),
    ("python float", lambda x: 1.5, tf.float32, 1.5),
    ("python bool", lambda x: True, tf.bool, True),
    ("python str", lambda x: "hi", tf.string, b"hi"),
    ("numpy value", lambda x: np.float64(2.5), tf.float64, 2.5),
    ("eager tensor", lambda x: tf.constant([1, 2]), tf.int32, [1, 2]),
    ("input itself", lambda x: x, tf.int32, 7),
]


@pytest.mark.parametrize("fn,dtype,value", [c[1:] for c in OUTPUT_CASES],
                         ids=[c[0] for c in OUTPUT_CASES])
def test_output_leaves_become_tensors(fn, dtype, value):
    result = tf.function(fn)(tf.constant(7))
    assert isinstance(result, tf.Tensor)
    assert result.dtype == dtype
    np.testing.assert_array_equal(result.numpy(), value)


def test_output_structures_are_kept():
    @tf.function
    def f(x):
        return {"sum": x + 1, "pair": (x, None), "list": [1, "s"]}

    out = f(tf.constant(1))
    assert set(out) == {"sum", "pair", "list"}
    assert out["sum"].numpy() == 2
    assert isinstance(out["pair"], tuple) and out["pair"][1] is None
    assert out["pair"][0].numpy() == 1
    assert isinstance(out["list"], list)
    assert out["list"][0].dtype == tf.int32 and out["list"][1].numpy() == b"s"


def test_returning_none():
    @tf.function
    def f(x):
        tf.print(x)

    assert f(tf.constant(1)) is None


# --- nested functions, eager mode, threads -----------------------------------

def test_function_called_while_tracing_is_inlined():
    inner = traced(lambda x: x * 2)

    @tf.function
    def outer(x):
        return inner(x) + 1

    assert outer(tf.constant(3)).numpy() == 7
    assert outer(tf.constant(4)).numpy() == 9
    assert outer.experimental_get_tracing_count() == 1
    assert inner.experimental_get_tracing_count() == 0
    assert len(inner.python_calls) == 1


@pytest.fixture
def eager_functions():
    tf.config.run_functions_eagerly(True)
    try:
        yield
    finally:
        tf.config.run_functions_eagerly(False)


def test_run_functions_eagerly_calls_python_every_time(eager_functions, capsys):
    @tf.function
    def f(x):
        print("Calculating!")
        return x * 2

    assert tf.config.functions_run_eagerly() is True
    for _ in range(3):
        assert f(tf.constant(2)).numpy() == 4
    assert capsys.readouterr().out == "Calculating!\n" * 3
    assert f.experimental_get_tracing_count() == 0


def test_run_functions_eagerly_rejects_non_bool():
    with pytest.raises(TypeError, match="expected a bool, got str"):
        tf.config.run_functions_eagerly("yes")


def test_eight_threads_trace_each_signature_once():
    barrier = threading.Barrier(8)

    @traced
    def f(x):
        return x + 1

    results = []

    def worker(i):
        barrier.wait()
        arg = tf.constant(i) if i % 2 else tf.constant(float(i))
        results.append(f(arg).numpy())

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [i + 1 for i in range(8)]
    assert f.experimental_get_tracing_count() == 2
    assert len(f.python_calls) == 2


# --- config.optimizer and the hooks -------------------------------------------

def test_optimizer_options_round_trip():
    try:
        tf.config.optimizer.set_experimental_options({"constant_folding": False})
        tf.config.optimizer.set_experimental_options({"debug_stripper": True})
        assert tf.config.optimizer.get_experimental_options() == {
            "constant_folding": False, "debug_stripper": True,
            "disable_model_pruning": False, "disable_meta_optimizer": False}
        with pytest.raises(TypeError, match="expected a dict"):
            tf.config.optimizer.set_experimental_options(["constant_folding"])
    finally:
        tf.config.optimizer.reset_experimental_options()
    assert tf.config.optimizer.get_experimental_options() == {      # TF 2.21's defaults
        "disable_model_pruning": False, "disable_meta_optimizer": False}


def test_autograph_hook_converts_once_and_only_when_asked(monkeypatch):
    seen = []

    def fake_convert(fn, options=None):
        seen.append(fn)
        return lambda x: fn(x) * 10
    monkeypatch.setattr(function_module, "_autograph_convert", fake_convert)

    def f(x):
        return x + 1

    g = tf.function(f)
    assert g(tf.constant(1)).numpy() == 20
    assert g(tf.constant(1.0)).numpy() == 20.0
    assert seen == [f]
    assert tf.function(f, autograph=False)(tf.constant(1)).numpy() == 2
    assert seen == [f]


def test_finalize_hook_runs_once_per_new_graph(monkeypatch):
    finalized = []

    def fake_finalize(graph):
        finalized.append(graph)
        return graph
    monkeypatch.setattr(function_module, "_finalize_graph", fake_finalize)

    f = tf.function(lambda x: x * 2)
    f(tf.constant(1))
    f(tf.constant(2))
    f(tf.constant(2.0))
    assert len(finalized) == 2
    assert finalized[0] is f.get_concrete_function(tf.constant(1)).graph


# --- placeholders, callables, failures --------------------------------------------

def test_placeholders_are_named_after_parameters():
    @tf.function
    def f(x, pair, *args, **kwargs):
        return x

    cf = f.get_concrete_function(tf.constant(1), (tf.constant(2), tf.constant(3)),
                                 tf.constant(4), tf.constant(5), z=tf.constant(6))
    assert [t.name for t in cf.inputs] == ["x:0", "pair:0", "pair_1:0", "args_0:0",
                                           "args_1:0", "z:0"]


def test_callable_objects_and_bound_methods():
    class Model:
        def __init__(self):
            self.w = tf.Variable(2.0)

        def __call__(self, x):
            return x * self.w

    model = Model()
    assert tf.function(model)(tf.constant(3.0)).numpy() == 6.0
    assert tf.function(model.__call__)(x=tf.constant(4.0)).numpy() == 8.0


def test_a_failed_trace_is_not_cached():
    @tf.function
    def f(x, fail):
        if fail:
            raise RuntimeError("boom")
        return x + 1

    with pytest.raises(RuntimeError, match="boom"):
        f(tf.constant(1), True)
    assert f.experimental_get_tracing_count() == 0
    assert f(tf.constant(1), False).numpy() == 2
    with pytest.raises(RuntimeError, match="boom"):
        f(tf.constant(1), True)


def test_returning_a_tensor_of_another_trace_is_an_error():
    leaked = []

    @tf.function
    def keep(x):
        leaked.append(x)
        return x

    @tf.function
    def use():
        return leaked[0]

    keep(tf.constant(1))
    with pytest.raises(TypeError, match="x:0 belongs to graph 'keep'"):
        use()
    with pytest.raises(TypeError, match="x:0 is symbolic"):
        keep(leaked[0])
