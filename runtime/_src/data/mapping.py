"""Transformations that call user functions: map, filter, flat_map,
interleave, scan, and `reduce`.

The function is traced once into a graph (through `tf.function`, so autograph
converts Python control flow on tensors) with the element's specs, and the
graph runs per element:

    ds.map(lambda x, y: (x / 255, y))     # a tuple element is passed as *args
    ds.filter(lambda x: x % 2 == 0)        # keeps elements where it is true

`Map.apply_block` runs the traced graph once on a whole block of stacked
elements (the fused map-and-batch path, batching.py) when the function is
elementwise over the first axis: traced again with a leading None dimension,
free of stateful ops, and checked on the first block against per-element
results; otherwise it falls back to per-element calls.
"""

import itertools

import numpy as np

from autograph.integration import user_location
from runtime._src.core import nest
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.context import current_graph, init_scope
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import iterator_ops, structure
from runtime._src.data.batching import Stored, stack
from runtime._src.data.env import DEBUG_MODE
from runtime._src.data.node import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetNode,
    is_dataset_spec,
    static_int,
)
from runtime._src.exec import executor
from runtime._src.function.function import function

__all__ = ["Filter", "FlatMap", "Interleave", "Map", "Scan", "TracedFunction", "reduce",
           "enable_debug_mode"]


def _where(func):
    """'name' (file:line) of a user function; a function defined in converted
    code (a lambda inside a tf.function) is mapped back to the user's line."""
    code = getattr(func, "__code__", None)
    name = getattr(func, "__name__", type(func).__name__)
    if code is None:
        return f"{name!r}"
    filename, line = code.co_filename, code.co_firstlineno
    filename, line = user_location(filename, line) or (filename, line)
    return f"{name!r} ({filename}:{line})"


def _args(spec_or_value):
    return tuple(spec_or_value) if type(spec_or_value) is tuple else (spec_or_value,)


class TracedFunction:
    """A user function traced for one element spec; `call(element)` runs it
    on numpy leaves and returns numpy leaves."""

    def __init__(self, func, spec, op, batched=False):
        if not callable(func):
            raise TypeError(f"{op}: expected a function, got {type(func).__name__}")
        self.func, self.op = func, op
        self.debug = DEBUG_MODE[0]          # tf.data.experimental.enable_debug_mode
        in_spec = self.in_spec = structure.batched_spec(spec, None) if batched else spec
        try:
            with init_scope():
                self.concrete = function(func).get_concrete_function(*_args(in_spec))
        except TypeError as e:
            if not str(e).startswith("capture:"):
                raise
            raise TypeError(
                f"{op}: the function {_where(func)} uses a tensor of the enclosing "
                f"tf.function ({str(e).split(' belongs')[0][len('capture: '):]}); a "
                f"dataset's functions run apart from that graph. Bring the value into the "
                f"dataset instead (Dataset.zip with Dataset.from_tensors(value).repeat()), "
                f"or build the dataset outside the tf.function") from None
        out = self.concrete.structured_outputs
        structure.note(out)                 # composite outputs flatten to their components
        self.out_leaves = [self._leaf(v) for v in structure.flatten(out)]
        if out is None or not self.out_leaves:
            raise TypeError(f"{op}: the function {_where(func)} returned {out!r}; it must "
                            f"return a tensor or a structure of tensors")
        self.out_structure = out
        self.out_spec = structure.pack(out, [TensorSpec(t.shape, t.dtype)
                                             for t in self.out_leaves])
        if any(structure.is_extension(v) for v in nest.flatten(out)):
            self.out_structure = nest.map_structure(     # extension types by their specs
                lambda v: v._type_spec if structure.is_extension(v) else v, out)
            self.out_spec = structure.spec_of(out)
        self.stateful = self.concrete.graph.is_stateful()
        # per output leaf: its index among the graph's outputs, None for a constant
        # (a returned composite's components fill `count` outputs from `index`)
        self.out_slots = []
        for slot in self.concrete._outputs.slots:
            if type(slot) is int:
                self.out_slots.append(slot)
            elif hasattr(slot, "count"):
                self.out_slots.extend(range(slot.index, slot.index + slot.count))
            else:
                self.out_slots.append(None)

    def _leaf(self, v):
        if isinstance(v, Tensor):
            return v
        if isinstance(v, (bool, int, float, str, bytes, np.ndarray, np.generic)):
            with init_scope():
                return convert_to_tensor(v)
        raise TypeError(f"Unsupported return value from function passed to {self.op}(): "
                        f"{v!r}. The function {_where(self.func)} must return tensors (or "
                        f"numbers, strings, and tuples or dicts of them)")

    def call(self, element):
        return structure.pack(self.out_structure, self.call_flat(structure.flatten(element)))

    def call_flat(self, leaves):
        """The function on an element's flat numpy leaves: the flat outputs."""
        if self.debug:
            return self._call_eagerly(leaves)
        feeds = [np.asarray(v, dtype=object) if type(v) is bytes else v for v in leaves]
        try:
            if self.concrete._capture_sources:
                out = self.concrete._call_flat(feeds)
                flat = [out] if isinstance(out, EagerTensor) else structure.flatten(out)
                return [v._value if isinstance(v, EagerTensor) else c._value
                        for v, c in zip(flat, self.out_leaves)]
            values = executor.run(self.concrete._run_graph, feeds)  # no tensors made
            return [values[i] if i is not None else c._value
                    for i, c in zip(self.out_slots, self.out_leaves)]
        except InvalidArgumentError as e:
            raise type(e)(f"{self.op}: in the function {_where(self.func)}: {e}",
                          e.op_name) from e


    def _call_eagerly(self, leaves):
        """Debug mode: the Python function itself on EagerTensors (TF wraps it in
        a py_function), its outputs cast to the traced ones' dtypes."""
        element = structure.to_tensors(structure.pack(self.in_spec, list(leaves)))
        flat = structure.flatten(self.func(*_args(element)))
        return [np.asarray(v._value if isinstance(v, EagerTensor) else v,
                           dtype=c.dtype.as_numpy_dtype)[()]
                for v, c in zip(flat, self.out_leaves)]


