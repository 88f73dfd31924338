"""A traced function called under a recording GradientTape is one op.

    @tf.function
    def f(x):
        n[0] += 1                    # once, while tracing
        return x * x

    with tf.GradientTape() as tape:
        y = f(v)                     # runs f's graph; each tape records one op
    tape.gradient(y, v)              # runs f's backward graph

As in TensorFlow, the call runs the function's traced graph (the same trace
an untaped call uses) and each recording tape gets one `StatefulPartitionedCall`
record; the Python body is not run again. What a gradient needs is built once
per traced graph and per *live mask* (which of the call's inputs carry a
gradient on some recording tape: watched or recorded tensors, and the
Variables the graph reads, watched by `watch_accessed_variables` or `watch`):

- the forward graph: the traced graph replayed with an accumulator on each
  `While` (the loop states its gradient reads back, control_flow_grad.py);
  its outputs are the function's, then the intermediates the backward uses;
- the backward graph: `backprop` over the forward graph's nodes, the rules
  that differentiate a graph inside `tf.function` (If, While, TensorArrays,
  custom gradients, py_function), built in a graph nested in the forward one
  so that each forward tensor it uses becomes a capture, then made a graph
  of its own whose inputs are the upstream gradients and those tensors, and
  optimized like any traced graph.

The record's inputs are the call's tensors and one read of each Variable the
graph reads (its gradient is the Variable's); its outputs are the results,
then the intermediates when a gradient of a gradient is possible (several
tapes record, or a persistent one); otherwise the record keeps the
intermediates' values and the backward runs on plain values. Its gradient
rule calls the backward graph the same way (a `TapedGraph`), so under a tape
still recording the backward is itself one recorded op with a backward of
its own: gradients of gradients. A gradient reaching an intermediate (second
order) gets a backward built for it.

Fallbacks (docs/tf_differences.md):
- the backward cannot be built (an op on the way without a gradient rule,
  say): the call runs the forward graph op by op under the tapes
  (`run_recorded`): still one trace, and the error, if a gradient does pass
  through that op, comes from `tape.gradient` as in an eager run;
- a tape differentiates through an eager tensor the function closes over
  (the trace made it a constant): `call_concrete` returns None and the
  Function runs its Python eagerly.
"""

import numpy as np

from runtime._src.autodiff.backprop import backprop, carries_gradient
from runtime._src.autodiff.control_flow_grad import replay
from runtime._src.core.context import state as _state
from runtime._src.core.dtypes import variant
from runtime._src.core.tensor import EagerTensor
from runtime._src.exec import executor
from runtime._src.function import concrete_function as _concrete
from runtime._src.function import config as _config
from runtime._src.function.variables import VariableArgument
from runtime._src.graph.graph import Graph
from runtime._src.graph.op_registry import define_grad, define_op, get_op, record_eager
from runtime._src import optimizer
from runtime._src.optimizer.rewrite import walk_graphs

__all__ = ["TapedGraph", "call_concrete"]

_OP = "StatefulPartitionedCall"


@define_op(_OP, num_outputs=None, stateful=True, side_effect=True,
           infer=lambda inputs, attrs: [(t.dtype, t.shape) for t in attrs["form"].forward.outputs])
def _call_kernel(*values, form, bind, saved=None):
    """The forward graph's outputs (function results, then intermediates)."""
    return tuple(executor.run(form.forward, list(values[:len(form.fn.inputs)])))


@define_grad(_OP, takes_none=True)
def _call_grad(op, *grads):
    return op.attrs["form"].gradient(op, grads)


# --- entry points ---------------------------------------------------------------------

def call_concrete(concrete, tensors, bindings):
    """Outputs (eager tensors) of `concrete`'s graph on `tensors` (one per
    argument placeholder, then per capture), recorded on the recording tapes
    as one op. `bindings`: (VariableArgument, Variable) pairs bound now.

    None when a tape differentiates through an eager tensor the function
    closes over: the trace made it a constant (which the optimizer may have
    folded), so the caller runs the call another way."""
    taped = concrete.__dict__.get("_taped")
    if taped is None:
        graph = concrete._run_graph
        inputs = list(graph.inputs) + [inner for _, inner in graph.captures]
        taped = concrete._taped = TapedGraph(graph, inputs, concrete.name)
    if taped.closed_over and _any_live(taped.closed_over, _state.tapes):
        return None
    return taped.call(tensors, bindings)


