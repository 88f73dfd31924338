"""Higher-order functions: `map_fn`, `scan`, `foldl`, `foldr`, `vectorized_map`,
`switch_case` and `case`, with TensorFlow's signatures.

The loops are one `while_loop` over `TensorArray`s, so a traced graph holds a
single `While` node whatever the number of elements (named `map/while`,
`scan/while`, ... as in TensorFlow); eagerly the same code runs the loop in
Python. `switch_case` and `case` are chains of `cond`s (one
`If` node per branch after the first). What each one means in plain Python:

    map_fn(fn, elems)              ->  stack([fn(x) for x in elems])
    scan(fn, elems, a)             ->  outs = []; for x in elems: a = fn(a, x); outs.append(a)
                                       stack(outs)    (reverse=True walks elems backwards,
                                                       outputs keep elems' order)
    foldl(fn, elems, a)            ->  for x in elems: a = fn(a, x); return a
    foldr(fn, elems, a)            ->  for x in reversed(elems): a = fn(a, x); return a
    switch_case(i, [f0, f1, f2])   ->  [f0, f1, f2][i]() if 0 <= i < 3 else (default or f2)()
    case([(p0, f0), (p1, f1)], d)  ->  f0() if p0 else f1() if p1 else d()

`elems` may be a nested structure of tensors of one leading size; `fn` gets
one slice with that structure. Without `initializer`, `scan` and the folds
start from the first element (the last for `foldr` and `scan(reverse=True)`).

Inside `tf.function` the `fn` of `map_fn` and `vectorized_map` is converted
by autograph, as TensorFlow does; the other functions are called as given.
`vectorized_map` is `map_fn` with the output signature taken from tracing
`fn` on one element: the results equal TensorFlow's, but it runs a loop
rather than vectorizing.
"""

from runtime._src.core import dtypes as _dtypes
from runtime._src.core import nest
from runtime._src.core.composite import CompositeSpec, dispatch_api, type_spec_of
from runtime._src.core.context import name_scope
from runtime._src.core.tensor import SymbolicTensor, Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.graph import Graph, current_graph
from runtime._src.ops import array_ops, math_ops, reduction_ops
from runtime._src.ops.check_ops import Assert
from runtime._src.function.control_flow import cond, while_loop
from runtime._src.function.tensor_array import TensorArray

__all__ = ["map_fn", "scan", "foldl", "foldr", "vectorized_map", "switch_case", "case"]


# --- elems ----------------------------------------------------------------------

