"""`KerasTensor`: a symbolic value of the functional API (shape and dtype only).

    inputs = Input(shape=(784,))            # KerasTensor shape=(None, 784)
    x = Dense(64)(inputs)                   # KerasTensor shape=(None, 64)

Calling a layer on KerasTensors (`symbolic_call`) runs the layer's ordinary
call on placeholders of a throwaway graph: that builds the layer (its weights
are real Variables, made outside the graph) and gives the output shapes and
dtypes. The call is recorded as a `Node` in `layer._inbound_nodes`, and each
output KerasTensor remembers it in `_keras_history` = (layer, node index,
tensor index), which is how `Model(inputs, outputs)` finds the layers
between its inputs and outputs. A layer that defines `compute_output_shape`
gets its output's static shape from it, as in Keras 3.

Python operators on KerasTensors (`x + 1`, `x * y`, `-x`, `x[:, 0]`,
`x @ w`, `x > 0`) are `Operation`s, recorded the same way: rows of
`summary()` ("add (Add)"), not entries of `model.layers`. A runtime op given
a KerasTensor (`tf.nn.relu(x)`) is Keras's ValueError: wrap it in a layer
(a `Layer` subclass or `layers.Lambda`).
"""

import operator

from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import Tensor
from runtime._src.graph.graph import Graph
from runtime._src.keras.utils.naming import unique_name

__all__ = ["KerasTensor", "Node", "Operation", "any_symbolic", "symbolic_call",
           "symbolic_value"]


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

    def _as_tensor(self):
        """The TensorLike protocol (core/protocols.py), joined to refuse: a runtime
        op given a KerasTensor raises Keras 3's ValueError."""
        raise ValueError(_TF_FUNCTION_ERROR)


_TF_FUNCTION_ERROR = (
    "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
    "symbolic placeholder for a shape and dtype, used when constructing Keras Functional "
    "models or Keras Functions. You can only use it as input to a Keras layer or a Keras "
    "operation (from the namespaces `keras.layers` and `keras.ops`). You are likely doing "
    "something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n```\n\nWhat you "
    "should do instead is wrap `tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n    "
    "def call(self, x):\n        return tf_fn(x)\n\nx = MyLayer()(x)\n```\n")


class Operation:
    """A Python operator applied to KerasTensors (`x + 1`, `x * y`, `x[:, 0]`),
    recorded in the functional graph as Keras 3 records its `keras.ops`: it
    is a row of `summary()` ("add (Add)") but not one of `model.layers`."""

    built = True
    weights = trainable_weights = non_trainable_weights = ()

    def __init__(self, fn):
        self._fn = fn
        self.name = unique_name(_SNAKE[type(self).__name__])
        self._inbound_nodes = []

    def count_params(self):
        return 0

    def __call__(self, *args, **kwargs):
        if any_symbolic(args, kwargs):
            return symbolic_call(self, self._fn, args, kwargs)
        return self._fn(*args, **kwargs)

    def __repr__(self):
        return f"<Operation name={self.name}>"


_SNAKE = {}


def _operator(class_name, snake, fn, reflected=False, unary=False):
    op_class = type(class_name, (Operation,), {"__doc__": f"`{snake}` of KerasTensors."})
    _SNAKE[class_name] = snake
    if unary:
        return lambda self: op_class(fn)(self)
    if reflected:
        return lambda self, other: op_class(fn)(other, self)
    return lambda self, other: op_class(fn)(self, other)


for _names, (_class, _snake, _fn) in {
        ("add", "radd"): ("Add", "add", operator.add),
        ("sub", "rsub"): ("Subtract", "subtract", operator.sub),
        ("mul", "rmul"): ("Multiply", "multiply", operator.mul),
        ("truediv", "rtruediv"): ("TrueDivide", "true_divide", operator.truediv),
        ("floordiv", "rfloordiv"): ("FloorDivide", "floor_divide", operator.floordiv),
        ("mod", "rmod"): ("Mod", "mod", operator.mod),
        ("pow", "rpow"): ("Power", "power", operator.pow),
        ("matmul", "rmatmul"): ("Matmul", "matmul", operator.matmul),
        ("lt",): ("Less", "less", operator.lt),
        ("le",): ("LessEqual", "less_equal", operator.le),
        ("gt",): ("Greater", "greater", operator.gt),
        ("ge",): ("GreaterEqual", "greater_equal", operator.ge),
        ("getitem",): ("GetItem", "get_item", operator.getitem)}.items():
    setattr(KerasTensor, f"__{_names[0]}__", _operator(_class, _snake, _fn))
    if len(_names) > 1:
        setattr(KerasTensor, f"__{_names[1]}__", _operator(_class, _snake, _fn, reflected=True))
for _name, (_class, _snake, _fn) in {"neg": ("Negative", "negative", operator.neg),
                                     "abs": ("Absolute", "absolute", operator.abs)}.items():
    setattr(KerasTensor, f"__{_name}__", _operator(_class, _snake, _fn, unary=True))


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


def _declared_output_shape(compute_output_shape, args, kwargs, outputs):
    """The shape the layer's own `compute_output_shape` gives for one input
    structure and one output (Keras 3 trusts it over the shape the traced call
    infers: `Concatenate` of (None, 3) and (4, 3) is (None, 6), not (4, 6));
    None where there is none, or it disagrees with the call on the rank."""
    if compute_output_shape is None or not isinstance(outputs, Tensor) \
            or outputs.shape.rank is None or any_symbolic(args[1:], kwargs):
        return None
    input_shape = nest.map_structure(
        lambda v: v.shape if isinstance(v, KerasTensor) else None, args[0])
    try:
        shape = compute_output_shape(input_shape)
    except NotImplementedError:
        return None
    shape = getattr(shape, "dims", shape)
    if shape is None or len(shape) != outputs.shape.rank:
        return None
    return tuple(shape)


def symbolic_call(layer, call, args, kwargs, compute_output_shape=None, recorded=None):
    """`call(*args, **kwargs)` with each KerasTensor replaced by a placeholder of a
    scratch graph; the outputs as KerasTensors, recorded as a Node of `layer`
    (with `recorded` as its keyword arguments when given: a propagated mask is
    passed to the call but not recorded). A single output takes its shape from
    `compute_output_shape` when given."""
    recorded = kwargs if recorded is None else recorded
    outputs = _on_placeholders(layer.name, call, args, kwargs)
    declared = _declared_output_shape(compute_output_shape, args, recorded, outputs)
    outputs = _as_keras_tensors(outputs) if declared is None \
        else KerasTensor(declared, outputs.dtype)     # one KerasTensor (and name) each
    Node(layer, tuple(args), dict(recorded), outputs)
    return outputs


def symbolic_value(name, fn, args, kwargs):
    """`fn(*args, **kwargs)` on placeholders of a scratch graph, its tensors
    turned into KerasTensors (shape and dtype only); no Node is recorded."""
    return _as_keras_tensors(_on_placeholders(name, fn, args, kwargs))


def _on_placeholders(name, fn, args, kwargs):
    graph = Graph(f"{name}_symbolic")
    with graph.as_default():
        concrete = nest.map_structure(
            lambda v: graph.add_placeholder(dtypes.as_dtype(v.dtype), list(v.shape))
            if isinstance(v, KerasTensor) else v, (list(args), kwargs))
        return fn(*concrete[0], **concrete[1])


def _as_keras_tensors(outputs):
    return nest.map_structure(
        lambda t: KerasTensor(t.shape.dims if t.shape.dims is not None else (), t.dtype)
        if isinstance(t, Tensor) else t, outputs)
