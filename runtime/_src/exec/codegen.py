"""Lower a graph to Python source once, compile it, and run that on every call.

A run of the compiled form is straight-line numpy with no per-op dispatch:
one local variable per tensor, one line per op, and Python `if` / `while`
statements for the `If` / `While` control-flow ops (their branch and body
graphs are inlined). The hottest simple ops use an infix template (like
torch.fx's operator table); every other op is a call of its numpy kernel with
its attrs as keyword arguments.

    graph f(x: int32[], y: int32[])       def graph_f(x, y):
      Mul = Mul x, Const           ->         Mul = x * _Const            # f.py:3
      AddV2 = AddV2 Mul, y                    AddV2 = Mul + y             # f.py:4
      return AddV2                            return [AddV2]

Only what the outputs and the side-effecting ops need is emitted, in program
order (the non-strict semantics of `executor.plan`). The source is registered
with `linecache`, so tracebacks and `inspect` show it; `line_nodes` maps each
generated line back to its node, which is how `executor.run` names the failing
op and the user's source line without a try/except per op.

Integer infix arithmetic on numpy scalars warns on overflow where the numpy
ufunc (and TensorFlow) wraps silently, so integer templates are used only on
arrays of known rank >= 1, or inside a function that contains a loop, whose
body then runs under `np.errstate(over="ignore")` (one context entry per run,
not per iteration).

Memory is reused the way hand-written numpy reuses it. A float temporary made
by an infix op and used once, by an elementwise add/subtract/multiply of its own
shape, is written in place (`Mul_2 = _np.multiply(MatMul_5, _Const, out=MatMul_5)`):
the same ufunc loop, so the same bits, without a fresh array; so are BiasAdd,
Relu and ReluGrad on a fresh Conv2D / MatMul / BiasAdd / MaxPoolGrad result
(`BiasAdd = _np.add(Conv2D, b, out=Conv2D)`). And a Variable
read that a later `assign_add`/`assign_sub` in the same function overwrites is
deleted after its last use, so the update can run in place (see
runtime/_src/function/variables.py).

Across runs, large arrays go through the run's workspace pool
(runtime/_src/core/workspace.py): after its last read each large local is
handed back (`_give(Conv2D); del Conv2D`; the pool takes it only when nothing
else holds it), and products, elementwise ops and unary ufuncs of large
results write into a pooled array (`_matmul(a, b, _out(shape, dtype))`, its rows
split over the cores by runtime/_src/core/parallel.py while BLAS runs on one thread),
as the conv and pooling kernels do for theirs.

Two training-step patterns get fused forms: a Conv2D and the filter gradient
of the same input and filter share one im2col matrix
(`conv2d_keeping_patches`), and a ReluGrad that masks a tiling MaxPoolGrad's
result folds into it (`max_pool_grad_of_relu`: the mask on the pooled
gradient, a quarter of the size). A ReLU read only by a max pooling (and by
those gradients) is applied after the pooling, to the pooled values
(`Emitter.relu_after_pool`): max and ReLU commute exactly. A bias gradient
(the Sum of a filter gradient's dy over its leading axes) is computed with
the filter gradient, as a BLAS product with a ones vector
(runtime/_src/ops/conv_grad_fused.py).

Two more run a layer's ops as one call, chunk by chunk of the batch so that
each chunk stays in the core's cache from one op to the next
(runtime/_src/core/parallel.py `split_chunked`): a Conv2D (keeping its
patches), its BiasAdd and the tiling MaxPool after them
(`conv2d_bias_pool`, `Emitter.bias_pool_after`: the Conv2D is emitted at its
BiasAdd, the MaxPool with it), and a folded pool gradient with the filter
and bias gradients that read it (`relu_pool_and_filter_grads`,
`Emitter.filter_grad_of`: the filter gradient is emitted at the
MaxPoolGrad). When these two calls are all that read a layer's activation,
they keep it with each pooling window's taps in contiguous blocks
(`Emitter.grouped_layer`, runtime/_src/ops/conv_tap_groups.py), and a pool
gradient that only the filter and bias gradients read (a CNN's first layer)
is not written out, one that an input gradient reads only where the windows
are (`Emitter.pool_grad_readers`).
"""

import builtins
import functools
import itertools
import keyword
import linecache
import os
import re
import weakref

import numpy as np

from runtime._src.core import parallel, workspace
from runtime._src.graph.graph import PRUNED, Graph, memoized_flags, needed_nodes
from runtime._src.ops import conv_grad_fused, conv_ops, pool_ops

__all__ = ["CompiledGraph", "compile_graph", "compile_loop", "plan", "INFIX", "INLINED", "if_branches",
           "while_parts", "scalar", "contains_loop"]

# Op name -> template over the input expressions. The numpy kernel of each of
# these ops is the plain numpy operation; tests/runtime/exec/test_executor_codegen.py
# checks the template against the kernel for every entry.
INFIX = {
    "AddV2": "{0} + {1}",
    "Add": "{0} + {1}",
    "Sub": "{0} - {1}",
    "Mul": "{0} * {1}",
    "Neg": "-{0}",
    "MatMul": "{0} @ {1}",
    "Less": "{0} < {1}",
    "LessEqual": "{0} <= {1}",
    "Greater": "{0} > {1}",
    "GreaterEqual": "{0} >= {1}",
    "Equal": "{0} == {1}",
    "NotEqual": "{0} != {1}",
    "FloorDiv": "{0} // {1}",
    "FloorMod": "{0} % {1}",
    "LogicalAnd": "{0} & {1}",
    "LogicalOr": "{0} | {1}",
    "LogicalNot": "~{0}",
}
_IN_PLACE = {"AddV2": "add", "Add": "add", "Sub": "subtract", "Mul": "multiply"}
# Kernels whose result is always a new array that nothing else holds: a
# temporary a later in-place op may overwrite (see `Emitter.in_place_kernel`).
_FRESH_KERNELS = {"Conv2D", "BiasAdd", "Relu", "ReluGrad", "MaxPoolGrad", "MaxPool",
                  "Conv2DBackpropInput", "Conv2DBackpropFilter"}
_ZEROS = {}                    # dtype name -> its numpy zero (one global per dtype)
# A MaxPool's / MaxPoolGrad's attrs, passed to the fused kernels as keywords
_POOL_ATTRS = frozenset(("ksize", "strides", "padding", "explicit_paddings"))
_SPLIT_ELEMENTS = 1 << 19      # an elementwise result split over the cores from this size
# Binary ops written into a pooled array (`Emitter.pooled_call`): the ufunc of each.
_POOLED_BINARY = {"AddV2": "add", "Add": "add", "Sub": "subtract", "Mul": "multiply",
                  "RealDiv": "true_divide"}
