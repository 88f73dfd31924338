"""The backward pass: from recorded ops to gradient ops.

A record is anything with `.opdef`, `.op` (its name), `.inputs`, `.outputs`
and `.attrs`: a graph `Node` while tracing, an `EagerOp` eagerly. `backprop`
walks the records that lie between the sources and the targets in reverse
order and calls each op's gradient rule (`opdef.grad`, registered next to the
op with `define_grad`). Rules are written with the runtime's ops, so the
gradient is made of ordinary ops: eager ops eagerly (recorded in turn by any
outer tape: gradients of gradients), graph nodes while tracing (optimized,
printed and drawn like any other).

Only float and complex tensors carry gradients: integer, bool and string
values (shapes, indices, comparisons) are constants to the backward pass. A
complex value's gradient follows TensorFlow's convention: for z = a + bi it is
dL/da + i dL/db, so the rules of complex ops multiply by conjugated derivatives.
"""

from runtime._src.core.context import state as _state
from runtime._src.core.dtypes import variant
from runtime._src.graph.locations import with_location
from runtime._src.graph.op_registry import apply

__all__ = ["EagerOp", "backprop", "carries_gradient", "add_all", "zeros_like",
           "watched_variable", "add_variable_gradient"]


class EagerOp:
    """One op run eagerly under a tape: what its gradient rule reads."""

    __slots__ = ("opdef", "inputs", "attrs", "outputs", "location")

    def __init__(self, opdef, inputs, attrs, outputs, location):
        self.opdef = opdef
        self.inputs = tuple(inputs)
        self.attrs = attrs
        self.outputs = tuple(outputs)
        self.location = location

    @property
    def op(self):
        return self.opdef.name

    @property
    def name(self):
        return self.opdef.name

    @property
    def type(self):
        """TF's `op.type`: the op type's name (for tf.RegisterGradient functions)."""
        return self.opdef.name


def carries_gradient(tensor):
    """True for the dtypes gradients flow through: floats, complex numbers (and
    the variant flows of TensorArrays and loop accumulators)."""
    dtype = tensor.dtype
    return dtype.is_floating or dtype.is_complex or dtype is variant


def add_all(grads):
    """The sum of a list of gradients (None when empty)."""
    if not grads:
        return None
    if len(grads) == 1:
        return grads[0]
    if grads[0].dtype is variant:    # TensorArray flows (function/tensor_array.py)
        return apply("TensorArrayGradAdd", tuple(grads))
    if len(grads) == 2:              # a + b: inlined by the code generator
        return apply("AddV2", tuple(grads))
    return apply("AddN", tuple(grads))


def zeros_like(t):
    if t.dtype is variant:
        return apply("TensorArrayGradEmpty", ())
    return apply("ZerosLike", (t,), {"dtype": None})


def backprop(records, targets, target_grads, sources, variables=None):
    """Gradients of `targets` (weighted by `target_grads`) for each source.

    `sources` is a list of groups of tensors; a group's gradient is the sum
    over its tensors (a Variable read several times is one group). Returns
    one gradient or None per group.

    `variables` maps id(Variable) to its group: the rules of control-flow ops
    add the gradients of those Variables' reads inside their subgraphs with
    `add_variable_gradient`.
    """
    saved = getattr(_state, "grad_variables", None), getattr(_state, "variable_grads", None)
    _state.grad_variables, _state.variable_grads = variables or {}, {}
    try:
        results = _backprop(records, targets, target_grads, sources)
        for key, parts in _state.variable_grads.items():
            group = _state.grad_variables[key]
            results[group] = add_all(([results[group]] if results[group] is not None else [])
                                     + parts)
        return results
    finally:
        _state.grad_variables, _state.variable_grads = saved


def watched_variable(variable):
    """True when the running backward pass wants `variable`'s gradient."""
    wanted = getattr(_state, "grad_variables", None)
    return bool(wanted) and id(variable) in wanted


def add_variable_gradient(variable, grad):
    """Add a gradient of `variable` found inside a subgraph (an If or While rule)."""
    _state.variable_grads.setdefault(id(variable), []).append(grad)


def _backprop(records, targets, target_grads, sources):
    producer = {}
    for i, r in enumerate(records):
        for o in r.outputs:
            producer[id(o)] = i
    # The records the targets depend on ...
    reach, seen, stack = set(), set(), list(targets)
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        i = producer.get(id(t))
        if i is not None and i not in reach:
            reach.add(i)
            stack.extend(records[i].inputs)
    # ... that depend on a source, in recording order.
    live = {id(t) for group in sources for t in group}
    active = []
    wanted = _state.grad_variables
    for i in sorted(reach):
        r = records[i]
        if any(id(t) in live for t in r.inputs) or (wanted and _reads_variables(r, wanted)):
            active.append(r)
            live.update(id(o) for o in r.outputs if carries_gradient(o))
    grads = {}
    for t, g in zip(targets, target_grads):
        if id(t) in live and g is not None:
            grads.setdefault(id(t), []).append(g)
    for r in reversed(active):
        out_grads = [_summed(grads, o) for o in r.outputs]
        if all(g is None for g in out_grads):
            continue
        rule = r.opdef.grad
        if rule is None:
            raise no_gradient_error(r)
        if len(out_grads) > 1 and not r.opdef.grad_takes_none:
            out_grads = [zeros_like(o) if g is None and carries_gradient(o) else g
                         for o, g in zip(r.outputs, out_grads)]
        in_grads = rule(r, *out_grads)
        if not isinstance(in_grads, (list, tuple)):
            in_grads = [in_grads]
        for t, g in zip(r.inputs, in_grads):
            if g is not None and id(t) in live:
                grads.setdefault(id(t), []).append(g)
    results = []
    for group in sources:
        parts = [g for g in (_summed(grads, t) for t in group) if g is not None]
        results.append(add_all(parts))
    return results


def _reads_variables(record, wanted):
    """True when a control-flow node's subgraphs read one of the `wanted` Variables."""
    subgraphs = getattr(record, "subgraph_list", None)
    if subgraphs is None:
        return False
    stack = list(subgraphs())
    while stack:
        g = stack.pop()
        for node in g.nodes:
            if node.op == "ReadVariableOp" and id(node.attrs["variable"]) in wanted:
                return True
            stack.extend(node.subgraph_list())
    return False


def _summed(grads, t):
    """The gradient of `t` so far, its parts summed once into one tensor."""
    parts = grads.get(id(t))
    if not parts:
        return None
    if len(parts) > 1:
        parts[:] = [add_all(parts)]
    return parts[0]


def no_gradient_error(record):
    name = getattr(record, "name", record.op)
    message = (f"No gradient defined for operation '{name}' (op type: {record.op}). "
               f"A gradient was requested through it, but {record.op} has no gradient rule; "
               "wrap its input in tf.stop_gradient if no gradient should flow through it")
    return LookupError(with_location(message, record.location))
