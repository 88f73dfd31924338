"""`cond` and `while_loop`: Python control flow staged into graphs.

Eagerly both simply run Python. While tracing they trace their functions into
subgraphs and add one `If` / `While` node (layouts in
`runtime/_src/exec/control_flow_ops.py`).

    cond(pred, true_fn, false_fn, name=None, *, names=None)
        means:  true_fn() if pred else false_fn()
    while_loop(cond, body, loop_vars, shape_invariants=None,
               parallel_iterations=10, back_prop=True, swap_memory=False,
               maximum_iterations=None, name=None, *, names=None)
        means:  while cond(*loop_vars): loop_vars = body(*loop_vars)
                (at most maximum_iterations times); returns loop_vars

Outputs and loop variables may be nested structures (lists, tuples, dicts,
namedtuples) of tensors, Python numbers (converted to tensors), `None`, and
`TensorArray`s.

`names` (for autograph): a tuple of the user's variable names, one per
top-level value: for `cond` the branch functions return a tuple of
`len(names)` values; for `while_loop` `loop_vars` is a tuple of `len(names)`
values. Errors then name the variable: "'y' has dtype int32 in the true
branch but float32 in the false branch", "'y' is None in the else branch but
an int32 tensor in the if branch", "'x' has dtype int32 before the loop but
float32 after the loop body". Without `names`, values are named by position
(`'output[1]'`, `'loop_vars[0]['a']'`).

Differences from TensorFlow, on purpose:
- A loop variable whose shape changes is not an error: the body is traced
  again with the changing dimensions relaxed to None, until stable.
- A Python number in one branch of a `cond` takes the dtype of the tensor
  in the other branch (`cond(p, lambda: 0, lambda: x)` with float32 x works).
"""

import re

import numpy as np

from runtime._src.core import context as _context
from runtime._src.core import nest
from runtime._src.core.composite import type_spec_of
from runtime._src.core import dtypes as _dtypes
from runtime._src.graph.graph import Graph, current_graph, user_location
from runtime._src.graph.op_registry import apply, define_op, get_op
from runtime._src.exec import control_flow_ops as _ops
from runtime._src.core.tensor import (_PYTHON_SCALARS, SymbolicTensor, Tensor, VariantValue,
                                      convert_to_tensor, describe_value, to_numpy_value,
                                      unwrap_variable)
from runtime._src.function.tensor_array import TensorArray
from runtime._src.core.tensor_shape import as_shape
from runtime._src.core.protocols import reads_as_tensor

__all__ = ["cond", "cond_branches", "while_loop"]

_MAX_RETRACES = 64  # relaxation only removes known dims, so it stops far sooner


# --- naming values in error messages --------------------------------------------

def _paths(structure, root):
    """One readable name per leaf of `structure`, in nest.flatten order."""
    if not nest.is_nested(structure):
        return [root]
    if isinstance(structure, dict):
        try:
            keys = sorted(structure)
        except TypeError:
            keys = sorted(structure, key=repr)
        return [p for k in keys for p in _paths(structure[k], f"{root}[{k!r}]")]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return [p for f, v in zip(structure._fields, structure)
                for p in _paths(v, f"{root}.{f}")]
    return [p for i, v in enumerate(structure) for p in _paths(v, f"{root}[{i}]")]


def _leaf_names(structure, names, default_root):
    if names is not None and isinstance(structure, (list, tuple)) \
            and len(structure) == len(names):
        return [p for n, v in zip(names, structure) for p in _paths(v, n)]
    return _paths(structure, default_root)


def _describe(value):
    if value is None:
        return "None"
    if isinstance(value, TensorArray):
        return f"a TensorArray of {value.dtype.name}"
    if isinstance(value, Tensor):
        return f"a{'n' if value.dtype.name[0] in 'aeiou' else ''} {value.dtype.name} tensor"
    return f"a Python {type(value).__name__}"