_concrete.record_call = call_concrete


class TapedGraph:
    """A graph called with eager tensors, one per placeholder in `inputs`;
    a call is one recorded op when a recording tape has one of its inputs
    (or a Variable it reads) as a source."""

    def __init__(self, graph, inputs, name):
        self.graph = graph
        self.inputs = inputs
        self.name = name
        self.variables = _float_variables(graph)
        # the eager tensors the trace captured as constants
        self.closed_over = [t for g in walk_graphs(graph) for t in g._keepalive
                            if carries_gradient(t)]
        self._forms = {}             # live mask -> _Form

    def call(self, tensors, bindings=()):
        tapes = _state.tapes
        inputs = list(tensors)
        if tapes and self.variables:
            inputs += [_read(v) for v in self.variables]    # the tapes see the reads
        mask = _live_mask(inputs, tapes) if tapes else ()
        if True not in mask:
            values = executor.run(self.graph, [t._value for t in tensors])
            return [_wrap(v, t.dtype) for v, t in zip(values, self.graph.outputs)]
        form = self._forms.get(mask)
        if form is None:
            form = self._forms[mask] = _Form(self, mask)
        return form.call(inputs, bindings)


def _float_variables(graph):
    """The Variables `graph` (and its subgraphs) reads whose values carry
    gradients, in the order of their first read."""
    found = {}
    for g in walk_graphs(graph):
        for node in g.nodes:
            if node.op == "ReadVariableOp":
                v = node.attrs["variable"]
                if v.dtype.is_floating:
                    found.setdefault(id(v), v)
    return list(found.values())


def _read(variable):
    if isinstance(variable, VariableArgument):
        variable = variable._target()
    return variable._as_tensor()


def _live_mask(tensors, tapes):
    """Per tensor: whether a recording eager tape differentiates through it."""
    lives = [t._live for t in tapes if getattr(t, "_graph", 1) is None]
    if len(lives) == 1:
        live = lives[0]
        return tuple([id(x) in live for x in tensors])
    return tuple([any(id(x) in live for live in lives) for x in tensors])


def _any_live(tensors, tapes):
    lives = [t._live for t in tapes if getattr(t, "_graph", 1) is None]
    return any(id(x) in live for live in lives for x in tensors)


def _higher_order(tapes):
    """True when the backward of a call may be recorded in turn: more than one
    eager tape records, or a persistent one does."""
    eager = [t for t in tapes if getattr(t, "_graph", 1) is None]
    return len(eager) > 1 or any(t._persistent for t in eager)


class _building:
    """While a form is built: no tape records and no graph is current. (The
    collector runs: a custom gradient's grad_fn, user code, may run here;
    code generation pauses it, `executor.compiled_form`.)"""

    def __enter__(self):
        self.saved = _state.tapes, _state.graph
        _state.tapes = _state.graph = None

    def __exit__(self, *exc):
        _state.tapes, _state.graph = self.saved
        return False


class _Uncovered(RuntimeError):
    """A backward needs a forward tensor that the forward graph does not output."""


# --- one live mask: forward graph, backward graphs ----------------------------------------

