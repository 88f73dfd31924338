"""A graph's first run, interpreted: the planned nodes' kernels called in turn.

Generating and compiling a graph's Python source (runtime/_src/exec/codegen.py)
costs more than a run of a small graph, and a new function's first call would
pay it even when the function never runs again. So `executor.run` walks the
plan of a graph's first run here, and compiles the graph from its second run
on.

The run is the compiled code's, op for op: the same nodes in the same order
(`codegen.plan`), each one's kernel called with its attrs as keyword
arguments, an `If` / `While` that the code generator writes as a Python
`if` / `while` inlined here under the same conditions (`codegen.if_branches`,
`codegen.while_parts`; otherwise its kernel runs), constants and, in a graph
with a loop, rank-0 numeric inputs made numpy scalars. What the generated code
adds only for speed (infix templates computing exactly the kernel, results
written in place, pooled arrays) is not done here. A loop still running after
`LONG_LOOP` iterations runs the rest of its iterations as compiled code (the
loop alone, generated as its graph's code would write it: `codegen.compile_loop`).

    where = []
    outputs = interpret(graph, inputs, where)
    # on an error, where[-1] is the node that raised
"""

from runtime._src.exec.codegen import (compile_loop, contains_loop, if_branches, plan, scalar,
                                      while_parts)
from runtime._src.graph.graph import PRUNED, memoized_flags, paused_gc

__all__ = ["interpret", "MalformedGraph", "INTERPRETED"]

# `graph._compiled` of a graph run once, by the interpreter: the next run compiles it.
INTERPRETED = object()


class MalformedGraph(ValueError):
    """The graph cannot run at all (what compiling it would refuse)."""


def interpret(graph, inputs, where):
    """Run `graph` once on numpy `inputs` (arguments, then captures); return
    the list of its outputs' values. `where` (a list) ends with the node that
    was running when an exception left, the innermost one of inlined branches
    and loop bodies."""
    placeholders = list(graph.inputs) + [inner for _, inner in graph.captures]
    env = {}
    quiet_ints = contains_loop(graph)
    for t, value in zip(placeholders, inputs):
        if quiet_ints and t.shape.rank == 0 and (t.dtype.is_integer or t.dtype.is_floating
                                                 or t.dtype.is_bool):
            value = scalar(value)           # as the compiled code does (numpy scalar math)
        env[id(t)] = value
    programs = {None: {}}      # also None: the graphs' side-effect flags; ("loop", id): code
    _program(graph, programs)
    graph._compiled = INTERPRETED           # the next run compiles it
    where.append(None)
    _run(graph, env, programs, where)
    return [env[id(t)] for t in graph.outputs]


# Iterations of a loop interpreted before the rest of it runs compiled: a
# long loop would spend more time in the interpreter than compiling costs.
LONG_LOOP = 32

# What a step of a program does with its node.
_CONST, _PLACEHOLDER, _IF, _WHILE, _KERNEL = range(5)


def _program(graph, programs):
    """The steps of `graph`'s plan, (kind, node, data), made when the graph
    first runs in this interpretation (a branch never taken is not planned).
    A kernel's data: (kernel, input ids, output ids, returns one value)."""
    if graph._compiled is PRUNED:          # dead code elimination kept only needed nodes
        nodes = graph.nodes
    else:
        with memoized_flags(programs[None]):    # plan() asks nested graphs for side effects
            nodes = plan(graph)
    steps = []
    for node in nodes:
        op = node.op
        if op == "Const":
            step = (_CONST, node, (scalar(node.attrs["value"]), id(node.outputs[0])))
        elif op == "Placeholder":
            step = (_PLACEHOLDER, node, None)
        elif op == "If" and (branches := if_branches(node)) is not None:
            step = (_IF, node, branches)
        elif op == "While" and (parts := while_parts(node)) is not None:
            step = (_WHILE, node, parts)
        else:
            outputs = tuple(map(id, node.outputs))
            step = (_KERNEL, node, (node.opdef.kernel, tuple(map(id, node.inputs)),
                                    outputs, node.opdef.num_outputs == 1 and bool(outputs)))
        steps.append(step)
    programs[id(graph)] = steps
    return steps


