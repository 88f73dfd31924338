"""`keras.Operation` (a user-defined op of the functional API) and
`keras.remat` / `keras.RematScope` (rematerialization: the forward pass is
run again for the gradient instead of being kept).

    class Scale(keras.Operation):
        def call(self, x):
            return x * 2.0
    y = Scale()(keras.Input((3,)))         # a KerasTensor, a node of the graph
    Scale()(np.ones(3))                    # eagerly: call(x)

    step = keras.remat(fn)                 # fn's value; its gradient recomputes fn

`compute_output_spec(*args)` may return the outputs' KerasTensors; without
it the output shapes come from tracing `call` on placeholders. `RematScope`
records its mode for the code inside it (`keras.remat` is how a function
opts in here: layers are not wrapped automatically).
"""

import threading

from runtime._src.autodiff.recompute import recompute_grad
from runtime._src.core import nest
from runtime._src.keras.backend.keras_tensor import KerasTensor, Node, any_symbolic, symbolic_call
from runtime._src.keras.utils.naming import to_snake_case, unique_name

__all__ = ["Operation", "RematScope", "get_current_remat_mode", "remat"]


class Operation:
    """`keras.Operation(name=None)`: subclass it and define `call`."""

    built = True
    weights = trainable_weights = non_trainable_weights = ()

    def __init__(self, name=None):
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name} (of type {type(name)})")
        self.name = name or unique_name(to_snake_case(type(self).__name__))
        self._inbound_nodes = []

    def __call__(self, *args, **kwargs):
        if any_symbolic(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        return self.call(*args, **kwargs)

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Operation {type(self).__name__} must implement `call()`")

    def symbolic_call(self, *args, **kwargs):
        """The outputs as KerasTensors, recorded as a node of the graph."""
        if type(self).compute_output_spec is Operation.compute_output_spec:
            return symbolic_call(self, self.call, args, kwargs)
        outputs = self.compute_output_spec(*args, **kwargs)
        Node(self, tuple(args), dict(kwargs), outputs)
        return outputs

    def compute_output_spec(self, *args, **kwargs):
        """The KerasTensors `call` would return (traced on placeholders)."""
        outputs = symbolic_call(self, self.call, args, kwargs)
        self._inbound_nodes.pop()
        return outputs

    def count_params(self):
        return 0

    def _single_node(self, what):
        if len(self._inbound_nodes) != 1:
            raise ValueError(f"The operation '{self.name}' has {len(self._inbound_nodes)} "
                             f"inbound nodes, so its `{what}` is ill-defined; it is only "
                             "defined for an operation called exactly once.")
        return self._inbound_nodes[0]

    @property
    def input(self):
        node = self._single_node("input")
        tensors = node.input_tensors
        return tensors[0] if len(tensors) == 1 else tensors

    @property
    def output(self):
        node = self._single_node("output")
        outs = [t for t in nest.flatten(node.outputs) if isinstance(t, KerasTensor)]
        return outs[0] if len(outs) == 1 else outs

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<Operation name={self.name}>"


def remat(f):
    """`keras.remat(f)`: `f` whose forward pass is computed again, under a
    tape, when its gradient is needed (runtime's `tf.recompute_grad`)."""
    return recompute_grad(f)


_scopes = threading.local()
_MODES = (None, "full", "activations", "larger_than", "list_of_layers")


class RematScope:
    """`keras.RematScope(mode="full", output_size_threshold=1024,
    layer_names=None)`: the rematerialization mode in force inside the `with`
    block (`get_current_remat_mode()`); scopes nest."""

    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in _MODES:
            raise ValueError(f"Invalid mode '{mode}'. Supported modes are: 'full', "
                             "'activations', 'larger_than', 'list_of_layers', or  None.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = layer_names or []

    def __enter__(self):
        stack = getattr(_scopes, "stack", None)
        if stack is None:
            stack = _scopes.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc_info):
        _scopes.stack.pop()


def get_current_remat_mode():
    """The innermost RematScope (None outside any, or with mode None)."""
    stack = getattr(_scopes, "stack", None)
    if not stack or stack[-1].mode is None:
        return None
    return stack[-1]