def _check_structure(a, b, names, error, what):
    """Raise `error` naming the first top-level value whose structure differs."""
    labels = names if names is not None else None
    if labels is not None and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) \
            and len(a) == len(b) == len(labels):
        for label, x, y in zip(labels, a, b):
            try:
                nest.assert_same_structure(x, y, check_types=False)
            except (TypeError, ValueError) as e:
                raise error(f"'{label}' {what}: {e}") from None
        return
    try:
        nest.assert_same_structure(a, b, check_types=False)
    except (TypeError, ValueError) as e:
        raise error(f"{what}: {e}") from None


def _own(graph, t, location=False):
    """`t` as a tensor of `graph` (captures outer and eager tensors;
    `location`: the user's, when known, see Graph.add_node)."""
    if isinstance(t, SymbolicTensor) and t.node.graph is graph:
        return t
    return graph.capture(t, location)


def _align_captures(graphs, location=False):
    """Make every graph capture the same outer tensors in the same order
    (`location`: see _own).

    Returns that list of outer tensors: the extra inputs of the owning node.
    """
    union, seen = [], set()
    for g in graphs:
        for outer, _ in g.captures:
            if id(outer) not in seen:
                seen.add(id(outer))
                union.append(outer)
    for g in graphs:
        if len(g.captures) < len(union):     # capture what only the others did
            own = set()
            for outer, _ in g.captures:
                own.add(id(outer))
            for outer in union:
                if id(outer) not in own:
                    g.capture(outer, location)      # (appended to g.captures)
        for (outer, _), wanted in zip(g.captures, union):
            if outer is not wanted:         # in another order than the union's
                by_id = {id(o): inner for o, inner in g.captures}
                g.captures = [(o, by_id[id(o)]) for o in union]
                break
    return union


# --- cond ------------------------------------------------------------------------------

def cond(pred, true_fn=None, false_fn=None, name=None, *, names=None):
    """`true_fn() if pred else false_fn()`, staged as one `If` op when tracing.

    Eagerly (or with a Python bool / eager tensor `pred`) only the chosen
    function runs and its result is returned as is.
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("cond: true_fn and false_fn must be callables, got "
                        f"{type(true_fn).__name__} and {type(false_fn).__name__}")
    pred = unwrap_variable(pred)
    if not isinstance(pred, SymbolicTensor):
        return true_fn() if _static_truth(pred, "cond") else false_fn()
    if pred.shape.rank not in (0, None):
        raise ValueError(f"cond: pred must be a scalar, got shape {pred.shape}")
    outer = current_graph()
    base = name or "cond"
    then_g = Graph(f"{base}_true", outer=outer)
    with then_g.as_default():
        then_out = true_fn()
    else_g = Graph(f"{base}_false", outer=outer)
    with else_g.as_default():
        else_out = false_fn()
    return _add_if(outer, pred, then_g, else_g, then_out, else_out, names, name)


def cond_branches(pred, branches, names, order=(True, False)):
    """A staged if for autograph (see `autograph.backend.Backend.cond`): each
    branch traced once into its graph (`order`: which first), then each
    asked for its outputs inside its graph again (placeholders are made
    there); one `If` node. `pred` is a symbolic bool scalar."""
    if pred.shape.dims:                 # (`rank not in (0, None)`, without the property)
        raise ValueError(f"cond: pred must be a scalar, got shape {pred.shape}")
    outer = current_graph()
    then_g, else_g = Graph("cond_true", outer=outer), Graph("cond_false", outer=outer)
    for which in order:
        (then_g if which else else_g).call_as_default(branches.trace, which)
    outs = [None, None]                 # [false's, true's]
    for which in order:
        outs[which] = (then_g if which else else_g).call_as_default(branches.outputs, which)
    return _add_if(outer, pred, then_g, else_g, outs[True], outs[False], names, None)


def _add_if(outer, pred, then_g, else_g, then_out, else_out, names, name):
    """The `If` node choosing between two traced branch graphs' outputs."""
    # The user's line, looked for once for the captures and the node (from
    # the frame above the caller, cond or cond_branches, on).
    location = user_location(3)
    flat = _one_leaf_per_name(then_out, else_out, names)
    if flat:
        labels, then_leaves, else_leaves = names, then_out, else_out
    else:
        _check_structure(then_out, else_out, names, ValueError,
                         "has a different structure in the true and false branches")
        labels = _leaf_names(then_out, names, "output")
        then_leaves, else_leaves = nest.flatten(then_out), nest.flatten(else_out)
    then_leaves, else_leaves, labels, rebuild = _expand_composites(then_leaves, else_leaves,
                                                                   labels)
    pairs, then_g.outputs, else_g.outputs = [], [], []
    for a, b, label in zip(then_leaves, else_leaves, labels):
        pair = _branch_pair(then_g, else_g, a, b, label, location)
        pairs.append(pair)
        if pair is not None:
            then_g.outputs.append(pair[0])
            else_g.outputs.append(pair[1])
    captured = _align_captures([then_g, else_g], location)
    node = outer.add_node(get_op(_ops.IF), [pred] + captured,
                          {"then_branch": then_g, "else_branch": else_g}, name=name,
                          _location=location)
    outs = iter(node.outputs)
    results = []
    for a, b, p in zip(then_leaves, else_leaves, pairs):
        if p is None:
            results.append(None)
        elif a.__class__ is not SymbolicTensor and isinstance(a, TensorArray):   # (cheap first)
            out = next(outs)
            results.append(a._with_flow(out, a.element_shape.most_specific_compatible_shape(
                b.element_shape)))
        else:
            results.append(next(outs))
    results = rebuild(results)
    return then_out.__class__(results) if flat else nest.pack_sequence_as(then_out, results)


