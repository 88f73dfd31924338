"""`graph.as_graph_def()`: a graph as TensorFlow's GraphDef, structured.

    gd = f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph.as_graph_def()
    len(gd.node)                         # 3
    gd.node[2].op, list(gd.node[2].input)   # 'AddV2', ['x', 'Const']
    gd.node[0].attr["dtype"].type        # 3 (DT_INT32)
    print(gd)                            # node { name: "x" op: "Placeholder" ... }

The messages mirror TensorFlow's protos (graph.proto, node_def.proto,
attr_value.proto, function.proto) field for field, and `str()` prints them
in protobuf text format as TensorFlow does. Each node keeps our op name,
which is TensorFlow's (`AddV2`, `Placeholder`, `Const`, ...), except `If` and
`While` without side effects, which TensorFlow calls `StatelessIf` and
`StatelessWhile`. Nodes get TensorFlow's type attrs (`T` the first input's
dtype; `Tcond`/`Tin`/`Tout` of an if; `T` the list of loop-variable dtypes of
a while; `SrcT`/`DstT` of a cast; `dtype` of a variable read or write). Cond branches and loop bodies become functions in `.library.function`
(a `func` attr names them), their inputs referenced as
`"node:output:index"`, TensorFlow's convention inside functions. A Variable
read or written in the main graph is a `DT_RESOURCE` placeholder feeding the
op (inside a function, a `shared_name` attr names it).

`add_shapes=True` adds `_output_shapes` to every node, as TensorFlow's
`as_graph_def(add_shapes=True)`: TensorBoard shows them on the edges.
`graph_def.to_proto()` builds TensorFlow's real `GraphDef` protobuf from the
`tensorboard` package's compiled protos (optional; only that method needs it).
"""

import numpy as np

from runtime._src.core import protowire as wire
from runtime._src.core.dtypes import DType
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.graph import RENDERERS, Graph
from runtime._src.graph.protobuf_text import DATA_TYPES, Message

__all__ = ["GraphDef", "NodeDef", "AttrValue", "FunctionDef", "graph_def",
           "TensorShapeProto", "TensorProto", "dtype_enum"]


# --- the messages (field-number order) ----------------------------------------------

class Dim(Message):
    FIELDS = (("size", "int"), ("name", "string"))


class TensorShapeProto(Message):
    FIELDS = (("dim", "*msg"), ("unknown_rank", "bool"))


class TensorProto(Message):
    FIELDS = (("dtype", "enum:DataType"), ("tensor_shape", None), ("tensor_content", "bytes"),
              ("float_val", "*float"), ("double_val", "*double"), ("int_val", "*int"),
              ("string_val", "*bytes"), ("scomplex_val", "*float"), ("int64_val", "*int"),
              ("bool_val", "*bool"), ("dcomplex_val", "*double"), ("half_val", "*int"),
              ("uint32_val", "*int"), ("uint64_val", "*int"))
    ALWAYS = ("tensor_shape",)

    def SerializeToString(self):
        """The protobuf wire bytes TensorFlow's TensorProto writes (packed values)."""
        dims = [] if self.tensor_shape is None else self.tensor_shape.dim
        shape = b"".join(wire.length_field(2, wire.varint_field(1, d.size) if d.size else b"")
                         for d in dims)
        if self.tensor_shape is not None and self.tensor_shape.unknown_rank:
            shape += wire.varint_field(3, 1)
        out = (wire.varint_field(1, self.dtype) if self.dtype else b"") + wire.length_field(2, shape)
        if self.tensor_content:
            out += wire.length_field(4, bytes(self.tensor_content))
        for number, name in _VALUE_FIELDS:
            values = getattr(self, name)
            if name == "string_val":
                out += b"".join(wire.length_field(8, bytes(v)) for v in values)
            elif values:
                packed = (np.asarray(values, _FLOAT_FIELDS[name]).tobytes() if name in _FLOAT_FIELDS
                          else b"".join(wire.varint(int(v)) for v in values))
                out += wire.length_field(number, packed)
        return out


_VALUE_FIELDS = ((5, "float_val"), (6, "double_val"), (7, "int_val"), (8, "string_val"),
                 (9, "scomplex_val"), (10, "int64_val"), (11, "bool_val"), (12, "dcomplex_val"),
                 (13, "half_val"), (16, "uint32_val"), (17, "uint64_val"))
