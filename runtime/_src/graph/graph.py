"""Graphs: an ordered list of `Node`s built while tracing.

A graph is data. Nodes are kept in program order (the order the traced Python
created them), which is also the order side effects run in. Each node has an
op name, input tensors, attrs (Python values; subgraphs of `cond` and
`while_loop` are `Graph`s in attrs) and output `SymbolicTensor`s with a static
dtype and shape.

A graph nested in another (a `cond` branch, a loop body) refers to outer
tensors only through explicit captures: using an outer tensor inside creates a
`Placeholder` in the inner graph and records the pair in `graph.captures`;
the op that owns the subgraph passes the outer tensors as inputs. Eager
tensors used while tracing become `Const` nodes.

    graph = Graph("f")
    with graph.as_default():
        x = graph.add_placeholder(int32, TensorShape([]), "x")
        y = x + 1             # adds Const and AddV2 nodes
    graph.outputs = [y]
"""

import contextlib

import numpy as np

from autograph.integration import paused_gc as _paused_gc

from runtime._src.core import context as _context
from runtime._src.core.context import current_graph
from runtime._src.core.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.locations import (kernel_error, leaked_tensor_error, user_location,
                                          with_location)
from runtime._src.graph.op_registry import OPS

__all__ = ["Graph", "Node", "current_graph", "needed_nodes", "paused_gc", "kernel_error",
           "leaked_tensor_error", "user_location", "RENDERERS", "PRUNED"]

# `graph._compiled` of a graph that has not run yet and that dead code
# elimination left with only needed nodes: a run's plan is all its nodes.
# An edit (add_node, the optimizer's `invalidate`) resets it to None.
PRUNED = object()

# name -> function(graph): "pretty" (graph_text.py), "graph_def" (graphdef.py),
# "to_dot" (dot.py), "python_source" (exec/executor.py). Filled in by those
# modules, so this one imports none of them.
RENDERERS = {}

_state = _context.state
_State = type(_state)       # its class: the fields set on the class are read there

# The shape of every scalar Const traced (shapes are never changed in place).
_SCALAR = TensorShape(())

# `subgraph_list()` of the nodes that cannot hold a graph (Placeholders and
# Consts traced): one shared value, so never edited (as no node's list is).
_NO_SUBGRAPHS = ()


class Node:
    """One op in a graph. `location` is the user's (file, line) that created it."""

    __slots__ = ("graph", "name", "op", "opdef", "inputs", "attrs", "outputs", "location",
                 "_subgraphs", "device")

    def __init__(self, graph, name, opdef, inputs, attrs, location):
        self.graph = graph
        self.name = name
        self.op = opdef.name
        self.opdef = opdef
        self.inputs = tuple(inputs)
        self.attrs = attrs
        self.outputs = ()
        self.location = location
        self._subgraphs = None
        # the tf.device scope it was made in ('' if none)
        self.device = _state.device if _State.device_scoped else ""

    @property
    def type(self):
        return self.op

    @property
    def side_effect(self):
        """True when the node must run even if no output is used."""
        if self.opdef.side_effect:
            return True
        subs = self._subgraphs       # self.subgraph_list(), without the call
        for g in subs if subs is not None else self.subgraph_list():
            if g.has_side_effects():
                return True
        return False

    @property
    def stateful(self):
        if self.opdef.stateful:
            return True
        subs = self._subgraphs       # self.subgraph_list(), without the call
        for g in subs if subs is not None else self.subgraph_list():
            if g.is_stateful():
                return True
        return False

    def subgraphs(self):
        """The graphs among the attrs (cond branches, loop bodies), in attr order.
        Computed once: attrs holding graphs are fixed when the node is made."""
        return list(self.subgraph_list())

    def subgraph_list(self):
        """`subgraphs()` without the copy: the node's own list, not to be edited."""
        subs = self._subgraphs
        if subs is None:
            subs = self._subgraphs = []      # a loop: asked once of every node
            for v in self.attrs.values():
                if isinstance(v, Graph):
                    subs.append(v)
        return subs

    def __repr__(self):
        return f"<Node {self.name} op={self.op}>"