def _one_leaf_per_name(then_out, else_out, names):
    """Whether both branches give a plain tuple (or list) of one leaf per
    name: the common case (autograph's), with no nesting to check, name or
    undo (the leaves are the items, named by `names`)."""
    return (names is not None and nest.is_flat(then_out)
            and else_out.__class__ is then_out.__class__
            and len(then_out) == len(else_out) == len(names) and nest.is_flat(else_out))


def _expand_composites(then_leaves, else_leaves, labels):
    """Branch outputs with each composite (a SparseTensor, a RaggedTensor:
    core/composite.py) replaced by its component tensors, and a function
    rebuilding the composites from the If's outputs (their specs' common
    supertype gives the static shape)."""
    for a in then_leaves + else_leaves:
        # (a symbolic tensor, the commonest leaf, is none: no attribute lookup)
        if a.__class__ is not SymbolicTensor and type_spec_of(a) is not None:
            break
    else:
        return then_leaves, else_leaves, labels, _same_results
    plan, ta, tb, names = [], [], [], []
    for a, b, label in zip(then_leaves, else_leaves, labels):
        sa, sb = type_spec_of(a), type_spec_of(b)
        if sa is None and sb is None:
            plan.append(None)
            ta.append(a), tb.append(b), names.append(label)
            continue
        common = sa.most_specific_common_supertype([sb]) if sa is not None and \
            sb is not None else None
        if common is None:
            raise TypeError(f"'{label}' is {_describe(a)} in the true branch but "
                            f"{_describe(b)} in the false branch")
        parts_a, parts_b = sa._to_components(a), sb._to_components(b)
        plan.append((common, len(parts_a)))
        ta += parts_a
        tb += parts_b
        names += [f"{label} (component {i})" for i in range(len(parts_a))]

    def rebuild(results):
        out, it = [], iter(results)
        for step in plan:
            if step is None:
                out.append(next(it))
            else:
                spec, n = step
                out.append(spec._from_components([next(it) for _ in range(n)]))
        return out
    return ta, tb, names, rebuild


def _same_results(results):
    return results


def _static_truth(pred, what):
    if isinstance(pred, Tensor) and pred.shape.rank not in (0, None):
        raise ValueError(f"{what}: the condition must be a scalar, got shape {pred.shape}")
    return bool(pred)


