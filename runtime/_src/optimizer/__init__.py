"""The graph optimizer: rewrite passes run on each newly traced graph.

`optimize(graph, options)` edits `graph` in place (and every graph nested
in it: cond branches, loop bodies), then returns an `OptimizationReport`
saying what each pass did; the report is also kept as
`graph.optimization_report` and logged at DEBUG level on the logger named
"runtime.optimizer".

    report = optimize(graph, {"constant_folding": False})
    print(report)      # arithmetic_optimization: Mul by a neutral constant: ...

Passes, in order, with their option names (TensorFlow's names where
TensorFlow has the pass; all on by default):

    arithmetic_optimization             x*1, x+0, -(-x), identity, same-dtype cast
    constant_folding                    pure ops on constants become constants
    common_subexpression_elimination    duplicate pure nodes merge
    loop_optimization                   loop-invariant pure ops leave While bodies
    dead_code_elimination               nodes nothing needs are removed

`disable_model_pruning: True` (TensorFlow's switch) also turns dead code
elimination off, and `disable_meta_optimizer: True` turns every pass off.
The passes never touch stateful or side-effecting ops except to keep them.
"""

import logging

from runtime._src.optimizer import arithmetic, constant_folding, cse, dce, loop_invariant
from runtime._src.optimizer.lint import LintError, lint
from runtime._src.graph.graph import PRUNED, memoized_flags
from runtime._src.optimizer.rewrite import invalidate, nesting_edits, nesting_known, next_stamp
from runtime._src.optimizer.rewrite import walk_graphs  # noqa: F401 - part of this module's names

__all__ = ["optimize", "lint", "LintError", "OptimizationReport", "PASSES",
           "DEFAULT_OPTIONS"]

_log = logging.getLogger("runtime.optimizer")

# (option name, module with run(graph) -> messages), in the order they run.
PASSES = [
    ("arithmetic_optimization", arithmetic),
    ("constant_folding", constant_folding),
    ("common_subexpression_elimination", cse),
    ("loop_optimization", loop_invariant),
    ("dead_code_elimination", dce),
]

DEFAULT_OPTIONS = {name: True for name, _ in PASSES}

# Passes whose edits give no pass new work: dead code elimination only
# removes nodes nothing uses and that have no side effect; every pass looks at
# a node and its inputs (loop_optimization also at a loop body's nodes and
# theirs), which stay as they were. So what it removes needs no new round.
_NOTHING_FOLLOWS = {"dead_code_elimination"}
# Common subexpression elimination, when its merges were exact (same dtype,
# static shape and constant class), gives the passes before it no new work:
# each reads a node's op, dtype, shape, a constant input's value and an
# input's own inputs, all equal for the merged node; and one run of it
# merges in program order, so it finds what its merges expose. The passes
# after it see its edits in the same round. So such merges (like dead code
# removals) add no graph to the next round, nor start one.
_NO_NEW_ROUND = {"common_subexpression_elimination": cse.merges_were_exact}
_META_OPTIONS = {"disable_model_pruning", "disable_meta_optimizer"}
_MAX_ROUNDS = 4  # passes repeat while they keep finding work (rarely more than 2)


class OptimizationReport:
    """What each pass did: `report.changes[pass_name]` is a list of messages."""

    def __init__(self, graph_name, nodes_before):
        self.graph_name = graph_name
        self.nodes_before = nodes_before
        self.nodes_after = nodes_before
        self.changes = {name: [] for name, _ in PASSES}
        self.skipped = []

    def count(self, pass_name):
        return len(self.changes[pass_name])

    def __str__(self):
        lines = [f"optimized {self.graph_name!r}: {self.nodes_before} -> "
                 f"{self.nodes_after} nodes"]
        for name, messages in self.changes.items():
            if name in self.skipped:
                lines.append(f"  {name}: off")
                continue
            lines.append(f"  {name}: {len(messages)} change(s)")
            lines.extend(f"    {m}" for m in messages)
        return "\n".join(lines)


def enabled_passes(options=None):
    """The (name, module) pairs `options` leaves on; unknown names are an error."""
    options = dict(options or {})
    known = set(DEFAULT_OPTIONS) | _META_OPTIONS | _TF_ONLY_OPTIONS
    unknown = sorted(k for k in options if k not in known)
    if unknown:
        raise ValueError(f"unknown optimizer option(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(sorted(known))}")
    if options.get("disable_meta_optimizer"):
        return []
    on = []
    for name, module in PASSES:
        if not options.get(name, True):
            continue
        if name == "dead_code_elimination" and options.get("disable_model_pruning"):
            continue
        on.append((name, module))
    return on


# TensorFlow options accepted (so ported code runs) but with no pass here.
_TF_ONLY_OPTIONS = {"layout_optimizer", "shape_optimization", "remapping",
                    "dependency_optimization", "function_optimization", "debug_stripper",
                    "scoped_allocator_optimization", "pin_to_host_optimization",
                    "implementation_selector", "auto_mixed_precision", "min_graph_nodes"}


