"""The functions of `tf.test`: `main`, `compute_gradient`, `Benchmark`, and
what a test asks about the build (no GPU, CUDA, ROCm or XLA here).

`compute_gradient(f, x, delta=None)` gives TF's pair (theoretical, numerical):
for each x, a [size of f's output, size of x] Jacobian, the first from
gradient tapes (one per output element), the second from central differences
with step delta (1/1024 by default, as TF: exact in binary) computed in x's
dtype.
"""

import platform
import sys
import time
import unittest

import numpy as np

from runtime._src.autodiff.tape import GradientTape
from runtime._src.core import nest
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.graphdef import GraphDef

__all__ = ["main", "compute_gradient", "Benchmark", "assert_equal_graph_def", "is_gpu_available", "gpu_device_name",
           "is_built_with_cuda", "is_built_with_gpu_support", "is_built_with_rocm",
           "is_built_with_xla", "is_cpu_target_available", "with_eager_op_as_function",
           "disable_with_predicate", "benchmark_config", "sync_devices"]


def main(argv=None):
    """`tf.test.main`: run the module's tests (unittest's runner)."""
    return unittest.main(module="__main__", argv=argv if argv is not None else sys.argv)


def _as_numpy(value):
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


def _theoretical(f, xs):
    xs = [convert_to_tensor(x) for x in xs]
    y = convert_to_tensor(f(*xs))
    y_size = int(np.prod(y.shape.as_list()))
    jacobians = [np.zeros((y_size, int(np.prod(x.shape.as_list()))), x.dtype.np_dtype)
                 for x in xs]
    for row in range(y_size):
        with GradientTape() as tape:
            tape.watch(xs)
            out = convert_to_tensor(f(*xs))
            pick = np.zeros(y_size, out.dtype.np_dtype)
            pick[row] = 1
            picked = out * convert_to_tensor(pick.reshape(out.shape.as_list()))
        for jac, grad in zip(jacobians, tape.gradient(picked, xs)):
            if grad is not None:
                jac[row] = _as_numpy(grad).ravel()
    return tuple(jacobians)


def _numerical(f, xs, delta):
    xs = [np.array(_as_numpy(x)) for x in xs]
    jacobians = []
    for i, x in enumerate(xs):
        columns = []
        for j in range(x.size):
            shifted = []
            for sign in (1, -1):
                moved = x.copy().reshape(-1)
                moved[j] = moved[j] + sign * x.dtype.type(delta)
                args = list(xs)
                args[i] = convert_to_tensor(moved.reshape(x.shape))
                shifted.append(_as_numpy(f(*[convert_to_tensor(a) for a in args])).ravel())
            columns.append((shifted[0] - shifted[1]) / x.dtype.type(2 * delta))
        jacobians.append(np.stack(columns, axis=1).astype(x.dtype) if columns else
                         np.zeros((0, 0), x.dtype))
    return tuple(jacobians)


def compute_gradient(f, x, delta=None):
    """`tf.test.compute_gradient`: (theoretical, numerical) Jacobians of f at
    the list of tensors x, each [f's output size, that x's size]."""
    if not isinstance(x, (list, tuple)):
        raise ValueError("compute_gradient: x must be a list or tuple of tensors")
    delta = 1.0 / 1024 if delta is None else delta
    return _theoretical(f, x), _numerical(f, x, delta)


def _attr_text(value):
    return " ".join(str(value).split())


def _node_text(node):
    """TF's one-line summary: {{node d}} = Identity[T=DT_INT32](a)."""
    attrs = ", ".join(f"{k}={_attr_text(v)}" for k, v in sorted(node.attr.items()))
    return f"{{{{node {node.name}}}}} = {node.op}[{attrs}]({', '.join(node.input)})"


def _node_difference(actual, expected):
    """TF's message for the first difference of two same-named NodeDefs, or None."""
    name = actual.name
    if actual.op != expected.op:
        return f"Node named '{name}' has op '{actual.op}' that is not expected '{expected.op}'"
    data = [[i for i in n.input if not i.startswith("^")] for n in (actual, expected)]
    for i, (a, e) in enumerate(zip(*data)):
        if a != e:
            return f"Node named '{name}' has input {i} '{a}' that doesn't match expected '{e}'"
    if len(data[0]) != len(data[1]):
        i = min(len(data[0]), len(data[1]))
        if len(data[0]) > len(data[1]):
            return f"Node named '{name}' has unexpected input {i} '{data[0][i]}'"
        return f"Node named '{name}' missing expected input {i} '{data[1][i]}'"
    controls = [sorted(i for i in n.input if i.startswith("^")) for n in (actual, expected)]
    if controls[0] != controls[1]:
        return (f"Node named '{name}' has control inputs {controls[0]} that don't match "
                f"expected {controls[1]}")
    if actual.device != expected.device:
        return (f"Node named '{name}' has device '{actual.device}' that does not match "
                f"expected '{expected.device}'")
    for key in sorted(set(actual.attr) | set(expected.attr)):
        if key not in expected.attr:
            return f"Node named '{name}' has unexpected attr '{key}'"
        if key not in actual.attr:
            return f"Node named '{name}' missing expected attr '{key}'"
        a, e = _attr_text(actual.attr[key]), _attr_text(expected.attr[key])
        if a != e:
            return (f"Node named '{name}' has attr '{key}' with value: {a} that does not "
                    f"match expected: {e}")
    return None