def _branch_pair(then_g, else_g, a, b, label, location=False):
    """The (true, false) output tensors for one leaf, or None when both are
    None (`location`: see _own)."""
    if a.__class__ is not SymbolicTensor or b.__class__ is not SymbolicTensor:
        pair = _branch_tensors(then_g, else_g, a, b, label,   # (the commonest pair needs none)
                               location)
        if pair is None:
            return None
        a, b = pair
    if a.dtype is not b.dtype:          # (dtypes are singletons)
        raise TypeError(f"'{label}' has dtype {a.dtype.name} in the true branch but "
                        f"{b.dtype.name} in the false branch; both branches must give it "
                        "the same dtype (use tf.cast)")
    return _own(then_g, a, location), _own(else_g, b, location)


def _branch_tensors(then_g, else_g, a, b, label, location=False):
    """One leaf's values in the two branches as tensors (a Variable read, a
    TensorArray's flow, a Python number converted in its branch's graph,
    taking the other's dtype), or None when both are None."""
    a, b = unwrap_variable(a), unwrap_variable(b)
    if a is None and b is None:
        return None
    if a is None or b is None:
        none_in, other_in, other = ("if", "else", b) if a is None else ("else", "if", a)
        raise ValueError(
            f"'{label}' is None in the {none_in} branch but {_describe(other)} in the "
            f"{other_in} branch; a value a cond returns must be defined in both branches: "
            f"give '{label}' a value before the if, or in the {none_in} branch too")
    if isinstance(a, TensorArray) or isinstance(b, TensorArray):
        if not (isinstance(a, TensorArray) and isinstance(b, TensorArray)):
            raise TypeError(f"'{label}' is {_describe(a)} in the true branch but "
                            f"{_describe(b)} in the false branch")
        a, b = a.flow, b.flow
    if not isinstance(a, Tensor) and isinstance(b, Tensor):
        a = _convert_leaf(then_g, a, b.dtype, label, "true branch", location)
    elif isinstance(a, Tensor) and not isinstance(b, Tensor):
        b = _convert_leaf(else_g, b, a.dtype, label, "false branch", location)
    else:
        a = _convert_leaf(then_g, a, None, label, "true branch", location)
        b = _convert_leaf(else_g, b, None, label, "false branch", location)
    return a, b


def _convert_leaf(graph, value, dtype, label, where, location=False):
    """A Python value (or tensor) as a tensor of `graph`, naming it on failure
    (`location`: the user's line, when known, of a Python number's Const)."""
    if isinstance(value, Tensor):
        return value
    with graph.as_default():
        try:
            if location is not False and value.__class__ in _PYTHON_SCALARS:
                return _number_const(graph, value, location, dtype)
            return convert_to_tensor(value, dtype)
        except (TypeError, ValueError) as e:
            target = f" of dtype {dtype.name}" if dtype is not None else ""
            raise TypeError(f"'{label}' in the {where} is {describe_value(value)}, which cannot be "
                            f"converted to a tensor{target}: {e}") from None


# --- while_loop ------------------------------------------------------------------

def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None,
               *, names=None):
    """`while cond(*loop_vars): loop_vars = body(*loop_vars)`; returns loop_vars.

    Staged as one `While` op when tracing; eagerly a Python loop.
    `parallel_iterations`, `back_prop` and `swap_memory` are accepted for
    compatibility and ignored.
    """
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop: cond and body must be callables, got "
                        f"{type(cond).__name__} and {type(body).__name__}")
    if current_graph() is None:
        return _eager_while(cond, body, loop_vars, maximum_iterations)
    if any(type_spec_of(v) is not None for v in nest.flatten(loop_vars)):
        return _composite_while(cond, body, loop_vars, maximum_iterations, name)
    return _traced_while(cond, body, loop_vars, shape_invariants, maximum_iterations,
                         name, names)


