"""Building ONNX graphs: unique value names, nodes, constants and types.

One `Builder` collects the nodes of one ONNX graph (the model's main graph,
or an `If` branch / `Loop` body). Value names are unique across the whole
model (`Names`, shared by a builder and its children), so a subgraph may
refer to any value of an enclosing graph by name, as ONNX allows.

    names = Names()
    b = Builder(names)
    y, = b.add("Add", [x, b.const(np.float32(1))])
"""

import numpy as np

__all__ = ["Builder", "Names", "onnx_type", "ExportError"]


class ExportError(ValueError):
    """An op or value the ONNX exporter cannot express exactly."""


def _onnx():
    import onnx
    return onnx


_NUMPY_TO_ONNX = {
    "bool": "BOOL", "int8": "INT8", "int16": "INT16", "int32": "INT32", "int64": "INT64",
    "uint8": "UINT8", "uint16": "UINT16", "uint32": "UINT32", "uint64": "UINT64",
    "float16": "FLOAT16", "float32": "FLOAT", "float64": "DOUBLE",
    "complex64": "COMPLEX64", "complex128": "COMPLEX128",
}


def onnx_type(dtype):
    """The TensorProto element type of one of our DTypes (or a numpy dtype)."""
    name = getattr(dtype, "name", None) or np.dtype(dtype).name
    if name == "string":
        return _onnx().TensorProto.STRING
    try:
        return getattr(_onnx().TensorProto, _NUMPY_TO_ONNX[name])
    except KeyError:
        raise ExportError(f"dtype {name} has no ONNX counterpart") from None


class Names:
    """Unique value and node names across a model."""

    def __init__(self):
        self._taken = set()

    def fresh(self, base):
        base = "".join(c if c.isalnum() or c in "_./:" else "_" for c in base) or "v"
        name, n = base, 1
        while name in self._taken:
            name = f"{base}_{n}"
            n += 1
        self._taken.add(name)
        return name


class Builder:
    """The nodes and initializers of one ONNX graph being built."""

    def __init__(self, names, opset, root=None):
        self.names = names
        self.opset = opset
        self.root = root or self     # the model's main graph: Variables go there
        self.nodes = []
        self.initializers = []
        self._consts = {}

    def add(self, op_type, inputs, num_outputs=1, name=None, **attrs):
        """Append a node; returns its output names (a list)."""
        onnx = _onnx()
        base = name or op_type
        outputs = [self.names.fresh(base if num_outputs == 1 else f"{base}_{i}")
                   for i in range(num_outputs)]
        attrs = {k: v for k, v in attrs.items() if v is not None}
        node = onnx.helper.make_node(op_type, list(inputs), outputs,
                                     name=self.names.fresh(f"{base}_node"), **attrs)
        self.nodes.append(node)
        return outputs

    def add1(self, op_type, inputs, name=None, **attrs):
        """`add` for a node with one output; returns that output's name."""
        return self.add(op_type, inputs, 1, name, **attrs)[0]

    def const(self, value, dtype=None, name="const"):
        """A Constant node holding `value` (a numpy value); equal small
        constants of one graph share a node."""
        array = np.asarray(value, dtype=dtype)
        if array.dtype.kind in "OUS":
            array = array.astype(object)
        key = None
        if array.size <= 16 and array.dtype.kind not in "OUS":
            key = (array.dtype.str, array.shape, array.tobytes())
            found = self._consts.get(key)
            if found is not None:
                return found
        onnx = _onnx()
        out = self.names.fresh(name)
        tensor = onnx.numpy_helper.from_array(_as_onnx_array(array), out)
        self.nodes.append(onnx.helper.make_node("Constant", [], [out],
                                                name=self.names.fresh(f"{name}_node"),
                                                value=tensor))
        if key is not None:
            self._consts[key] = out
        return out

    def const_named(self, name, value):
        """A Constant node whose output is `name` (already taken from `names`)."""
        onnx = _onnx()
        tensor = onnx.numpy_helper.from_array(_as_onnx_array(np.asarray(value)), name)
        self.nodes.append(onnx.helper.make_node("Constant", [], [name],
                                                name=self.names.fresh(f"{name}_node"),
                                                value=tensor))

    def initializer(self, value, name):
        """A model initializer (a frozen Variable's value)."""
        onnx = _onnx()
        out = self.names.fresh(name)
        self.initializers.append(onnx.numpy_helper.from_array(_as_onnx_array(np.asarray(value)),
                                                              out))
        return out

    def root_initializer(self, value, name):
        """An initializer of the main graph (visible in every subgraph)."""
        return self.root.initializer(value, name)

    def ints(self, values, name="ints"):
        """A 1-D int64 constant (axes, shapes, starts ...)."""
        return self.const(np.asarray(values, np.int64).reshape(-1), name=name)

    def cast(self, value, dtype):
        return self.add1("Cast", [value], to=onnx_type(dtype))


def _as_onnx_array(array):
    if array.dtype.kind in "US":
        return np.array([s.encode() if isinstance(s, str) else s for s in array.ravel()],
                        dtype=object).reshape(array.shape)
    if array.dtype.kind == "O":
        return np.array([s.encode() if isinstance(s, str) else s for s in array.ravel()],
                        dtype=object).reshape(array.shape)
    return array
