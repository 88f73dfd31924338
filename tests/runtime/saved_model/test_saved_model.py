"""saved_model.save / load: round trips (also in a fresh process without the
original code), and clear errors for every kind of bad directory."""

import json
import os
import textwrap

import numpy as np
import pytest

import runtime as tf
from runtime import saved_model
from runtime._src.function.module import Module
from runtime._src.graph.op_registry import apply, define_op, OPS
from runtime.saved_model import SavedModelError
from tests.paths import ROOT as ROOT_PATH

from tests.runtime.graphdata_helpers import build, two_level_graph
from tests import fresh_process

ROOT = str(ROOT_PATH)


class Concrete:
    """A hand-built concrete function: a graph plus its output structure."""

    def __init__(self, graph, structured_outputs=None):
        self.graph = graph
        if structured_outputs is not None:
            self.structured_outputs = structured_outputs


def affine_graph():
    return build("affine", [("x", tf.float32, [None, 2])],
                 lambda x: x * tf.convert_to_tensor(np.array([2.0, 3.0], np.float32)) + 1.0)


def nested_graph():
    # inner's b * x captures x from two levels up
    return two_level_graph("nested", lambda b, x: b * x, lambda a, x: a + 1,
                           outputs=lambda y, x: [y, x])


class Model(Module):
    def __init__(self):
        super().__init__()
        self.affine = Concrete(affine_graph())
        g = nested_graph()
        self.nested = Concrete(g, {"y": g.outputs[0], "pair": (g.outputs[1], None, 3)})
        self.words = Concrete(build("words", [("s", tf.string, [])],
                                    lambda s: (s, tf.convert_to_tensor(["a", "bc"]))))


@pytest.fixture
def saved(tmp_path):
    path = str(tmp_path / "model")
    saved_model.save(Model(), path, signatures={"serve": Model().affine})
    return path


def test_round_trip_runs_saved_graphs(saved):
    loaded = saved_model.load(saved)
    out = loaded.affine(np.array([[1.0, 1.0], [0.5, 2.0]], np.float32))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [[3.0, 4.0], [2.0, 7.0]])
    result = loaded.nested(tf.convert_to_tensor(3))
    # body(a=-3): inner(b=-2) = -2 * 3
    assert int(result["y"]) == -6 and int(result["pair"][0]) == 3
    assert result["pair"][1:] == (None, 3)
    s, consts = loaded.words(tf.convert_to_tensor("hi"))
    assert s.numpy() == b"hi" and list(consts.numpy()) == [b"a", b"bc"]
    # a signature returns a dict, as TensorFlow's ({"output_0": ...})
    np.testing.assert_array_equal(
        loaded.signatures["serve"](x=np.ones((1, 2)))["output_0"].numpy(), [[3.0, 4.0]])


def test_loaded_graph_matches_the_original(saved):
    loaded = saved_model.load(saved)
    assert str(loaded.nested.graph) == str(nested_graph())


def test_loaded_functions_check_arguments(saved):
    loaded = saved_model.load(saved)
    with pytest.raises(TypeError, match="argument 'x' must be float32, got int32"):
        loaded.affine(tf.convert_to_tensor([[1, 2]]))
    with pytest.raises(TypeError, match=r"must have shape \(None, 2\), got \(3,\)"):
        loaded.affine(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match=r"affine takes 1 argument\(s\) \(x\), got 2"):
        loaded.affine(1.0, 2.0)


