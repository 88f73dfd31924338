"""`save(obj, export_dir, signatures=None)`: write traced functions and
variables of `obj` in the format of `runtime._src.saved_model.format`.

Saved functions: attributes of `obj` that are concrete functions (they have
a `.graph`) or `runtime.function`s with an `input_signature` or already
traced (every traced signature is kept), plus `signatures` (one function or
a dict name -> function; a single one is named "serving_default").
Variables: those the graphs use, plus `obj.variables` for a `Module`.
With no `signatures`, an object with a `_default_save_signature()` method
(a Keras model) gets what it returns as "serving_default", as in TensorFlow.
"""

import json
import os

import numpy as np

from runtime._src.core import nest
from runtime._src.graph.graph import Graph
from runtime._src.function.function import function
from runtime._src.function.module import Module, is_variable
from runtime._src.core.tensor import Tensor
from runtime._src.core.composite import type_spec_of
from runtime._src.core.spec_json import spec_to_json
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.signature import CompositeArgument
from runtime._src.saved_model.asset import Asset, copy_assets
from runtime._src.saved_model.fingerprint import write_fingerprint
from runtime._src.saved_model.options import SaveOptions, check_options
from runtime._src.saved_model.format import (CONSTANTS_FILE, FORMAT_NAME, FORMAT_VERSION,
                                             JSON_FILE, VARIABLES_FILE, SavedModelError,
                                             encode_attr)

__all__ = ["save"]

_PY_FUNCTION_OPS = {"PyFunc", "EagerPyFunc", "PyFunction", "NumpyFunction"}


def save(obj, export_dir, signatures=None, options=None):
    """Save the functions and variables of `obj` to the directory `export_dir`
    (returns None, as TensorFlow's). `options`: a `SaveOptions` (no effect)."""
    check_options(options, SaveOptions, "save")
    default_signature = getattr(obj, "_default_save_signature", None)
    if signatures is None and callable(default_signature):
        signatures = default_signature()
    functions = _find_functions(obj)
    if callable(default_signature) and "__call__" not in functions:
        functions["__call__"] = _model_call(obj, signatures)
    functions.update(_signature_functions(signatures))
    if not functions:
        raise SavedModelError(f"save: {type(obj).__name__} has no function to save: decorate a "
                              "method with runtime.function(input_signature=...) or call it "
                              "once before saving, or pass signatures=")
    writer = _Writer()
    for path, var in (obj._flatten(is_variable, with_path=True) if isinstance(obj, Module) else []):
        writer.variable(var, path)
    signature_names = list(_signature_functions(signatures))     # in the given order, as TF
    doc = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "functions": {},
           "signatures": signature_names}
    for name, concretes in sorted(functions.items()):
        doc["functions"][name] = [writer.function(name, cf, name in signature_names)
                                  for cf in concretes]
    doc["variables"] = writer.variables_json
    os.makedirs(export_dir, exist_ok=True)
    found = obj._flatten(lambda x: isinstance(x, Asset), with_path=True) \
        if isinstance(obj, Module) else []
    if found:
        doc["assets"] = copy_assets(found, export_dir)
    np.savez(os.path.join(export_dir, CONSTANTS_FILE), **writer.arrays)
    np.savez(os.path.join(export_dir, VARIABLES_FILE), **writer.variable_values)
    document = json.dumps(doc, indent=1, sort_keys=True)
    write_fingerprint(export_dir, doc, document, writer.variable_values, FORMAT_VERSION)
    with open(os.path.join(export_dir, JSON_FILE), "w", encoding="utf-8") as f:
        f.write(document)                            # written last: marks a complete save


def _model_call(model, signatures):
    """A Keras model's `__call__` on its serving inputs (inference mode), so
    the loaded model is callable as tf_keras models saved by TensorFlow are."""
    serving = signatures.get("serving_default") if isinstance(signatures, dict) else signatures
    specs = getattr(serving, "input_signature", None)
    if specs is None:
        return []
    call = function(lambda inputs: model(inputs, training=False), input_signature=specs)
    return [call.get_concrete_function()]


def _concretes_of(fn):
    """The concrete functions of a runtime.function or a concrete function."""
    if isinstance(getattr(fn, "graph", None), Graph):
        return [fn]
    if not hasattr(fn, "get_concrete_function"):
        return []
    for lister in ("_list_all_concrete_functions", "list_concrete_functions"):
        if hasattr(fn, lister):
            found = list(getattr(fn, lister)())
            if found:
                return found
    if getattr(fn, "input_signature", None) is not None:
        return [fn.get_concrete_function()]
    return []