class Graph:
    """A traced computation: placeholders in `inputs`, results in `outputs`."""

    _edit_stamp = 0

    def __init__(self, name="graph", outer=None):
        self.name = name
        self.outer = outer
        self.nodes = []
        self.inputs = []
        self.outputs = []
        self.captures = []           # (outer tensor, inner placeholder) pairs
        self._capture_map = {}       # id(outer tensor) -> inner placeholder
        self._keepalive = []         # eager tensors whose id() keys _capture_map
        self._names = {}
        # `name_scope`'s prefix for new node names ("outer/inner/" or "")
        self.name_scope_prefix = "" if outer is None else outer.name_scope_prefix
        self.variables = []          # Variables created while tracing
        self._compiled = None        # set by the executor
        self._edit_stamp = 0         # set by the optimizer's edits (rewrite.invalidate)

    # --- building ---------------------------------------------------------

    def as_default(self):
        """`with graph.as_default():` traces into this graph on this thread."""
        return _AsDefault(self)

    def call_as_default(self, fn, *args):
        """`fn(*args)` traced into this graph: `with self.as_default():`
        without the context manager (tracing a staged if calls it for each
        branch twice)."""
        previous = _state.graph
        _state.graph = self
        try:
            return fn(*args)
        finally:
            _state.graph = previous

    def unique_name(self, base):
        n = self._names.get(base)
        if n is None:
            self._names[base] = 1
            return base
        while True:
            candidate = f"{base}_{n}"
            n += 1
            if candidate not in self._names:
                self._names[base] = n
                self._names[candidate] = 1
                return candidate

    def add_node(self, opdef, inputs, attrs, name=None, _location=False):
        """Infer output dtypes/shapes, append a node, return it. (`_location`:
        the user's location when the caller knows it: a capture made for
        another node's input is made at that node's line.)"""
        # The user's frame, looked for once (the frames walked grow with the
        # nesting) and from the caller's frame on: this one is ours.
        location = user_location(2) if _location is False else _location
        # Loops, not comprehensions: this runs for every node traced.
        owned = list(inputs)
        for t in owned:
            if t.__class__ is not SymbolicTensor or t.node.graph is not self:
                owned = self._own_inputs(owned, opdef.name, location)
                break
        try:
            specs = opdef.infer(owned, attrs)
        except (TypeError, ValueError) as e:
            raise type(e)(with_location(f"{opdef.name}: {e}", location)) from None
        # A rule's TensorShape is kept as it is (shapes are never changed in
        # place: set_shape gives a tensor a new one). Shapes are made before
        # the node: a rule's bad shape leaves the graph as it was.
        if specs.__class__ is list and len(specs) == 1:
            d, s = specs[0]
            if s.__class__ is not TensorShape:
                s = TensorShape(s)
            node = self._new_node(opdef, owned, attrs, name or opdef.name, location)
            node.outputs = (SymbolicTensor(node, 0, d, s),)
        else:
            specs = [(d, s if s.__class__ is TensorShape else TensorShape(s)) for d, s in specs]
            node = self._new_node(opdef, owned, attrs, name or opdef.name, location)
            node.outputs = tuple([SymbolicTensor(node, i, d, s)
                                  for i, (d, s) in enumerate(specs)])
        if _state.tapes:
            self._record(node)
        return node

    def _add_source(self, opdef, attrs, dtype, shape, name, location):
        """`add_node(opdef, [], attrs, name, location).outputs[0]` for a node
        without inputs whose one output the caller knows (`shape`: a
        TensorShape): a Placeholder or a Const. A third of a trace's nodes
        are such; they need no inference."""
        if location is False:
            location = user_location(2)
        node = self._new_node(opdef, (), attrs, name, location)
        node._subgraphs = _NO_SUBGRAPHS      # its attrs hold no graph: no need to look
        out = SymbolicTensor(node, 0, dtype, shape)
        node.outputs = (out,)
        if _state.tapes:
            self._record(node)
        return out

    def _new_node(self, opdef, inputs, attrs, name, location):
        """A new node at the end of the program, named `name` in the name
        scope, made unique (unique_name's first case in line: most names are
        new, and this runs for every node). The caller gives it its outputs,
        then has the recording tapes see it (`_record`)."""
        name = self.name_scope_prefix + name
        names = self._names
        if name in names:
            name = self.unique_name(name)
        else:
            names[name] = 1
        node = Node(self, name, opdef, inputs, attrs, location)
        self.nodes.append(node)
        self._compiled = None
        return node

    def _record(self, node):
        """Show a new node, outputs made, to the gradient tapes recording
        (runtime/_src/autodiff)."""
        for tape in _state.tapes:
            tape.record_node(node)

    def add_placeholder(self, dtype, shape, name="input", _location=False):
        if shape.__class__ is not TensorShape:      # (one is never changed in place: shared)
            shape = TensorShape(shape)
        out = self._add_source(OPS["Placeholder"], {"dtype": dtype, "shape": shape}, dtype, shape,
                               name, _location)
        self.inputs.append(out)
        return out

    def _own_inputs(self, inputs, op_name, location):
        """`inputs` with each tensor made this graph's (see `_own`)."""
        owned = []
        for t in inputs:
            if t.__class__ is not SymbolicTensor:
                t = self._own(t, op_name, location)
            elif t.node.graph is not self:      # `_own`'s answer, without the call
                t = self.capture(t, location)
            owned.append(t)
        return owned

    def _own(self, t, op_name, location=False):
        """Make `t` usable in this graph: capture outer or eager tensors
        (`location`: see add_node)."""
        if isinstance(t, SymbolicTensor):
            if t.node.graph is self:
                return t
            return self.capture(t, location)
        if isinstance(t, EagerTensor):
            return self.capture(t, location)
        if isinstance(t, Tensor):
            raise TypeError(f"{op_name}: unsupported tensor {t!r}")
        raise TypeError(f"{op_name}: expected a Tensor input, got {type(t).__name__}")

    def capture(self, t, _location=False):
        """The tensor of this graph that stands for `t` (eager or outer).
        (`_location`: see add_node.)"""
        found = self._capture_map.get(id(t))
        if found is not None:
            return found
        # (a symbolic tensor, the commonest, is no EagerTensor: no isinstance
        # test, which costs most when it fails)
        if t.__class__ is not SymbolicTensor and isinstance(t, EagerTensor):
            # (no tape recording: the common case, without the call)
            watched = self._watched_outer_capture(t) if _state.tapes else None
            if watched is not None:
                inner = self.capture(watched, _location)
                self._capture_map[id(t)] = inner
                return inner
            inner = self.add_constant(t._value, t.dtype, _location)
            self._keepalive.append(t)
        else:
            home = t.node.graph
            if home is not self.outer and not self._is_ancestor(home):   # (the commonest first)
                alias = _state.capture_aliases and _state.capture_aliases(t)
                if alias is None or alias is t:
                    raise leaked_tensor_error(t, "capture")
                inner = self._own(alias, "capture", _location)   # a replayed custom gradient's copy
                self._capture_map[id(t)] = inner
                return inner
            inner = self._add_source(OPS["Placeholder"], {"dtype": t.dtype, "shape": t.shape},
                                     t.dtype, t.shape, "capture", _location)
            self.captures.append((t, inner))
        self._capture_map[id(t)] = inner
        return inner

    def add_constant(self, value, dtype, _location=False):
        """A `Const` node of this graph holding the numpy `value` (of `dtype`,
        a DType); returns its output. A Python number an op meets while
        tracing becomes one at once (no EagerTensor to capture: nothing else
        could ask for that tensor again)."""
        shape = value.shape if value.__class__ is np.ndarray else np.shape(value)
        return self._add_source(OPS["Const"], {"value": value, "dtype": dtype}, dtype,
                                TensorShape(shape) if shape else _SCALAR, "Const", _location)

    def _watched_outer_capture(self, t):
        """The tensor an outer graph made of the eager tensor `t` when a recording
        gradient tape watches it: this graph captures that tensor (not a Const
        of its own) so that gradients reach it through the cond or loop."""
        tapes = getattr(_state, "tapes", None)
        if not tapes:
            return None
        g = self.outer
        while g is not None:
            found = g._capture_map.get(id(t))
            if found is not None and any(tape.watches(found) for tape in tapes):
                return found
            g = g.outer
        return None

    def _is_ancestor(self, g):
        o = self.outer
        while o is not None:
            if o is g:
                return True
            o = o.outer
        return False

    # --- reading ----------------------------------------------------------

    def get_operations(self):
        return list(self.nodes)

    def get_operation_by_name(self, name):
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(f"no op named {name!r} in graph {self.name!r}")

    def has_side_effects(self):
        return _flag(self, "side_effect")

    def is_stateful(self):
        return _flag(self, "stateful")

    # Renderers live in modules that import this one (graph_text, dot) or in a
    # higher layer (exec); each fills its entry of RENDERERS when imported.

    def python_source(self):
        """The Python source a run of this graph executes (see exec/codegen.py)."""
        return RENDERERS["python_source"](self)

    def as_graph_def(self, from_version=None, add_shapes=False):
        """TensorFlow's GraphDef of this graph, structured (`.node`, `.library`);
        `str()` of it is protobuf text format (see graph/graphdef.py)."""
        return RENDERERS["graph_def"](self, add_shapes=add_shapes)

    def to_dot(self):
        """Graphviz DOT text of the graph (see graph/dot.py)."""
        return RENDERERS["to_dot"](self)

    def __str__(self):
        return RENDERERS["pretty"](self)

    def __repr__(self):
        return f"<Graph {self.name!r} with {len(self.nodes)} ops>"