def enable_debug_mode():
    """`tf.data.experimental.enable_debug_mode`: the functions of the datasets
    built after this call run eagerly (their Python body, so `print` and
    breakpoints work per element), and prefetching runs on the consumer's thread."""
    if current_graph() is not None:
        raise ValueError("`enable_debug_mode() is only supported in eager mode.")
    DEBUG_MODE[0] = True


def _dropping_errors(call, elements):
    """`call` of each element, dropping those it raises on (under ignore_errors)."""
    for e in elements:
        try:
            out = call(e)
        except Exception:  # noqa: BLE001 - Dataset.ignore_errors drops the element
            continue
        yield out


class Map(DatasetNode):
    def __init__(self, source, func):
        self._inputs = (source,)
        self._source = source
        self._fn = TracedFunction(func, source.element_spec, "Dataset.map")
        self._batched = None          # None: not tried; False: not elementwise
        super().__init__(self._fn.out_spec)

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        call = self._fn.call
        if env.ignore_errors:
            yield from _dropping_errors(call, self._source._iterate(env))
            return
        for e in self._source._iterate(env):
            yield call(e)

    def _plan(self, env):
        if self._fn.stateful or self._fn.debug or self._batched is False:
            return None
        plan = self._source._plan(env)
        return None if plan is None else plan.with_map(self)

    def apply_block(self, flat, n):
        """The function applied to each of the `n` rows of a block (the flat
        list of its stacked components); the flat outputs."""
        if self._batched is None:
            block = structure.pack(self._source.element_spec, flat)
            self._batched = self._try_batched(block, n)
        if self._batched:
            return self._batched.call_flat(flat)
        block = structure.pack(self._source.element_spec, flat)
        return structure.flatten(_per_row(self._fn, block, n, self._source.element_spec))

    def _try_batched(self, block, n):
        try:
            fn = TracedFunction(self._fn.func, self._source.element_spec, "Dataset.map",
                                batched=True)
            out = fn.call(block)
        except Exception:  # noqa: BLE001 - not elementwise: per-element calls instead
            return False
        if fn.stateful:
            return False
        rows = sorted({0, n - 1})
        spec = self._source.element_spec
        for i in rows:
            one = self._fn.call(structure.pack(spec, [a[i] for a in structure.flatten(block)]))
            got = [np.shape(a) and a[i] for a in structure.flatten(out)]
            want = structure.flatten(one)
            if len(got) != len(want) or any(
                    np.shape(a)[:1] != (n,) for a in structure.flatten(out)) or any(
                    np.shape(g) != np.shape(w) or not np.array_equal(g, w)
                    for g, w in zip(got, want)):
                return False
        return fn


def _per_row(fn, block, n, spec):
    flat = structure.flatten(block)
    outs = [structure.flatten(fn.call(structure.pack(spec, [a[i] for a in flat])))
            for i in range(n)]
    return structure.pack(fn.out_structure, [stack(list(c), "Dataset.batch")
                                             for c in zip(*outs)])


