"""saved_model with `runtime.function`: a Module with Variables and
`input_signature` methods, and every function the examples/ scripts trace,
saved and loaded back in a fresh process where neither the examples nor the
tests can be imported; `py_function` graphs refuse to save."""

import importlib.util
import io
import contextlib
import json
import os
import textwrap

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime import saved_model
from runtime._src.function.concrete_function import ConcreteFunction
from runtime.saved_model import SavedModelError
from tests.paths import ROOT

from tests.example_runs import main_kwargs
from tests import fresh_process
from tests.blas_rows import assert_runs_match

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

# Run in the fresh process: only the project root on sys.path, and any import
# of the examples or the tests fails loudly (the files must be self-contained).
PRELUDE = textwrap.dedent(f"""
    import importlib.abc, sys
    sys.path[:] = [{str(ROOT)!r}] + [p for p in sys.path if "site-packages" in p
                                     or p.rstrip("/").endswith(("lib-dynload", ".zip"))
                                     or "/lib/python" in p]
    class NoSource(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("examples", "tests", "graphdata_helpers") \\
                    or name.startswith("example_"):
                raise ImportError("loading tried to import original code: " + name)
    sys.meta_path.insert(0, NoSource())
    import numpy as np
    import runtime as tf
    from runtime import saved_model
    from runtime._src.exec import executor
""")


def run_fresh(script, tmp_path):
    done = fresh_process.run(["-c", PRELUDE + textwrap.dedent(script)],
                             capture_output=True, text=True, cwd=str(tmp_path), timeout=120,
                             check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


# --- a Module with Variables and input_signature methods ---------------------------

class Accumulator(tf.Module):
    def __init__(self):
        super().__init__()
        self.total = tf.Variable(0.0)
        self.calls = tf.Variable(0)
        self.scale = tf.Variable([1.0, 2.0], trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def add(self, x):
        self.calls.assign_add(1)
        for row in tf.range(tf.shape(x)[0]):
            self.total.assign_add(tf.reduce_sum(x[row] * self.scale))
        return {"total": self.total.read_value(), "calls": self.calls.read_value()}

    @tf.function(input_signature=[])
    def reset(self):
        self.total.assign(0.0)
        return self.total.read_value()


def test_module_round_trip_keeps_variables_and_assignments(tmp_path):
    m = Accumulator()
    assert m.add(tf.constant([[1.0, 1.0]]))["total"].numpy() == 3.0
    path = str(tmp_path / "acc")
    saved_model.save(m, path)
    loaded = saved_model.load(path)
    assert sorted(v.numpy().tolist() if v.shape.rank else v.numpy().item()
                  for v in loaded.variables if v.shape.rank == 0) == [1, 3.0]
    assert len(loaded.trainable_variables) == 2
    out = loaded.add(tf.constant([[1.0, 0.0], [0.0, 1.0]]))
    assert (out["total"].numpy(), out["calls"].numpy()) == (6.0, 2)
    assert loaded.add(tf.constant([[0.5, 0.5]]))["calls"].numpy() == 3
    assert loaded.reset().numpy() == 0.0
    assert m.total.numpy() == 3.0                      # the original is untouched


def test_module_round_trip_in_a_fresh_process(tmp_path):
    m = Accumulator()
    m.add(tf.constant([[2.0, 1.0]]))
    saved_model.save(m, str(tmp_path / "acc"))
    out = run_fresh(f"""
        m = saved_model.load({str(tmp_path / 'acc')!r})
        for rows in ([[1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]):
            r = m.add(tf.constant(rows, tf.float32))
            print(float(r["total"]), int(r["calls"]))
        print(float(m.reset()), float(m.add(np.ones((1, 2), np.float32))["total"]))
    """, tmp_path)
    assert out.splitlines() == ["7.0 2", "10.0 3", "0.0 3.0"]


def test_wrong_arguments_to_a_loaded_function_are_named(tmp_path):
    saved_model.save(Accumulator(), str(tmp_path / "acc"))
    loaded = saved_model.load(str(tmp_path / "acc"))
    with pytest.raises(TypeError, match="(?s)^Could not find matching concrete function.*add: "
                                        "the arguments match none"):
        loaded.add(tf.constant([1, 2]))


def test_py_function_in_a_traced_function_refuses_to_save(tmp_path):
    class WithPy(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
        def f(self, x):
            return tf.py_function(lambda a: a * 2, [x], tf.int32) + 1

    m = WithPy()
    assert m.f(tf.constant(2)).numpy() == 5
    with pytest.raises(SavedModelError, match=r"function 'f' uses py_function/numpy_function"):
        saved_model.save(m, str(tmp_path / "py"))
    assert not os.path.exists(tmp_path / "py" / "saved_model.json")


# --- every function the examples trace ------------------------------------------------

@contextlib.contextmanager
def recorded_concretes():
    found = []
    original = ConcreteFunction.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        found.append(self)

    ConcreteFunction.__init__ = init
    try:
        yield found
    finally:
        ConcreteFunction.__init__ = original


def random_feed(rng, t):
    dims = [3 if d is None else d for d in t.shape.dims] if t.shape.dims is not None else []
    if t.dtype.is_bool:
        return rng.random(dims) < 0.5
    if t.dtype.is_integer:
        return rng.integers(0, 5, dims).astype(t.dtype.np_dtype)
    if t.dtype.is_string:
        return np.array(rng.choice(["a", "bc"], dims)).astype(str)
    return rng.normal(size=dims).astype(t.dtype.np_dtype)


def run_all(graphs, feeds):
    """Outputs and stderr of running each graph once, in order, seeded."""
    results = []
    for graph, args in zip(graphs, feeds):
        tf.random.set_seed(7)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            values = executor.run(graph, [np.asarray(a) for a in args])
        results.append([np.asarray(v).tolist() for v in values] + [err.getvalue()])
    return results


def trace_example(path):
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    with recorded_concretes() as concretes, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        spec.loader.exec_module(module)
        module.main(**main_kwargs(path.stem))
    return concretes


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_functions_round_trip_in_a_fresh_process(path, tmp_path):
    concretes = trace_example(path)
    assert concretes, f"{path.name} traces no function"
    signatures = {f"fn{i}": cf for i, cf in enumerate(concretes)}
    export = str(tmp_path / "saved")
    saved_model.save(tf.Module(), export, signatures=signatures)
    rng = np.random.default_rng(0)
    feeds = [[random_feed(rng, t) for t in cf.graph.inputs] for cf in concretes]
    expected = run_all([cf.graph for cf in concretes], feeds)
    with open(tmp_path / "feeds.json", "w") as f:
        json.dump([[[a.tolist(), a.dtype.str] for a in args] for args in feeds], f)
    out = run_fresh(f"""
        import contextlib, io, json
        m = saved_model.load({export!r})
        feeds = json.load(open("feeds.json"))
        results = []
        for i, args in enumerate(feeds):
            graph = m.signatures["fn%d" % i].graph
            tf.random.set_seed(7)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                values = executor.run(graph, [np.asarray(v, dtype=d) for v, d in args])
            results.append([np.asarray(v).tolist() for v in values] + [err.getvalue()])
        print(json.dumps(results))
    """, tmp_path)
    assert_runs_match(json.loads(out), json.loads(json.dumps(expected)))