def _composite_while(cond, body, loop_vars, maximum_iterations, name):
    """A traced loop over composites (SparseTensors, RaggedTensors): the loop
    variables are their component tensors, and cond and body see the
    composites rebuilt with the initial values' specs (so a SparseTensor's
    static dense shape is the one it entered with, as in TF)."""
    flat = nest.flatten(loop_vars, expand_composites=True)

    def unpack(parts):
        return nest.pack_sequence_as(loop_vars, list(parts), expand_composites=True)

    def flat_cond(*parts):
        return _call(cond, unpack(parts))

    def flat_body(*parts):
        result = _normalize_result(_call(body, unpack(parts)), loop_vars)
        out = nest.flatten(result, expand_composites=True)
        if len(out) != len(parts):
            raise TypeError(f"while_loop: the body returned {len(out)} component tensors for "
                            f"{len(parts)} loop variable components; a composite loop "
                            "variable (a SparseTensor, a RaggedTensor) must keep its kind")
        return out
    return unpack(_traced_while(flat_cond, flat_body, flat, None, maximum_iterations, name,
                                None))


def _call(fn, loop_vars):
    """fn(*loop_vars) for a list or tuple (namedtuples too, as TF), else fn(loop_vars)."""
    if isinstance(loop_vars, (list, tuple)):
        return fn(*loop_vars)
    return fn(loop_vars)


def _normalize_result(result, loop_vars):
    """Accept a bare value for a single loop var and a list for a tuple."""
    if isinstance(loop_vars, (list, tuple)):
        if len(loop_vars) == 1 and not isinstance(result, (list, tuple)):
            result = [result]
        if isinstance(result, (list, tuple)) and type(result) is not type(loop_vars):
            if hasattr(loop_vars, "_fields"):
                return type(loop_vars)(*result)
            return type(loop_vars)(result)
    return result


def _eager_while(cond, body, loop_vars, maximum_iterations):
    limit = None if maximum_iterations is None else int(maximum_iterations)
    count = 0
    while limit is None or count < limit:
        if not _static_truth(unwrap_variable(_call(cond, loop_vars)), "while_loop"):
            break
        loop_vars = _normalize_result(_call(body, loop_vars), loop_vars)
        count += 1
    return loop_vars


# --- while_loop while tracing ---------------------------------------------------

class _LoopVar:
    """One flat loop variable: its name, kind ("tensor", "ta", "none"), spec."""

    __slots__ = ("label", "kind", "init", "dtype", "shape", "template", "python")

    def __init__(self, label, kind, init=None, template=None):
        self.label = label
        self.kind = kind
        self.init = init
        self.template = template
        self.dtype = None if init is None else init.dtype
        self.shape = None if init is None else init.shape
        self.python = None       # the Python number it entered the loop as, if any

    def as_dtype(self, dtype):
        """A copy of this loop variable with another dtype."""
        other = _LoopVar(self.label, self.kind, self.init, self.template)
        other.dtype, other.shape = dtype, self.shape
        return other


def _traced_while(cond, body, loop_vars, shape_invariants, maximum_iterations, name, names):
    outer = current_graph()
    # The user's line, looked for once for the loop's own constants,
    # placeholders, captures and node (from the frame above the caller,
    # while_loop or _composite_while, on).
    location = user_location(3)
    lvars = _loop_vars_in(loop_vars, shape_invariants, names, outer, location)
    base = name or "while"
    for _ in range(_MAX_RETRACES):
        cond_g, body_g, out_leaves = _trace_loop(cond, body, loop_vars, lvars, names,
                                                 outer, base, location)
        if not _relax_shapes(lvars, out_leaves):
            break
    inputs = [v.init for v in lvars if v.kind != "none"]
    captured = _align_captures([cond_g, body_g], location)
    extra = []
    if maximum_iterations is not None:
        extra = [_maximum_iterations_tensor(maximum_iterations)]
    attrs = {"cond": cond_g, "body": body_g, "num_loop_vars": len(inputs),
             "has_maximum_iterations": maximum_iterations is not None}
    if getattr(_context.state, "tapes", None):
        inputs = inputs + [add_accumulator(cond_g, body_g)]
        attrs["num_loop_vars"] = len(inputs)
        attrs["accumulator"] = True
    node = outer.add_node(get_op(_ops.WHILE), inputs + captured + extra, attrs, name=name,
                          _location=location)
    outs = iter(node.outputs)
    results = []
    for v, out in zip(lvars, out_leaves):
        if v.kind == "none":
            results.append(None)
        elif v.kind == "ta":
            results.append(v.template._with_flow(next(outs), _loop_element_shape(v, out)))
        else:
            results.append(next(outs))
    return nest.pack_sequence_as(loop_vars, results)