def optimize(graph, options=None, check=False):
    """Run the enabled passes on `graph` in place; return an OptimizationReport.

    `options` maps option names (see the module docstring) to booleans.
    With `check=True`, `lint` runs after every pass (the tests do this).

    Rounds repeat while passes find work; a later round only revisits the
    graphs a change can affect (the changed graphs, the graphs nested in them
    and the graphs enclosing them): a pass on an untouched graph sees exactly
    what it saw before and finds nothing new.
    """
    passes = enabled_passes(options)
    tree = _Nesting(graph)
    report = OptimizationReport(graph.name, tree.count_nodes())
    report.skipped = [name for name, _ in PASSES if name not in dict(passes)]
    with memoized_flags(), nesting_known(tree):
        wanted = None                       # None: every graph
        looked = {}                         # pass -> {graph: stamp when it last ran on it}
        for _ in range(_MAX_ROUNDS):
            changed = _run_round(tree, passes, wanted, report, check, looked)
            if not changed:
                break
            wanted = _affected(tree, changed)
    report.nodes_after = tree.count_nodes()
    graph.optimization_report = report
    _log.debug("%s", report)
    return report


def _run_round(tree, passes, wanted, report, check, looked):
    """Every pass once over the graphs in `wanted` (a set; None for all);
    return the graphs some pass changed in a way that can give a pass new
    work (see _NOTHING_FOLLOWS and _NO_NEW_ROUND). Graphs are keyed by
    themselves (they hash by identity): cheaper than by id().

    Within `wanted`, a pass skips a graph when neither it nor any graph
    nested in it was edited since the pass last started on it: what a pass
    finds depends only on those graphs, so it would find nothing again."""
    changed = set()
    graphs = None
    for name, module in passes:
        if graphs is None:             # the nesting only changes when a pass edits
            graphs, edited_below = tree.graphs_and_stamps(wanted)
            nesting = nesting_edits()
        seen = looked.setdefault(name, {})  # graph -> stamp taken when this pass last ran on it
        run = module.run
        prunes = name == "dead_code_elimination"
        edited = False
        for g in graphs:
            if wanted is not None:
                last = seen.get(g)          # (max of the two stamps, without the call)
                if last is not None and edited_below[g] < last and g._edit_stamp < last:
                    continue
            before = g._edit_stamp
            messages = run(g)
            # Each pass finishes its own work in one run: its own edits do
            # not make it look again (the stamp is taken after the run).
            seen[g] = next_stamp()
            if messages:
                edited = True
                report.changes[name].extend(messages)
                invalidate(g)
                if name in _NOTHING_FOLLOWS:
                    g._edit_stamp = before      # no pass finds work in what it removed
                elif name not in _NO_NEW_ROUND or not _NO_NEW_ROUND[name]():
                    changed.add(g)
            if prunes and g._compiled is None:
                g._compiled = PRUNED            # every node is needed: the run plan is all
        # Edit stamps are read from the second round on; the list of graphs
        # changes only with the nesting.
        if edited and (wanted is not None or nesting_edits() != nesting):
            graphs = None
        if check:
            lint(tree.graph)
    return changed


def _affected(tree, changed):
    """The graphs in `changed`, their ancestors and their descendants
    (the graphs a later round revisits; None: every graph)."""
    return tree.affected(changed)


class _Nesting:
    """The graphs nested in `graph` (parents first, as walk_graphs orders
    them), with each one's children and parent: found once, and again only
    after an edit changed the nesting (rewrite.nesting_edits), rather than
    by a walk of every graph's nodes for each question."""

    def __init__(self, graph):
        self.graph = graph
        self._edits = None

    def _current(self):
        if self._edits != nesting_edits():
            order, kids, parent = [], {}, {self.graph: None}
            stack = [self.graph]
            while stack:
                g = stack.pop()
                order.append(g)
                subs = []
                for node in g.nodes:
                    if node.attrs:         # node.subgraph_list(), without the call
                        found = node._subgraphs
                        subs.extend(node.subgraph_list() if found is None else found)
                kids[g] = subs
                for sub in subs:
                    parent[sub] = g
                stack.extend(reversed(subs))
            self._order, self._kids, self._parent = order, kids, parent
            self._below = {}
            self._edits = nesting_edits()
        return self._order

    def count_nodes(self):
        count = 0
        for g in self._current():
            count += len(g.nodes)
        return count

    def graphs_and_stamps(self, wanted):
        """(the graphs in `wanted` (a set; None for all), parents first;
        {graph: the latest edit stamp of it and the graphs nested in it},
        None when `wanted` is None)."""
        order = self._current()
        if wanted is None:                 # every graph: no pass skips one
            return order, None
        kids = self._kids
        stamps = {}
        for g in reversed(order):
            stamp = g._edit_stamp
            for sub in kids[g]:
                if stamps[sub] > stamp:
                    stamp = stamps[sub]
            stamps[g] = stamp
        return [g for g in order if g in wanted], stamps

    def below(self, graph):
        """The graphs nested in `graph` at any depth, or None when `graph`
        is not one of these graphs. (Kept until the nesting changes: the
        passes' edits ask again for the same graphs.)"""
        self._current()
        found = self._below.get(graph)
        if found is not None:
            return found
        kids = self._kids
        if graph not in kids:
            return None
        found = []
        stack = list(kids[graph])
        while stack:
            sub = stack.pop()
            found.append(sub)
            stack.extend(kids[sub])
        self._below[graph] = found
        return found

    def affected(self, changed):
        """The graphs in `changed`, their ancestors and their descendants."""
        self._current()
        parent = self._parent
        wanted = set()
        for g in changed:
            if g not in parent:
                continue                   # no longer nested in the graph
            up = g
            while up is not None and up not in wanted:
                wanted.add(up)
                up = parent[up]
            wanted.update(self.below(g))
        return wanted