_FLOAT_FIELDS = {"float_val": "<f4", "double_val": "<f8", "scomplex_val": "<f4",
                 "dcomplex_val": "<f8"}


class NameAttrList(Message):
    FIELDS = (("name", "string"),)


class ListValue(Message):
    FIELDS = (("s", "*bytes"), ("i", "*int"), ("f", "*float"), ("b", "*bool"),
              ("type", "*enum:DataType"), ("shape", "*msg"), ("func", "*msg"))


class AttrValue(Message):
    """One attr; exactly one of its fields is set (a oneof, printed even when 0)."""
    FIELDS = (("list", None), ("s", "bytes"), ("i", "int"), ("f", "float"), ("b", "bool"),
              ("type", "enum:DataType"), ("shape", None), ("tensor", None), ("func", None))

    def __init__(self, **values):
        super().__init__(**values)
        self.ALWAYS = tuple(values)   # the oneof member set prints even at its default

    def WhichOneof(self, group="value"):
        return self.ALWAYS[0] if self.ALWAYS else None


class NodeDef(Message):
    FIELDS = (("name", "string"), ("op", "string"), ("input", "*string"),
              ("device", "string"), ("attr", "map:AttrValue"))


class ArgDef(Message):
    FIELDS = (("name", "string"), ("type", "enum:DataType"))


class OpDef(Message):
    FIELDS = (("name", "string"), ("input_arg", "*msg"), ("output_arg", "*msg"))


class FunctionDef(Message):
    FIELDS = (("signature", None), ("node_def", "*msg"), ("ret", "map:str"))


class FunctionDefLibrary(Message):
    FIELDS = (("function", "*msg"),)


class VersionDef(Message):
    FIELDS = (("producer", "int"), ("min_consumer", "int"))


class GraphDef(Message):
    FIELDS = (("node", "*msg"), ("library", None), ("versions", None))

    def to_proto(self):
        """TensorFlow's `GraphDef` protobuf (from the `tensorboard` package)."""
        try:
            from google.protobuf import text_format
            from tensorboard.compat.proto import graph_pb2
        except ImportError as e:
            raise ImportError("GraphDef.to_proto() needs the tensorboard package (it holds "
                              "TensorFlow's compiled protos): pip install tensorboard") from e
        return text_format.Parse(str(self), graph_pb2.GraphDef())

    def SerializeToString(self):
        return self.to_proto().SerializeToString()


# --- conversion of values -------------------------------------------------------------

def dtype_enum(dtype):
    """TensorFlow's DataType number of a DType (DT_FLOAT is 1)."""
    return DATA_TYPES.get(dtype.name, 0)


def shape_proto(shape):
    dims = shape.dims if isinstance(shape, TensorShape) else TensorShape(shape).dims
    if dims is None:
        return TensorShapeProto(unknown_rank=True)
    return TensorShapeProto(dim=[Dim(size=-1 if d is None else int(d)) for d in dims])


_VAL_FIELD = {"f": "float_val", "i": "int_val", "u": "int_val", "b": "bool_val"}


def tensor_proto(value, dtype=None):
    """A TensorProto of a numpy value: one `*_val` for a scalar, `tensor_content`
    (raw little-endian bytes) for larger numeric arrays, as TensorFlow writes."""
    arr = np.asarray(value)
    name = dtype.name if isinstance(dtype, DType) else _dtype_name(arr)
    proto = TensorProto(dtype=DATA_TYPES.get(name, 0), tensor_shape=shape_proto(arr.shape))
    if name == "string":
        proto.string_val = [v if isinstance(v, bytes) else str(v).encode()
                            for v in arr.reshape(-1).tolist()]
    elif (arr.size == 1 or name == "bool") and arr.dtype.kind != "c":
        field = {"float64": "double_val", "int64": "int64_val", "float16": "half_val",
                 "bfloat16": "half_val",
                 "uint32": "uint32_val", "uint64": "uint64_val"}.get(
                     name, _VAL_FIELD.get(arr.dtype.kind, "int_val"))
        flat = arr.reshape(-1)
        if name in ("float16", "bfloat16"):
            flat = flat.view(np.uint16)
        setattr(proto, field, flat.tolist())
    else:
        proto.tensor_content = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")) \
            .tobytes()
    return proto