def _flat_elems(elems, op_name):
    """The leaves of `elems` as tensors of rank >= 1 with one leading size."""
    flat = [convert_to_tensor(unwrap_variable(e)) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{op_name}: elems must contain at least one tensor, got {elems!r}")
    for e in flat:
        if e.shape.rank == 0:
            raise ValueError(f"{op_name}: Elements in elems must be 1+ dimensional Tensors, "
                             "not scalars")
    first = TensorShape([None])
    for e in flat:
        if e.shape.rank is not None:
            lead = TensorShape(e.shape.dims[:1])
            if not first.is_compatible_with(lead):
                raise ValueError(f"{op_name}: Dimensions {first.dims[0]} and {lead.dims[0]} "
                                 "are not compatible: every tensor in elems must have the "
                                 "same first dimension")
            first = first.merge_with(lead)
    return flat


def _unstacked(flat_elems):
    """One TensorArray per elems tensor, holding its rows."""
    tas = []
    for e in flat_elems:
        row_shape = TensorShape(None) if e.shape.rank is None else TensorShape(e.shape.dims[1:])
        ta = TensorArray(e.dtype, size=0, dynamic_size=True, element_shape=row_shape)
        tas.append(ta.unstack(e))
    return tas


def _read(elems, tas, i):
    """elems[i], with the structure of elems."""
    return nest.pack_sequence_as(elems, [ta.read(i) for ta in tas])


def _converted(fn, always=False):
    """`fn` converted by autograph while tracing (as TF's map_fn does), or
    `always` (vectorized_map traces fn even when called eagerly)."""
    if current_graph() is None and not always:
        return fn
    from autograph.integration import converted_callable
    return converted_callable(fn, user_requested=False)


# --- output signatures --------------------------------------------------------------

def _output_specs(elems, flat_elems, dtype, fn_output_signature):
    """The output structure, with one TensorSpec per leaf."""
    if dtype is not None and fn_output_signature is not None:
        raise ValueError("map_fn: The `dtype` and `fn_output_signature` arguments cannot "
                         "both be specified.")
    signature = fn_output_signature if fn_output_signature is not None else dtype
    if signature is None:
        return nest.pack_sequence_as(elems, [TensorSpec(None, e.dtype) for e in flat_elems])
    return nest.map_structure(_spec, signature)


def _spec(leaf):
    if isinstance(leaf, TensorSpec):
        return leaf
    try:
        return TensorSpec(None, _dtypes.as_dtype(leaf))
    except (TypeError, ValueError):
        raise TypeError(f"map_fn: fn_output_signature must be a DType or TensorSpec (or a "
                        f"nested structure of them), got {leaf!r}") from None


def _output_leaves(result, specs, op_name):
    """fn's result flattened and checked against the output signature."""
    try:
        nest.assert_same_structure(specs, result, check_types=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{op_name}: fn returned a value whose structure does not match the "
                         f"output signature (by default the structure of elems; pass "
                         f"fn_output_signature): {e}") from None
    leaves = []
    for k, (spec, value) in enumerate(zip(nest.flatten(specs), nest.flatten(result))):
        value = unwrap_variable(value)
        if value is None:
            raise ValueError(f"{op_name}: fn returned None for output {k}; it must return "
                             "tensors")
        if not isinstance(value, Tensor):
            value = convert_to_tensor(value, spec.dtype)
        if value.dtype != spec.dtype:
            raise TypeError(f"{op_name}: fn returned a {value.dtype.name} tensor for output "
                            f"{k}, but the output signature says {spec.dtype.name}; by default "
                            "outputs have the dtypes of elems: pass fn_output_signature")
        leaves.append(value)
    return leaves


# --- map_fn -------------------------------------------------------------------------

def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True,
           swap_memory=False, infer_shape=True, name=None, fn_output_signature=None):
    """`tf.map_fn`: `stack([fn(x) for x in elems])`, staged as one while loop.

    The outputs have the structure and dtypes of `elems` unless
    `fn_output_signature` (or the older `dtype`) says otherwise.
    `parallel_iterations`, `back_prop` and `swap_memory` are accepted and
    ignored.
    """
    if not callable(fn):
        raise TypeError(f"map_fn: fn must be callable, got {type(fn).__name__}")
    out = dispatch_api("map_fn", (elems,), fn, elems, fn_output_signature or dtype)
    if out is not NotImplemented:                    # a tf.RaggedTensor's rows
        return out
    if any(type_spec_of(v) is not None for v in nest.flatten(elems)):
        return _composite_map_fn(fn, elems, fn_output_signature or dtype, infer_shape, name)
    flat_elems = _flat_elems(elems, "map_fn")
    specs = _output_specs(elems, flat_elems, dtype, fn_output_signature)
    fn = _converted(fn)
    with name_scope(name or "map"):
        in_tas = _unstacked(flat_elems)
        n = in_tas[0].size()
        out_tas = [TensorArray(s.dtype, size=n, infer_shape=infer_shape, element_shape=s.shape)
                   for s in nest.flatten(specs)]

        def body(i, tas):
            leaves = _output_leaves(fn(_read(elems, in_tas, i)), specs, "map_fn")
            return i + 1, [ta.write(i, v) for ta, v in zip(tas, leaves)]

        _, out_tas = while_loop(lambda i, _: i < n, body, (0, out_tas), name="while",
                                names=("i", "outputs"))
        return nest.pack_sequence_as(specs, [ta.stack() for ta in out_tas])