# --- loop states kept for gradients ----------------------------------------------------
#
# A loop traced while a gradient tape records (runtime/_src/autodiff) gets a
# last loop variable, an accumulator: a Python list (dtype variant) to which
# each iteration appends the values of the loop variables it starts with. The
# While gradient reads them back in reverse; memory grows with iterations
# times the loop state and nothing else.

def add_accumulator(cond_g, body_g):
    """Add the accumulator loop variable to the traced graphs; return its initial value."""
    state = list(body_g.inputs)
    cond_g.add_placeholder(_dtypes.variant, [], name="accumulator")
    acc = body_g.add_placeholder(_dtypes.variant, [], name="accumulator")
    with body_g.as_default():
        body_g.outputs.append(apply("LoopAccumulatorPush", [acc] + state))
    return apply("LoopAccumulator", [])


def _infer_accumulator(inputs, attrs):
    return [(_dtypes.variant, as_shape([]))]


class _Accumulator(list, VariantValue):
    """A loop's saved states: a list that eager runs keep as a variant value."""

    __slots__ = ()


@define_op("LoopAccumulator", infer=_infer_accumulator, stateful=True)
def _new_accumulator():
    return _Accumulator()


@define_op("LoopAccumulatorPush", infer=_infer_accumulator, stateful=True)
def _accumulator_push(acc, *values):
    acc.append(values)
    return acc


@define_op("LoopAccumulatorRead", infer=lambda inputs, attrs: list(attrs["specs"]),
           stateful=True, num_outputs=None)
def _accumulator_read(acc, index, *, specs):
    return tuple(acc[int(index)])


@define_op("LoopAccumulatorSize", infer=lambda inputs, attrs: [(_dtypes.int32, as_shape([]))],
           stateful=True)
def _accumulator_size(acc):
    return np.int32(len(acc))


def _loop_vars_in(loop_vars, shape_invariants, names, outer, location):
    """The flat loop variables (`_LoopVar`s) of `loop_vars`, traced into
    `outer`; a Python number becomes a Const made at `location`."""
    labels = _leaf_names(loop_vars, names, "loop_vars")
    invariants = _flat_invariants(loop_vars, shape_invariants)
    lvars = []
    for leaf, label, invariant in zip(nest.flatten(loop_vars), labels, invariants):
        leaf = unwrap_variable(leaf)
        if leaf is None:
            lvars.append(_LoopVar(label, "none"))
            continue
        if isinstance(leaf, TensorArray):
            lvars.append(_LoopVar(label, "ta", leaf.flow, leaf))
            continue
        python = None
        if not isinstance(leaf, Tensor):
            python = leaf
            try:
                leaf = (_number_const(outer, leaf, location) if leaf.__class__ in _PYTHON_SCALARS
                        else convert_to_tensor(leaf))
            except (TypeError, ValueError) as e:
                raise TypeError(f"while_loop: loop variable '{label}' is {describe_value(leaf)}, which "
                                f"cannot be converted to a tensor: {e}") from None
        v = _LoopVar(label, "tensor", leaf)
        v.python = python
        if invariant is not None:
            invariant = as_shape(invariant)
            if not invariant.is_compatible_with(leaf.shape):
                raise ValueError(f"while_loop: '{label}' enters the loop with shape "
                                 f"{leaf.shape}, which does not match its shape invariant "
                                 f"{invariant}")
            v.shape = invariant
        lvars.append(v)
    return lvars


def _number_const(graph, value, location, dtype=None):
    """convert_to_tensor(value, dtype) of a Python number while `graph` is
    traced: the Const its EagerTensor's capture would make, made at once at
    the user's `location` (nothing else could ask for that tensor)."""
    array = to_numpy_value(value, dtype)
    return graph.add_constant(array, _dtypes.as_dtype(array.dtype), location)


