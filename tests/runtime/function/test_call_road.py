"""One road through a call: a cache miss walks the
arguments once (`call_key`) and builds the template once (`make_template`);
a cached call only keys and runs."""

import runtime as tf
from runtime._src.function import signature


def _counting(monkeypatch):
    counts = {"call_key": 0, "make_template": 0}
    for name in counts:
        original = getattr(signature, name)

        def counted(*args, _name=name, _original=original, **kwargs):
            counts[_name] += 1
            return _original(*args, **kwargs)
        monkeypatch.setattr(signature, name, counted)
    return counts


def test_a_cache_miss_walks_the_arguments_once(monkeypatch):
    counts = _counting(monkeypatch)
    f = tf.function(lambda x, y: x * y)
    assert f(tf.constant([1.0, 2.0]), 3.0).numpy().tolist() == [3.0, 6.0]
    assert counts == {"call_key": 1, "make_template": 1}
    f(tf.constant([4.0, 5.0]), 3.0)                     # cached: keyed, not templated
    assert counts == {"call_key": 2, "make_template": 1}
    assert f.experimental_get_tracing_count() == 1


def test_a_relaxed_retrace_builds_one_more_template(monkeypatch):
    counts = _counting(monkeypatch)
    f = tf.function(lambda x: x + 1, reduce_retracing=True)
    f(tf.constant([1.0]))
    f(tf.constant([1.0, 2.0]))              # shapes differ: relaxed to (None,)
    assert counts["call_key"] == 2 and counts["make_template"] == 3
    assert str(f.get_concrete_function(tf.TensorSpec([None])).function_type) == \
        "(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None)) -> " \
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
