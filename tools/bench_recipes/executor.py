"""The executor's workloads: a traced graph run by the code-generating
executor against the same computation written by hand in numpy (eager ops,
chained matmuls, a while loop with a cond, an MLP, a long loop, graph size
scaling) and the call path's overhead (a tiny call, the call forms)."""

import time
import tracemalloc

import numpy as np

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph
from tools.bench_recipes.base import (api, best_of, best_of_many, best_of_pair, compiled_body,
                                      constant, trace)


def bench_power():
    matmul = api("matmul")
    rng = np.random.default_rng(0)
    xv = rng.integers(-1, 2, size=(10, 10)).astype(np.int32)
    eye = np.eye(10, dtype=np.int32)

    def power(x):
        result = constant(eye)
        for _ in range(100):
            result = matmul(x, result)
        return result

    def power_np(x):
        result = eye
        for _ in range(100):
            result = np.matmul(x, result)
        return result

    x = constant(xv)
    graph_call, _ = trace(power, [x])
    np.testing.assert_array_equal(np.asarray(graph_call(x)[0] if isinstance(graph_call(x), list)
                                             else graph_call(x)), power_np(xv))
    graph_t, numpy_t = best_of_pair(lambda: graph_call(x), lambda: power_np(xv))
    return dict(eager=best_of(lambda: power(x), repeat=3), graph=graph_t, numpy=numpy_t,
                ratio_target=1.15)