def _find_functions(obj):
    """Every attribute that is a traced function, dunder names (`__call__`)
    included, as TensorFlow saves them."""
    out = {}
    names = set(vars(obj)) if hasattr(obj, "__dict__") else set()
    names |= set(dir(type(obj)))
    for name in sorted(names):
        try:
            value = getattr(obj, name)
        except Exception:  # noqa: BLE001 - properties may fail; they are not functions
            continue
        concretes = _concretes_of(value)
        if concretes:
            out[name] = concretes
    return out


def _signature_functions(signatures):
    if signatures is None:
        return {}
    if not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    out = {}
    for name, fn in signatures.items():
        concretes = _concretes_of(fn)
        if not concretes:
            raise SavedModelError(f"save: signature {name!r} is not a concrete function or a "
                                  "runtime.function with an input_signature")
        out[name] = concretes[:1]
    return out


class _Writer:
    """Collects arrays and variables while graphs are encoded."""

    def __init__(self):
        self.arrays = {}
        self.variable_values = {}
        self.variables_json = []
        self._var_index = {}
        self.where = ""
        self.base_where = ""
        self._scopes = []

    def array(self, arr):
        key = f"c{len(self.arrays)}"
        self.arrays[key] = arr
        return key

    is_variable = staticmethod(is_variable)

    def variable(self, var, path=None):
        index = self._var_index.get(id(var))
        if index is None:
            index = self._var_index[id(var)] = len(self.variables_json)
            value = np.asarray(var.numpy())
            if value.dtype == object:
                raise SavedModelError(f"save: string variable {var.name!r} is not supported")
            self.variable_values[f"v{index}"] = value
            self.variables_json.append({"name": str(getattr(var, "name", f"v{index}")),
                                        "trainable": bool(getattr(var, "trainable", True)),
                                        "dtype": value.dtype.str, "shape": list(value.shape),
                                        "key": f"v{index}", "path": path})
        elif path and not self.variables_json[index]["path"]:
            self.variables_json[index]["path"] = path
        return index

    def function(self, name, cf, signature=False):
        """One trace of a function. A signature returns a dict, as TensorFlow's
        signatures do: a dict result keeps its keys, any other result's
        tensors become `output_0`, `output_1`, ..."""
        graph = cf.graph
        if graph.captures:
            raise SavedModelError(f"save: function {name!r} captures symbolic tensors of "
                                  "another graph, which cannot be saved")
        self.base_where = f"function {name!r}"
        data = self.graph(graph)
        data["output_structure"] = _output_structure(cf, graph, name)
        if signature:
            data["output_structure"] = _as_signature_outputs(data["output_structure"])
        parameters = _parameters(cf)
        if parameters is not None:
            data["parameters"] = parameters
        return data

    def graph(self, graph):
        names = {}
        self._scopes.append(names)
        nodes = []
        for node in graph.nodes:
            for i, t in enumerate(node.outputs):
                names[id(t)] = f"{node.name}:{i}"
            nodes.append(self._node(node, self.base_where))
        captures = [[self._outer_ref(outer), names[id(inner)]] for outer, inner in graph.captures]
        self._scopes.pop()
        return {"name": graph.name, "nodes": nodes, "captures": captures,
                "inputs": [names[id(t)] for t in graph.inputs],
                "outputs": [names[id(t)] for t in graph.outputs]}

    def _outer_ref(self, t):
        for depth, scope in enumerate(reversed(self._scopes[:-1]), start=1):
            if id(t) in scope:
                return [depth, scope[id(t)]]
        raise SavedModelError(f"save: {self.where}: a nested graph captures {t.name}, "
                              "which is not in an enclosing graph")

    def _node(self, node, where):
        self.where = f"{where}, node {node.name!r} ({node.op})"
        if node.op in _PY_FUNCTION_OPS or any(callable(v) and not isinstance(v, Graph)
                                             and not is_variable(v) for v in node.attrs.values()):
            raise SavedModelError(
                f"save: {where} uses py_function/numpy_function (node {node.name!r}), which "
                "runs Python code; graphs that call Python cannot be saved. Write that part "
                "with runtime ops instead.")
        scope = self._scopes[-1]
        return {"name": node.name, "op": node.op,
                "inputs": [scope[id(t)] for t in node.inputs],
                "attrs": {k: encode_attr(v, self) for k, v in sorted(node.attrs.items())},
                "outputs": [{"dtype": t.dtype.name,
                             "shape": None if t.shape.dims is None else list(t.shape.dims)}
                            for t in node.outputs]}