def test_round_trip_in_a_fresh_process_without_the_original_code(saved, tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path[:] = [p for p in sys.path if 'tests' not in p]
        sys.path.insert(0, {ROOT!r})
        import numpy as np
        from runtime import saved_model
        try:
            import graphdata_helpers
            print("original code importable")
        except ImportError:
            pass
        import runtime._src.graph.op_registry as reg
        from runtime._src.graph.op_registry import define_op
        from runtime._src.exec import executor
        # the test-only op is registered here by name, as a real op would be
        define_op("TestCall1", infer=lambda i, a: [(t.dtype, t.shape) for t in a["body"].outputs])(
            lambda *v, body: executor.run(body, list(v))[0])
        m = saved_model.load({saved!r})
        print(m.affine(np.ones((1, 2), np.float32)).numpy().tolist())
        print(int(m.nested(np.int32(3))["y"]))
    """)
    done = fresh_process.run(["-c", script], capture_output=True, text=True,
                             cwd=str(tmp_path), timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[[3.0, 4.0]]", "-6"]


def test_save_without_functions_is_an_error(tmp_path):
    with pytest.raises(SavedModelError, match="Module has no function to save"):
        saved_model.save(Module(), str(tmp_path / "m"))


def test_py_function_graphs_refuse_to_save(tmp_path):
    if "TestPyFunc" not in OPS:
        define_op("TestPyFunc", infer=lambda i, a: [(i[0].dtype, i[0].shape)],
                  side_effect=True)(lambda x, func: func(x))
    g = build("f", [("x", tf.int32, [])], lambda x: apply("TestPyFunc", [x], {"func": abs}))
    with pytest.raises(SavedModelError, match=r"function 'serving_default' uses py_function/numpy_function "
                                              r"\(node 'TestPyFunc'\).*cannot be saved"):
        saved_model.save(Module(), str(tmp_path / "m"), signatures=Concrete(g))
    assert not os.path.exists(tmp_path / "m" / "saved_model.json")


# --- bad directories: each a clear SavedModelError naming the file ---------------------

def _edit_json(path, edit):
    p = os.path.join(path, "saved_model.json")
    with open(p) as f:
        doc = json.load(f)
    edit(doc)
    with open(p, "w") as f:
        json.dump(doc, f)


def _node(doc, name):
    return next(n for n in doc["functions"]["affine"][0]["nodes"] if n["name"] == name)


def _truncate(path):
    p = os.path.join(path, "saved_model.json")
    text = open(p).read()
    open(p, "w").write(text[: len(text) // 2])


def _pickled_npz(path):
    arr = np.empty(1, dtype=object)
    arr[0] = {"evil": 1}
    np.savez(os.path.join(path, "constants.npz"), c0=arr)


def _wrong_shape_constant(path):
    with np.load(os.path.join(path, "constants.npz")) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["c0"] = np.zeros(5, np.float32)
    np.savez(os.path.join(path, "constants.npz"), **arrays)


BAD = [
    ("missing json", lambda p: os.remove(os.path.join(p, "saved_model.json")),
     r"saved_model.json is missing"),
    ("missing npz", lambda p: os.remove(os.path.join(p, "constants.npz")),
     r"constants.npz is missing"),
    ("truncated json", _truncate, r"saved_model.json is not valid JSON .* truncated or edited"),
    ("future version", lambda p: _edit_json(p, lambda d: d.update(version=99)),
     r"format version 99; this runtime reads version 1"),
    ("not ours", lambda p: _edit_json(p, lambda d: d.update(format="other")),
     r"is not a runtime.saved_model file"),
    ("unknown op", lambda p: _edit_json(p, lambda d: _node(d, "Mul").update(op="os.system")),
     r"node 'Mul': unknown op 'os.system'"),
    ("dangling input", lambda p: _edit_json(p, lambda d: _node(d, "Mul").update(inputs=["nope:0"])),
     r"reference to unknown tensor 'nope:0'"),
    ("bad attr tag", lambda p: _edit_json(
        p, lambda d: _node(d, "x")["attrs"].update(dtype={"pickle": "x"})),
     r"unknown attr tag"),
    ("bad dtype", lambda p: _edit_json(
        p, lambda d: _node(d, "x")["attrs"].update(dtype={"dtype": "complex512"})),
     r"unknown dtype 'complex512'"),
    ("pickled npz", _pickled_npz, r"constants.npz holds pickled Python objects"),
    ("garbage npz", lambda p: open(os.path.join(p, "constants.npz"), "wb").write(b"PK junk"),
     r"constants.npz is not a valid .npz file"),
    ("wrong constant", _wrong_shape_constant,
     r"constant 'c0' in constants.npz should be <f4 \[2\], found <f4 \[5\]"),
]


@pytest.mark.parametrize("name, damage, message", BAD, ids=[b[0] for b in BAD])
def test_bad_directories_are_clear_errors(saved, name, damage, message):
    damage(saved)
    with pytest.raises(SavedModelError, match=message) as e:
        saved_model.load(saved)
    assert isinstance(e.value, ValueError)
    assert saved in str(e.value)


def test_missing_directory(tmp_path):
    with pytest.raises(SavedModelError, match="is not a directory"):
        saved_model.load(str(tmp_path / "nowhere"))
