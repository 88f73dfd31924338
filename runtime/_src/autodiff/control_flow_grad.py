"""Gradients of the control-flow ops `If` and `While` (layouts in
runtime/_src/exec/control_flow_ops.py).

Both differentiate a subgraph by *replaying* it: its nodes are added again
to the graph being built (a branch or loop body of the gradient), fed with
the values it saw, and `backprop` runs over the copies.

`If`: the gradient is an `If` on the same predicate whose branches replay the
forward branch and return the gradients of its captured inputs (zeros where
a branch does not use one), so only the taken branch's gradient runs.

`While`: a loop traced while a gradient tape records gets one more loop
variable, an accumulator (`LoopAccumulator`, see function/control_flow.py)
that keeps each iteration's loop-variable values: memory grows linearly with
iterations times the loop state. The gradient is a `While` that runs the same
number of iterations in reverse: iteration k reads state k back, replays the
body on it and backpropagates the running gradients of the loop variables
through it, summing the gradients of the captured values.

Gradients of gradients: the backward `While` is built while any outer tape
records, so it gets an accumulator of its own and a gradient in turn. Its
body reads the forward states back (`LoopAccumulatorRead`), so its gradient
flows into the forward accumulator: a gradient map from (iteration, loop
variable) to a gradient, which the forward loop's gradient adds to the
running gradients of that iteration's loop variables.
"""

import numpy as np

from runtime._src.autodiff.backprop import (add_all, add_variable_gradient, backprop,
                                            carries_gradient, watched_variable, zeros_like)
from runtime._src.autodiff.custom_gradient import note_replay
from runtime._src.core.context import current_graph, state as _state
from runtime._src.core.tensor import VariantValue, convert_to_tensor
from runtime._src.graph.graph import Graph
from runtime._src.core import dtypes as _dtypes
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, get_op
from runtime._src.function.control_flow import add_accumulator, cond, while_loop
from runtime._src.ops.tensor_array_grad_ops import gradient_map

__all__ = ["replay"]


# --- replaying a subgraph ----------------------------------------------------------

def replay(graph, feeds, skip=None, accumulate=False, parents=()):
    """Add `graph`'s nodes to the current graph; `feeds` maps id(placeholder)
    to the tensor standing for it. Returns (id(old tensor) -> new tensor,
    the new nodes in order). Nodes of op `skip` are left out (their first
    input stands for their output). With `accumulate`, every `While` traced
    without a gradient tape (here or in nested subgraphs) gets the
    accumulator its gradient reads (function_call.py differentiates a
    graph traced without a tape). `parents`: the mappings of the replays
    enclosing this one (a nested graph may capture a tensor of any graph
    around it)."""
    target = current_graph()
    mapping = dict(feeds)
    nodes = []
    for node in graph.nodes:
        if node.op == "Placeholder" and id(node.outputs[0]) in mapping:
            continue
        if node.op == skip:
            mapping[id(node.outputs[0])] = mapping.get(id(node.inputs[0]), node.inputs[0])
            continue
        attrs = node.attrs
        if node.subgraph_list():
            attrs = {k: _clone(v, target, mapping, accumulate, parents)
                     if isinstance(v, Graph) else v for k, v in attrs.items()}
        inputs = [mapping.get(id(t), t) for t in node.inputs]
        if accumulate and node.op == "While" and not attrs.get("accumulator"):
            inputs, attrs = _with_accumulator(inputs, attrs)
        new = target.add_node(node.opdef, inputs, attrs, name=node.name)
        if node.op == "CustomGradient":     # its grad_fn holds this graph's tensors
            note_replay(new, mapping)
        nodes.append(new)
        for old, out in zip(node.outputs, new.outputs):
            mapping[id(old)] = out
    return mapping, nodes


def _with_accumulator(inputs, attrs):
    """The inputs and attrs of a `While` (its subgraphs copies) with the
    accumulator loop variable that a loop traced under a tape has."""
    n = attrs["num_loop_vars"]
    acc = add_accumulator(attrs["cond"], attrs["body"])
    attrs = dict(attrs, num_loop_vars=n + 1, accumulator=True)
    return inputs[:n] + [acc] + inputs[n:], attrs


