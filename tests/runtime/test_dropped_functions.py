"""What a traced function leaves behind once it is dropped: its generated
sources (autograph's `<autograph:...>` and the executor's `<graph ...>`
linecache entries, source maps, conversion cache entries) go with it, the
caches that outlive it are bounded, a replayed custom gradient's notes live on
its graph, and user code is traced with the garbage collector on."""

import gc
import importlib.util
import linecache
import weakref

import runtime as tf
from autograph import source_map
from autograph.impl import conversion
from runtime._src.exec import codegen

_BODY = '''
def f_{i}(x, n):
    total = x * 0
    i = 0
    while i < n:
        if x > 0:
            total += x
        i += 1
    return total + {i}
'''


def _module(tmp_path, count):
    path = tmp_path / "dropped_fns.py"
    path.write_text("".join(_BODY.format(i=i) for i in range(count)))
    spec = importlib.util.spec_from_file_location("dropped_fns", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _trace_and_drop(module, i, x, n):
    f = tf.function(getattr(module, f"f_{i}"))
    assert int(f(x, n)) == 2 * 3 + i
    delattr(module, f"f_{i}")


def _generated_entries():
    return [k for k in linecache.cache if k.startswith(("<autograph:dropped_fns", "<graph f_"))]


def test_dropped_functions_leave_no_sources_behind(tmp_path):
    module = _module(tmp_path, 24)
    x, n = tf.constant(3), tf.constant(2)
    for i in range(4):                        # warm up the process-wide caches
        _trace_and_drop(module, i, x, n)
    gc.collect()
    maps, cached = len(source_map._MAPS), len(conversion._CACHE)
    for i in range(4, 23):
        _trace_and_drop(module, i, x, n)
    gc.collect()
    _trace_and_drop(module, 23, x, n)     # a compile drops the entries of the graphs gone
    assert len(_generated_entries()) <= 2       # f_23's (its graph dies with the next gc)
    gc.collect()
    assert len(source_map._MAPS) == maps and len(conversion._CACHE) == cached
    # The caches that outlive a graph are bounded small (they held 4096 names
    # and location comments each: ~3.4 KiB per dropped function).
    for cache in (codegen._local_base, codegen._global_base, codegen._base_name):
        info = cache.cache_info()
        assert info.currsize <= info.maxsize <= 512


def test_a_replayed_custom_gradient_keeps_its_notes_on_its_graph():
    @tf.custom_gradient
    def clipped(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -0.5, 0.5)

    f = tf.function(lambda x: clipped(x) * 3.0)
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = f(x)
    assert float(y) == 6.0 and float(tape.gradient(y, x)) == 0.5
    graph = weakref.ref(f.get_concrete_function(x).graph)
    del f, tape, y
    gc.collect()
    assert graph() is None                    # nothing global holds the traced graph


def test_user_code_is_traced_with_the_collector_on():
    seen = []

    @tf.function
    def f(x):
        seen.append(gc.isenabled())
        return x + 1

    assert gc.isenabled()
    assert float(f(tf.constant(1.0))) == 2.0
    assert seen == [True] and gc.isenabled()