def _composite_map_fn(fn, elems, signature, infer_shape, name):
    """map_fn over batchable composites (BatchableExtensionTypes): mapped as
    their component tensors, each row rebuilt with the unbatched spec, and
    the outputs rebuilt with their spec batched (TF: the output signature is
    that of an element of `elems` unless `fn_output_signature` says otherwise)."""
    in_specs = nest.map_structure(_row_spec, elems)
    out_specs = in_specs if signature is None else signature
    flat_out_specs = _component_specs(out_specs)

    def flat_fn(parts):
        row = nest.pack_sequence_as(in_specs, _rebuilt(in_specs, parts))
        return nest.flatten(fn(row), expand_composites=True)

    parts = nest.flatten(elems, expand_composites=True)
    outs = map_fn(flat_fn, parts, fn_output_signature=flat_out_specs, infer_shape=infer_shape,
                  name=name)
    n = parts[0].shape.dims[0] if parts[0].shape.dims else None
    batched = nest.map_structure(
        lambda s: s._batch(n) if isinstance(s, CompositeSpec) else s, out_specs)
    return nest.pack_sequence_as(batched, _rebuilt(batched, list(outs)))


def _row_spec(value):
    spec = type_spec_of(value)
    if spec is None:
        t = convert_to_tensor(unwrap_variable(value))
        return TensorSpec(None if not t.shape.dims else t.shape.dims[1:], t.dtype)
    if not hasattr(spec, "_unbatch"):
        raise TypeError(f"map_fn: a {type(value).__name__} cannot be unbatched (only "
                        "BatchableExtensionTypes and tensors)")
    return spec._unbatch()


def _component_specs(specs):
    out = []
    for s in nest.flatten(specs):
        if isinstance(s, CompositeSpec):
            out.extend(s._component_specs)
        else:
            out.append(s if isinstance(s, TensorSpec) else TensorSpec(None, s))
    return out