def _clone(graph, outer, outer_mapping, accumulate=False, parents=()):
    """A copy of the subgraph `graph` for a replayed node living in `outer`."""
    new = Graph(graph.name, outer=outer)
    feeds = {}
    with new.as_default():
        for ph in graph.inputs:
            feeds[id(ph)] = new.add_placeholder(ph.dtype, ph.shape, ph.node.name)
        for _, inner in graph.captures:
            feeds[id(inner)] = new.add_node(get_op("Placeholder"), [], dict(inner.node.attrs),
                                            name="capture").outputs[0]
        mapping, _ = replay(graph, feeds, accumulate=accumulate,
                            parents=(outer_mapping,) + parents)
    new.outputs = [mapping[id(t)] for t in graph.outputs]
    for old_outer, inner in graph.captures:
        source = outer_mapping.get(id(old_outer))
        if source is not None:
            owned = outer._own(source, "capture")
        else:        # a tensor of a graph further out: its copy there, if replayed
            owned = next((m[id(old_outer)] for m in parents if id(old_outer) in m), None)
            if owned is None:
                owned = outer._own(old_outer, "capture")
        new.captures.append((owned, feeds[id(inner)]))
        new._capture_map[id(owned)] = feeds[id(inner)]
    return new


def _owned(t):
    graph = current_graph()
    return t if getattr(t, "node", None) is not None and t.node.graph is graph \
        else graph.capture(t)


# --- If -------------------------------------------------------------------------------

@define_grad("If")
def _if_grad(op, *grads):
    caps = op.inputs[1:]
    wanted = [carries_gradient(t) for t in caps]
    pairs = [(o, g) for o, g in zip(op.outputs, grads) if g is not None]

    then_g, else_g = op.attrs["then_branch"], op.attrs["else_branch"]
    variables = _read_variables([then_g, else_g])

    def branch_grads(branch):
        def fn():
            feeds = {id(inner): _owned(outer)
                     for (_, inner), outer in zip(branch.captures, caps)}
            mapping, nodes = replay(branch, feeds)
            index = {id(o): i for i, o in enumerate(op.outputs)}
            targets = [mapping[id(branch.outputs[index[id(o)]])] for o, _ in pairs]
            sources = [[feeds[id(inner)]] if w else []
                       for (_, inner), w in zip(branch.captures, wanted)]
            found = backprop(nodes, targets, [g for _, g in pairs],
                             *_with_variables(sources, nodes, variables))
            n = len(caps)
            out = [None if not w else g if g is not None else zeros_like(feeds[id(inner)])
                   for g, w, (_, inner) in zip(found[:n], wanted, branch.captures)]
            return out + [g if g is not None else _zeros_of(v)
                          for g, v in zip(found[n:], variables)]
        return fn

    out = list(cond(op.inputs[0], branch_grads(then_g), branch_grads(else_g)))
    for v, g in zip(variables, out[len(caps):]):
        add_variable_gradient(v, g)
    return [None] + out[:len(caps)]


def _read_variables(graphs):
    """The Variables whose gradients are wanted that `graphs` (or graphs nested
    in them) read."""
    found, stack = {}, list(graphs)
    while stack:
        g = stack.pop()
        for node in g.nodes:
            if node.op == "ReadVariableOp" and watched_variable(node.attrs["variable"]):
                found.setdefault(id(node.attrs["variable"]), node.attrs["variable"])
            stack.extend(node.subgraph_list())
    return list(found.values())


def _with_variables(sources, nodes, variables):
    """(sources plus one group per Variable: its reads among `nodes`, and the
    map from each Variable to its group) for a `backprop` over replayed nodes;
    reads in nested subgraphs reach their groups through the nested rules."""
    reads = {}
    for node in nodes:
        if node.op == "ReadVariableOp":
            reads.setdefault(id(node.attrs["variable"]), []).append(node.outputs[0])
    base = len(sources)
    groups = {id(v): base + j for j, v in enumerate(variables)}
    return sources + [reads.get(id(v), []) for v in variables], groups


def _zeros_of(variable):
    return convert_to_tensor(np.zeros(variable.shape.dims, variable.dtype.np_dtype))


# --- While ---------------------------------------------------------------------------

