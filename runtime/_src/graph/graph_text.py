"""The compact text form of a graph (`str(graph)`); the structured form,
`graph.as_graph_def()`, is TensorFlow's GraphDef (graph/graphdef.py).

The compact form has one line per op, jaxpr/FX-like. Values are `%name`
(placeholders keep their node name; other values are numbered), each line
ends with the result types, and subgraphs (cond branches, loop bodies) are
indented under the op that owns them:

    graph f(%x: int32[]) {
      %0 = const 1 : int32[]
      %1 = add %x, %0 : int32[]
      return %1
    }

Inside a subgraph, values it captures from the enclosing graph are listed in
its header after `;` as `%inner <- %outer`.

The form is deterministic (no ids or addresses), so golden tests lock it.
"""

import numpy as np

from runtime._src.core.dtypes import DType
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph import graphdef  # fills RENDERERS["graph_def"]
from runtime._src.graph.graph import RENDERERS, Graph

__all__ = ["pretty", "type_text", "format_attr", "subgraph_attrs"]

_SMALL_ARRAY = 8  # arrays with at most this many elements print their values

# Short names in the compact listing; other ops print as `op.lower()`.
_SHORT_OP_NAMES = {
    "AddV2": "add",
    "RealDiv": "div",
    "ReadVariableOp": "read_variable",
    "AssignVariableOp": "assign_variable",
    "AssignAddVariableOp": "assign_add_variable",
    "AssignSubVariableOp": "assign_sub_variable",
}


# --- shared helpers -------------------------------------------------------------

def type_text(dtype, shape):
    """`int32[10,10]`; `[]` for a scalar, `?` for an unknown dim, `[...]` unknown rank."""
    dims = shape.dims if isinstance(shape, TensorShape) else TensorShape(shape).dims
    if dims is None:
        return f"{dtype.name}[...]"
    return dtype.name + "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def subgraph_attrs(node):
    """The (attr name, Graph) pairs of `node`, in sorted attr order."""
    return [(k, v) for k, v in sorted(node.attrs.items()) if isinstance(v, Graph)]


def format_attr(value):
    """A short, deterministic text for an attr value (never an address)."""
    if isinstance(value, DType):
        return value.name
    if isinstance(value, TensorShape):
        return "[...]" if value.dims is None else \
            "[" + ",".join("?" if d is None else str(d) for d in value.dims) + "]"
    if isinstance(value, (bool, int, float, str, bytes, type(None))):
        return repr(value)
    if isinstance(value, (np.ndarray, np.generic)):
        return _format_array(value)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(format_attr(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {format_attr(v)}" for k, v in sorted(value.items())) + "}"
    name = getattr(value, "name", None) or getattr(value, "__name__", None)
    kind = type(value).__name__
    return f"<{kind} {name}>" if isinstance(name, str) else f"<{kind}>"


def _format_array(value):
    arr = np.asarray(value)
    if arr.size <= _SMALL_ARRAY:
        if arr.dtype == object:
            return np.array2string(arr, separator=" ", formatter={"all": repr}) \
                if arr.ndim else repr(arr[()])
        return np.array2string(arr, separator=" ") if arr.ndim else str(arr[()])
    return "<" + ",".join(str(d) for d in arr.shape) + " values>"


# --- the compact listing ---------------------------------------------------------

class _Namer:
    """Gives every tensor a unique `%name` across a graph and its subgraphs."""

    def __init__(self):
        self.names = {}      # id(tensor) -> name
        self.used = set()
        self.counter = 0

    def placeholder(self, t):
        base = t.node.name
        name = base if base not in self.used else f"{base}_{self.counter}"
        while name in self.used:
            self.counter += 1
            name = f"{base}_{self.counter}"
        return self._set(t, name)

    def fresh(self, t):
        while str(self.counter) in self.used:
            self.counter += 1
        name = str(self.counter)
        self.counter += 1
        return self._set(t, name)

    def _set(self, t, name):
        self.used.add(name)
        self.names[id(t)] = name
        return "%" + name

    def ref(self, t):
        name = self.names.get(id(t))
        if name is None:
            return f"%<outside:{getattr(t, 'name', '?')}>"
        return "%" + name


def pretty(graph):
    """The compact listing of `graph` (what `str(graph)` shows)."""
    lines = []
    _pretty_graph(graph, "graph " + graph.name, _Namer(), "", lines)
    return "\n".join(lines)


def _pretty_graph(graph, title, namer, indent, lines):
    params = [f"{namer.placeholder(t)}: {type_text(t.dtype, t.shape)}" for t in graph.inputs]
    caps = [f"{namer.placeholder(inner)} <- {namer.ref(outer)}" for outer, inner in graph.captures]
    header = ", ".join(params) + (("; " if params else "; ") + ", ".join(caps) if caps else "")
    lines.append(f"{indent}{title}({header}) {{")
    fed = {id(t) for t in graph.inputs} | {id(inner) for _, inner in graph.captures}
    for node in graph.nodes:
        if node.op == "Placeholder" and id(node.outputs[0]) in fed:
            continue
        _pretty_node(node, namer, indent + "  ", lines)
    outs = ", ".join(namer.ref(t) for t in graph.outputs)
    lines.append(f"{indent}  return {outs}")
    lines.append(f"{indent}}}")


def _pretty_node(node, namer, indent, lines):
    if node.op == "Placeholder":  # an unfed placeholder: show it as a value
        outs = [namer.placeholder(t) for t in node.outputs]
    else:
        outs = [namer.fresh(t) for t in node.outputs]
    operands = [namer.ref(t) for t in node.inputs]
    if node.op == "Const":
        operands = [format_attr(node.attrs.get("value"))]
        shown_attrs = {}
    else:
        shown_attrs = {k: v for k, v in node.attrs.items()
                       if k not in dict(subgraph_attrs(node))}
    attr_text = ""
    if shown_attrs:
        attr_text = " {" + ", ".join(f"{k}={format_attr(v)}"
                                     for k, v in sorted(shown_attrs.items())) + "}"
    types = ", ".join(type_text(t.dtype, t.shape) for t in node.outputs)
    lhs = ", ".join(outs) + " = " if outs else ""
    op_name = _SHORT_OP_NAMES.get(node.op, node.op.lower())
    head = f"{indent}{lhs}{op_name}{attr_text}"
    if operands:
        head += " " + ", ".join(operands)
    subs = subgraph_attrs(node)
    if not subs:
        lines.append(f"{head} : {types}" if types else head)
        return
    lines.append(head + " {")
    for attr, sub in subs:
        _pretty_graph(sub, attr, namer, indent + "  ", lines)
    lines.append(f"{indent}}}" + (f" : {types}" if types else ""))


RENDERERS["pretty"] = pretty