def _run(graph, env, programs, where):
    """Run one graph's plan, its values kept in `env` (one for all levels:
    each tensor is a different object)."""
    steps = programs.get(id(graph))
    if steps is None:
        with paused_gc():          # our own acyclic objects, thousands for a large graph
            steps = _program(graph, programs)
    level = len(where) - 1
    for kind, node, data in steps:
        where[level] = node
        if kind == _KERNEL:
            kernel, inputs, outputs, single = data
            result = kernel(*map(env.__getitem__, inputs), **node.attrs)
            if single:
                env[outputs[0]] = result
            elif outputs:
                _unpack(node, result, outputs, env)
        elif kind == _CONST:
            env[data[1]] = data[0]
        elif kind == _IF:
            _run_if(node, data, env, programs, where)
        elif kind == _WHILE:
            _run_while(node, data, env, programs, where)
        elif id(node.outputs[0]) not in env:
            raise MalformedGraph(f"graph {node.graph.name!r}: placeholder {node.name} "
                                 "is neither an input nor a capture")


def _unpack(node, result, outputs, env):
    """The values of a kernel returning a sequence, one per output."""
    values = list(result)
    if len(values) != len(outputs):
        raise ValueError(f"{node.op} returned {len(values)} values for {len(outputs)} outputs")
    for key, value in zip(outputs, values):
        env[key] = value


def _bind(graph, values, captured, env):
    """A branch's or loop graph's inputs and captures take these values."""
    for t, value in zip(graph.inputs, values):
        env[id(t)] = value
    for (_, inner), value in zip(graph.captures, captured):
        env[id(inner)] = value


def _run_nested(graph, env, programs, where):
    where.append(None)
    _run(graph, env, programs, where)
    where.pop()


def _run_if(node, branches, env, programs, where):
    branch = branches[0 if env[id(node.inputs[0])] else 1]
    _bind(branch, (), list(map(env.__getitem__, map(id, node.inputs[1:]))), env)
    _run_nested(branch, env, programs, where)
    for t, out in zip(node.outputs, branch.outputs):
        env[id(t)] = env[id(out)]


def _run_while(node, parts, env, programs, where):
    cond, body, loop_vars, caps, has_limit = parts
    state = [env[id(t)] for t in loop_vars]
    captured = [env[id(t)] for t in caps]
    limit = int(env[id(node.inputs[-1])]) if has_limit else None
    count = 0
    test = cond.outputs[0]
    while limit is None or count < limit:
        if count == LONG_LOOP:
            state = _run_long_loop(node, state, captured, limit, count, programs, where)
            break
        _bind(cond, state, captured, env)
        _run_nested(cond, env, programs, where)
        if not env[id(test)]:
            break
        _bind(body, state, captured, env)
        _run_nested(body, env, programs, where)
        state = [env[id(t)] for t in body.outputs]
        count += 1
    for t, value in zip(node.outputs, state):
        env[id(t)] = value


def _run_long_loop(node, state, captured, limit, count, programs, where):
    """The rest of a loop that has run `LONG_LOOP` iterations here, as
    compiled code (`codegen.compile_loop`, once per interpretation), from the
    current state; the loop's limit less the iterations done."""
    compiled = programs.get(("loop", id(node)))
    if compiled is None:
        compiled = programs[("loop", id(node))] = compile_loop(node)
    values = state + captured + ([] if limit is None else [limit - count])
    try:
        return compiled.fn(*values)
    except Exception as e:
        found = compiled.node_for_traceback(e.__traceback__)
        if found is not None:
            where.append(found)         # the node that raised, inside the loop
        raise