class Filter(DatasetNode):
    def __init__(self, source, predicate):
        self._inputs = (source,)
        self._source = source
        self._fn = TracedFunction(predicate, source.element_spec, "Dataset.filter")
        leaves = structure.flatten(self._fn.out_spec)
        if len(leaves) != 1 or not leaves[0].dtype.is_bool or leaves[0].shape.dims != ():
            raise ValueError(f"Dataset.filter: the predicate {_where(predicate)} must return "
                             f"a scalar bool tensor, got {self._fn.out_spec!r}")
        super().__init__(source.element_spec)

    def _cardinality(self):
        n = self._source._cardinality()
        return INFINITE_CARDINALITY if n == INFINITE_CARDINALITY else UNKNOWN_CARDINALITY

    def _iterate(self, env):
        call = self._fn.call
        for e in self._source._iterate(env):
            if call(e):
                yield e


def _dataset_fn(func, spec, op):
    """Call `func` on an element's tensors eagerly: it must return a Dataset."""
    def run(element):
        args = _args(structure.to_tensors(element))
        out = func(*args)
        if not isinstance(out, DatasetNode):
            raise TypeError(f"{op}: the function {_where(func)} must return a Dataset, got "
                            f"{type(out).__name__}")
        return out
    return run


def _example(s, node):
    if is_dataset_spec(s):              # an empty dataset, of the class user code sees
        return node._public(Stored)([], s.element_spec)
    return np.zeros([d or 0 for d in (s.shape.dims or ())], s.dtype.np_dtype)


def _probe_spec(node, func, spec, op):
    """The element_spec of the datasets `func` returns for `node`'s elements."""
    zeros = structure.pack(spec, [_example(s, node) for s in structure.flatten(spec)])
    return _dataset_fn(func, spec, op)(zeros).element_spec


class FlatMap(DatasetNode):
    def __init__(self, source, func):
        self._inputs = (source,)
        self._source = source
        self._fn = _dataset_fn(func, source.element_spec, "Dataset.flat_map")
        super().__init__(_probe_spec(self, func, source.element_spec, "Dataset.flat_map"))

    def _iterate(self, env):
        for e in self._source._iterate(env):
            yield from self._fn(e)._iterate(env)


class Interleave(DatasetNode):
    def __init__(self, source, func, cycle_length, block_length):
        self._inputs = (source,)
        self._source = source
        self._fn = _dataset_fn(func, source.element_spec, "Dataset.interleave")
        self._cycle = 4 if cycle_length in (None, -1) else \
            static_int(cycle_length, "cycle_length", "Dataset.interleave")
        self._block = 1 if block_length is None else \
            static_int(block_length, "block_length", "Dataset.interleave")
        super().__init__(_probe_spec(self, func, source.element_spec, "Dataset.interleave"))

    def _iterate(self, env):
        sources = self._source._iterate(env)
        active = [self._fn(e)._iterate(env) for e in itertools.islice(sources, self._cycle)]
        i = 0
        while active:
            it = active[i]
            taken = list(itertools.islice(it, self._block))
            yield from taken
            if len(taken) < self._block:
                nxt = next(sources, None)
                if nxt is None:
                    del active[i]
                    if active:
                        i %= len(active)
                    continue
                active[i] = self._fn(nxt)._iterate(env)
            i = (i + 1) % len(active)


class Scan(DatasetNode):
    def __init__(self, source, initial_state, func):
        self._inputs = (source,)
        self._source = source
        self._init = structure.normalize(initial_state, "Dataset.scan")
        self._params = structure.flatten(self._init)
        state_spec = structure.spec_of(self._init)
        self._fn = TracedFunction(func, (state_spec, source.element_spec),   # element not
                                  "Dataset.scan")                         # unpacked, as TF
        out = self._fn.out_structure
        if not isinstance(out, tuple) or len(out) != 2:
            raise TypeError(f"Dataset.scan: the function {_where(func)} must return "
                            f"(new_state, output_element), got {out!r}")
        super().__init__(self._fn.out_spec[1])

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        state = structure.pack(self._init, [env.value(t) for t in self._params])
        for e in self._source._iterate(env):
            state, out = self._fn.call((state, e))
            yield out


def reduce(dataset, initial_state, func):
    """`Dataset.reduce`: fold `func(state, element)` over the dataset."""
    init = structure.normalize(initial_state, "Dataset.reduce")
    spec = dataset.element_spec
    fn = TracedFunction(func, (structure.spec_of(init), spec),   # the element stays whole
                        "Dataset.reduce")
    return iterator_ops.reduce_dataset(dataset, init, fn)