_ARITHMETIC = {"AddV2", "Add", "Sub", "Mul", "Neg", "MatMul", "FloorDiv", "FloorMod"}
_LOGICAL = {"LogicalAnd", "LogicalOr", "LogicalNot"}
_DIVISIONS = {"FloorDiv", "FloorMod"}
_EQUALITY = {"Equal", "NotEqual"}

# Marks a subgraph whose code was inlined into an enclosing compiled graph:
# valid (not stale) but with no standalone compiled form yet.
INLINED = object()

_MAX_INLINE_DEPTH = 8          # Python allows 20 statically nested blocks
_counter = itertools.count()


class CompiledGraph:
    """A graph's generated source and the compiled function that runs it."""

    __slots__ = ("fn", "source", "filename", "line_nodes", "inlined", "num_inputs",
                 "graph_name", "blas_work", "pools", "__weakref__")

    def __init__(self, fn, source, filename, line_nodes, inlined, num_inputs, graph_name):
        self.fn = fn
        self.source = source
        self.filename = filename
        self.line_nodes = line_nodes      # generated line number -> Node
        self.inlined = inlined            # subgraphs whose code is in `source`
        self.num_inputs = num_inputs
        self.graph_name = graph_name
        self.blas_work = -1               # set by executor.compiled_form
        self.pools = None                 # free workspace pools, when the code uses them

    def is_stale(self):
        """True when an inlined subgraph was edited since compilation."""
        for g in self.inlined:
            compiled = g._compiled
            if compiled is None or compiled is PRUNED:     # edited (then optimized)
                return True
        return False

    def node_for_traceback(self, tb):
        """The node whose generated line raised, found in traceback `tb`."""
        node = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                node = self.line_nodes.get(tb.tb_lineno, node)
            tb = tb.tb_next
        return node


def plan(graph):
    """The nodes a run of `graph` executes, in program order.

    These are the nodes the outputs need plus every side-effecting node and
    what it needs (non-strict execution).
    """
    needed = needed_nodes(graph)
    return [n for n in graph.nodes if n in needed]


def compile_graph(graph):
    """Generate, compile and register the Python source of `graph`."""
    em = Emitter(graph)
    with memoized_flags():          # plan() asks nested graphs for side effects
        source, line_nodes = em.function_source()
    return _compile_source(em, graph.name, source, line_nodes)


def compile_loop(node):
    """A `CompiledGraph` whose function runs the `While` `node` alone, as the
    compiled code of its graph runs it: `fn(*values)` takes the values of
    `node.inputs` (one parameter per position) and returns the list of its
    outputs' values. The interpreter hands it the rest of a long loop."""
    em = Emitter(node.graph)
    with memoized_flags():
        source, line_nodes = em.loop_source(node)
    return _compile_source(em, f"{node.graph.name}/{node.name}", source, line_nodes)


def _compile_source(em, name, source, line_nodes):
    filename = f"<graph {name}#{next(_counter)}>"
    code = compile(source, filename, "exec")
    namespace = dict(em.globals)
    exec(code, namespace)  # noqa: S102 - our own generated source
    lines = source.splitlines(keepends=True)
    _forget_dead_sources()
    linecache.cache[filename] = (len(source), None, lines, filename)
    for g in em.inlined:
        if g._compiled is None or g._compiled is PRUNED:
            g._compiled = INLINED
    compiled = CompiledGraph(namespace[em.fn_name], source, filename, line_nodes,
                             tuple(em.inlined), len(em.params), name)
    if em.pooled:
        compiled.pools = []
    weakref.finalize(compiled, _dead_sources.append, filename)
    return compiled


# Names of linecache entries whose compiled graph has been collected. The
# finalizer only records the name: it can run inside any allocation (a GC
# pass), including in the middle of linecache.checkcache's loop over the cache,
# which then fails with a KeyError if the entry vanished under it. The entries
# are dropped at the next compile instead, from ordinary code.
_dead_sources = []


def _forget_dead_sources():
    while _dead_sources:
        linecache.cache.pop(_dead_sources.pop(), None)


# --- the emitter -----------------------------------------------------------------

_IDENT = re.compile(r"[^0-9a-zA-Z_]")
_RESERVED = set(keyword.kwlist) | set(dir(builtins))


# The name caches below are bounded small: node names repeat across graphs
# (`add`, `while/body`), but each graph also brings names of its own
# (`graph_<function>`), which must not pile up as traced functions come and go.
_NAME_CACHE = 512


@functools.lru_cache(maxsize=_NAME_CACHE)
def _local_base(base):
    """A node name made an identifier that is no keyword or builtin (node
    names repeat across graphs: each is worked out once)."""
    name = _IDENT.sub("_", base).lstrip("_") or "t"
    if name[0].isdigit() or name in _RESERVED:
        name = "t_" + name
    return name


@functools.lru_cache(maxsize=_NAME_CACHE)
def _global_base(base):
    """The global name for `base`: `_` and an identifier."""
    return "_" + (_IDENT.sub("_", base).strip("_") or "g")


