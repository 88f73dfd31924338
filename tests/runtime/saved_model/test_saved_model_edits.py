"""saved_model.load on edited files: a node its op could not have made, a
control-flow node whose branches or body do not line up, and malformed
structure fields are each a SavedModelError naming the file, raised by load
(not an AttributeError, KeyError, IndexError or SyntaxError from the executor
at the first call)."""

import copy
import functools
import importlib
import json
import os

import numpy as np
import pytest

import runtime as tf
from runtime import saved_model
from runtime.saved_model import SavedModelError
from runtime._src.saved_model.load import LoadedFunction

# the module (the package's `load` is the function)
load_module = importlib.import_module("runtime._src.saved_model.load")


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(self, x):
        total = tf.constant(0.0)
        i = tf.constant(0)
        while i < 2:
            if tf.reduce_sum(x) > 0:
                total += tf.reduce_sum(x) * self.scale
            else:
                total -= 1.0
            i += 1
        return {"total": total, "pair": (x, 3)}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("edits") / "model")
    m = Model()
    m.f(tf.constant([1.0]))
    saved_model.save(m, path)
    with open(os.path.join(path, "saved_model.json")) as fh:
        return path, json.load(fh)


def _write(path, doc):
    """Write the document over the file in place, then cut what is left of the
    old one: no truncation to zero first, which frees every block and on ext4
    mounted with `discard` took 0.5-2 ms of waiting each (the sweep writes 2,500)."""
    fd = os.open(os.path.join(path, "saved_model.json"), os.O_WRONLY | os.O_CREAT)
    with open(fd, "w") as fh:
        fh.write(json.dumps(doc))       # one-shot: json's C encoder (json.dump is Python's)
        fh.truncate()


def _find(doc, op):
    """The first node with `op`, searching the graph of `f` and its subgraphs."""
    stack = [doc["functions"]["f"][0]]
    while stack:
        graph = stack.pop(0)
        for node in graph["nodes"]:
            if node["op"] == op:
                return node
            stack += [a["graph"] for a in node["attrs"].values() if "graph" in a]
    raise LookupError(op)


def _sub(doc, op, attr):
    return _find(doc, op)["attrs"][attr]["graph"]


def _drop_unused_capture(graph):
    used = {i for n in graph["nodes"] for i in n["inputs"]} | set(graph["outputs"])
    unused = next(c for c in graph["captures"] if c[1] not in used)
    graph["captures"].remove(unused)
    graph["nodes"] = [n for n in graph["nodes"] if n["name"] + ":0" != unused[1]]


def _load_edited(saved, edit, tmp_path):
    path, doc = saved
    doc = copy.deepcopy(doc)
    edit(doc)
    target = str(tmp_path / "edited")
    os.makedirs(target)
    for name in ("constants.npz", "variables.npz"):
        with open(os.path.join(path, name), "rb") as src, \
                open(os.path.join(target, name), "wb") as dst:
            dst.write(src.read())
    _write(target, doc)
    return target, lambda: saved_model.load(target)


def test_unedited_model_loads_and_runs(saved, tmp_path):
    _, load = _load_edited(saved, lambda doc: None, tmp_path)
    out = load().f(np.array([1.0, 2.0], np.float32))
    assert float(out["total"]) == 12.0 and out["pair"][1] == 3