def needed_nodes(graph):
    """The nodes (a set) a run of `graph` needs: what the outputs need, plus
    every side-effecting node and what it needs (non-strict execution).
    (Nodes, not their id()s: a node hashes by identity, and id() is a call
    that costs more than the set lookup it keys.)"""
    needed = set()
    stack = []
    push = stack.append
    for t in graph.outputs:      # loops, not comprehensions: this runs per graph, per pass
        push(t.node)
    for n in graph.nodes:        # `n.side_effect`, in line: asked of every node
        if n.opdef.side_effect:
            push(n)
            continue
        subs = n._subgraphs
        if subs is None:
            subs = n.subgraph_list()
        for g in subs:
            if g.has_side_effects():
                push(n)
                break
    add = needed.add
    while stack:
        n = stack.pop()
        if n in needed:
            continue
        add(n)
        for t in n.inputs:
            push(t.node)
    return needed


class _AsDefault:
    """The context manager of `Graph.as_default` (a class: cheaper to enter
    than a generator-based one, and entered for every traced branch)."""

    __slots__ = ("graph", "previous")

    def __init__(self, graph):
        self.graph = graph

    def __enter__(self):
        self.previous = getattr(_state, "graph", None)
        _state.graph = self.graph
        return self.graph

    def __exit__(self, *exc):
        _state.graph = self.previous
        return False