class Emitter:
    """Builds the source of one compiled function (torch.fx style).

    Locals are named after the tensors' nodes; globals (kernels, constants,
    attrs that have no literal form) start with `_`, so they never collide.
    """

    def __init__(self, graph):
        self.graph = graph
        self.lines = []            # (indent, text, node or None)
        self.globals = {"_np": np}
        self.names = {}            # id(SymbolicTensor) -> expression
        self.used = set()
        self.inlined = []
        self.depth = 0
        self.quiet_ints = contains_loop(graph)
        self.fn_name = self.local("graph_" + graph.name)
        self.params = []
        self.uses = {}             # id(SymbolicTensor) -> how many times the code reads it
        self.fresh = set()         # ids of float temporaries nothing else holds
        self.readers = {}          # id(SymbolicTensor) -> the planned nodes that read it
        self.aliases = {}          # id(output) -> expression: a node folded into another
        self.kept_patches = {}     # id(Conv2D or its filter gradient) -> the patch matrix local
        self.pooled_relus = set()  # ids of Relu outputs applied after their MaxPool instead
        self.bias_sums = {}        # id(filter gradient) -> its bias gradient's Sum; id(Sum) -> None
        self.patch_convs = {}      # id(filter gradient) <-> (its Conv2D, the plan's positions)
        self.emitted = set()       # ids of nodes already emitted with an earlier one
        self.deferred = {}         # id(BiasAdd) -> (its Conv2D, the MaxPool) emitted with it
        self.pooled = False        # the code hands large arrays to a pool (emit_gives)

    # -- naming --
    def local(self, base):
        """A fresh local variable name derived from `base`."""
        name = _local_base(base)
        candidate, n = name, 1
        while candidate in self.used:
            candidate = f"{name}_{n}"
            n += 1
        self.used.add(candidate)
        return candidate

    def bind(self, base, value):
        """A global name for `value` (kernels, constants, non-literal attrs)."""
        name = _global_base(base)
        candidate, n = name, 1
        while candidate in self.globals and self.globals[candidate] is not value:
            candidate = f"{name}_{n}"
            n += 1
        self.globals[candidate] = value
        return candidate

    def expr(self, tensor):
        return self.names[id(tensor)]

    def emit(self, indent, text, node=None):
        self.lines.append((indent, text, node))

    # -- whole function --
    def function_source(self):
        graph = self.graph
        placeholders = list(graph.inputs) + [inner for _, inner in graph.captures]
        indent = self.begin(placeholders)
        self.emit_graph(graph, indent)
        return self.end(graph.outputs, indent, f"{len(graph.nodes)} ops")

    def loop_source(self, node):
        """The source of a function running the While `node` alone (see
        `compile_loop`): its inputs are the parameters."""
        alone = _Alone(node)
        indent = self.begin(alone.inputs)
        if not emit_while(self, alone, indent):
            raise ValueError(f"{node.name}: not a loop the code generator writes")
        source, line_nodes = self.end(node.outputs, indent, f"loop {node.name}")
        return source, {line: node if n is alone else n for line, n in line_nodes.items()}

    def begin(self, placeholders):
        """Name the parameters; open the integer-wrapping block of a function
        with a loop. Returns the body's indent."""
        for t in placeholders:
            name = self.local(t.node.name)
            self.names[id(t)] = name
            self.params.append(name)
        indent = 1
        if self.quiet_ints:
            self.globals["_scalar"] = scalar
            for t, name in zip(placeholders, self.params):
                if t.shape.rank == 0 and (t.dtype.is_integer or t.dtype.is_floating
                                          or t.dtype.is_bool):
                    self.emit(1, f"{name} = _scalar({name})  # numpy scalar math is fastest")
            self.emit(1, 'with _np.errstate(over="ignore"):  # int32 wraps as in TensorFlow')
            indent = 2
        return indent

    def end(self, outputs, indent, what):
        """Return `outputs`; (the function's source, {line: node})."""
        outs = ", ".join(self.expr(t) for t in outputs)
        self.emit(indent, f"return [{outs}]")
        header = f"def {self.fn_name}({', '.join(self.params)}):"
        doc = f'    """Generated from graph {self.graph.name!r}: {what}."""'
        out, line_nodes = [header, doc], {}
        for indent, text, node in self.lines:
            if node is not None:
                line_nodes[len(out) + 1] = node
                text = text + _location_comment(node)
            out.append("    " * indent + text)
        return "\n".join(out) + "\n", line_nodes

    # -- graphs and nodes --
    def emit_subgraph(self, graph, input_exprs, outer_tensors, indent):
        """Inline `graph`: its inputs are `input_exprs`, its captures `outer_tensors`."""
        for t, e in zip(graph.inputs, input_exprs):
            self.names[id(t)] = e
        for (_, inner), outer in zip(graph.captures, outer_tensors):
            self.names[id(inner)] = self.expr(outer)
        self.inlined.append(graph)
        self.depth += 1
        try:
            self.emit_graph(graph, indent)
        finally:
            self.depth -= 1

    def emit_graph(self, graph, indent):
        """Emit the planned nodes of `graph` (its placeholders already named)."""
        nodes = plan(graph)
        uses, readers = self.uses, self.readers
        for node in nodes:
            for t in node.inputs:
                key = id(t)
                uses[key] = uses.get(key, 0) + 1
                found = readers.get(key)
                if found is None:
                    readers[key] = [node]
                else:
                    found.append(node)
        for t in graph.outputs:
            uses[id(t)] = uses.get(id(t), 0) + 1
        drops = _dead_reads(nodes, graph.outputs) if self.depth == 0 else {}
        positions = {id(n): i for i, n in enumerate(nodes)}
        for conv, grad in _shared_patches(nodes):
            self.patch_convs[id(grad)] = (conv, positions)
            self.patch_convs[id(conv)] = (grad, positions)
            self.kept_patches[id(conv)] = self.kept_patches[id(grad)] = self.local(
                "patches_" + conv.name)
            total = _bias_sum(nodes, grad, self.readers)
            if total is not None and id(total) not in self.bias_sums:
                self.bias_sums[id(grad)] = total
                self.bias_sums[id(total)] = None        # emitted with the filter gradient
        ends = []
        for i, node in enumerate(nodes):
            self.emit_node(node, indent)
            for t in drops.get(i, ()):
                self.emit(indent, f"del {self.expr(t)}  # last use: the update can be in place")
            ends.append(len(self.lines))
        if self.depth == 0:
            self.emit_gives(nodes, graph.outputs, ends, indent)

    def emit_gives(self, nodes, outputs, ends, indent):
        """After the last read of each large local, hand it to the run's pool
        (`_give`, runtime/_src/core/workspace.py: taken only when no one else
        holds it) and delete the name, so later ops and runs reuse the array."""
        keep = {self.expr(t) for t in outputs} | set(self.params)
        last, large = {}, set()
        for i, node in enumerate(nodes):
            for t in node.inputs:
                name = self.names.get(id(t))
                if name is None or not name.isidentifier() or name.startswith("_"):
                    continue
                last[name] = i
                if t.node.op == "ReadVariableOp":
                    keep.add(name)       # a Variable's value (and _dead_reads' `del`)
                elif _large(t):
                    large.add(name)
        at = {}
        for name in large - keep:
            at.setdefault(last[name], []).append(name)
        if not at:
            return
        self.globals["_give"] = workspace.give
        self.pooled = True
        for i in sorted(at, reverse=True):
            names = sorted(at[i])
            text = "; ".join(f"_give({n})" for n in names) + f"; del {', '.join(names)}"
            self.lines.insert(ends[i], (indent, text, None))

    def emit_node(self, node, indent):
        if node.op == "Placeholder":
            if id(node.outputs[0]) not in self.names:
                raise ValueError(f"graph {node.graph.name!r}: placeholder {node.name} "
                                 "is neither an input nor a capture")
            return
        if node.op == "Const":
            self.names[id(node.outputs[0])] = self.bind(node.name, scalar(node.attrs["value"]))
            return
        if self.bias_sums.get(id(node), 0) is None or id(node) in self.emitted:
            return              # a bias gradient computed with its filter gradient
        folded = self.aliases.get(id(node.outputs[0])) if node.outputs else None
        if folded is not None:
            self.names[id(node.outputs[0])] = folded
            return
        special = CONTROL_FLOW.get(node.op)
        if special is not None and self.depth < _MAX_INLINE_DEPTH:
            emitted = special(self, node, indent)
            if emitted:
                return
        if node.op == "Relu" and self.relu_after_pool(node):
            self.pooled_relus.add(id(node.outputs[0]))
            self.names[id(node.outputs[0])] = self.expr(node.inputs[0])
            return
        if id(node) in self.deferred:
            self.emit_conv_bias_pool(node, indent)
            return
        template = self.template_for(node)
        args = [self.expr(t) for t in node.inputs]
        if id(node) in self.kept_patches:
            self.emit_shared_patches(node, args, indent)
            return
        relu_grad = self.relu_grad_after_pool(node)
        if relu_grad is not None and self.emit_pool_and_filter_grads(node, relu_grad, args,
                                                                     indent):
            return
        in_place = self.in_place_kernel(node, args)
        if relu_grad is not None:       # ReluGrad on the pooled gradient (see the method)
            kernel = self.bind("max_pool_grad_of_relu", pool_ops.max_pool_grad_of_relu)
            call = f"{kernel}({', '.join(args + self.attr_args(node))})"
        elif in_place is not None:
            call = in_place
        elif template is not None:
            donor = self.donor(node)
            if donor is not None:
                call = self.ufunc_call(node, f"_np.{_IN_PLACE[node.op]}", args[:2], args[donor])
            else:
                call = self.pooled_call(node, args) or template.format(*args)
            out = node.outputs[0]
            if node.op in _ARITHMETIC and out.dtype.is_floating and _rank_at_least(out, 1):
                self.fresh.add(id(out))
        else:
            call = self.pooled_call(node, args)
            if call is None:
                kernel = self.bind(node.op, node.opdef.kernel)
                call = f"{kernel}({', '.join(args + self.attr_args(node))})"
        if node.op in _FRESH_KERNELS and node.outputs[0].dtype.is_floating \
                and _rank_at_least(node.outputs[0], 1):
            self.fresh.add(id(node.outputs[0]))
        if not node.outputs:
            self.emit(indent, call, node)
        else:
            self.emit(indent, f"{self.out_targets(node)} = {call}", node)
        if relu_grad is not None:
            self.aliases[id(relu_grad.outputs[0])] = self.expr(node.outputs[0])
        if node.op == "MaxPool" and id(node.inputs[0]) in self.pooled_relus:
            self.emit(indent, self.relu_call(node.outputs[0]), node)   # see relu_after_pool

    def pooled_call(self, node, args):
        """A large float result written into an array from the run's pool
        (`out=_out(shape, dtype)`, runtime/_src/core/workspace.py; numpy
        allocates when the pool has none): a matrix product of two matrices,
        an elementwise add/subtract/multiply/divide whose result has one input's
        shape and dtype, or a unary ufunc kernel (Square, Sqrt, Exp...) of a
        float. The same ufunc or product, so the same bits (a product's rows
        split over threads: see parallel.matmul); None otherwise."""
        if len(node.outputs) != 1 or not _large(node.outputs[0]):
            return None
        out = node.outputs[0]
        if not out.dtype.is_floating or any(t.dtype is not out.dtype for t in node.inputs):
            return None
        self.globals["_out"] = workspace.out_for
        dtype = self.bind(f"dtype_{out.dtype.name}", out.dtype.as_numpy_dtype)
        if node.op == "MatMul":
            if self.template_for(node) is None or not all(t.shape.rank == 2 for t in node.inputs):
                return None
            a, b = (f"{e}.T" if node.attrs.get(k) else e
                    for e, k in zip(args, ("transpose_a", "transpose_b")))
            self.globals["_matmul"] = parallel.matmul
            return f"_matmul({a}, {b}, _out(({a}.shape[0], {b}.shape[1]), {dtype}))"
        ufunc = _POOLED_BINARY.get(node.op)
        if ufunc is not None:
            if node.op != "RealDiv" and self.template_for(node) is None:
                return None
            for i in (0, 1):
                if _broadcasts_into(node.inputs[1 - i], node.inputs[i]):
                    return self.ufunc_call(node, f"_np.{ufunc}", args[:2],
                                           f"_out({args[i]}.shape, {dtype})")
            return None
        kernel = getattr(node.opdef, "kernel", None)
        if isinstance(kernel, np.ufunc) and kernel.nin == 1 and kernel.nout == 1 \
                and len(args) == 1 and not node.attrs:
            name = self.bind(node.op, kernel)
            return self.ufunc_call(node, name, args[:1], f"_out({args[0]}.shape, {dtype})")
        return None

    def ufunc_call(self, node, ufunc, args, out):
        """`ufunc(*args, out=out)`, through `parallel.elementwise` (its rows split
        over the cores, the same bits) when the result may be large enough."""
        call = f"{', '.join(args)}, out={out})"
        if not _splittable(node.outputs[0]):
            return f"{ufunc}({call}"
        self.globals["_ew"] = parallel.elementwise
        return f"_ew({ufunc}, {call}"

    def emit_shared_patches(self, node, args, indent):
        """A Conv2D that keeps its im2col matrix for the filter gradient of the
        same input and filter, or that gradient taking it (see `_shared_patches`)."""
        rows = self.kept_patches[id(node)]
        attrs = self.attr_args(node)
        if node.op == "Conv2D":
            chain = self.bias_pool_after(node)
            if chain is not None:       # emitted with the BiasAdd (`emit_conv_bias_pool`)
                self.deferred[id(chain[0])] = (node, chain[1])
                return
            kernel = self.bind("conv2d_keeping_patches", conv_ops.conv2d_keeping_patches)
            out = self.out_targets(node)
            self.emit(indent, f"{out}, {rows} = {kernel}({', '.join(args + attrs)})", node)
            self.fresh.add(id(node.outputs[0]))
            return
        kernel = self.bind("conv2d_backprop_filter_from_patches",
                           conv_ops.conv2d_backprop_filter_from_patches)
        targets = self.out_targets(node)
        total = self.bias_sums.get(id(node))
        if total is not None:           # and the bias gradient, with it
            kernel = self.bind("conv2d_filter_and_bias_grads",
                               conv_grad_fused.conv2d_filter_and_bias_grads)
            targets += ", " + self.out_targets(total)
        call = f"{kernel}({', '.join([args[0], rows] + args[1:] + attrs)})"
        self.emit(indent, f"{targets} = {call}", node)
        self.fresh.add(id(node.outputs[0]))
        self.globals["_give"] = workspace.give
        self.pooled = True
        self.emit(indent, f"_give({rows}); del {rows}  # the patch matrix's last use")

    def filter_grad_of(self, node, relu_grad):
        """The Conv2DBackpropFilter that reads the folded pool gradient
        `relu_grad` as its dy (other ops may read it too: the input gradient),
        taking its patch matrix from a Conv2D planned before `node` (the
        MaxPoolGrad); else None."""
        out = relu_grad.outputs[0]
        grads = [r for r in self.readers.get(id(out), ()) if r.op == "Conv2DBackpropFilter"]
        if len(grads) != 1 or id(grads[0]) not in self.kept_patches \
                or grads[0].inputs[0] is not out or id(grads[0]) not in self.patch_convs:
            return None
        grad = grads[0]
        conv, positions = self.patch_convs[id(grad)]
        if positions.get(id(conv), len(positions)) >= positions.get(id(node), -1) \
                or out.dtype.name not in ("float32", "float64"):
            return None
        return grad

    def emit_pool_and_filter_grads(self, node, relu_grad, args, indent):
        """The folded pool gradient of `node` (a MaxPoolGrad, see
        `relu_grad_after_pool`) and the filter and bias gradients that read it
        (`filter_grad_of`), from one call that takes the filter's partial
        products chunk by chunk while each chunk of the pool gradient is in the
        cache (runtime/_src/ops/conv_grad_fused.py). False when not that case."""
        grad = self.filter_grad_of(node, relu_grad)
        if grad is None or not set(node.attrs) <= _POOL_ATTRS:
            return False
        rows = self.kept_patches[id(grad)]
        kernel = self.bind("relu_pool_and_filter_grads",
                           conv_grad_fused.relu_pool_and_filter_grads)
        renamed = {"strides": "pool_strides", "padding": "pool_padding",
                   "explicit_paddings": "pool_explicit"}
        attrs = [f"{renamed.get(key, key)}={self.literal(node.name + '_' + key, value)}"
                 for key, value in node.attrs.items()]
        total = self.bias_sums.get(id(grad))
        targets = [self.out_targets(node), self.out_targets(grad),
                   self.out_targets(total) if total is not None else "_"]
        conv_args = [self.expr(t) for t in grad.inputs[1:]]
        readers = self.pool_grad_readers(relu_grad, grad)
        if readers != "any":
            attrs.append("pool_grad=False" if readers == "none" else "pool_grad='windows'")
        call = f"{kernel}({', '.join(args + [rows] + conv_args + attrs + self.attr_args(grad))})"
        self.emit(indent, f"{', '.join(targets)} = {call}", node)
        self.fresh.update((id(node.outputs[0]), id(grad.outputs[0])))
        self.aliases[id(relu_grad.outputs[0])] = self.expr(node.outputs[0])
        self.emitted.add(id(grad))
        self.globals["_give"] = workspace.give
        self.pooled = True
        self.emit(indent, f"_give({rows}); del {rows}  # the patch matrix's last use")
        return True

    def bias_pool_after(self, conv):
        """(BiasAdd, MaxPool) when the Conv2D `conv` (keeping its patches) is
        read only by a BiasAdd of its channels, whose result (or the ReLU of
        it that `relu_after_pool` moves past the pooling) a MaxPool of tiling
        VALID windows reads, both planned in the same graph before the filter
        gradient (which reads the Conv2D's inputs later, so they are still
        there); else None. The three then run as one call."""
        out = conv.outputs[0]
        readers = self.readers.get(id(out), ())
        if self.uses.get(id(out)) != 1 or len(readers) != 1 or readers[0].op != "BiasAdd":
            return None
        bias_add = readers[0]
        bias, dims = bias_add.inputs[1], out.shape.dims
        if (bias_add.inputs[0] is not out or dims is None or len(dims) != 4
                or out.dtype.name not in ("float32", "float64")
                or str(bias_add.attrs.get("data_format", "NHWC")).startswith("NC")
                or bias.dtype is not out.dtype or bias.shape.rank != 1
                or dims[-1] is None or dims[-1] != bias.shape.dims[0]):
            return None
        grad, positions = self.patch_convs[id(conv)]
        if not positions.get(id(bias_add), len(positions)) < positions[id(grad)]:
            return None            # the filter gradient, a later reader of x and f, keeps them
        pooled = [bias_add.outputs[0]]
        for reader in self.readers.get(id(pooled[0]), ()):
            if reader.op == "Relu" and reader.inputs[0] is pooled[0] \
                    and self.relu_after_pool(reader):
                pooled.append(reader.outputs[0])
        for value in pooled:
            for reader in self.readers.get(id(value), ()):
                attrs = reader.attrs
                if (reader.op == "MaxPool" and reader.inputs[0] is value
                        and id(reader) in positions and set(attrs) <= _POOL_ATTRS
                        and attrs.get("padding") == "VALID"
                        and tuple(attrs.get("strides", ())) == tuple(attrs.get("ksize", ()))):
                    return bias_add, reader
        return None

    def emit_conv_bias_pool(self, bias_add, indent):
        """The deferred Conv2D of this BiasAdd, the BiasAdd and a MaxPool of
        it as one call (`bias_pool_after`, runtime/_src/ops/conv_grad_fused.py),
        with the moved ReLU on the pooled values."""
        conv, pool = self.deferred[id(bias_add)]
        kernel = self.bind("conv2d_bias_pool", conv_grad_fused.conv2d_bias_pool)
        renamed = {"strides": "pool_strides", "padding": "pool_padding",
                   "explicit_paddings": "pool_explicit"}
        attrs = [f"{renamed.get(key, key)}={self.literal(pool.name + '_' + key, value)}"
                 for key, value in pool.attrs.items()] + self.attr_args(conv)
        inputs = [self.expr(t) for t in conv.inputs] + [self.expr(bias_add.inputs[1])]
        if pool.inputs[0] is not bias_add.outputs[0]:      # the ReLU, applied after the pool
            attrs.append("relu=True")
            if self.grouped_layer(conv, bias_add, pool):
                attrs.append("grouped=True")
        targets = [self.out_targets(bias_add), self.kept_patches[id(conv)],
                   self.out_targets(pool)]
        self.emit(indent, f"{', '.join(targets)} = {kernel}({', '.join(inputs + attrs)})", conv)
        self.fresh.update((id(bias_add.outputs[0]), id(pool.outputs[0])))
        self.emitted.add(id(pool))

    def grouped_layer(self, conv, bias_add, pool):
        """True when nothing but the fused kernels reads this layer's biased
        Conv2D (and the ReLU of it that `relu_after_pool` moves past `pool`):
        the MaxPool, and one MaxPoolGrad whose folded ReluGrad
        (`relu_grad_after_pool`) the filter gradient of `conv` reads, emitted
        as one call with it (`emit_pool_and_filter_grads`).
        The kernels may then keep the activation in tap-grouped order
        (runtime/_src/ops/conv_tap_groups.py)."""
        value, relu_out = bias_add.outputs[0], pool.inputs[0]
        readers = self.readers.get(id(relu_out), ())
        if self.uses.get(id(value)) != 1 or len(readers) != 3 \
                or self.uses.get(id(relu_out)) != 3:
            return False
        grads = [r for r in readers if r.op == "MaxPoolGrad"]
        if [r for r in readers if r.op == "MaxPool"] != [pool] or len(grads) != 1 \
                or grads[0].inputs[2] is not pool.outputs[0] \
                or not set(grads[0].attrs) <= _POOL_ATTRS:
            return False
        relu_grad = self.relu_grad_after_pool(grads[0])
        if relu_grad is None or relu_grad not in readers:
            return False
        grad = self.filter_grad_of(grads[0], relu_grad)
        return grad is not None and self.patch_convs[id(grad)][0] is conv

    def pool_grad_readers(self, relu_grad, grad):
        """Who reads the folded pool gradient `relu_grad` besides the filter
        gradient `grad` and its bias gradient: "none" (a first layer: no
        input gradient), "input" (only Conv2DBackpropInputs of the same
        filter, which read no more than the pooling windows' rows, see
        runtime/_src/ops/conv_tap_groups.py), else "any"."""
        out = relu_grad.outputs[0]
        allowed = {id(grad), id(self.bias_sums.get(id(grad)))}
        readers = self.readers.get(id(out), ())
        if self.uses.get(id(out)) != len(readers):
            return "any"                # also a graph output
        others = [r for r in readers if id(r) not in allowed]
        if not others:
            return "none"
        if all(r.op == "Conv2DBackpropInput" and r.inputs[0] is out
               and r.inputs[1] is not out and r.inputs[2] is grad.inputs[2] for r in others):
            return "input"
        return "any"

    def relu_grad_after_pool(self, node):
        """The ReluGrad that is the only reader of this MaxPoolGrad's result and
        masks it by the pooled input `x` (ReluGrad(MaxPoolGrad(dy, x, y), x)), when
        the windows tile `x` (strides == ksize, VALID); else None.

        Each window's gradient lands on one element equal to the window's maximum
        y, so `x > 0` there is `y > 0`: the mask is applied to dy (y's shape, a
        quarter of x's for 2x2 windows) before the routing, which gives the same
        values, zeros' signs included, and saves a pass over x and its mask."""
        if node.op != "MaxPoolGrad" or self.uses.get(id(node.outputs[0])) != 1:
            return None
        readers = self.readers.get(id(node.outputs[0]), ())
        if len(readers) != 1 or readers[0].op != "ReluGrad":
            return None
        relu_grad, (dy, x, y) = readers[0], node.inputs
        attrs = node.attrs
        if (relu_grad.inputs[0] is not node.outputs[0] or relu_grad.inputs[1] is not x
                or attrs.get("padding") != "VALID"
                or tuple(attrs.get("strides", ())) != tuple(attrs.get("ksize", ()))
                or not (dy.dtype is x.dtype is y.dtype and x.dtype.is_floating)
                or not _same_dims(dy, y) or not _max_pool_of(y, x, attrs)):
            return None
        return relu_grad

    def relu_after_pool(self, node):
        """True when this float Relu's result is read only by MaxPools of it, by
        the ReluGrads of its gradient and by MaxPoolGrads folded into one
        (`relu_grad_after_pool`): the generated code then pools the ReLU's input
        and applies the ReLU to the pooled values, in place (a quarter of the
        elements for 2x2 windows), and the gradients read the ReLU's input.

        max(relu(a), relu(b)) is relu(max(a, b)) exactly (both orders pick the
        same element or a zero), NaN included. ReluGrad(g, x) tests x > 0,
        which the input passes where the output does. A folded gradient
        routes dy to the window's element equal to its maximum where that is
        positive, the same element in the input as in the output, and masks
        the rest; an unfolded MaxPoolGrad would route a non-positive window's
        gradient differently, so it keeps the ReLU as it is."""
        out = node.outputs[0]
        if not (out.dtype.is_floating and _rank_at_least(out, 4)) or node.attrs:
            return False
        readers = self.readers.get(id(out), ())
        if self.uses.get(id(out)) != len(readers):
            return False           # also a graph output
        pools = 0
        for reader in readers:
            if reader.op == "MaxPool" and reader.inputs[0] is out:
                pools += 1
            elif reader.op == "ReluGrad" and reader.inputs[1] is out \
                    and reader.inputs[0] is not out:
                continue
            elif not (reader.op == "MaxPoolGrad" and reader.inputs[1] is out
                      and reader.inputs[0] is not out and reader.inputs[2] is not out
                      and self.relu_grad_after_pool(reader) is not None):
                return False
        return pools > 0

    def relu_call(self, tensor):
        """`name = max(name, 0)` in place, for the float local of `tensor`."""
        name = self.expr(tensor)
        zero = self.bind(f"zero_{tensor.dtype.name}",
                         _ZEROS.setdefault(tensor.dtype.name, tensor.dtype.as_numpy_dtype(0)))
        return f"{name} = _np.maximum({name}, {zero}, out={name})"

    def in_place_kernel(self, node, args):
        """`BiasAdd` / `Relu` / `ReluGrad` as the ufunc its kernel calls, written
        into its first input when that is a fresh temporary nothing else reads
        (the same ufunc loop, so the same bits); None otherwise."""
        if node.op not in ("BiasAdd", "Relu", "ReluGrad"):
            return None
        value = node.inputs[0]
        if not (id(value) in self.fresh and self.uses.get(id(value)) == 1
                and value.dtype.is_floating and _rank_at_least(value, 1)):
            return None
        if node.op == "ReluGrad":
            y = node.inputs[1]
            if y.dtype is not value.dtype or not (_broadcasts_into(y, value)
                                                  or _same_dims(y, value)):
                return None
            return f"_np.multiply({args[0]}, {args[1]} > 0, out={args[0]})"
        if node.op == "Relu":
            zero = self.bind(f"zero_{value.dtype.name}",
                             _ZEROS.setdefault(value.dtype.name, value.dtype.as_numpy_dtype(0)))
            return self.ufunc_call(node, "_np.maximum", [args[0], zero], args[0])
        bias, dims = node.inputs[1], value.shape.dims
        if (str(node.attrs.get("data_format", "NHWC")).startswith("NC") or len(dims) < 2
                or bias.dtype is not value.dtype or bias.shape.rank != 1
                or dims[-1] is None or dims[-1] != bias.shape.dims[0]):
            return None
        return self.ufunc_call(node, "_np.add", args[:2], args[0])

    def donor(self, node):
        """The input `node` may overwrite with its result: a fresh temporary that
        no other code reads, of the result's (static) shape and dtype."""
        if node.op not in _IN_PLACE:
            return None
        out = node.outputs[0]
        for i, t in enumerate(node.inputs):
            if (id(t) in self.fresh and self.uses.get(id(t)) == 1 and t.dtype is out.dtype
                    and _broadcasts_into(node.inputs[1 - i], t)):
                return i
        return None

    def out_names(self, node):
        """Fresh local names for the outputs of `node`."""
        names = []
        for t in node.outputs:
            base = node.name if len(node.outputs) == 1 else f"{node.name}_{t.index}"
            name = self.local(base)
            self.names[id(t)] = name
            names.append(name)
        return names

    def out_targets(self, node):
        """Assignment targets for a kernel call's result (one value or a sequence)."""
        names = self.out_names(node)
        if node.opdef.num_outputs == 1:
            return names[0]
        return ", ".join(names) + ("," if len(names) == 1 else "")

    def attr_args(self, node):
        out = []
        for key, value in node.attrs.items():
            out.append(f"{key}={self.literal(node.name + '_' + key, value)}")
        return out

    def literal(self, base, value):
        """Source text for an attr value: a literal when exact, else a global."""
        if _is_plain_literal(value):
            return repr(value)
        return self.bind(base, value)

    def template_for(self, node):
        """The infix template for `node`, when it computes exactly its kernel."""
        template = INFIX.get(node.op)
        if template is None:
            return None
        if node.op == "MatMul" and node.attrs:
            template = _transposed_matmul(node)
            if template is None:
                return None
        elif any(v for v in node.attrs.values()):
            return None
        dtypes = [t.dtype for t in node.inputs]
        if any(d is not dtypes[0] for d in dtypes) or len(node.outputs) != 1:
            return None
        if node.op in _LOGICAL:
            if not all(d.is_bool for d in dtypes):
                return None
        elif node.op in _EQUALITY:
            if not all(d.is_bool or d.is_integer or d.is_floating for d in dtypes):
                return None
        elif not all(d.is_integer or d.is_floating for d in dtypes):
            return None       # arithmetic and ordering: numbers only, as the kernels
        if node.op == "MatMul" and (not all(_rank_at_least(t, 2) for t in node.inputs)
                                    or dtypes[0].name == "bfloat16"):
            return None       # numpy's bfloat16 `@` gives float32 (the kernel rounds back)
        if node.op in _DIVISIONS and not _nonzero_const(node.inputs[1]):
            return None
        if node.op in _DIVISIONS and node.outputs[0].dtype.is_floating:
            return None       # numpy's float // and % differ from TF's at inf (the kernels match)
        if (node.op in _ARITHMETIC and node.outputs[0].dtype.is_integer
                and not self.quiet_ints and not _rank_at_least(node.outputs[0], 1)):
            return None
        return template