EDITS = [
    ("Const without its value",
     lambda d: _find(d, "Const")["attrs"].pop("value"),
     r"node 'Const': op 'Const' cannot take 0 input\(s\) and attrs \['dtype'\]"),
    ("reduction without its attrs",
     lambda d: _find(d, "Sum").update(attrs={}),
     r"node 'Sum': op 'Sum' cannot take 1 input\(s\) and attrs \[\]"),
    ("binary op with one input",
     lambda d: _find(d, "Less").update(inputs=_find(d, "Less")["inputs"][:1]),
     r"op 'Less' cannot take 1 input\(s\)"),
    ("output dtype edited",
     lambda d: _find(d, "Sum")["outputs"][0].update(dtype="int32"),
     r"output 0 is listed as int32\[\] but op 'Sum' gives float32\[\]"),
    ("extra output listed",
     lambda d: _find(d, "Sum")["outputs"].append({"dtype": "float32", "shape": []}),
     r"op 'Sum' has 1 outputs, the file lists 2"),
    ("Const value of another dtype",
     lambda d: (_find(d, "Const")["attrs"].update(dtype={"dtype": "float64"}),
                _find(d, "Const")["outputs"][0].update(dtype="float64")),
     r"node 'Const': Const value has numpy dtype float32, the node is float64"),
    ("If branch returning nothing",
     lambda d: _sub(d, "If", "then_branch").update(outputs=[]),
     r"op 'If' rejects its inputs or attrs: ValueError: the branches return 0 and 1 values"),
    ("If branch with a capture dropped",
     lambda d: _drop_unused_capture(_sub(d, "If", "else_branch")),
     r"If node is inconsistent: branch 'cond_false' has 1 captures for 2 captured input\(s\)"),
    ("While body returning one value too few",
     lambda d: _sub(d, "While", "body")["outputs"].pop(),
     r"While node is inconsistent: body '\w+' returns 1 value\(s\) for 2 loop variable\(s\)"),
    ("While num_loop_vars edited",
     lambda d: _find(d, "While")["attrs"].update(num_loop_vars={"py": 99}),
     r"While node is inconsistent: num_loop_vars=99 with 3 input\(s\)"),
    ("While condition that is not a bool",
     lambda d: _sub(d, "While", "cond").update(outputs=["i:0"]),
     r"cond '\w+' must return one bool"),
    ("graph input that is not a placeholder",
     lambda d: d["functions"]["f"][0].update(inputs=["Const:0"]),
     r"function 'f': graph 'f': Const is an input or capture but a Const node"),
    ("placeholder fed by nothing",
     lambda d: d["functions"]["f"][0].update(inputs=[]),
     r"function 'f': graph 'f': placeholder x is neither an input nor a capture"),
    ("output structure dict that is a number",
     lambda d: d["functions"]["f"][0].update(output_structure={"dict": 0}),
     r"output structure dict: expected dict, found int"),
    ("output structure with two tags",
     lambda d: d["functions"]["f"][0].update(output_structure={"output": 0, "py": 1}),
     r"bad output structure"),
    ("signatures that are a number",
     lambda d: d.update(signatures=7),
     r"signatures: expected list, found int"),
    ("function with no graph",
     lambda d: d["functions"].update(f=[]),
     r"function 'f': lists no traced graph"),
    ("functions that are a list",
     lambda d: d.update(functions=[]),
     r"functions: expected dict, found list"),
    ("constant key that is a list",
     lambda d: _find(d, "Const")["attrs"]["value"].update(array=["c0"]),
     r"constant \['c0'\] is missing from constants.npz"),
    ("variable key that is a list",
     lambda d: d["variables"][0].update(key=["v0"]),
     r"variables.npz: no array \['v0'\] for variable"),
]


@pytest.mark.parametrize("name, edit, message", EDITS, ids=[e[0] for e in EDITS])
def test_edited_json_is_a_clear_error_at_load(saved, tmp_path, name, edit, message):
    target, load = _load_edited(saved, edit, tmp_path)
    with pytest.raises(SavedModelError, match=message) as info:
        load()
    assert os.path.join(target, "saved_model.json") in str(info.value) \
        or os.path.join(target, "variables.npz") in str(info.value)


_REPLACEMENTS = [None, -1, "x:0", {}]


def _paths(value, prefix=()):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, child in items:
        yield prefix + (key,)
        yield from _paths(child, prefix + (key,))


def _set(doc, path, value):
    for key in path[:-1]:
        doc = doc[key]
    if value is _DELETE:
        del doc[path[-1]]
    else:
        doc[path[-1]] = copy.deepcopy(value)


_DELETE = object()