class _Form:
    """What a call with one live mask runs and records."""

    def __init__(self, fn, mask):
        self.fn = fn
        self.mask = mask
        self.fallback = None         # why the call runs op by op, if it does
        self._backwards = {}         # target positions -> _Backward
        with _building():
            self._replay()
            try:
                self._full = self._backward(self._targets, extend=True)
            except Exception as e:  # noqa: BLE001 - the call falls back, gradient errors then
                self.fallback = e
            self.forward.outputs = self.outputs + self.intermediates

    def _replay(self):
        fn = self.fn
        fwd = self.forward = Graph(fn.name + "_forward")
        with fwd.as_default():
            feeds = {id(p): fwd.add_placeholder(p.dtype, p.shape, p.node.name)
                     for p in fn.inputs}
            mapping, _ = replay(fn.graph, feeds, accumulate=True)
        self._mapping = mapping      # (replayed custom gradients note theirs on `fwd`)
        self.outputs = [mapping[id(t)] for t in fn.graph.outputs]
        self.intermediates = []
        self._targets = tuple(i for i, t in enumerate(self.outputs) if carries_gradient(t))
        n = len(fn.inputs)
        self._sources = [i for i, (live, p) in enumerate(zip(self.mask, fwd.inputs))
                         if live and carries_gradient(p)]
        self._variables = [(n + j, v) for j, v in enumerate(fn.variables) if self.mask[n + j]]

    # --- calling ----------------------------------------------------------------------

    def call(self, inputs, bindings):
        """Run the forward graph and record it; the function's outputs.

        The intermediates are outputs of the record (so that tapes can
        differentiate the backward in turn) only when a gradient of a
        gradient is possible: several tapes record, or a persistent one.
        Otherwise the record keeps their values and the backward reads them."""
        n = len(self.fn.inputs)
        if self.fallback is not None:
            return _concrete.run_recorded(self.forward, inputs[:n])
        values = executor.run(self.forward, [t._value for t in inputs[:n]])
        if _higher_order(_state.tapes):
            attrs, count = {"form": self, "bind": bindings, "saved": None}, len(values)
        else:
            k = len(self.outputs)
            attrs, count = {"form": self, "bind": bindings, "saved": values[k:]}, k
        outs = tuple([_wrap(v, t.dtype)
                      for v, t in zip(values[:count], self.forward.outputs)])
        record_eager(get_op(_OP), inputs, attrs, outs)
        return outs[:len(self.outputs)]

    def gradient(self, op, grads):
        backward = self._backward_for(grads)
        bindings = op.attrs["bind"]
        previous = [slot.bind(v) for slot, v in bindings]
        try:
            if op.attrs["saved"] is not None and not _state.tapes:   # first order
                graph = backward.function.graph
                found = [_wrap(v, t.dtype) for v, t in zip(
                    executor.run(graph, self._feed(op, grads, backward, True)), graph.outputs)]
            else:
                found = backward.function.call(self._feed(op, grads, backward, False), bindings)
        finally:
            for (slot, _), before in zip(reversed(bindings), reversed(previous)):
                slot.bind(before)
        out = [None] * len(op.inputs)
        for position, g in zip(backward.positions, found):
            out[position] = g
        if backward is not self._full:   # as TF: an input some result depends on gets zeros
            for position in self._full.positions:
                if out[position] is None:
                    out[position] = _zeros(op.inputs[position])
        return out

    def _feed(self, op, grads, backward, plain):
        """The backward graph's inputs for the record `op`: the upstream
        gradients, then the forward values it uses (numpy values if `plain`,
        else eager tensors)."""
        saved, k = op.attrs["saved"], len(op.outputs)
        feed = [grads[i] if grads[i] is not None else _zeros(op.outputs[i])
                for i in backward.targets]
        feed += [op.inputs[j] if kind == "in" else op.outputs[j] if j < k else
                 saved[j - k] if plain else _wrap(saved[j - k], self.forward.outputs[j].dtype)
                 for kind, j in backward.captured]
        if plain:
            return [t._value if isinstance(t, EagerTensor) else t for t in feed]
        return feed

    def _backward_for(self, grads):
        """The backward graph for the outputs `grads` reach. Built for those
        outputs alone when the values it needs are at hand; else the one for
        all the results (zeros fed where no gradient came), with the
        intermediates reached (a gradient of a gradient) added."""
        k = len(self.outputs)
        wanted = tuple(i for i, g in enumerate(grads)
                       if g is not None and (i >= k or i in self._targets))
        if wanted == self._targets:
            return self._full
        backward = self._backwards.get(wanted)
        if backward is None:
            with _building():
                try:
                    backward = self._backward(wanted)
                except _Uncovered:
                    if all(i < k for i in wanted):
                        backward = self._full
                    else:
                        backward = self._backward(tuple(sorted(set(self._targets)
                                                               | set(wanted))))
            self._backwards[wanted] = backward
        return backward

    # --- building a backward graph -----------------------------------------------------

    def _backward(self, targets, extend=False):
        """The backward graph for upstream gradients at output positions
        `targets`; with `extend`, forward tensors it uses become outputs."""
        fwd = self.forward
        every = self.outputs + self.intermediates
        bwd = Graph(self.fn.name + "_backward", outer=fwd)
        with bwd.as_default():
            upstream = [bwd.add_placeholder(every[i].dtype, every[i].shape, "upstream")
                        for i in targets]
            groups, variables = self._groups()
            aliases = _state.capture_aliases
            if extend:
                _state.capture_aliases = self._recreate
            try:
                found = backprop(list(fwd.nodes), [every[i] for i in targets], upstream,
                                 groups, variables)
            finally:
                _state.capture_aliases = aliases
            results = [(p, bwd._own(g, "Identity")) for p, g in
                       zip(self._sources + [p for p, _ in self._variables], found)
                       if g is not None]
        captured = self._captures(bwd, extend)
        bwd.outputs = [g for _, g in results]
        optimizer.optimize(bwd, _config.optimizer.get_experimental_options())
        function = TapedGraph(bwd, list(bwd.inputs), bwd.name)
        return _Backward(targets, captured, [p for p, _ in results], function)

    def _recreate(self, t):
        """The forward graph's copy of `t`, a tensor of the traced graph that
        the optimizer removed (unused) but a custom gradient's grad_fn holds:
        its node and what it needs are added to the forward graph again."""
        node = getattr(t, "node", None)
        if node is None or node.graph is not self.fn.graph or node.subgraph_list():
            return None
        mapping = self._mapping
        inputs = []
        for i in node.inputs:
            found = mapping.get(id(i))
            if found is None:
                found = self._recreate(i)
                if found is None:
                    return None
            inputs.append(found)
        new = self.forward.add_node(node.opdef, inputs, node.attrs, name=node.name)
        for old, out in zip(node.outputs, new.outputs):
            mapping[id(old)] = out
        return mapping[id(t)]

    def _groups(self):
        fwd = self.forward
        groups = [[fwd.inputs[i]] for i in self._sources]
        reads = {}
        for node in fwd.nodes:
            if node.op == "ReadVariableOp":
                reads.setdefault(id(node.attrs["variable"]), []).append(node.outputs[0])
        base = len(groups)
        groups += [reads.get(id(v), []) for _, v in self._variables]
        return groups, {id(v): base + j for j, (_, v) in enumerate(self._variables)}

    def _captures(self, bwd, extend):
        """Make `bwd` a graph of its own: each captured forward tensor becomes
        an input after the upstream gradients (a constant becomes a copy).
        Returns where each input comes from: ("in", k) the record's input k,
        ("out", k) its output k."""
        fwd = self.forward
        position = {id(t): ("in", k) for k, t in enumerate(fwd.inputs)}
        for k, t in enumerate(self.outputs + self.intermediates):
            position.setdefault(id(t), ("out", k))
        captured, inputs, replaced = [], list(bwd.inputs), {}
        for outer, inner in bwd.captures:
            replaced[id(outer)] = inner
            if outer.node.op == "Const":
                _make_const(inner.node, outer.node)
                continue
            where = position.get(id(outer))
            if where is None:
                if not extend:
                    raise _Uncovered(
                        f"{self.fn.name}: this gradient of a gradient needs the value of "
                        f"{outer.node.name} ({outer.node.op}) from the call, which the first "
                        "gradient did not use and the call did not keep")
                where = position[id(outer)] = (
                    "out", len(self.outputs) + len(self.intermediates))
                self.intermediates.append(outer)
            captured.append(where)
            inputs.append(inner)
        for g in walk_graphs(bwd):   # nested graphs may capture forward tensors directly
            if g is not bwd and any(id(o) in replaced for o, _ in g.captures):
                g.captures = [(replaced.get(id(o), o), i) for o, i in g.captures]
                g._capture_map = {id(o): i for o, i in g.captures}
        bwd.inputs, bwd.captures, bwd._capture_map, bwd.outer = inputs, [], {}, None
        return captured


class _Backward:
    """One backward graph: the output positions whose upstream gradients it
    takes, where its other inputs come from, and the record's input
    position of each gradient it returns."""

    __slots__ = ("targets", "captured", "positions", "function")

    def __init__(self, targets, captured, positions, function):
        self.targets = targets
        self.captured = captured
        self.positions = positions
        self.function = function


def _wrap(value, dtype):
    """An eager tensor for a graph output's value (a variant kept as it is)."""
    if dtype is variant:
        return EagerTensor(value, variant)
    return _concrete._eager(value, dtype)


def _make_const(node, const):
    """Turn the capture placeholder `node` into a copy of the Const `const`."""
    node.op, node.opdef, node.attrs = "Const", const.opdef, dict(const.attrs)


def _zeros(t):
    """The upstream gradient of an output no gradient reached."""
    if t.dtype is variant:
        return EagerTensor(get_op("TensorArrayGradEmpty").kernel(), variant)
    return EagerTensor(np.zeros_like(t._value), t.dtype)
