"""`load(export_dir)`: read a saved model and return an object whose
attributes and `.signatures` run the saved graphs.

Everything is checked before anything is returned: the JSON's format name and
version, every node's op (it must be registered; nothing from the files is
imported or executed), every tensor reference, and that each array in the
.npz files exists with the declared dtype and shape. Each node must also be
one its op could have made: its inputs and attrs fit the op's kernel, the
op's dtype/shape rule accepts them and gives the listed outputs, and an
`If`/`While` node's branches and body line up with its inputs and outputs.
So an edited file fails here, not later inside the executor. Any problem
raises `SavedModelError` (a ValueError) naming the file and the problem.
"""

import inspect
import json
import os
import zipfile

import numpy as np

from runtime._src.exec import executor
from runtime._src.core.dtypes import as_dtype
from runtime._src.graph.graph import Graph, Node
from runtime._src.core import context as _context
from runtime._src.graph.op_registry import OPS
from runtime._src.core.tensor import (EagerTensor, SymbolicTensor, Tensor, convert_to_tensor,
                                      wrap_numpy)
from runtime._src.core.composite import type_spec_of
from runtime._src.core.spec_json import spec_from_json
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.saved_model.format import (CONSTANTS_FILE, FORMAT_NAME, FORMAT_VERSION,
                                             JSON_FILE, VARIABLES_FILE, SavedModelError,
                                             decode_attr)
from runtime._src.autodiff.control_flow_grad import replay
from runtime._src.autodiff.function_call import TapedGraph
from runtime._src.function.concrete_function import run_recorded
from runtime._src.function.variables import Variable
from runtime._src.saved_model.asset import ASSETS_DIRECTORY, Asset
from runtime._src.saved_model.options import LoadOptions, check_options

__all__ = ["load", "LoadedModel", "LoadedFunction", "NoMatchingFunctionError"]


def load(export_dir, tags=None, options=None):
    """Load the saved model in `export_dir` (`tags` and `options`, a
    `LoadOptions`, are accepted as TensorFlow's and have no effect here)."""
    check_options(options, LoadOptions, "load")
    export_dir = os.fspath(export_dir)
    if not os.path.isdir(export_dir):
        raise SavedModelError(f"load: {export_dir!r} is not a directory")
    doc = _read_json(os.path.join(export_dir, JSON_FILE))
    arrays = _read_npz(os.path.join(export_dir, CONSTANTS_FILE))
    values = _read_npz(os.path.join(export_dir, VARIABLES_FILE))
    ctx = _Reader(os.path.join(export_dir, JSON_FILE), arrays)
    assets = ctx.assets(doc.get("assets", []), export_dir)
    variables = ctx.variables(doc.get("variables"), values, os.path.join(export_dir, VARIABLES_FILE))
    functions = {}
    for name, concretes in ctx.typed(doc.get("functions"), dict, "functions").items():
        ctx.where = f"function {name!r}"
        graphs = [ctx.function(name, c) for c in ctx.typed(concretes, list, "function")]
        if not graphs:
            raise ctx.error("lists no traced graph")
        functions[name] = LoadedFunction(name, graphs)
    ctx.where = "saved_model.json"
    signature_names = ctx.typed(doc.get("signatures", []), list, "signatures")
    if not all(isinstance(n, str) for n in signature_names):
        raise ctx.error(f"expected a list of function names, found {signature_names!r:.60}")
    signatures = {n: functions[n] for n in signature_names if n in functions}
    kind = CallableLoadedModel if "__call__" in functions else LoadedModel
    model = kind(functions, signatures, variables, ctx.var_paths)
    for path, asset in assets.items():
        if path.isidentifier() and not hasattr(model, path):
            setattr(model, path, asset)
    return model