def paused_gc():
    """`with paused_gc():` runs its block with the cyclic garbage collector
    off. Lowering a graph to Python (the executor's code generation) makes
    thousands of short-lived, acyclic objects in our own code only: left
    on, the collector would scan them several times. Reference counting
    still frees what dies at once. The pause is process-wide and
    reference-counted across threads (autograph's pyct/pauses.py), so it is
    kept to our own AST and code-generation work: tracing, which runs user
    code, runs with the collector on."""
    return _paused_gc()


# --- flags of whole graphs -----------------------------------------------------

def _flag(graph, name):
    """any(node.<name> for node in graph.nodes), memoized while the optimizer
    runs (see `memoized_flags`): nested graphs are asked once, not once per
    node of every enclosing graph. The memo holds one {graph: flag} dict
    per flag name, so that `forget_flags(name)` drops one at once."""
    memo = getattr(_state, "flag_memo", None)
    if memo is None:
        return _any_node(graph, name)
    flags = memo.get(name)
    if flags is None:
        flags = memo[name] = {}
    found = flags.get(graph)        # a graph hashes by identity
    if found is None:
        found = flags[graph] = _any_node(graph, name)
    return found


def _any_node(graph, name):
    for n in graph.nodes:          # a loop, not a generator: asked of every nested graph
        if getattr(n, name):
            return True
    return False


@contextlib.contextmanager
def memoized_flags(memo=None):
    """Within this block (on this thread) `has_side_effects`/`is_stateful`
    results are remembered; call `forget_flags()` after removing or adding
    nodes. The optimizer uses it: its passes ask the same question of the
    same nested graphs many times. `memo`: a dict to keep them in across
    blocks (for graphs that do not change in between)."""
    previous = getattr(_state, "flag_memo", None)
    _state.flag_memo = {} if memo is None else memo
    try:
        yield
    finally:
        _state.flag_memo = previous


def forget_flags(name=None):
    """Drop remembered flags (a graph gained or lost nodes); `name`: only
    that flag ("stateful" or "side_effect")."""
    memo = getattr(_state, "flag_memo", None)
    if memo:
        if name is None:
            _state.flag_memo = {}
        else:
            memo.pop(name, None)