def _rebuilt(specs, parts):
    """The leaves of `specs` built from the flat component tensors `parts`."""
    it, out = iter(parts), []
    for s in nest.flatten(specs):
        if isinstance(s, CompositeSpec):
            out.append(s._from_components([next(it) for _ in s._component_specs]))
        else:
            out.append(next(it))
    return out


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`tf.vectorized_map`: the results of `map_fn(fn, elems)` with the output
    signature found by tracing `fn` on one element (a loop here, not a
    vectorized program)."""
    if not callable(fn):
        raise TypeError(f"vectorized_map: fn must be callable, got {type(fn).__name__}")
    flat_elems = _flat_elems(elems, "vectorized_map")
    fn = _converted(fn, always=True)
    probe = Graph("vectorized_map_probe", outer=current_graph())
    with probe.as_default():
        rows = [probe.add_placeholder(e.dtype, None if e.shape.rank is None
                                      else e.shape.dims[1:]) for e in flat_elems]
        result = fn(nest.pack_sequence_as(elems, rows))
        result = nest.map_structure(
            lambda v: convert_to_tensor(unwrap_variable(v)), result)
    specs = nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), result)
    return map_fn(fn, elems, fn_output_signature=specs, name="vectorized_map")


# --- scan, foldl, foldr -------------------------------------------------------------

def _start(elems, in_tas, n, initializer, reverse):
    """(first accumulator, first index to read, whether elems[first] is an output)."""
    if initializer is not None:
        acc = nest.map_structure(lambda v: convert_to_tensor(unwrap_variable(v)), initializer)
        return acc, (n - 1 if reverse else 0), False
    first = n - 1 if reverse else 0
    return _read(elems, in_tas, first), (first - 1 if reverse else first + 1), True


def _accumulate(fn, acc, x, op_name):
    """fn(acc, x), checked to keep the structure of acc."""
    new = fn(acc, x)
    try:
        nest.assert_same_structure(acc, new, check_types=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{op_name}: fn must return a value with the structure of the "
                         f"accumulator (the initializer, or one element of elems): {e}") from None
    return new


def _step(reverse):
    return (lambda i: i - 1) if reverse else (lambda i: i + 1)


def _more(n, reverse):
    return (lambda i: i >= 0) if reverse else (lambda i: i < n)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """`tf.scan`: every intermediate `a = fn(a, x)`, stacked; one while loop."""
    if not callable(fn):
        raise TypeError(f"scan: fn must be callable, got {type(fn).__name__}")
    flat_elems = _flat_elems(elems, "scan")
    with name_scope(name or "scan"):
        in_tas = _unstacked(flat_elems)
        n = in_tas[0].size()
        acc, i0, emit_first = _start(elems, in_tas, n, initializer, reverse)
        out_tas = [TensorArray(unwrap_variable(a).dtype, size=n, infer_shape=infer_shape)
                   for a in nest.flatten(acc)]
        if emit_first:
            out_tas = [ta.write(i0 + 1 if reverse else i0 - 1, a)
                       for ta, a in zip(out_tas, nest.flatten(acc))]
        step, more = _step(reverse), _more(n, reverse)

        def body(i, a, tas):
            a = _accumulate(fn, a, _read(elems, in_tas, i), "scan")
            return step(i), a, [ta.write(i, v) for ta, v in zip(tas, nest.flatten(a))]

        _, acc, out_tas = while_loop(lambda i, a, tas: more(i), body, (i0, acc, out_tas),
                                     name="while", names=("i", "accumulator", "outputs"))
        return nest.pack_sequence_as(acc, [ta.stack() for ta in out_tas])


def _fold(fn, elems, initializer, reverse, name, op_name):
    if not callable(fn):
        raise TypeError(f"{op_name}: fn must be callable, got {type(fn).__name__}")
    flat_elems = _flat_elems(elems, op_name)
    with name_scope(name or op_name):
        in_tas = _unstacked(flat_elems)
        n = in_tas[0].size()
        acc, i0, _ = _start(elems, in_tas, n, initializer, reverse)
        step, more = _step(reverse), _more(n, reverse)

        def body(i, a):
            return step(i), _accumulate(fn, a, _read(elems, in_tas, i), op_name)

        _, acc = while_loop(lambda i, a: more(i), body, (i0, acc), name="while",
                            names=("i", "accumulator"))
        return acc


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """`tf.foldl`: `a = fn(a, x)` for x in elems, first to last; returns a."""
    return _fold(fn, elems, initializer, False, name, "foldl")


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """`tf.foldr`: `a = fn(a, x)` for x in elems, last to first; returns a."""
    return _fold(fn, elems, initializer, True, name, "foldr")


# --- switch_case --------------------------------------------------------------------

def _branches(branch_fns):
    """branch_fns (list of callables, list of (int, callable), dict) as a list."""
    if not branch_fns:
        raise ValueError("switch_case: Must provide at least one item in 'branch_fns'")
    if isinstance(branch_fns, dict):
        items = list(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)) and all(callable(f) for f in branch_fns):
        items = list(enumerate(branch_fns))
    else:
        items = []
        for entry in branch_fns:
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                raise TypeError("switch_case: Each entry in 'branch_fns' must be a 2-tuple. "
                                f"Received {entry!r}.")
            items.append(tuple(entry))
    for key, fn in items:
        if isinstance(key, bool) or not isinstance(key, int):
            raise TypeError(f"switch_case: key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"switch_case: fn for key {key} must be callable.")
    keys = sorted(k for k, _ in items)
    if keys != list(range(len(items))):
        raise ValueError("switch_case: branch indices (keys) must form contiguous range of "
                         f"[0 to {len(items)}) but found {{{','.join(map(str, keys))}}}")
    return [fn for _, fn in sorted(items, key=lambda kv: kv[0])]


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`tf.switch_case`: run `branch_fns[branch_index]()`; an index out of
    range runs `default`, or the last branch when there is no default."""
    fns = _branches(branch_fns)
    index = unwrap_variable(branch_index)
    if not isinstance(index, Tensor):
        raise TypeError(f"switch_case: 'branch_index' must be a Tensor, got {type(index)}")
    if not index.dtype.is_integer:
        raise TypeError(f"switch_case: 'branch_index' must be an integer Tensor, got "
                        f"{index.dtype!r}")
    if index.shape.rank not in (0, None):
        raise ValueError(f"switch_case: 'branch_index' must be a scalar, got shape {index.shape}")
    if default is not None and not callable(default):
        raise TypeError("switch_case: default must be callable")
    fallback = default if default is not None else fns[-1]
    if not isinstance(index, SymbolicTensor):
        i = int(index)
        return fns[i]() if 0 <= i < len(fns) else fallback()
    checked = fns if default is not None else fns[:-1]
    return _chain([(math_ops.equal(index, math_ops.cast(k, index.dtype)), fn)
                   for k, fn in enumerate(checked)], fallback, name)


