"""`lint(graph)`: check that a graph is well formed, before and after passes.

Checks, for the graph and (recursively) every nested graph:

- every node belongs to the graph (`node.graph is graph`) and names are unique;
- every input of a node is an output of a node defined earlier in the same
  graph (program order), never a tensor of another graph;
- each output tensor points back at its node;
- `graph.inputs` and capture placeholders are `Placeholder` nodes of the graph;
- `graph.outputs` belong to the graph;
- a capture's outer tensor belongs to an enclosing graph.

    >>> lint(graph)          # returns None, or raises LintError listing problems
"""

from runtime._src.optimizer.rewrite import is_graph

__all__ = ["lint", "LintError"]


class LintError(ValueError):
    """A graph is malformed; the message lists every problem found."""


def lint(graph):
    """Raise LintError naming every problem in `graph`; return None if it is valid."""
    problems = []
    _lint(graph, graph.name, [], problems)
    if problems:
        raise LintError(f"graph {graph.name!r} is malformed:\n  " + "\n  ".join(problems))


def _lint(graph, path, enclosing, problems):
    defined = set()
    names = set()
    for node in graph.nodes:
        where = f"{path}: node {node.name!r} ({node.op})"
        if node.graph is not graph:
            problems.append(f"{where} belongs to graph {node.graph.name!r}")
        if node.name in names:
            problems.append(f"{where}: name is used twice")
        names.add(node.name)
        for i, t in enumerate(node.inputs):
            if id(t) not in defined:
                problems.append(f"{where}: input {i} ({_tname(t)}) is not defined "
                                "earlier in this graph")
        for i, t in enumerate(node.outputs):
            if t.node is not node or t.index != i:
                problems.append(f"{where}: output {i} does not point back at the node")
            defined.add(id(t))
    _lint_signature(graph, path, defined, enclosing, problems)
    for node in graph.nodes:
        for key, sub in sorted(node.attrs.items()):
            if is_graph(sub):
                _lint(sub, f"{path}/{node.name}/{key}", enclosing + [defined], problems)


def _lint_signature(graph, path, defined, enclosing, problems):
    for i, t in enumerate(graph.inputs):
        if id(t) not in defined or t.node.op != "Placeholder":
            problems.append(f"{path}: input {i} ({_tname(t)}) is not a placeholder of the graph")
    for i, (outer, inner) in enumerate(graph.captures):
        if id(inner) not in defined or inner.node.op != "Placeholder":
            problems.append(f"{path}: capture {i} ({_tname(inner)}) is not a placeholder "
                            "of the graph")
        if enclosing and not any(id(outer) in scope for scope in enclosing):
            problems.append(f"{path}: capture {i} refers to {_tname(outer)}, which is not "
                            "in an enclosing graph")
    for i, t in enumerate(graph.outputs):
        if id(t) not in defined:
            problems.append(f"{path}: output {i} ({_tname(t)}) does not belong to the graph")


def _tname(t):
    return getattr(t, "name", type(t).__name__)
