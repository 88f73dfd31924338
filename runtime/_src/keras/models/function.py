"""`keras.Function`: a callable graph of KerasTensors, what a functional
Model runs without being a layer (no weights of its own, no training).

    x = Input((3,), name="x")
    y = Dense(2)(x) + 1
    f = Function(x, y, name="fn")
    f(np.ones((4, 3)))           # runs Dense then the add on real tensors
    f.operations                 # [InputLayer x, Dense, Add]

It is called with the structure it was made with (a list for a list of
inputs, a dict for a dict) and checks each input's rank and known sizes,
as Keras 3's does; called on KerasTensors it gives KerasTensors (a node of
a larger graph).
"""

from runtime._src.core import nest
from runtime._src.keras.models import functional
from runtime._src.keras.backend.keras_tensor import KerasTensor, any_symbolic, symbolic_call
from runtime._src.keras.utils.naming import unique_name

__all__ = ["Function"]


def _same_structure(a, b):
    try:
        nest.assert_same_structure(a, b)
    except (ValueError, TypeError):
        return False
    return True


class Function:
    """`keras.Function(inputs, outputs, name=None)`: the graph of layer calls
    between the KerasTensors `inputs` and `outputs` (nested structures)."""

    def __init__(self, inputs, outputs, name=None):
        self.name = name or unique_name("function")
        self._inputs_struct = nest.map_structure(lambda x: x, inputs)
        self._outputs_struct = nest.map_structure(lambda x: x, outputs)
        self._inputs, self._outputs = nest.flatten(inputs), nest.flatten(outputs)
        for label, flat in (("inputs", self._inputs), ("outputs", self._outputs)):
            if not flat:
                raise ValueError(f"`{label}` argument cannot be empty. Received:\n"
                                 f"inputs={inputs}\noutputs={outputs}")
        self._operations, self._nodes, _ = functional.map_graph(self._inputs, self._outputs)
        self._inbound_nodes = []

    @property
    def operations(self):
        """The layers and operations of the graph, inputs first (Keras's order)."""
        return self._operations[:]

    @property
    def inputs(self):
        return self._inputs

    @property
    def outputs(self):
        return self._outputs

    def __call__(self, inputs):
        if any_symbolic((inputs,), {}):
            return symbolic_call(self, self.call, (inputs,), {})
        return self.call(inputs)

    def call(self, inputs):
        """The outputs (in their structure) computed from new `inputs`."""
        self._assert_input_compatibility(inputs)
        values = functional.run_graph(self._nodes, self._inputs, nest.flatten(inputs),
                                      self._outputs)
        return nest.pack_sequence_as(self._outputs_struct, values)

    def compute_output_spec(self, inputs):
        """KerasTensors with the outputs' shapes and dtypes for `inputs`
        (KerasTensors in the inputs' structure)."""
        self._assert_input_compatibility(inputs)
        outputs = symbolic_call(_Scratch(self.name), self.call, (inputs,), {})
        return nest.map_structure(lambda t: KerasTensor(t.shape, t.dtype), outputs)

    def compute_output_shape(self, input_shape):
        """The outputs' shapes for inputs of shapes `input_shape` (a shape per input)."""
        shapes = input_shape if len(self._inputs) > 1 else [input_shape]
        specs = [KerasTensor(tuple(s), ref.dtype) for s, ref in zip(shapes, self._inputs)]
        result = self.compute_output_spec(nest.pack_sequence_as(self._inputs_struct, specs))
        return nest.map_structure(lambda t: tuple(t.shape), result)

    def _assert_input_compatibility(self, inputs):
        if not _same_structure(inputs, self._inputs_struct):
            raise ValueError("Function was called with an invalid input structure. Expected "
                             f"input structure: {self._inputs_struct}\nReceived input "
                             f"structure: {inputs}")
        for x, ref in zip(nest.flatten(inputs), self._inputs):
            shape = tuple(getattr(x.shape, "dims", x.shape))
            if len(shape) != len(ref.shape) or any(
                    d is not None and r is not None and d != r
                    for d, r in zip(shape, ref.shape)):
                raise ValueError(f"{type(self).__name__} was passed incompatible inputs. For "
                                 f"input '{ref.name}', expected shape {ref.shape}, but "
                                 f"received instead a tensor with shape {shape}.")

    def __repr__(self):
        return f"<Operation name={self.name}>"


class _Scratch:
    """The owner of a throwaway node (`compute_output_spec` records none)."""

    def __init__(self, name):
        self.name = name
        self._inbound_nodes = []
