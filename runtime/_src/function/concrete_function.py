"""`ConcreteFunction`: one traced graph plus how to feed it and rebuild results.

A `Function` (runtime/function.py) makes one per signature. Calling it checks
the arguments against the traced signature (Python values convert to the
spec's dtype), runs the graph with `executor.run`, and packs the outputs back
into the structure the Python function returned, as EagerTensors:

    cf = f.get_concrete_function(TensorSpec([None], float32))
    cf(constant([1.0, 2.0]))          # runs the graph
    cf.graph, cf.inputs, cf.outputs   # the traced graph and its tensors
    cf.structured_input_signature     # ((TensorSpec(shape=(None,), ...),), {})
    cf.structured_outputs             # the returned structure, symbolically
"""

import numpy as np

from autograph import tracebacks as _tracebacks

from runtime._src.exec import executor as _executor
from runtime._src.core import nest
from runtime._src.function import signature as _sig
from runtime._src.core.dtypes import variant
from runtime._src.graph.graph import leaked_tensor_error
from runtime._src.core.tensor import EagerTensor, SymbolicTensor, convert_to_tensor, wrap_numpy
from runtime._src.function.tensor_array import TensorArray
from runtime._src.core.tensor_shape import TensorSpec

__all__ = ["ConcreteFunction"]


class ConcreteFunction:
    """A traced graph callable with tensors (`tf.types.experimental.ConcreteFunction`)."""

    def __init__(self, name, graph, run_graph, template, call_sig, outputs, skeleton,
                 leaf_shapes):
        self.name = name
        self.graph = graph
        self._run_graph = run_graph      # what runs (the graph after _finalize_graph)
        self._template = template        # per parameter: TensorSpec leaves, literals...
        self._call_sig = call_sig
        self._outputs = outputs
        self._skeleton = skeleton        # cache key without shapes (None: input_signature)
        self._leaf_shapes = leaf_shapes  # TensorShape per tensor leaf, placeholder order
        self._description = None         # per-argument description, for retrace reports
        self._capture_sources = [outer for outer, _ in run_graph.captures]

    # --- calling ----------------------------------------------------------

    def __call__(self, *args, **kwargs):
        try:
            values = self._bind(args, kwargs)
            feeds = []
            where = f"ConcreteFunction {self.name}"
            for template, value, name in zip(self._template, values, self._call_sig.names):
                _sig.match_template(template, value, name, feeds, where)
            return self._call_flat(feeds)
        except Exception as e:
            raise _tracebacks.filtered(e)

    def _bind(self, args, kwargs):
        """Parameter values; parameters traced with Python values may be left out."""
        try:
            bound = self._call_sig.signature.bind_partial(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"ConcreteFunction {self.name}(): {e}") from None
        bound.apply_defaults()
        values = []
        for name, template in zip(self._call_sig.names, self._template):
            if name in bound.arguments:
                values.append(bound.arguments[name])
            elif not _sig.template_leaves(template):
                values.append(_sig.map_template(template, None))
            else:
                raise TypeError(f"ConcreteFunction {self.name}(): missing a required "
                                f"argument: '{name}'")
        return values

    def _call_flat(self, feeds):
        """Run the graph on numpy `feeds` (one per placeholder, in order)."""
        if self._capture_sources:
            feeds = feeds + [_capture_value(t) for t in self._capture_sources]
        return self._outputs.pack(_executor.run(self._run_graph, feeds))

    # --- description ------------------------------------------------------

    @property
    def inputs(self):
        """The graph's placeholders: arguments first, then captures."""
        return list(self.graph.inputs) + [inner for _, inner in self.graph.captures]

    @property
    def outputs(self):
        return list(self.graph.outputs)

    @property
    def structured_outputs(self):
        return self._outputs.structured

    @property
    def structured_input_signature(self):
        """(args, kwargs) as traced: TensorSpecs for tensors, Python values as given."""
        values = [_sig.map_template(t, lambda spec: spec) for t in self._template]
        args, kwargs = self._call_sig.split(values)
        return tuple(args), kwargs

    def pretty_printed_signature(self, verbose=True):
        """Input parameters, output type and captures, as TensorFlow prints them."""
        lines = ["Input Parameters:"]
        for p, t in zip(self._call_sig.params, self._template):
            lines.append(f"  {p.name} ({p.kind.name}): {_sig.format_type(t)}")
        lines.append("Output Type:")
        lines.append(f"  {_sig.format_type(self._outputs.structured)}")
        lines.append("Captures:")
        if self.graph.captures:
            for outer, inner in self.graph.captures:
                lines.append(f"  {inner.name}: {_sig.format_type(TensorSpec(inner.shape, inner.dtype))}")
        else:
            lines.append("  None")
        return "\n".join(lines)

    def __repr__(self):
        return f"<ConcreteFunction {self.name} at {id(self):#x}>"

    def __str__(self):
        return f"ConcreteFunction {self.name}\n" + self.pretty_printed_signature()