def _flat_invariants(structure, invariants):
    """One shape invariant (or None) per leaf of `structure`."""
    if invariants is None:
        return [None] * len(nest.flatten(structure))
    if not nest.is_nested(structure):
        return [invariants]
    if isinstance(structure, dict):
        keys = sorted(structure, key=repr) if not _sortable(structure) else sorted(structure)
        return [x for k in keys for x in _flat_invariants(structure[k], invariants.get(k))]
    if not isinstance(invariants, (list, tuple)) or len(invariants) != len(structure):
        raise ValueError(f"while_loop: shape_invariants {invariants!r} does not match the "
                         f"structure of loop_vars {structure!r}")
    return [x for s, i in zip(structure, invariants) for x in _flat_invariants(s, i)]


def _sortable(d):
    try:
        sorted(d)
        return True
    except TypeError:
        return False


def _trace_loop(cond, body, loop_vars, lvars, names, outer, base, location=False):
    """Trace cond and body once with placeholders of the current specs
    (`location`: the user's line of the loop, see _own)."""
    cond_g = Graph(f"{base}_cond", outer=outer)
    with cond_g.as_default():
        pred = _call(cond, _loop_args(cond_g, loop_vars, lvars, location))
        cond_g.outputs = [_loop_pred(cond_g, pred, location)]
    body_g = Graph(f"{base}_body", outer=outer)
    try:
        with body_g.as_default():
            result = _normalize_result(_call(body, _loop_args(body_g, loop_vars, lvars,
                                                              location)), loop_vars)
    except (TypeError, ValueError) as e:
        found = _int_made_float(body, loop_vars, lvars, outer)
        if found is None:
            raise
        v, dtype = found
        cause = " ".join(str(e).split())
        raise TypeError(
            f"'{v.label}' has dtype {v.dtype.name} before the loop (the Python int {v.python}) "
            f"but {dtype.name} after the loop body ({cause}); a loop variable must keep its "
            f"dtype: start it as a float ({v.label} = {float(v.python)}) or use tf.cast"
        ) from None
    _check_structure(loop_vars, result, names, TypeError,      # TensorFlow's phrase first
                     "does not have the same nested structure after one iteration (the "
                     "loop body changes its structure)")
    out_leaves = [_body_output(body_g, v, leaf, location)
                  for v, leaf in zip(lvars, nest.flatten(result))]
    body_g.outputs = [_own(body_g, o.flow if v.kind == "ta" else o, location)
                      for v, o in zip(lvars, out_leaves) if v.kind != "none"]
    return cond_g, body_g, out_leaves


def _int_made_float(body, loop_vars, lvars, outer):
    """The loop variable that entered the loop as a Python int (so an int32
    tensor) and that the body makes a float: the one whose body traces when
    it alone is float32 and returns a float for it, with that float's dtype.
    None if there is none.
    (Only called when tracing the body failed, to explain the failure.)"""
    for i, v in enumerate(lvars):
        if v.kind != "tensor" or type(v.python) is not int or v.dtype != _dtypes.int32:
            continue
        trial = lvars[:i] + [v.as_dtype(_dtypes.float32)] + lvars[i + 1:]
        scratch = Graph("dtype_probe", outer=outer)
        try:
            with scratch.as_default():
                result = _normalize_result(_call(body, _loop_args(scratch, loop_vars, trial)),
                                           loop_vars)
            leaf = unwrap_variable(nest.flatten(result)[i])
        except Exception:  # noqa: BLE001 - this variable is not (alone) the cause
            continue
        if isinstance(leaf, float):
            return v, _dtypes.float32
        if isinstance(leaf, Tensor) and leaf.dtype.is_floating:
            return v, leaf.dtype
    return None