def _parameters(cf):
    """One entry per parameter of a traced function, `{"name": ..., <value>}`,
    where a value is `{"tensor": i}` (the i-th input), `{"py": literal}`, or a
    `{"list"|"tuple": [...]}` / `{"dict": {...}}` of values: a call may pass
    the Python values it was traced with again, as in TensorFlow. None when
    a parameter holds something else (an object, a Variable, *args)."""
    template = getattr(cf, "_template", None)
    call_sig = getattr(cf, "_call_sig", None)
    if template is None or call_sig is None:
        return None
    out, counter = [], [0]
    for name, kind, t in zip(call_sig.names, call_sig.kinds, template):
        value = _encode_parameter(t, counter)
        if kind in (kind.VAR_POSITIONAL, kind.VAR_KEYWORD) or value is None:
            return None
        out.append({"name": name, **value})
    return out


def _encode_parameter(t, counter):
    if isinstance(t, CompositeArgument):      # a SparseTensor, a RaggedTensor
        try:
            spec = spec_to_json(t.spec)
        except TypeError:
            return None
        first, counter[0] = counter[0], counter[0] + len(t.names)
        return {"composite": {"spec": spec, "tensors": list(range(first, counter[0]))}}
    if isinstance(t, TensorSpec):
        counter[0] += 1
        return {"tensor": counter[0] - 1}
    if t is None or isinstance(t, (bool, int, float, str)):
        return {"py": t}
    if type(t) in (list, tuple):
        items = [_encode_parameter(x, counter) for x in t]
        return None if None in items else {type(t).__name__: items}
    if type(t) is dict and all(isinstance(k, str) for k in t):
        items = {k: _encode_parameter(t[k], counter) for k in sorted(t)}
        return None if None in items.values() else {"dict": items}
    return None


def _as_signature_outputs(structure):
    if "dict" in structure and all("output" in v for v in structure["dict"].values()):
        return structure
    leaves = []

    def collect(s):
        if "output" in s:
            leaves.append(s)
        for key in ("list", "tuple"):
            for x in s.get(key, ()):
                collect(x)
        for x in s.get("dict", {}).values():
            collect(x)
    collect(structure)
    return {"dict": {f"output_{i}": leaf for i, leaf in enumerate(leaves)}}


def _output_structure(cf, graph, name):
    """Outputs as nested JSON: {"output": i}, {"py": value}, lists, tuples, dicts."""
    structured = getattr(cf, "structured_outputs", None)
    if structured is None:
        if len(graph.outputs) == 1:
            return {"output": 0}
        return {"tuple": [{"output": i} for i in range(len(graph.outputs))]}
    counter = [0]
    index_of = {id(t): i for i, t in enumerate(graph.outputs)}
    # A traced ConcreteFunction maps result leaves to outputs by position (the
    # optimizer may replace graph.outputs entries); hand-built ones by identity.
    by_identity = not hasattr(cf, "_outputs") and all(
        id(t) in index_of for t in nest.flatten(structured) if isinstance(t, Tensor))

    def encode(v):
        if isinstance(v, Tensor):
            counter[0] += 1
            return {"output": index_of[id(v)] if by_identity else counter[0] - 1}
        spec = type_spec_of(v)
        if spec is not None:                   # a SparseTensor, a RaggedTensor
            try:
                data = spec_to_json(spec)
            except TypeError as e:
                raise SavedModelError(f"save: function {name!r} returns {e}") from None
            return {"composite": {"spec": data, "outputs": [
                encode(c)["output"] for c in spec._to_components(v)]}}
        if v is None or isinstance(v, (bool, int, float, str)):
            return {"py": v}
        if isinstance(v, (list, tuple)):
            return {"list" if isinstance(v, list) else "tuple": [encode(x) for x in v]}
        if isinstance(v, dict):
            return {"dict": {str(k): encode(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}}
        raise SavedModelError(f"save: function {name!r} returns a {type(v).__name__}, which "
                              "cannot be saved")
    out = encode(structured)
    if counter[0] != len(graph.outputs):
        raise SavedModelError(f"save: function {name!r}: {counter[0]} tensor outputs in its "
                              f"structure but {len(graph.outputs)} graph outputs")
    return out