def _capture_value(outer):
    """The current numpy value of a captured outer tensor or Variable."""
    if isinstance(outer, EagerTensor):
        return outer._value
    if hasattr(outer, "_as_tensor"):
        return outer._as_tensor()._value
    return np.asarray(outer)


class _OutputPlan:
    """How a traced result maps to graph outputs and back to Python values.

    Each leaf of the result is either a graph output (by index), a TensorArray
    (its flow is the graph output; the caller gets a TensorArray holding the
    run's elements) or a Python value returned as it is (None, objects that
    are not tensors).
    """

    def __init__(self, result, graph, where):
        self.structure = result
        self.tensors = []
        self.slots = []              # per leaf: output index, _Const or _ArraySlot
        structured = []
        for leaf in nest.flatten(result):
            if isinstance(leaf, TensorArray):
                t = _as_graph_output(leaf.flow, graph, where)
                self.slots.append(_ArraySlot(len(self.tensors), leaf))
                self.tensors.append(t)
                structured.append(leaf)
                continue
            if hasattr(leaf, "_to_components"):     # a composite (RaggedTensor): its tensors
                parts = [_as_graph_output(c, graph, where) for c in leaf._to_components()]
                self.slots.append(_CompositeSlot(len(self.tensors), len(parts), leaf))
                self.tensors.extend(parts)
                structured.append(leaf)
                continue
            t = _as_graph_output(leaf, graph, where)
            if t is None:
                self.slots.append(_Const(leaf))
                structured.append(leaf)
            else:
                self.slots.append(len(self.tensors))
                self.tensors.append(t)
                structured.append(t)
        self.dtypes = [t.dtype for t in self.tensors]
        self.structured = nest.pack_sequence_as(result, structured)
        self.single = (not nest.is_nested(result) and bool(self.tensors)
                       and type(self.slots[0]) is int)

    def pack(self, values):
        if self.single:
            return _eager(values[0], self.dtypes[0])
        flat = []
        for slot in self.slots:
            if type(slot) is int:
                flat.append(_eager(values[slot], self.dtypes[slot]))
            elif type(slot) is _ArraySlot:
                flat.append(slot.array._with_flow(EagerTensor(values[slot.index], variant)))
            elif type(slot) is _CompositeSlot:
                k = slot.index
                flat.append(slot.template._from_components(
                    [_eager(values[i], self.dtypes[i]) for i in range(k, k + slot.count)]))
            else:
                flat.append(slot.value)
        return nest.pack_sequence_as(self.structure, flat)


class _Const:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _ArraySlot:
    """A returned TensorArray: the output index of its flow, and the traced
    TensorArray whose static facts (dtype, element shape) the result keeps."""

    __slots__ = ("index", "array")

    def __init__(self, index, array):
        self.index = index
        self.array = array


class _CompositeSlot:
    """A returned composite (a RaggedTensor): the output indices of its
    component tensors and the traced value, which rebuilds it from them."""

    __slots__ = ("index", "count", "template")

    def __init__(self, index, count, template):
        self.index, self.count, self.template = index, count, template


def _as_graph_output(leaf, graph, where):
    """The graph tensor for a result leaf, or None to return the leaf as is."""
    if leaf is None:
        return None
    if isinstance(leaf, SymbolicTensor):
        if leaf.node.graph is not graph:
            raise leaked_tensor_error(leaf, f"{where} (returning it)")
        return leaf
    if isinstance(leaf, EagerTensor):
        return graph.capture(leaf)
    if _sig.is_variable(leaf) or isinstance(leaf, (bool, int, float, str, bytes,
                                                   np.ndarray, np.generic)):
        t = convert_to_tensor(leaf)
        return graph.capture(t) if isinstance(t, EagerTensor) else t
    return None


def _eager(value, dtype):
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype == dtype.np_dtype:
        return EagerTensor(value, dtype)
    return wrap_numpy(value)