def _loop_args(graph, loop_vars, lvars, location=False):
    leaves = []
    for v in lvars:
        if v.kind == "none":
            leaves.append(None)
            continue
        ph = graph.add_placeholder(v.dtype, v.shape, name=_node_name(v.label),
                                   _location=location)
        leaves.append(v.template._with_flow(ph) if v.kind == "ta" else ph)
    return nest.pack_sequence_as(loop_vars, leaves)


_NOT_WORD = re.compile(r"\W")


def _node_name(label):
    cleaned = _NOT_WORD.sub("_", label).strip("_")   # \W: neither isalnum() nor "_"
    return cleaned or "loop_var"


def _loop_pred(graph, pred, location=False):
    pred = unwrap_variable(pred)
    if not isinstance(pred, Tensor):
        if not isinstance(pred, (bool, np.bool_)):
            raise TypeError(f"while_loop: cond must return a bool scalar, got {_describe(pred)}")
        pred = convert_to_tensor(pred)
    if pred.dtype != _dtypes.bool:
        raise TypeError(f"while_loop: cond must return a bool scalar, got {_describe(pred)}")
    if pred.shape.dims:                 # (as in cond_branches)
        raise ValueError(f"while_loop: cond must return a scalar, got shape {pred.shape}")
    return _own(graph, pred, location)


def _body_output(graph, v, leaf, location=False):
    """Check one value the body returned against its loop variable."""
    leaf = unwrap_variable(leaf)
    label = v.label
    if v.kind == "none" or leaf is None:
        if v.kind == "none" and leaf is None:
            return None
        before = "None" if v.kind == "none" else _describe(v.template or v.init)
        raise ValueError(f"'{label}' is {before} before the loop but {_describe(leaf)} "
                         f"after the loop body; a loop variable must be defined before the "
                         f"loop and keep a value: give '{label}' a value before the loop")
    if v.kind == "ta":
        if not isinstance(leaf, TensorArray) or leaf.dtype != v.template.dtype:
            raise TypeError(f"'{label}' is {_describe(v.template)} before the loop but "
                            f"{_describe(leaf)} after the loop body")
        return leaf
    if isinstance(leaf, TensorArray):
        raise TypeError(f"'{label}' is {_describe(v.init)} before the loop but "
                        f"{_describe(leaf)} after the loop body")
    if not isinstance(leaf, Tensor):
        leaf = _convert_leaf(graph, leaf, v.dtype, label, "loop body", location)
    if leaf.dtype != v.dtype:
        if type(v.python) is int and leaf.dtype.is_floating:
            raise TypeError(f"'{label}' has dtype {v.dtype.name} before the loop (the Python "
                            f"int {v.python}) but {leaf.dtype.name} after the loop body; a loop "
                            f"variable must keep its dtype: start it as a float ({label} = "
                            f"{float(v.python)}) or use tf.cast")
        raise TypeError(f"'{label}' has dtype {v.dtype.name} before the loop but "
                        f"{leaf.dtype.name} after the loop body; a loop variable must keep "
                        f"its dtype: use tf.cast, or give '{label}' the right dtype before "
                        "the loop")
    return leaf


def _relax_shapes(lvars, out_leaves):
    """Relax each tensor loop var's shape to fit what the body returned.

    Returns True when some shape changed (the loop must be traced again).
    """
    changed = False
    for v, out in zip(lvars, out_leaves):
        if v.kind != "tensor":
            continue
        relaxed = v.shape.most_specific_compatible_shape(out.shape)
        if relaxed != v.shape:
            v.shape = relaxed
            changed = True
    return changed


def _loop_element_shape(v, out_ta):
    before, after = v.template.element_shape, out_ta.element_shape
    if before.dims is None:
        return after
    return before.most_specific_compatible_shape(after)


def _maximum_iterations_tensor(value):
    value = unwrap_variable(value)
    if isinstance(value, Tensor):
        if not value.dtype.is_integer or value.shape.rank not in (0, None):
            raise TypeError("while_loop: maximum_iterations must be an integer scalar, got "
                            f"{_describe(value)} of shape {value.shape}")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"while_loop: maximum_iterations must be an integer, got {value!r}")
    return convert_to_tensor(value, _dtypes.int32)