def _read_json(path):
    if not os.path.isfile(path):
        raise SavedModelError(f"load: {path} is missing: the directory is not a complete "
                              "saved model")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except json.JSONDecodeError as e:
        raise SavedModelError(f"load: {path} is not valid JSON ({e.msg} at line {e.lineno}, "
                              f"column {e.colno}); the file is truncated or edited") from None
    except UnicodeDecodeError as e:
        raise SavedModelError(f"load: {path} is not UTF-8 text ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise SavedModelError(f"load: {path} is not a {FORMAT_NAME} file")
    if doc.get("version") != FORMAT_VERSION:
        raise SavedModelError(f"load: {path} has format version {doc.get('version')!r}; this "
                              f"runtime reads version {FORMAT_VERSION}")
    return doc


def _read_npz(path):
    if not os.path.isfile(path):
        raise SavedModelError(f"load: {path} is missing: the directory is not a complete "
                              "saved model")
    if not zipfile.is_zipfile(path):
        raise SavedModelError(f"load: {path} is not a valid .npz file (not a zip archive)")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except ValueError as e:
        raise SavedModelError(f"load: {path} holds pickled Python objects, which are never "
                              f"loaded ({e})") from None
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise SavedModelError(f"load: {path} is not a valid .npz file ({e})") from None


class _Reader:
    """Decodes the JSON into graphs, checking every reference."""

    def __init__(self, path, arrays):
        self.path = path
        self.arrays = arrays
        self.where = "saved_model.json"
        self.loaded_variables = []
        self.var_paths = {}
        self._scopes = []
        self._moved = {}           # an asset's saved path (bytes) -> its copy's path

    def assets(self, entries, export_dir):
        """The Assets (attribute path -> Asset of the copy in assets/)."""
        out = {}
        for i, e in enumerate(self.typed(entries, list, "assets")):
            self.where = f"asset {i}"
            e = self.typed(e, dict, "asset")
            name, path, source = e.get("filename"), e.get("path"), e.get("source")
            if not all(isinstance(v, str) for v in (name, path, source)) or \
                    os.path.basename(name) != name or name in ("", ".", ".."):
                raise self.error(f"bad asset entry {e!r:.80}")
            copy = os.path.join(export_dir, ASSETS_DIRECTORY, name)
            if not os.path.isfile(copy):
                raise self.error(f"asset file {copy} is missing")
            out[path] = Asset(copy)
            self._moved[source.encode("utf-8")] = copy.encode("utf-8")
        return out

    def error(self, message):
        return SavedModelError(f"load: {self.path}: {self.where}: {message}")

    def typed(self, value, kind, what):
        if not isinstance(value, kind):
            raise self.error(f"{what}: expected {kind.__name__}, found {type(value).__name__}")
        return value

    def variables(self, entries, values, npz_path):
        specs = []
        for i, e in enumerate(self.typed(entries, list, "variables")):
            self.where = f"variable {i}"
            e = self.typed(e, dict, "variable")
            value = values.get(e.get("key")) if isinstance(e.get("key"), str) else None
            if value is None:
                raise SavedModelError(f"load: {npz_path}: no array {e.get('key')!r} for "
                                      f"variable {e.get('name')!r}")
            if value.dtype.str != e.get("dtype") or list(value.shape) != e.get("shape"):
                raise SavedModelError(
                    f"load: {npz_path}: variable {e.get('name')!r} should be {e.get('dtype')} "
                    f"{e.get('shape')}, found {value.dtype.str} {list(value.shape)}")
            specs.append((e, value))
        for i, (e, value) in enumerate(specs):  # all checked: now create them
            name = str(e.get("name", f"v{i}")).split(":")[0]
            self.loaded_variables.append(Variable(value, name=name,
                                                  trainable=bool(e.get("trainable", True))))
            if isinstance(e.get("path"), str):
                self.var_paths[e["path"]] = self.loaded_variables[-1]
        return self.loaded_variables

    # --- the attr-codec context ---------------------------------------------------

    def array(self, data):
        arr = self.arrays.get(data.get("array")) if isinstance(data.get("array"), str) else None
        if arr is None:
            raise self.error(f"constant {data.get('array')!r} is missing from {CONSTANTS_FILE}")
        if arr.dtype.str != data.get("dtype") or list(arr.shape) != data.get("shape"):
            raise self.error(f"constant {data['array']!r} in {CONSTANTS_FILE} should be "
                             f"{data.get('dtype')} {data.get('shape')}, found {arr.dtype.str} "
                             f"{list(arr.shape)}")
        return arr[()] if data.get("scalar") else arr

    def variable(self, index):
        if not isinstance(index, int) or not 0 <= index < len(self.loaded_variables):
            raise self.error(f"unknown variable {index!r}")
        return self.loaded_variables[index]

    def graph(self, data):
        return self._graph(data)

    # --- graphs -------------------------------------------------------------------

    def function(self, name, data):
        self.where = f"function {name!r}"
        data = self.typed(data, dict, self.where)
        graph = self._graph(data)
        graph.output_structure = data.get("output_structure")
        _check_structure(graph.output_structure, len(graph.outputs), self)
        graph.parameters = self._parameters(data.get("parameters"), len(graph.inputs))
        return graph

    def _parameters(self, data, n_inputs):
        """The saved parameter list (see save._parameters), checked, or None."""
        if data is None:
            return None
        data = self.typed(data, list, "parameters")
        tensors = []
        for p in data:
            p = self.typed(p, dict, "parameter")
            if not isinstance(p.get("name"), str):
                raise self.error(f"bad parameter {p!r:.60}")
            self._parameter_value({k: v for k, v in p.items() if k != "name"}, tensors)
        if tensors != list(range(n_inputs)):
            raise self.error(f"parameters name {len(tensors)} tensors, the graph has "
                             f"{n_inputs} inputs")
        return data

    def _parameter_value(self, value, tensors):
        if not isinstance(value, dict) or len(value) != 1:
            raise self.error(f"bad parameter value {value!r:.60}")
        (kind, v), = value.items()
        if kind == "tensor" and isinstance(v, int) and not isinstance(v, bool):
            tensors.append(v)
        elif kind == "py" and (v is None or isinstance(v, (bool, int, float, str))):
            pass
        elif kind in ("list", "tuple") and isinstance(v, list):
            for x in v:
                self._parameter_value(x, tensors)
        elif kind == "dict" and isinstance(v, dict):
            for x in v.values():
                self._parameter_value(x, tensors)
        elif kind == "composite" and isinstance(v, dict):
            parts = v.get("tensors")
            spec = self._composite_spec(v)
            if not isinstance(parts, list) or len(parts) != len(spec._component_specs) or \
                    not all(isinstance(i, int) and not isinstance(i, bool) for i in parts):
                raise self.error(f"bad composite parameter {value!r:.60}")
            tensors.extend(parts)
        else:
            raise self.error(f"bad parameter value {value!r:.60}")

    def _composite_spec(self, v):
        try:
            return spec_from_json(v.get("spec"))
        except (ValueError, TypeError) as e:
            raise self.error(str(e)) from None

    def _graph(self, data):
        data = self.typed(data, dict, "graph")
        graph = Graph(str(data.get("name", "graph")))
        scope = {}
        self._scopes.append(scope)
        for nd in self.typed(data.get("nodes"), list, "nodes"):
            node = self._node(graph, nd, scope)
            graph.nodes.append(node)
            graph._names[node.name] = 1
        graph.inputs = [self._ref(scope, r) for r in self.typed(data.get("inputs"), list, "inputs")]
        graph.outputs = [self._ref(scope, r) for r in self.typed(data.get("outputs"), list, "outputs")]
        for cap in self.typed(data.get("captures", []), list, "captures"):
            if not (isinstance(cap, list) and len(cap) == 2 and isinstance(cap[0], list)
                    and len(cap[0]) == 2 and isinstance(cap[0][0], int) and 1 <= cap[0][0] < len(self._scopes)):
                raise self.error(f"bad capture {cap!r}")
            outer = self._ref(self._scopes[-1 - cap[0][0]], cap[0][1])
            graph.captures.append((outer, self._ref(scope, cap[1])))
        self._scopes.pop()
        self.where = self.where.split(", node")[0]
        self._check_placeholders(graph)
        return graph

    def _check_placeholders(self, graph):
        """Inputs and captures are distinct Placeholders, and every Placeholder is one."""
        fed = list(graph.inputs) + [inner for _, inner in graph.captures]
        for t in fed:
            if t.node.op != "Placeholder":
                raise self.error(f"graph {graph.name!r}: {t.node.name} is an input or capture "
                                 f"but a {t.node.op} node, not a Placeholder")
        if len({id(t) for t in fed}) != len(fed):
            raise self.error(f"graph {graph.name!r}: a placeholder is fed twice")
        fed = {id(t) for t in fed}
        for node in graph.nodes:
            if node.op == "Placeholder" and id(node.outputs[0]) not in fed:
                raise self.error(f"graph {graph.name!r}: placeholder {node.name} is neither "
                                 "an input nor a capture")

    def _node(self, graph, nd, scope):
        nd = self.typed(nd, dict, "node")
        name, op = nd.get("name"), nd.get("op")
        if not isinstance(name, str) or not isinstance(op, str) or f"{name}:0" in scope:
            raise self.error(f"bad or duplicate node name {name!r}")
        where = self.where = f"{self.where.split(', node')[0]}, node {name!r}"
        if op not in OPS:
            raise self.error(f"unknown op {op!r} (not registered in this runtime)")
        inputs = [self._ref(scope, r) for r in self.typed(nd.get("inputs"), list, "inputs")]
        attrs = {k: decode_attr(v, self) for k, v in self.typed(nd.get("attrs"), dict, "attrs").items()}
        if op == "Const" and self._moved:
            attrs = self._asset_constant(attrs)
        self.where = where      # decoding a subgraph attr moved it to the subgraph's nodes
        node = Node(graph, name, OPS[op], inputs, attrs, None)
        outs = []
        for i, spec in enumerate(self.typed(nd.get("outputs"), list, "outputs")):
            spec = self.typed(spec, dict, "output")
            dtype = decode_attr({"dtype": spec.get("dtype")}, self)
            shape = decode_attr({"shape": spec.get("shape")}, self)
            outs.append(SymbolicTensor(node, i, dtype, shape))
            scope[f"{name}:{i}"] = outs[-1]
        expected = OPS[op].num_outputs
        if expected is not None and expected != len(outs):  # None: If/While, any count
            raise self.error(f"op {op!r} has {expected} outputs, the file lists {len(outs)}")
        node.outputs = tuple(outs)
        self._check_node(node)
        return node

    def _asset_constant(self, attrs):
        """A string constant naming a saved asset now names its copy."""
        value = attrs.get("value")
        if isinstance(value, np.ndarray) and value.dtype == object and value.shape == ():
            moved = self._moved.get(value.item())
            if moved is not None:
                attrs = dict(attrs, value=np.array(moved, dtype=object))
        elif isinstance(value, bytes) and value in self._moved:
            attrs = dict(attrs, value=self._moved[value])
        return attrs

    def _check_node(self, node):
        """The node is one its op could have made (see the module docstring)."""
        opdef = node.opdef
        try:
            _kernel_signature(opdef).bind(*node.inputs, **node.attrs)
        except TypeError as e:
            raise self.error(f"op {node.op!r} cannot take {len(node.inputs)} input(s) and "
                             f"attrs {sorted(node.attrs)}: {e}") from None
        check = _STRUCTURE.get(node.op)
        if check is not None:
            problem = check(node)
            if problem:
                raise self.error(f"{node.op} node is inconsistent: {problem}")
        try:
            specs = [(as_dtype(dtype), TensorShape(shape))
                     for dtype, shape in opdef.infer(list(node.inputs), node.attrs)]
        except Exception as e:  # noqa: BLE001 - any failure of the rule means bad data
            raise self.error(f"op {node.op!r} rejects its inputs or attrs: "
                             f"{type(e).__name__}: {e}") from None
        if len(specs) != len(node.outputs):
            raise self.error(f"op {node.op!r} gives {len(specs)} output(s) here, the file "
                             f"lists {len(node.outputs)}")
        for i, ((dtype, shape), out) in enumerate(zip(specs, node.outputs)):
            if dtype != out.dtype or not shape.is_compatible_with(out.shape):
                raise self.error(f"output {i} is listed as {out.dtype.name}{_dims(out.shape)} "
                                 f"but op {node.op!r} gives {dtype.name}{_dims(shape)}")
        if node.op == "Const":
            value = node.attrs.get("value")
            if np.asarray(value).dtype != node.outputs[0].dtype.np_dtype:
                raise self.error(f"Const value has numpy dtype {np.asarray(value).dtype}, the "
                                 f"node is {node.outputs[0].dtype.name}")

    def _ref(self, scope, ref):
        t = scope.get(ref) if isinstance(ref, str) else None
        if t is None:
            raise self.error(f"reference to unknown tensor {ref!r} (tensors must be defined "
                             "before use)")
        return t


_KERNEL_SIGNATURES = {}


def _kernel_signature(opdef):
    sig = _KERNEL_SIGNATURES.get(opdef.name)
    if sig is None:
        sig = _KERNEL_SIGNATURES[opdef.name] = inspect.signature(opdef.kernel)
    return sig


def _dims(shape):
    return "[?]" if shape.dims is None else "[" + ",".join(
        "None" if d is None else str(d) for d in shape.dims) + "]"


def _check_if(node):
    branches = [node.attrs.get("then_branch"), node.attrs.get("else_branch")]
    if not node.inputs or not all(isinstance(g, Graph) for g in branches):
        return "it needs a condition input and then_branch/else_branch graphs"
    if node.inputs[0].dtype.name != "bool":
        return f"the condition is {node.inputs[0].dtype.name}, not bool"
    for g in branches:
        if g.inputs:
            return f"branch {g.name!r} has inputs; branches take only captures"
        if len(g.captures) != len(node.inputs) - 1:
            return (f"branch {g.name!r} has {len(g.captures)} captures for "
                    f"{len(node.inputs) - 1} captured input(s)")
    return None


def _check_while(node):
    cond, body = node.attrs.get("cond"), node.attrs.get("body")
    n, limited = node.attrs.get("num_loop_vars"), node.attrs.get("has_maximum_iterations")
    if not (isinstance(cond, Graph) and isinstance(body, Graph) and isinstance(limited, bool)
            and isinstance(n, int) and not isinstance(n, bool)):
        return "it needs cond and body graphs, num_loop_vars and has_maximum_iterations"
    if not 0 <= n <= len(node.inputs) - limited:
        return f"num_loop_vars={n} with {len(node.inputs)} input(s)"
    loop_vars = node.inputs[:n]
    captured = len(node.inputs) - n - limited
    for g in (cond, body):
        if len(g.inputs) != n or len(g.captures) != captured:
            return (f"{g.name!r} takes {len(g.inputs)} loop variable(s) and "
                    f"{len(g.captures)} capture(s), the node has {n} and {captured}")
        for t, v in zip(g.inputs, loop_vars):
            if t.dtype != v.dtype:
                return f"{g.name!r} input {t.node.name} is {t.dtype.name}, not {v.dtype.name}"
    if len(cond.outputs) != 1 or cond.outputs[0].dtype.name != "bool":
        return f"cond {cond.name!r} must return one bool"
    if len(body.outputs) != n:
        return f"body {body.name!r} returns {len(body.outputs)} value(s) for {n} loop variable(s)"
    for t, v in zip(body.outputs, loop_vars):
        if t.dtype != v.dtype:
            return f"body {body.name!r} returns {t.dtype.name} for a {v.dtype.name} loop variable"
    if limited and node.inputs[-1].dtype.name not in ("int32", "int64"):
        return f"maximum_iterations is {node.inputs[-1].dtype.name}, not an integer"
    return None


_STRUCTURE = {"If": _check_if, "While": _check_while}


def _check_structure(s, n, ctx):
    if not isinstance(s, dict) or len(s) != 1:
        raise ctx.error(f"bad output structure {s!r:.60}")
    (tag, value), = s.items()
    if tag == "output":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
            raise ctx.error(f"output structure refers to output {value!r} of {n}")
    elif tag in ("list", "tuple"):
        for v in ctx.typed(value, list, f"output structure {tag}"):
            _check_structure(v, n, ctx)
    elif tag == "dict":
        for v in ctx.typed(value, dict, "output structure dict").values():
            _check_structure(v, n, ctx)
    elif tag == "py":
        if value is not None and not isinstance(value, (bool, int, float, str)):
            raise ctx.error(f"bad constant {value!r:.60} in the output structure")
    elif tag == "composite":
        value = ctx.typed(value, dict, "composite output")
        spec = ctx._composite_spec(value)
        outs = ctx.typed(value.get("outputs"), list, "composite outputs")
        if len(outs) != len(spec._component_specs):
            raise ctx.error(f"composite output {spec!r} lists {len(outs)} outputs")
        for i in outs:
            _check_structure({"output": i}, n, ctx)
    else:
        raise ctx.error(f"bad output structure {s!r:.60}")


class LoadedFunction:
    """A saved function: call it with tensors, numpy values or Python numbers."""

    def __init__(self, name, graphs):
        self.__name__ = name
        self.graphs = graphs

    @property
    def graph(self):
        return self.graphs[0]

    @property
    def structured_input_signature(self):
        """(args, kwargs) of the first saved trace: a TensorSpec per input."""
        return tuple(TensorSpec(t.shape, t.dtype, t.node.name) for t in self.graph.inputs), {}

    def __call__(self, *args, **kwargs):
        errors = []
        tracing = _context.state.graph is not None
        for graph in self.graphs:
            try:
                tensor_args, tensor_kwargs = _bind(self.__name__, graph, args, kwargs)
                if tracing:      # inside a tf.function: the saved graph joins the trace
                    return _pack(graph.output_structure, _inlined(
                        graph, _symbolic_feeds(self.__name__, graph, tensor_args,
                                               tensor_kwargs)))
                feeds = _feeds(self.__name__, graph, tensor_args, tensor_kwargs)
            except (TypeError, ValueError) as e:
                errors.append(str(e))
                continue
            if getattr(_context.state, "tapes", None):     # a GradientTape is recording
                inputs = _input_tensors(graph, feeds, tensor_args, tensor_kwargs)
                return _pack(graph.output_structure, self._taped(graph, inputs))
            outputs = [wrap_numpy(v) for v in executor.run(graph, feeds)]
            return _pack(graph.output_structure, outputs)
        raise NoMatchingFunctionError(
            "Could not find matching concrete function to call loaded from the SavedModel. "
            f"Got:\n  Positional arguments ({len(args)} total): {args!r}\n  Keyword arguments: "
            f"{kwargs!r}\n{self.__name__}: the arguments match none of its "
            f"{len(self.graphs)} saved signature(s):\n  " + "\n  ".join(errors))

    def _taped(self, graph, inputs):
        """The outputs of a call under recording tapes: one recorded op, as a
        traced function's (autodiff/function_call.py)."""
        if graph.captures:
            return run_recorded(graph, inputs)
        taped = graph.__dict__.get("_taped")
        if taped is None:
            taped = graph._taped = TapedGraph(graph, list(graph.inputs), self.__name__)
        return taped.call(inputs)

    def __repr__(self):
        return f"<LoadedFunction {self.__name__} with {len(self.graphs)} signature(s)>"


def _input_tensors(graph, feeds, args, kwargs):
    """The call's tensors for the graph's inputs: the caller's own tensors where
    they were passed as they are (so a tape watching them sees them)."""
    given = list(args) if not kwargs and len(args) == len(feeds) else [None] * len(feeds)
    return [a if isinstance(a, EagerTensor) and a.dtype == t.dtype
            else EagerTensor(f, t.dtype) for a, f, t in zip(given, feeds, graph.inputs)]


class NoMatchingFunctionError(TypeError, ValueError):
    """A loaded function called with arguments no saved trace accepts:
    TensorFlow 2.21 raises ValueError; older code here caught TypeError."""


def _same_literal(saved, given):
    if isinstance(saved, bool) or isinstance(given, bool):
        return type(saved) is type(given) and saved == given
    if isinstance(saved, (int, float)) and isinstance(given, (int, float)):
        return saved == given
    return type(saved) is type(given) and saved == given


def _bind(name, graph, args, kwargs):
    """The tensor arguments of a call, in input order, with the Python values
    of the parameters checked against the values the function was traced
    with (a parameter without tensors may be left out)."""
    params = getattr(graph, "parameters", None)
    if params is None:
        return args, kwargs
    if len(args) > len(params):
        raise TypeError(f"{name} takes {len(params)} argument(s), got {len(args)}")
    kwargs = dict(kwargs)
    tensors = {}
    for i, p in enumerate(params):
        given = args[i] if i < len(args) else kwargs.pop(p["name"], _MISSING)
        value = {k: v for k, v in p.items() if k != "name"}
        if given is _MISSING:
            if _has_tensor(value):
                raise TypeError(f"{name}: missing the argument {p['name']!r}")
            continue
        _match(name, p["name"], value, given, tensors)
    if kwargs:
        raise TypeError(f"{name}: unknown argument(s) {', '.join(kwargs)}")
    return [tensors[i] for i in sorted(tensors)], {}


def _has_tensor(value):
    (kind, v), = value.items()
    if kind == "tensor":
        return True
    if kind in ("list", "tuple"):
        return any(_has_tensor(x) for x in v)
    return kind == "composite" or kind == "dict" and any(_has_tensor(x) for x in v.values())


def _match(name, path, value, given, tensors):
    """Check `given` against a saved parameter value, collecting tensors."""
    (kind, v), = value.items()
    if kind == "tensor":
        tensors[v] = given
    elif kind == "py":
        if not _same_literal(v, given):
            raise TypeError(f"{name}: argument {path!r} was traced as the Python value "
                            f"{v!r}, got {given!r}")
    elif kind == "composite":
        spec = spec_from_json(v["spec"])
        given_spec = type_spec_of(given)
        if given_spec is None or not spec.is_compatible_with(given_spec):
            raise TypeError(f"{name}: argument {path!r} must be a value of {spec!r}, got "
                            f"{given_spec if given_spec is not None else given!r:.80}")
        for i, part in zip(v["tensors"], given_spec._to_components(given)):
            tensors[i] = part
    elif kind in ("list", "tuple"):
        if not isinstance(given, (list, tuple)) or len(given) != len(v):
            raise TypeError(f"{name}: argument {path!r} was traced as a {kind} of {len(v)} "
                            f"elements, got {given!r:.60}")
        for i, (x, g) in enumerate(zip(v, given)):
            _match(name, f"{path}[{i}]", x, g, tensors)
    else:
        if not isinstance(given, dict) or set(given) != set(v):
            raise TypeError(f"{name}: argument {path!r} was traced as a dict with keys "
                            f"{sorted(v)}, got {given!r:.60}")
        for k, x in v.items():
            _match(name, f"{path}[{k!r}]", x, given[k], tensors)


_MISSING = object()


def _feeds(name, graph, args, kwargs):
    names, values = _ordered(name, graph, args, kwargs)
    feeds = []
    for arg_name, t, v in zip(names, graph.inputs, values):
        arr = np.asarray(v._value if isinstance(v, Tensor) and hasattr(v, "_value") else v)
        if isinstance(v, Tensor) and v.dtype != t.dtype:
            raise TypeError(f"{name}: argument {arg_name!r} must be {t.dtype.name}, got "
                            f"{v.dtype.name}")
        arr = arr.astype(t.dtype.np_dtype, copy=False)
        if not t.shape.is_compatible_with(TensorShape(arr.shape)):
            raise ValueError(f"{name}: argument {arg_name!r} must have shape {t.shape}, got "
                             f"{TensorShape(arr.shape)}")
        feeds.append(arr)
    return feeds


def _ordered(name, graph, args, kwargs):
    names = [t.node.name for t in graph.inputs]
    kwargs = dict(kwargs)
    values = list(args)
    for key in names[len(args):]:
        if key in kwargs:
            values.append(kwargs.pop(key))
    if kwargs or len(values) != len(names):
        raise TypeError(f"{name} takes {len(names)} argument(s) ({', '.join(names)}), got "
                        f"{len(values)}{' and unknown ' + ', '.join(kwargs) if kwargs else ''}")
    return names, values


def _symbolic_feeds(name, graph, args, kwargs):
    """{id(placeholder): tensor} of a call made while a function is traced."""
    names, values = _ordered(name, graph, args, kwargs)
    feeds = {}
    for arg_name, t, v in zip(names, graph.inputs, values):
        if isinstance(v, Tensor) and v.dtype != t.dtype:
            raise TypeError(f"{name}: argument {arg_name!r} must be {t.dtype.name}, got "
                            f"{v.dtype.name}")
        tensor = convert_to_tensor(v, dtype=t.dtype)
        if not t.shape.is_compatible_with(tensor.shape):
            raise ValueError(f"{name}: argument {arg_name!r} must have shape {t.shape}, got "
                             f"{tensor.shape}")
        feeds[id(t)] = tensor
    return feeds


def _inlined(graph, feeds):
    """The saved graph's nodes added to the graph being traced; its outputs there."""
    mapping, _ = replay(graph, feeds)
    return [mapping.get(id(t), t) for t in graph.outputs]


def _pack(s, outputs):
    if "output" in s:
        return outputs[s["output"]]
    if "py" in s:
        return s["py"]
    if "list" in s:
        return [_pack(v, outputs) for v in s["list"]]
    if "tuple" in s:
        return tuple(_pack(v, outputs) for v in s["tuple"])
    if "composite" in s:
        spec = spec_from_json(s["composite"]["spec"])
        return spec._from_components([outputs[i] for i in s["composite"]["outputs"]])
    return {k: _pack(v, outputs) for k, v in s["dict"].items()}


class LoadedModel:
    """What `load` returns: saved functions as attributes, `.signatures`,
    variables. `CallableLoadedModel` when the saved object had a `__call__`."""

    def __init__(self, functions, signatures, variables, var_paths):
        self.signatures = signatures
        self.variables = tuple(variables)
        self.trainable_variables = tuple(v for v in variables if getattr(v, "trainable", True))
        for name, fn in functions.items():
            setattr(self, name, fn)
        for path, var in var_paths.items():
            if path.isidentifier() and not hasattr(self, path):
                setattr(self, path, var)


class CallableLoadedModel(LoadedModel):
    """A loaded object whose saved object had a traced `__call__`: calling it
    calls that function (`loaded(x)`, as in TensorFlow)."""

    def __call__(self, *args, **kwargs):
        return self.__dict__["__call__"](*args, **kwargs)