def test_no_single_edit_of_the_json_crashes_load_or_the_first_call(saved, tmp_path,
                                                                   monkeypatch):
    """Every field replaced by each of a few wrong values, or deleted: load raises
    SavedModelError, or the loaded function runs or fails as a call can fail
    (a wrong argument, an op's InvalidArgumentError); never an internal error.
    Only the JSON is edited: the two .npz files are read once (fresh copies of
    their arrays each load), not 1,500 times (the damaged-.npz tests below
    read theirs)."""
    path, doc = saved
    read_npz = functools.cache(load_module._read_npz)
    monkeypatch.setattr(load_module, "_read_npz",
                        lambda p: {k: a.copy() for k, a in read_npz(p).items()})
    target = str(tmp_path / "sweep")
    os.makedirs(target)
    for name in ("constants.npz", "variables.npz"):
        with open(os.path.join(path, name), "rb") as src, \
                open(os.path.join(target, name), "wb") as dst:
            dst.write(src.read())
    x = np.array([1.0, 2.0], np.float32)
    outcomes = {"rejected": 0, "ran": 0, "call failed": 0}
    paths = list(_paths(doc))
    assert len(paths) > 300
    text = json.dumps(doc)
    for field in paths:
        for replacement in _REPLACEMENTS + [_DELETE]:
            edited = json.loads(text)           # a fresh copy, parsed in C
            _set(edited, field, replacement)
            _write(target, edited)
            try:
                loaded = saved_model.load(target)
            except SavedModelError:
                outcomes["rejected"] += 1
                continue
            try:
                for fn in vars(loaded).values():
                    if isinstance(fn, LoadedFunction):
                        fn(x)
                outcomes["ran"] += 1
            except (TypeError, tf.errors.OpError):
                outcomes["call failed"] += 1
    assert outcomes["rejected"] > 10 * outcomes["call failed"], outcomes
    assert outcomes["ran"] > 0, outcomes


# --- variables.npz: the Variables' values ------------------------------------------

def _copy_model(saved, target):
    path, doc = saved
    os.makedirs(target)
    for name in ("constants.npz", "variables.npz", "saved_model.json"):
        with open(os.path.join(path, name), "rb") as src, \
                open(os.path.join(target, name), "wb") as dst:
            dst.write(src.read())
    return os.path.join(target, "variables.npz")


def _pickled(arrays):
    arr = np.empty(1, dtype=object)
    arr[0] = {"evil": 1}
    return dict(arrays, v0=arr)


VARIABLE_DAMAGE = [
    ("wrong shape", lambda a: dict(a, v0=np.zeros(3, np.float32)),
     r"variables.npz: variable 'Variable:0' should be <f4 \[\], found <f4 \[3\]"),
    ("wrong dtype", lambda a: dict(a, v0=np.float64(2.0)),
     r"variables.npz: variable 'Variable:0' should be <f4 \[\], found <f8 \[\]"),
    ("missing value", lambda a: {"other": np.float32(1.0)},
     r"variables.npz: no array 'v0' for variable 'Variable:0'"),
    ("pickled object", _pickled, r"variables.npz holds pickled Python objects"),
]


@pytest.mark.parametrize("name, damage, message", VARIABLE_DAMAGE,
                         ids=[d[0] for d in VARIABLE_DAMAGE])
def test_damaged_variable_values_are_clear_errors(saved, tmp_path, name, damage, message):
    npz = _copy_model(saved, str(tmp_path / "m"))
    with np.load(npz) as data:
        arrays = {k: data[k] for k in data.files}
    np.savez(npz, **damage(arrays))
    with pytest.raises(SavedModelError, match=message) as info:
        saved_model.load(str(tmp_path / "m"))
    assert npz in str(info.value)


def test_missing_variables_file(saved, tmp_path):
    npz = _copy_model(saved, str(tmp_path / "m"))
    os.remove(npz)
    with pytest.raises(SavedModelError, match=r"variables.npz is missing: the directory is not "
                                              r"a complete saved model"):
        saved_model.load(str(tmp_path / "m"))