def _chain(pairs, fallback, name):
    """cond(p0, f0, lambda: cond(p1, f1, ... fallback)): the first true pred wins."""
    if not pairs:
        return fallback()
    (pred, fn), rest = pairs[0], pairs[1:]
    return cond(pred, fn, lambda: _chain(rest, fallback, name), name=name)


# --- case ------------------------------------------------------------------------------

def _pred_fn_pairs(pred_fn_pairs):
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(f"case: pred_fn_pairs must be a list or tuple, got "
                        f"{type(pred_fn_pairs).__name__}")
    if not pred_fn_pairs:
        raise ValueError("case: pred_fn_pairs must contain at least one (pred, fn) pair")
    pairs = []
    for entry in pred_fn_pairs:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise TypeError(f"case: Each entry in 'pred_fn_pairs' must be a 2-tuple. "
                            f"Received {entry!r}.")
        pred, fn = unwrap_variable(entry[0]), entry[1]
        if not isinstance(pred, Tensor):
            raise TypeError(f"case: pred must be a Tensor, got: {pred!r}")
        if pred.dtype != _dtypes.bool:
            raise TypeError(f"case: pred must be Tensor of type bool: {pred.dtype.name}")
        if not callable(fn):
            raise TypeError(f"case: fn for pred {_pred_name(pred)} must be callable.")
        pairs.append((pred, fn))
    return pairs


def _pred_name(pred):
    return pred.name if isinstance(pred, SymbolicTensor) else "?"


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """`tf.case`: the fn of the first true pred (`default` when none is).

    Without `default`, the last fn is the default and InvalidArgumentError is
    raised when no pred is true; `exclusive=True` raises it when more than
    one is. `strict` is accepted and ignored.
    """
    pairs = _pred_fn_pairs(pred_fn_pairs)
    if default is not None and not callable(default):
        raise TypeError("case: default must be callable")
    preds = array_ops.stack([array_ops.reshape(p, []) for p, _ in pairs])
    if exclusive:
        names = ", ".join(_pred_name(p) for p, _ in pairs)
        count = reduction_ops.reduce_sum(math_ops.cast(preds, _dtypes.int32))
        Assert(math_ops.less_equal(count, 1),
               [f"Input error: exclusive=True: more than 1 conditions ({names}) evaluated "
                "as True:", preds])
    if default is None:
        Assert(reduction_ops.reduce_any(preds),
               ["Input error: None of conditions evaluated as True:", preds])
        pairs, default = pairs[:-1], pairs[-1][1]
    if current_graph() is None:
        return next((fn for p, fn in pairs if bool(p)), default)()
    return _chain(pairs, default, name)

