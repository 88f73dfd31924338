"""`KerasTensor`: a symbolic value of the functional API (shape and dtype only).

    inputs = Input(shape=(784,))            # KerasTensor shape=(None, 784)
    x = Dense(64)(inputs)                   # KerasTensor shape=(None, 64)

Calling a layer on KerasTensors (`symbolic_call`) runs the layer's ordinary
call on placeholders of a throwaway graph: that builds the layer (its weights
are real Variables, made outside the graph) and gives the output shapes and
dtypes. The call is recorded as a `Node` in `layer._inbound_nodes`, and each
output KerasTensor remembers it in `_keras_history` = (layer, node index,
tensor index), which is how `Model(inputs, outputs)` finds the layers
between its inputs and outputs.
"""

from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import Tensor
from runtime._src.graph.graph import Graph
from runtime._src.keras.naming import unique_name

__all__ = ["KerasTensor", "Node", "any_symbolic", "symbolic_call"]


class KerasTensor:
    """`KerasTensor(shape, dtype="float32", name=None)`: what a layer's output
    will look like; `shape` is a tuple with None for unknown sizes."""

    def __init__(self, shape, dtype="float32", name=None, sparse=False, ragged=False,
                 record_history=None):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.as_dtype(dtype).name
        self.name = name or unique_name("keras_tensor")
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self._keras_history = record_history

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse={self.sparse}, "
                f"ragged={self.ragged}, name={self.name}>")

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a Python `bool`: its "
                        "value is only known when the model runs.")

    def numpy(self):
        raise ValueError("A KerasTensor is symbolic: it's a placeholder for a shape and a "
                         "dtype. It doesn't have any actual numerical value. You cannot "
                         "convert it to a NumPy array.")

    __array__ = numpy


def _no_ops(symbol):
    def refuse(self, *other):
        raise TypeError(f"`{symbol}` on a KerasTensor ({self.name}) is not supported by "
                        "runtime.keras: express it with layers (Add, Subtract, Multiply, "
                        "Activation, Reshape, or a Layer subclass whose call() does it)")
    return refuse


for _name, _symbol in (("add", "+"), ("radd", "+"), ("sub", "-"), ("rsub", "-"),
                       ("mul", "*"), ("rmul", "*"), ("truediv", "/"), ("rtruediv", "/"),
                       ("matmul", "@"), ("rmatmul", "@"), ("pow", "**"), ("neg", "-"),
                       ("getitem", "[]")):
    setattr(KerasTensor, f"__{_name}__", _no_ops(_symbol))


class Node:
    """One call of `layer` on KerasTensors: the arguments it got and its outputs."""

    def __init__(self, layer, call_args, call_kwargs, outputs):
        self.operation = layer
        self.call_args = call_args
        self.call_kwargs = call_kwargs
        self.outputs = outputs
        self.input_tensors = [v for v in nest.flatten((call_args, call_kwargs))
                              if isinstance(v, KerasTensor)]
        self.output_tensors = [v for v in nest.flatten(outputs) if isinstance(v, KerasTensor)]
        index = len(layer._inbound_nodes)
        layer._inbound_nodes.append(self)
        for i, t in enumerate(self.output_tensors):
            t._keras_history = (layer, index, i)

    @property
    def is_input(self):
        return not self.input_tensors

    @property
    def parent_nodes(self):
        """The nodes that made this node's inputs."""
        found = []
        for t in self.input_tensors:
            layer, index, _ = t._keras_history
            node = layer._inbound_nodes[index]
            if node not in found:
                found.append(node)
        return found


def any_symbolic(args, kwargs):
    """Whether a KerasTensor is among the (nested) arguments."""
    return any(isinstance(v, KerasTensor) for v in nest.flatten((args, kwargs)))


def symbolic_call(layer, call, args, kwargs):
    """`call(*args, **kwargs)` with each KerasTensor replaced by a placeholder of a
    scratch graph; the outputs as KerasTensors, recorded as a Node of `layer`."""
    graph = Graph(f"{layer.name}_symbolic")
    with graph.as_default():
        concrete = nest.map_structure(
            lambda v: graph.add_placeholder(dtypes.as_dtype(v.dtype), list(v.shape))
            if isinstance(v, KerasTensor) else v, (list(args), kwargs))
        outputs = call(*concrete[0], **concrete[1])
    outputs = nest.map_structure(
        lambda t: KerasTensor(t.shape.dims if t.shape.dims is not None else (), t.dtype)
        if isinstance(t, Tensor) else t, outputs)
    Node(layer, tuple(args), dict(kwargs), outputs)
    return outputs