def bench_collatz():
    equal, not_equal = api("equal"), api("not_equal")

    def collatz(n):
        def loop_cond(n, steps):
            return not_equal(n, 1)

        def body(n, steps):
            n = tf.cond(equal(n % 2, 0), lambda: n // 2, lambda: 3 * n + 1)
            return n, steps + 1
        return tf.while_loop(loop_cond, body, [n, constant(0)])[1]

    def collatz_np(n):
        steps = np.int32(0)
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    n = constant(27)
    graph_call, _ = trace(collatz, [n])
    got = graph_call(n)
    assert int(np.asarray(got[0] if isinstance(got, list) else got)) == 111, got
    graph_t, numpy_t = best_of_pair(lambda: graph_call(n), lambda: collatz_np(np.int32(27)))
    return dict(eager=best_of(lambda: collatz(n), repeat=3), graph=graph_t, numpy=numpy_t,
                ratio_target=3.0)


def bench_tiny_call():
    def tiny(a, b):
        return a + b

    a, b = constant(2), constant(3)
    graph_call, graph = trace(tiny, [a, b])
    body = compiled_body(graph)
    av, bv = np.int32(2), np.int32(3)
    inputs = [av, bv] + [np.asarray(outer._value) if hasattr(outer, "_value") else None
                         for outer, _ in graph.captures]
    graph_t, body_t = best_of_pair(lambda: graph_call(a, b), lambda: body(*inputs))
    over = graph_t - body_t
    return dict(eager=best_of(lambda: tiny(a, b)), graph=graph_t, numpy=best_of(lambda: av + bv),
                extra={"compiled_body": body_t, "call_overhead": over},
                ok=over <= 5e-6, note=f"overhead {over * 1e6:.2f} us over the body (target <= 5 us)")


def _call_forms():
    """{form: a call of f(x, y) = x * y + 1 on scalar tensors made that way}."""
    def f(x, y):
        return x * y + 1

    def with_default(x, y, z=1.0):
        return x * y + z

    def nested(pair):
        return pair[0] * pair[1]["y"] + 1

    class Model(tf.Module):
        @tf.function
        def method(self, x, y):
            return x * y + 1

    x, y = constant(2.0), constant(3.0)
    plain = tf.function(f)
    spec = tf.TensorSpec([], tf.float32)
    signed = tf.function(f, input_signature=[spec, spec])
    concrete, defaulted, structured = (plain.get_concrete_function(x, y),
                                       tf.function(with_default), tf.function(nested))
    model = Model()
    return {"positional": lambda: plain(x, y), "keyword": lambda: plain(x=x, y=y),
            "positional+keyword": lambda: plain(x, y=y),
            "input_signature": lambda: signed(x, y), "ConcreteFunction": lambda: concrete(x, y),
            "tf.Module method": lambda: model.method(x, y),
            "Python default": lambda: defaulted(x, y),
            "nested (x, {'y': y})": lambda: structured((x, {"y": y}))}


def bench_call_forms():
    forms = _call_forms()
    for call in forms.values():
        call()                                    # trace
    # Thread CPU time: microsecond calls on a shared machine (see best_of_many).
    times = dict(zip(forms, best_of_many(list(forms.values()), clock=time.thread_time)))
    base = times["positional"]
    ratios = {k: t / base for k, t in times.items()}
    worst = max(ratios, key=ratios.get)
    return dict(eager=None, graph=base, numpy=None,
                extra={"times": times, "ratios": ratios}, ok=ratios[worst] <= 1.5,
                note=", ".join(f"{k} {t * 1e6:.2f} us ({ratios[k]:.2f}x)"
                               for k, t in times.items())
                + f"; worst {worst} {ratios[worst]:.2f}x (target <= 1.5x; thread CPU time)")


def bench_mlp():
    matmul, relu = api("matmul"), api("nn.relu")
    rng = np.random.default_rng(1)
    xv = rng.standard_normal((60, 784)).astype(np.float32)
    w1 = (rng.standard_normal((784, 128)) * 0.05).astype(np.float32)
    b1 = np.zeros(128, np.float32)
    w2 = (rng.standard_normal((128, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    W1, B1, W2, B2 = (constant(v) for v in (w1, b1, w2, b2))

    def mlp(x):
        h = relu(matmul(x, W1) + B1)
        return matmul(h, W2) + B2

    def mlp_np(x):
        h = np.maximum(np.matmul(x, w1) + b1, 0)
        return np.matmul(h, w2) + b2

    x = constant(xv)
    graph_call, _ = trace(mlp, [x])
    got = graph_call(x)
    np.testing.assert_allclose(np.asarray(got[0] if isinstance(got, list) else got),
                               mlp_np(xv), rtol=1e-5, atol=1e-5)
    graph_t, numpy_t = best_of_pair(lambda: graph_call(x), lambda: mlp_np(xv))
    return dict(eager=best_of(lambda: mlp(x)), graph=graph_t, numpy=numpy_t, ratio_target=1.1)


def bench_long_loop():
    n_iter = 1_000_000

    def count(n):
        return tf.while_loop(lambda i: i < n, lambda i: [i + 1], [constant(0)])

    def count_np(n):
        i = np.int32(0)
        while i < n:
            i = i + 1
        return i

    n = constant(n_iter)
    graph_call, _ = trace(count, [n])
    graph_call(n)  # compile outside the memory measurement
    tracemalloc.start()
    start = time.perf_counter()
    got = graph_call(n)
    graph_t = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    value = got[0] if isinstance(got, (list, tuple)) else got
    assert int(np.asarray(value if not isinstance(value, (list, tuple)) else value[0])) == n_iter
    graph_t = min(graph_t, best_of(lambda: graph_call(n), repeat=2, min_batch=0))
    numpy_t = best_of(lambda: count_np(np.int32(n_iter)), repeat=2, min_batch=0)
    return dict(eager=None, graph=graph_t, numpy=numpy_t, extra={"peak_bytes": peak},
                ok=peak < 1 << 20,
                note=f"tracemalloc peak {peak / 1024:.1f} KiB (target < 1024 KiB); eager skipped")


def bench_scaling():
    results = {}
    for size in (100, 1000, 10000):
        def build(size=size):
            g = Graph(f"chain{size}")
            with g.as_default():
                x = g.add_placeholder(tf.float32, [4], "x")
                y = x
                for i in range(size // 2):
                    y = y * 0.5
                    y = y + x
            g.outputs = [y]
            executor.run(g, [np.ones(4, np.float32)])
        results[size] = best_of(build, repeat=3, min_batch=0) / size
    ratio = results[10000] / results[100]
    return dict(eager=None, graph=None, numpy=None,
                extra={f"per_op_{k}": v for k, v in results.items()}, ok=ratio <= 2.0,
                note="trace+first run per op: " + ", ".join(
                    f"{k}: {v * 1e6:.1f} us" for k, v in results.items())
                + f"; 10k/100 = {ratio:.2f} (target <= 2)")


def bench_eager_op():
    add = api("add")
    av = np.arange(10, dtype=np.int32)
    bv = np.arange(10, dtype=np.int32)
    a, b = constant(av), constant(bv)
    eager_t, numpy_t = best_of_pair(lambda: add(a, b), lambda: np.add(av, bv))
    over = eager_t - numpy_t
    return dict(eager=eager_t, graph=None, numpy=numpy_t, extra={"op_overhead": over},
                ok=over <= 2e-6, note=f"tf.add overhead {over * 1e6:.2f} us over np.add "
                                      "(target <= 2 us)")
