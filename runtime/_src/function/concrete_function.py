"""`ConcreteFunction`: one traced graph plus how to feed it and rebuild results.

A `Function` (runtime/_src/function/function.py) makes one per signature. Calling it checks
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

from autograph.integration import filtered as _filtered

from runtime._src.exec import executor as _executor
from runtime._src.core import nest
from runtime._src.core.composite import type_spec_of
from runtime._src.function import call_signature as _calls
from runtime._src.function.binder import make_binder
from runtime._src.function import function_type as _function_type
from runtime._src.function import signature as _sig
from runtime._src.function import types as _types
from runtime._src.function import variables as _variables
from runtime._src.core import context as _context
from runtime._src.core.dtypes import variant
from runtime._src.graph.op_registry import apply
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.graph import leaked_tensor_error
from runtime._src.core.tensor import EagerTensor, SymbolicTensor, convert_to_tensor, wrap_numpy
from runtime._src.function.tensor_array import TensorArray
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor

__all__ = ["ConcreteFunction"]

# Called with each ConcreteFunction about to run while not empty:
# `tf.summary.trace_on` records the graphs that ran (runtime/_src/summary/trace.py).
call_observers = []


# Set by runtime/_src/autodiff/function_call.py: record_call(concrete, tensors,
# bindings) runs a concrete function's graph under recording GradientTapes as
# one recorded op and returns its outputs (eager tensors).
record_call = None


def _notify_observers(concrete):
    if call_observers:                      # tf.summary.trace_on (runtime/_src/summary)
        for observe in call_observers:
            observe(concrete)


def traced_graph_def(graph):
    """While a summary trace is on: the GraphDef of a newly traced `graph`
    before the optimizer changes it (what tf.summary.trace_export writes, the
    function as traced, as TensorFlow shows it); None otherwise."""
    return graph.as_graph_def(add_shapes=True) if call_observers else None


class ConcreteFunction(_types.ConcreteFunction):
    """A traced graph callable with tensors (`tf.types.experimental.ConcreteFunction`)."""

    _traced_graph_def = None     # see traced_graph_def
    # What runs the graph: the executor, or (jit_compile=True) a compiled
    # program's `run` (runtime/_src/jit), set by `use_compiler`.
    _run = staticmethod(_executor.run)

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
        self._variable_slots = ()        # (feed index, VariableArgument) per Variable argument
        self._binder = make_binder(self._bind)  # a call's parameter values, a plan per shape
        self._direct = set()             # call keys whose feeds need no check

    # --- calling ----------------------------------------------------------

    def __call__(self, *args, **kwargs):
        try:
            feeds = self._feeds(args, kwargs)
            if getattr(_context.state, "tapes", None):     # a GradientTape is recording
                return self._call_taped(feeds, (args, kwargs))
            return self._call_flat(feeds)
        except Exception as e:  # noqa: BLE001 - re-raised, traceback filtered
            raise _filtered(e)

    def _call_taped(self, feeds, given, python=None):
        """Run the graph as one op that the recording tapes record, as TF
        records the call (runtime/_src/autodiff/function_call.py): the
        caller's own tensors feed the placeholders they were passed for.

        When a tape watches an eager tensor the trace captured as a constant,
        the call runs `python()` (a Function's Python, eagerly) or, for a
        concrete function, its graph op by op."""
        _notify_observers(self)
        slots = self._variable_slots
        variables = {i for i, _ in slots}
        previous = [slot.bind(feeds[i]) for i, slot in slots]
        try:
            mine = {id(t._value): t for t in nest.flatten(given, expand_composites=True)
                    if isinstance(t, EagerTensor)}
            tensors = [_own_or_new(mine.get(id(f)), f, p.dtype) for f, p in zip(
                [f for i, f in enumerate(feeds) if i not in variables], self.graph.inputs)]
            tensors += [_capture_tensor(outer, inner)
                        for outer, (_, inner) in zip(self._capture_sources,
                                                     self._run_graph.captures)]
            bindings = tuple((slot, feeds[i]) for i, slot in slots)
            outs = record_call(self, tensors, bindings)
            if outs is None:
                if python is not None:
                    return python()
                outs = run_recorded(self._run_graph, tensors[:len(self.graph.inputs)])
            return self._outputs.pack_tensors(outs)
        finally:
            for (_, slot), before in zip(reversed(slots), reversed(previous)):
                slot.bind(before)

    def _feeds(self, args, kwargs):
        """The placeholder values of a call; TensorFlow's binding TypeError (or,
        for a tensor of another dtype, its InvalidArgumentError) when it does not
        fit. A call whose key passed the check before skips it
        (`signature.checked_feeds`)."""
        values = self._binder(args, kwargs)
        return _sig.checked_feeds(values, self._direct, self._check, args, kwargs)

    def _check(self, values, args, kwargs):
        feeds = []
        where = f"ConcreteFunction {self.name}"
        try:
            for template, value, name in zip(self._template, values, self._call_sig.names):
                _sig.match_template(template, value, name, feeds, where)
        except _sig.InputSignatureMismatchError as e:
            if getattr(e, "dtype_of_input", None) is not None:
                raise _dtype_error(self, e) from None
            raise _calls.mismatch_error(e, args, kwargs, self.function_type) from None
        return feeds

    def _bind(self, args, kwargs):
        """Parameter values. Parameters traced with Python values may be left
        out (they were bound when tracing, as in TensorFlow); others take their
        default. A call that does not bind so falls back, as TensorFlow's does,
        to the flat signature: the positional arguments are the tensor ones
        (`cf(x)` for `get_concrete_function(model, x)`)."""
        try:
            return self._bind_structured(args, kwargs)
        except TypeError:
            flat = self._bind_flat(args, kwargs)
            if flat is None:
                raise
            return flat

    def _bind_flat(self, args, kwargs):
        """Values for a call with exactly the traced tensor parameters,
        positionally; None where the call is not one."""
        tensor_params = [_sig.feed_leaves(t) for t in self._template]
        if kwargs or any(len(leaves) > 1 or (leaves and not isinstance(t, TensorSpec))
                         for t, leaves in zip(self._template, tensor_params)):
            return None
        if sum(1 for leaves in tensor_params if leaves) != len(args):
            return None
        rest = iter(args)
        return [next(rest) if leaves else _sig.map_template(t, None)
                for t, leaves in zip(self._template, tensor_params)]

    def _bind_structured(self, args, kwargs):
        try:
            bound = self._call_sig.signature.bind_partial(*args, **kwargs)
        except TypeError as e:
            raise _calls.binding_error(str(e), args, kwargs, self.function_type,
                                       f"ConcreteFunction {self.name}(): {e}") from None
        values = []
        for p, template in zip(self._call_sig.params, self._template):
            if p.name in bound.arguments:
                values.append(bound.arguments[p.name])
            elif not _sig.feed_leaves(template):
                values.append(_sig.map_template(template, None))
            elif p.default is not p.empty:
                values.append(p.default)
            else:
                reason = f"missing a required argument: '{p.name}'"
                raise _calls.binding_error(reason, args, kwargs, self.function_type,
                                           f"ConcreteFunction {self.name}(): {reason}")
        return values

    def _route_variable_arguments(self, run_graph):
        """Make the graph serve any Variables like the ones it was traced with:
        its reads and writes of them go through slots each call binds."""
        leaves = [(i, leaf) for i, leaf in enumerate(
            leaf for t in self._template for leaf in _sig.feed_leaves(t))
            if isinstance(leaf, _sig.VariableRef)]
        if leaves:
            slots = _variables.route_variable_arguments(
                run_graph, [leaf.key.get() for _, leaf in leaves])
            self._variable_slots = tuple((i, slot) for (i, _), slot in zip(leaves, slots))

    def _call_flat(self, feeds):
        """Run the graph on `feeds` (one per placeholder, in order; and the
        Variable arguments, bound to their slots for the run)."""
        _notify_observers(self)
        if self._variable_slots:
            return self._call_bound(feeds)
        if self._capture_sources:
            feeds = feeds + [_capture_value(t) for t in self._capture_sources]
        return self._outputs.pack(self._run(self._run_graph, feeds))

    def _call_bound(self, feeds):
        slots = self._variable_slots
        variables = {i for i, _ in slots}
        values = [f for i, f in enumerate(feeds) if i not in variables]
        previous = [slot.bind(feeds[i]) for i, slot in slots]
        try:
            if self._capture_sources:
                values = values + [_capture_value(t) for t in self._capture_sources]
            return self._outputs.pack(self._run(self._run_graph, values))
        finally:
            for (_, slot), before in zip(reversed(slots), reversed(previous)):
                slot.bind(before)

    def use_compiler(self):
        """jit_compile=True: run the graph as one XLA program (through JAX),
        or on the executor after a warning saying why not (runtime/_src/jit)."""
        from runtime._src.jit import program as _jit
        compiled = _jit.compile_graph(self._run_graph, self.name)
        if compiled is not None:
            self._run = lambda graph, inputs: _jit.try_run(compiled, graph, inputs,
                                                           _executor.run)

    @property
    def inference_fn(self):
        """This trace as an `AtomicFunction`: called with one tensor per input
        (the flattened arguments, Variables included), it returns the outputs."""
        return AtomicFunction(self)

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
        values = [_sig.map_template(t, lambda spec: spec, specs_only=True)
                  for t in self._template]
        args, kwargs = self._call_sig.split(values)
        return tuple(args), kwargs

    @property
    def function_type(self):
        """This trace's `FunctionType`: each parameter constrained to what it was
        traced with, the output type and the captures."""
        captures = {inner.name: TensorSpec(inner.shape, inner.dtype)
                    for _, inner in self.graph.captures}
        return _function_type.concrete_type(self._call_sig, self._template,
                                            self._outputs.structured, captures)

    def pretty_printed_signature(self, verbose=True):
        """Input parameters, output type and captures, as TensorFlow prints them."""
        return repr(self.function_type)

    def __repr__(self):
        # TensorFlow 2.21: <ConcreteFunction (x: TensorSpec(...)) -> TensorSpec(...) at 0x7F..>
        return f"<ConcreteFunction {self.function_type} at 0x{id(self):X}>"

    def __str__(self):
        # TensorFlow 2.21: "ConcreteFunction Input Parameters:\n  x (...": no name.
        return f"ConcreteFunction {self.pretty_printed_signature()}"


class AtomicFunction(_types.AtomicFunction):
    """`concrete.inference_fn` (`tf.types.experimental.AtomicFunction`): the
    trace's graph called with its flat inputs, as TF's."""

    __slots__ = ("_concrete",)

    def __init__(self, concrete):
        self._concrete = concrete

    @property
    def name(self):
        return f"__inference_{self._concrete.name}".encode()

    def __call__(self, *args):
        concrete = self._concrete
        variables = {i for i, _ in concrete._variable_slots}
        count = len(concrete.graph.inputs) + len(variables)
        if len(args) != count:
            raise TypeError(f"{self.name.decode()}: expected {count} input tensors, got "
                            f"{len(args)}")
        placeholders = iter(concrete.graph.inputs)
        feeds = [a if i in variables else
                 convert_to_tensor(a, next(placeholders).dtype)._value
                 for i, a in enumerate(args)]
        return concrete._call_flat(feeds)


# TensorFlow's names of dtypes in kernel messages (DataTypeString).
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _dtype_error(concrete, error):
    """TensorFlow 2.21's error for a concrete function called with a tensor of
    another dtype (an InvalidArgumentError from the function's kernel), with
    our explanation after it; it is an InputSignatureMismatchError too."""
    index, given, expected = error.dtype_of_input
    name = f"__inference_{concrete.name}"
    text = (f"cannot compute {name} as input #{index}(zero-based) was expected to be a "
            f"{_KERNEL_NAMES.get(expected.name, expected.name)} tensor but is a "
            f"{_KERNEL_NAMES.get(given.name, given.name)} tensor [Op:{name}]\n{error}")
    return ConcreteInputDtypeError(text, name)


class ConcreteInputDtypeError(InvalidArgumentError, _sig.InputSignatureMismatchError):
    """InvalidArgumentError (TensorFlow's type) that older code catching our
    InputSignatureMismatchError still catches."""


def _own_or_new(tensor, value, dtype):
    return EagerTensor(value, dtype) if tensor is None or tensor.dtype != dtype else tensor


def run_recorded(graph, inputs):
    """Run `graph` op by op, eagerly, so that the GradientTapes recording on this
    thread see its ops and Variable reads and can differentiate through it.
    `inputs`: a tensor per placeholder; captured tensors and Variables are read
    as they are now."""
    values = {id(t): v for t, v in zip(graph.inputs, inputs)}
    for outer, inner in graph.captures:
        values[id(inner)] = outer if isinstance(outer, EagerTensor) else \
            convert_to_tensor(outer)
    for node in graph.nodes:
        if node.op == "Placeholder":
            continue
        if node.op == "ReadVariableOp":
            variable = node.attrs["variable"]
            if isinstance(variable, _variables.VariableArgument):
                variable = variable._target()
            out = variable._as_tensor()
        else:
            out = apply(node.op, [values[id(t)] for t in node.inputs], node.attrs)
        for t, o in zip(node.outputs, out if isinstance(out, tuple) else (out,)):
            values[id(t)] = o
    return [values[id(t)] for t in graph.outputs]


def _capture_tensor(outer, inner):
    """The eager tensor a capture is fed (the captured tensor itself, so a
    tape watching it differentiates through the call)."""
    if isinstance(outer, EagerTensor):
        return outer
    return EagerTensor(np.asarray(_capture_value(outer)), inner.dtype)


def _capture_value(outer):
    """The current numpy value of a captured outer tensor or Variable."""
    if isinstance(outer, EagerTensor):
        return outer._value
    if reads_as_tensor(outer):
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
            spec = type_spec_of(leaf)
            if spec is not None:      # a composite (SparseTensor, RaggedTensor): its tensors
                parts = [_as_graph_output(c, graph, where) for c in spec._to_components(leaf)]
                self.slots.append(_CompositeSlot(len(self.tensors), len(parts), spec))
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

    def pack_tensors(self, tensors):
        """`pack` for eager tensors already made (a recorded run)."""
        flat = []
        for slot in self.slots:
            if type(slot) is int:
                flat.append(tensors[slot])
            elif type(slot) is _ArraySlot:
                flat.append(slot.array._with_flow(tensors[slot.index]))
            elif type(slot) is _CompositeSlot:
                flat.append(slot.template._from_components(
                    list(tensors[slot.index:slot.index + slot.count])))
            else:
                flat.append(slot.value)
        return nest.pack_sequence_as(self.structure, flat)

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
    """A returned composite (a SparseTensor, a RaggedTensor): the output
    indices of its component tensors and its spec, which rebuilds it from them."""

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