@define_grad("While")
def _while_grad(op, *grads):
    attrs = op.attrs
    if not attrs.get("accumulator"):
        raise LookupError(f"No gradient for the loop '{op.name}': it was traced before the "
                          "GradientTape started recording; create the tape before the loop")
    n, body = attrs["num_loop_vars"], attrs["body"]
    state_ph, caps = body.inputs[:n - 1], op.inputs[n:n + len(body.captures)]
    history = op.outputs[n - 1]
    specs = tuple((t.dtype, t.shape) for t in state_ph)
    wanted = [i for i, t in enumerate(state_ph) if carries_gradient(t)]
    wanted_caps = [k for k, c in enumerate(caps) if carries_gradient(c)]
    variables = _read_variables([body])
    init = [grads[i] if grads[i] is not None else zeros_like(op.outputs[i]) for i in wanted]
    init += [zeros_like(caps[k]) for k in wanted_caps] + [_zeros_of(v) for v in variables]
    count = apply("LoopAccumulatorSize", [history])
    history_grad = grads[n - 1]      # from the backward loop of a first gradient (higher order)
    if _is_empty_map(history_grad):
        history_grad = None

    def backward_body(k, *running):
        k = k - 1
        state = apply("LoopAccumulatorRead", [history, k], {"specs": specs})
        feeds = {id(ph): s for ph, s in zip(state_ph, state)}
        feeds[id(body.inputs[n - 1])] = _owned(history)
        for (_, inner), outer in zip(body.captures, caps):
            feeds[id(inner)] = _owned(outer)
        mapping, nodes = replay(body, feeds, skip="LoopAccumulatorPush")
        targets = [mapping.get(id(body.outputs[i]), body.outputs[i]) for i in wanted]
        sources = [[feeds[id(state_ph[i])]] for i in wanted]
        sources += [[feeds[id(body.captures[k_][1])]] for k_ in wanted_caps]
        found = backprop(nodes, targets, list(running[:len(wanted)]),
                         *_with_variables(sources, nodes, variables))
        out = [g if g is not None else zeros_like(feeds[id(state_ph[i])])
               for g, i in zip(found, wanted)]
        if history_grad is not None and wanted:
            read = apply("LoopAccumulatorGradRead",
                         [_owned(history_grad), k] + [feeds[id(state_ph[i])] for i in wanted],
                         {"positions": tuple(wanted)})
            out = [add_all([g, r]) for g, r in zip(out, read)]
        for g, acc in zip(found[len(wanted):], running[len(wanted):]):
            out.append(acc if g is None else add_all([acc, g]))
        return [k] + out

    # Built while the outer tapes (if any) record: it gets an accumulator and a
    # gradient of its own (second order).
    result = list(while_loop(lambda k, *running: k > 0, backward_body, [count] + init)[1:])
    in_grads = [None] * len(op.inputs)
    for i, g in zip(wanted, result):
        in_grads[i] = g
    for k, g in zip(wanted_caps, result[len(wanted):]):
        in_grads[n + k] = g
    for v, g in zip(variables, result[len(wanted) + len(wanted_caps):]):
        add_variable_gradient(v, g)
    return in_grads


# --- gradients of the loop states read back (higher order) ------------------------------
#
# The gradient of an accumulator is a gradient map (function/tensor_array.py)
# from (iteration, loop-variable position) to the gradient of that state.

def _infer_variant(inputs, attrs):
    return [(_dtypes.variant, TensorShape([]))]


@define_op("LoopAccumulatorGradSet", infer=_infer_variant)
def _accumulator_grad_set(index, *grads, positions):
    k = int(index)
    return gradient_map({(k, j): g for j, g in zip(positions, grads)})


@define_op("LoopAccumulatorGradRead", num_outputs=None,
           infer=lambda inputs, attrs: [(t.dtype, t.shape) for t in inputs[2:]])
def _accumulator_grad_read(grads, index, *like, positions):
    """The gradients of iteration `index`'s states at `positions` (zeros where none)."""
    k = int(index)
    out = []
    for j, value in zip(positions, like):
        g = grads.get((k, j))
        if g is None:                # a TensorArray state's gradient is a map
            g = gradient_map(()) if isinstance(value, VariantValue) else np.zeros_like(value)
        out.append(g)
    return tuple(out)


def _is_empty_map(grad):
    """True for the empty gradient map `backprop` gives an output nothing depends on."""
    node = getattr(grad, "node", None)
    return grad is None or (node is not None and node.op == "TensorArrayGradEmpty")


@define_grad("LoopAccumulatorRead")
def _accumulator_read_grad(op, *grads):
    positions = tuple(j for j, g in enumerate(grads) if g is not None)
    if not positions:
        return [None, None]
    index = op.inputs[1]
    return [apply("LoopAccumulatorGradSet", [index] + [grads[j] for j in positions],
                  {"positions": positions}), None]


# Set and Read are each other's adjoints (third and higher order).

@define_grad("LoopAccumulatorGradSet")
def _accumulator_grad_set_grad(op, grad):
    like = op.inputs[1:]
    return [None] + list(apply("LoopAccumulatorGradRead", [grad, op.inputs[0]] + list(like),
                               {"positions": op.attrs["positions"]}))


@define_grad("LoopAccumulatorGradRead")
def _accumulator_grad_read_grad(op, *grads):
    positions = op.attrs["positions"]
    kept = [(j, g) for j, g in zip(positions, grads) if g is not None]
    if not kept:
        return [None] * len(op.inputs)
    grad_map = apply("LoopAccumulatorGradSet", [op.inputs[1]] + [g for _, g in kept],
                     {"positions": tuple(j for j, _ in kept)})
    return [grad_map] + [None] * (len(op.inputs) - 1)