def _transposed_matmul(node):
    """`a.T @ b` and the like for a MatMul with transpose attrs, when each
    transposed input is a matrix (`.T` swaps the last two axes only at rank 2)."""
    parts = []
    for i, key in enumerate(("transpose_a", "transpose_b")):
        flag = node.attrs.get(key, False)
        if flag and node.inputs[i].shape.rank != 2:
            return None
        parts.append(f"{{{i}}}.T" if flag else f"{{{i}}}")
    if set(node.attrs) - {"transpose_a", "transpose_b"}:
        return None
    return " @ ".join(parts)


def _broadcasts_into(other, target):
    """True when `target op other` has `target`'s shape whatever the unknown
    dimensions turn out to be: each dimension of `other` (aligned on the
    right) is 1, or `target`'s is known and not 1 (then `other`'s is 1 or
    equal, or the op fails as it would anyway)."""
    mine, theirs = target.shape.dims, other.shape.dims
    if mine is None or theirs is None or len(theirs) > len(mine):
        return False
    for m, t in zip(mine[len(mine) - len(theirs):], theirs):
        if t != 1 and (m is None or m == 1):
            return False
    return True


def scalar(value):
    """A 0-d numeric array as the equal numpy scalar (much faster arithmetic)."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "biuf":
        return value[()]
    return value


def _location_comment(node):
    loc = node.location
    if not loc:
        return ""
    return f"  # {_base_name(loc[0])}:{loc[1]}"


@functools.lru_cache(maxsize=64)
def _base_name(filename):
    """The file name a location comment shows (a few files, many lines each)."""
    return os.path.basename(str(filename))


def _is_plain_literal(value):
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, tuple):
        return all(_is_plain_literal(v) for v in value)
    return False


def _max_pool_of(y, x, attrs):
    """True when `y` is the MaxPool of `x` with these window attributes (the
    folded kernel finds each window's maximum by comparing x with y)."""
    node = y.node
    return (node.op == "MaxPool" and node.inputs[0] is x
            and all(node.attrs.get(k) == attrs.get(k) for k in ("ksize", "strides", "padding")))


def _same_dims(a, b):
    """True when `a` and `b` have the same rank and each dimension is known and
    equal or unknown in both (a gradient and its forward value, batch unknown):
    at run time they are equal, or an `out=` ufunc fails on the mismatch, as
    TensorFlow's kernel does."""
    mine, theirs = a.shape.dims, b.shape.dims
    return mine is not None and theirs is not None and len(mine) == len(theirs) \
        and all(m == t for m, t in zip(mine, theirs))


def _rank_at_least(tensor, rank):
    dims = tensor.shape.dims
    return dims is not None and len(dims) >= rank


def _nonzero_const(tensor):
    node = tensor.node
    if node.op != "Const":
        return False
    return bool(np.all(np.asarray(node.attrs["value"]) != 0))


def contains_loop(graph):
    for node in graph.nodes:
        if node.op == "While":
            return True
        for sub in node.subgraph_list():
            if contains_loop(sub):
                return True
    return False


# --- control flow ------------------------------------------------------------------
# Each emitter returns True when it emitted the node, False to fall back to a
# kernel call (for an op layout it does not recognise).

def emit_if(em, node, indent):
    """`If(pred, *caps)` as a Python `if`/`else` with both branches inlined.

        if Less:
            <then_branch ops>
            If, If_1 = <then outputs>
        else:
            <else_branch ops>
            If, If_1 = <else outputs>
    """
    branches = if_branches(node)
    if branches is None:
        return False       # the kernel checks an unknown-rank condition at run time
    pred = node.inputs[0]
    targets = ", ".join(em.out_names(node))
    em.emit(indent, f"if {em.expr(pred)}:", node)
    for i, branch in enumerate(branches):
        if i == 1:
            em.emit(indent, "else:")
        em.emit_subgraph(branch, [], node.inputs[1:], indent + 1)
        if targets:
            outs = ", ".join(em.expr(t) for t in branch.outputs)
            em.emit(indent + 1, f"{targets} = {outs}", node)
        elif not em.lines or em.lines[-1][0] <= indent:
            em.emit(indent + 1, "pass")
    return True


def emit_while(em, node, indent):
    """`While(*vars, *caps[, limit])` as a flat Python `while` loop.

        While, While_1 = x, Const          # the loop variables
        while True:
            <cond ops>
            if not Less: break
            <body ops>
            While, While_1 = AddV2, Mul
    """
    parts = while_parts(node)
    if parts is None:
        return False
    cond, body, loop_vars, caps, has_limit = parts
    inits = ", ".join(em.expr(t) for t in loop_vars)
    targets = ", ".join(em.out_names(node))
    em.emit(indent, f"{targets} = {inits}", node)
    names = [em.expr(t) for t in node.outputs]
    head = "while True:"
    if has_limit:
        count, limit = em.local(node.name + "_count"), em.local(node.name + "_limit")
        em.emit(indent, f"{count}, {limit} = 0, int({em.expr(node.inputs[-1])})", node)
        head = f"while {count} < {limit}:"
    em.emit(indent, head, node)
    em.emit_subgraph(cond, names, caps, indent + 1)
    em.emit(indent + 1, f"if not {em.expr(cond.outputs[0])}:", node)
    em.emit(indent + 2, "break")
    em.emit_subgraph(body, names, caps, indent + 1)
    em.emit(indent + 1, f"{targets} = {', '.join(em.expr(t) for t in body.outputs)}", node)
    if has_limit:
        em.emit(indent + 1, f"{count} += 1")
    return True


class _Param:
    """One input position of a loop compiled alone: its own parameter, even
    where the node reads one tensor at two positions (two loop variables
    starting equal hold different values after some iterations)."""

    __slots__ = ("node", "dtype", "shape")

    def __init__(self, tensor):
        self.node, self.dtype, self.shape = tensor.node, tensor.dtype, tensor.shape


class _Alone:
    """A `While` node as `compile_loop` emits it: the node, its inputs `_Param`s."""

    __slots__ = ("name", "op", "attrs", "inputs", "outputs", "location", "graph")

    def __init__(self, node):
        self.name, self.op, self.attrs = node.name, node.op, node.attrs
        self.outputs, self.location, self.graph = node.outputs, node.location, node.graph
        self.inputs = tuple(_Param(t) for t in node.inputs)


def if_branches(node):
    """(then_branch, else_branch) of an `If` that runs as a Python `if` (a
    scalar condition, branches without inputs capturing the node's other
    inputs), else None (its kernel runs). The interpreter inlines the same."""
    branches = [node.attrs.get("then_branch"), node.attrs.get("else_branch")]
    for g in branches:
        if not isinstance(g, Graph) or g.inputs:
            return None
    if node.inputs[0].shape.rank != 0 or not _captures_match(branches, node.inputs[1:]):
        return None
    return branches


def while_parts(node):
    """(cond, body, loop variables, captures, has a limit) of a `While` that
    runs as a Python `while`, else None (its kernel runs). The interpreter
    inlines the same."""
    cond, body = node.attrs.get("cond"), node.attrs.get("body")
    n = node.attrs.get("num_loop_vars")
    if not (isinstance(cond, Graph) and isinstance(body, Graph) and isinstance(n, int)):
        return None
    has_limit = bool(node.attrs.get("has_maximum_iterations"))
    args = node.inputs[:-1] if has_limit else node.inputs
    loop_vars, caps = args[:n], args[n:]
    if not _captures_match([cond, body], caps) or len(body.outputs) != n or not node.outputs:
        return None
    return cond, body, loop_vars, caps, has_limit


def _captures_match(graphs, outer):
    for g in graphs:                # a loop: asked of every If and While run
        if len(g.captures) != len(outer):
            return False
    return True


CONTROL_FLOW = {"If": emit_if, "While": emit_while}


def _splittable(tensor):
    """True when `tensor`'s dims (an unknown one counted as 32) hold at least
    `_SPLIT_ELEMENTS`, in two or more rows: a CNN's first activations, not an
    MLP's weights (an Adam update of 200K elements ran slower split, each part
    too short for a thread's wake-up on a busy machine)."""
    dims = tensor.shape.dims
    if not dims or dims[0] == 1:
        return False
    size = 1
    for d in dims:
        size *= d if d is not None else 32
    return size >= _SPLIT_ELEMENTS


def _large(tensor):
    """True for a numeric tensor of at least workspace.MIN_BYTES by its dims,
    an unknown one (a batch traced as None) counted as 32 (unknown rank: False)."""
    dims, dtype = tensor.shape.dims, tensor.dtype
    if dims is None or not (dtype.is_floating or dtype.is_integer or dtype.is_bool
                            or dtype.is_complex):
        return False
    try:
        size = np.dtype(dtype.as_numpy_dtype).itemsize
    except TypeError:
        return False
    for d in dims:
        size *= d if d is not None else 32
    return size >= workspace.MIN_BYTES


def _shared_patches(nodes):
    """(Conv2D, Conv2DBackpropFilter) pairs of `nodes` (one graph's plan) on the
    same input and filter tensors with the same attrs: a training step's forward
    convolution and its filter gradient, which multiply the same im2col matrix
    of the input. The Conv2D keeps the matrix for the gradient, later in the
    plan, which then does not copy it again (runtime/_src/ops/conv_ops.py)."""
    pairs, taken = [], set()
    convs = {}
    for node in nodes:
        if node.op == "Conv2D" and node.outputs[0].dtype.name in ("float32", "float64"):
            convs.setdefault((id(node.inputs[0]), id(node.inputs[1])), node)
        elif node.op == "Conv2DBackpropFilter":
            conv = convs.get((id(node.inputs[1]), id(node.inputs[2])))
            if conv is not None and id(conv) not in taken and conv.attrs == node.attrs:
                taken.add(id(conv))
                pairs.append((conv, node))
    return pairs


def _bias_sum(nodes, grad, readers):
    """The Sum of `grad`'s output gradient dy over all its axes but the last
    (a bias gradient) in `nodes`, when every reader of that sum comes after
    the filter gradient `grad` in the plan (the sum is then computed with it,
    runtime/_src/ops/conv_grad_fused.py); else None."""
    dy = grad.inputs[0]
    rank = dy.shape.rank
    if rank is None or dy.dtype is not grad.outputs[0].dtype:
        return None
    position = {id(n): i for i, n in enumerate(nodes)}
    for node in nodes:
        if (node.op == "Sum" and node.inputs[0] is dy and not node.attrs.get("keepdims")
                and node.attrs.get("axis") == tuple(range(rank - 1))):
            later = position[id(grad)]
            if all(position.get(id(r), -1) > later for r in readers.get(id(node.outputs[0]), ())):
                return node
    return None


def _dead_reads(nodes, outputs):
    """{plan index: variable reads last used there} for the reads of a Variable
    that a later `assign_add`/`assign_sub` updates. Dropping the read's local
    after its last use leaves the Variable the array's sole owner, so the update
    runs in place (runtime/_src/function/variables.py). Only reads used by plain
    ops qualify: a control-flow op's inlined body may name them later."""
    updates = {}
    for i, node in enumerate(nodes):
        if node.op in ("AssignAddVariableOp", "AssignSubVariableOp"):
            updates[id(node.attrs["variable"])] = i
    if not updates:
        return {}
    reads = {id(n.outputs[0]): i for i, n in enumerate(nodes)
             if n.op == "ReadVariableOp" and id(n.attrs["variable"]) in updates}
    last = dict(reads)
    for i, node in enumerate(nodes):
        for t in node.inputs:
            if id(t) in reads:
                last[id(t)] = i if not node.subgraph_list() else None
    for t in outputs:
        last.pop(id(t), None)
    drops = {}
    for i, node in enumerate(nodes):
        if node.op == "ReadVariableOp" and id(node.outputs[0]) in last:
            end = last[id(node.outputs[0])]
            if end is not None and end < updates[id(node.attrs["variable"])]:
                drops.setdefault(end, []).append(node.outputs[0])
    return drops