def _dtype_name(arr):
    if arr.dtype.kind in "OSU":
        return "string"
    return {"bool": "bool"}.get(arr.dtype.name, arr.dtype.name)


def attr_value(value, func_name=None):
    """The AttrValue of one of our attrs (None when it has no TensorFlow form)."""
    if isinstance(value, Graph):
        return AttrValue(func=NameAttrList(name=func_name(value)))
    if isinstance(value, DType):
        return AttrValue(type=dtype_enum(value))
    if isinstance(value, TensorShape):
        return AttrValue(shape=shape_proto(value))
    if isinstance(value, bool):
        return AttrValue(b=value)
    if isinstance(value, (int, np.integer)):
        return AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, (np.ndarray, np.generic)):
        return AttrValue(tensor=tensor_proto(value))
    if isinstance(value, (list, tuple)):
        return _list_attr(value)
    if value is None:
        return None
    name = getattr(value, "name", None)
    return AttrValue(s=(name if isinstance(name, str) else type(value).__name__).encode())


def _list_attr(values):
    values = list(values)
    if all(isinstance(v, bool) for v in values):
        return AttrValue(list=ListValue(b=values))
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        return AttrValue(list=ListValue(i=[int(v) for v in values]))
    if all(isinstance(v, (int, float, np.number)) for v in values):
        return AttrValue(list=ListValue(f=[float(v) for v in values]))
    if all(isinstance(v, DType) for v in values):
        return AttrValue(list=ListValue(type=[dtype_enum(v) for v in values]))
    if all(isinstance(v, TensorShape) for v in values):
        return AttrValue(list=ListValue(shape=[shape_proto(v) for v in values]))
    if all(isinstance(v, (str, bytes)) for v in values):
        return AttrValue(list=ListValue(s=[v.encode() if isinstance(v, str) else v
                                           for v in values]))
    return None


# --- the graph walk -------------------------------------------------------------------

def graph_def(graph, add_shapes=False):
    """The GraphDef of `graph`: its nodes, and a library of its nested graphs."""
    builder = _Builder(add_shapes)
    nodes = builder.nodes_of(graph, in_function=False)
    library = FunctionDefLibrary()
    i = 0
    while i < len(builder.functions):   # building a function may add nested ones
        library.function.append(builder.function_def(*builder.functions[i]))
        i += 1
    return GraphDef(node=nodes, library=library,
                    versions=VersionDef(producer=1))