def assert_equal_graph_def(expected, actual, checkpoint_v2=False,
                           hash_table_shared_name=False):
    """`tf.test.assert_equal_graph_def`: the two GraphDefs have the same nodes
    (by name, in any order): ops, inputs (control inputs in any order),
    devices and attrs; AssertionError with TF's message at the first difference."""
    for what, value in (("actual", actual), ("expected", expected)):
        if not isinstance(value, GraphDef):
            raise TypeError(f"Expected tf.GraphDef for {what}, got {type(value).__name__}")
    wanted = {n.name: n for n in expected.node}
    for node in actual.node:
        other = wanted.pop(node.name, None)
        if other is None:
            raise AssertionError(f"Found unexpected node '{_node_text(node)}'")
        problem = _node_difference(node, other)
        if problem:
            raise AssertionError(problem)
    if wanted:
        raise AssertionError(f"Did not find expected node '{_node_text(next(iter(wanted.values())))}'")


class Benchmark:
    """`tf.test.Benchmark`: `report_benchmark` records (and prints) a result;
    `evaluate` gives numpy values; `run_op_benchmark` times a callable."""

    def __init__(self):
        self.reports = []

    @classmethod
    def is_abstract(cls):
        return len(cls.mro()) <= 2

    def evaluate(self, tensors):
        return nest.map_structure(_as_numpy, tensors)

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                         extras=None, name=None, metrics=None):
        report = {"name": name or type(self).__name__, "iters": iters, "cpu_time": cpu_time,
                  "wall_time": wall_time, "throughput": throughput, "extras": extras or {},
                  "metrics": metrics or []}
        self.reports.append(report)
        print(f"benchmark {report['name']}: iters={iters} wall_time={wall_time}")
        return report

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                         store_trace=False, store_memory_usage=True, name=None, extras=None,
                         mbs=0):
        """Time `op_or_tensor` (a callable here: there are no sessions)."""
        if not callable(op_or_tensor):
            raise TypeError("run_op_benchmark: give a callable (a tf.function) to time; "
                            "there are no sessions")
        for _ in range(burn_iters):
            op_or_tensor()
        start = time.perf_counter()
        for _ in range(min_iters):
            op_or_tensor()
        wall = (time.perf_counter() - start) / max(min_iters, 1)
        return self.report_benchmark(iters=min_iters, wall_time=wall, name=name, extras=extras)


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """False: every op runs on the CPU."""
    return False


def gpu_device_name():
    return ""


def is_built_with_cuda():
    return False


def is_built_with_gpu_support():
    return False


def is_built_with_rocm():
    return False


def is_built_with_xla():
    """False: `jit_compile` goes to JAX or ONNX Runtime when installed, not XLA
    built in."""
    return False


def is_cpu_target_available(cpu_target):
    """Whether cpu_target ('x86', 'aarch64', ...) is this machine's CPU."""
    machine = platform.machine().lower()
    target = str(cpu_target).lower()
    return target in machine or (target == "x86" and machine in ("amd64", "x86_64", "i686"))


def with_eager_op_as_function(cls=None, only_as_function=False):
    """A decorator that changes nothing (ops always run as themselves here)."""
    return cls if cls is not None else (lambda c: c)


def disable_with_predicate(pred, skip_message):
    """A decorator skipping the test when `pred()` is true."""
    def decorator(fn):
        def wrapped(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return fn(self, *args, **kwargs)
        wrapped.__name__, wrapped.__doc__ = fn.__name__, fn.__doc__
        return wrapped
    return decorator


def benchmark_config():
    """`tf.test.benchmark_config`: the session config of a benchmark; there are
    no sessions, so an empty dict."""
    return {}


def sync_devices():
    """`tf.test.experimental.sync_devices`: ops finish before they return here."""
    return None