class _Builder:
    def __init__(self, add_shapes):
        self.add_shapes = add_shapes
        self.functions = []      # (name, Graph), in discovery order
        self.func_names = {}     # id(Graph) -> function name
        self.used_names = set()

    def func_name(self, node, key):
        def name_of(sub):
            found = self.func_names.get(id(sub))
            if found is None:
                base = _arg_name(f"{node.name}_{key}")
                found, n = base, 0
                while found in self.used_names:
                    n += 1
                    found = f"{base}_{n}"
                self.used_names.add(found)
                self.func_names[id(sub)] = found
                self.functions.append((found, sub))
            return found
        return name_of

    def nodes_of(self, graph, in_function, refs=None):
        out = []
        resources = {}   # id(Variable) -> placeholder NodeDef (main graph only)
        for node in graph.nodes:
            if refs is not None and id(node.outputs[0] if node.outputs else None) in refs \
                    and node.op == "Placeholder":
                continue     # a function argument, listed in the signature
            inputs = [_ref(t, refs) for t in node.inputs]
            attrs = self.attrs_of(node)
            var = node.attrs.get("variable")
            if var is not None and hasattr(var, "dtype") and not isinstance(var, Graph):
                if in_function:
                    attrs["shared_name"] = AttrValue(s=_var_name(var).encode())
                else:
                    inputs.insert(0, self._resource(var, resources, out))
            out.append(NodeDef(name=node.name, op=_tf_op(node), input=inputs,
                               device=getattr(node, "device", "") or "", attr=attrs))
        return out

    def _resource(self, var, resources, out):
        found = resources.get(id(var))
        if found is None:
            name = f"{_var_name(var)}/resource"
            found = NodeDef(name=name, op="Placeholder",
                            attr={"dtype": AttrValue(type=DATA_TYPES["resource"]),
                                  "shape": AttrValue(shape=TensorShapeProto())})
            resources[id(var)] = found
            out.insert(0, found)
        return found.name

    def attrs_of(self, node):
        attrs = {}
        for key, value in node.attrs.items():
            if key == "variable":
                continue
            converted = attr_value(value, self.func_name(node, key))
            if converted is not None:
                attrs[key] = converted
        _add_type_attrs(node, attrs)
        if self.add_shapes and node.outputs:
            attrs["_output_shapes"] = AttrValue(list=ListValue(
                shape=[shape_proto(t.shape) for t in node.outputs]))
        return attrs

    def function_def(self, name, graph):
        args = list(graph.inputs) + [inner for _, inner in graph.captures]
        refs, used, input_args = {}, set(), []
        for t in args:
            arg = _unique(_arg_name(t.node.name), used)
            refs[id(t)] = arg
            input_args.append(ArgDef(name=arg, type=dtype_enum(t.dtype)))
        output_args, ret = [], {}
        for i, t in enumerate(graph.outputs):
            out = _unique(f"output_{i}", used)
            output_args.append(ArgDef(name=out, type=dtype_enum(t.dtype)))
            ret[out] = _ref(t, refs)
        signature = OpDef(name=name, input_arg=input_args, output_arg=output_args)
        return FunctionDef(signature=signature, node_def=self.nodes_of(graph, True, refs),
                           ret=ret)


def _add_type_attrs(node, attrs):
    """TensorFlow's type attrs where our node has none."""
    if node.op == "If":
        attrs.setdefault("Tcond", AttrValue(type=dtype_enum(node.inputs[0].dtype)))
        attrs.setdefault("Tin", AttrValue(list=ListValue(
            type=[dtype_enum(t.dtype) for t in node.inputs[1:]])))
        attrs.setdefault("Tout", AttrValue(list=ListValue(
            type=[dtype_enum(t.dtype) for t in node.outputs])))
    elif node.op == "While":
        attrs.setdefault("T", AttrValue(list=ListValue(
            type=[dtype_enum(t.dtype) for t in node.inputs])))
        attrs.setdefault("parallel_iterations", AttrValue(i=10))
    elif node.op == "Cast":
        attrs.pop("dtype", None)
        attrs["SrcT"] = AttrValue(type=dtype_enum(node.inputs[0].dtype))
        attrs["DstT"] = AttrValue(type=dtype_enum(node.outputs[0].dtype))
        attrs["Truncate"] = AttrValue(b=False)
    elif hasattr(node.attrs.get("variable"), "dtype"):
        attrs.setdefault("dtype", AttrValue(type=dtype_enum(node.attrs["variable"].dtype)))
    elif node.inputs and "T" not in attrs and "dtype" not in attrs \
            and not node.subgraph_list():
        attrs["T"] = AttrValue(type=dtype_enum(node.inputs[0].dtype))


def _tf_op(node):
    if node.op in ("If", "While") and not node.stateful:
        return "Stateless" + node.op
    return node.op


def _ref(t, refs):
    """How a node names its input: `"node"`/`"node:1"` in a graph; inside a
    function an argument's name or `"node:output:index"`."""
    if refs is None:
        return t.node.name if t.index == 0 else f"{t.node.name}:{t.index}"
    arg = refs.get(id(t))
    return arg if arg is not None else f"{t.node.name}:output:{t.index}"


def _arg_name(name):
    """A valid TensorFlow argument name: lower case, digits and underscores."""
    text = "".join(c if c.isalnum() else "_" for c in name.lower())
    return text if text and text[0].isalpha() else "arg_" + text


def _unique(name, used):
    found, n = name, 0
    while found in used:
        n += 1
        found = f"{name}_{n}"
    used.add(found)
    return found


def _var_name(var):
    name = getattr(var, "name", None) or "Variable"
    return name[:-2] if name.endswith(":0") else name


RENDERERS["graph_def"] = graph_def
