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
    program = _program(graph, programs, None)
    graph._compiled = INTERPRETED           # the next run compiles it
    where.append(None)
    _run(program, env, programs, where)
    return [env[key] for key in program.outputs]


# Iterations of a loop interpreted before the rest of it runs compiled: a
# long loop would spend more time in the interpreter than compiling costs.
LONG_LOOP = 32

# What a step of a program does with its node.
_KERNEL, _KERNELS, _IF, _WHILE, _PLACEHOLDER = range(5)


class _Program:
    """One graph's run, made when the graph first runs in an interpretation
    (a branch never taken is not planned): `steps`, (kind, node, data) in
    plan order; `consts`, (id, value) of its constants (set before the steps:
    they cannot fail and nothing reads them earlier); the ids of its inputs,
    capture placeholders and outputs, for binding and reading them.

    Placeholders the caller binds get no step; one that nothing binds keeps
    a step that refuses the graph when it is reached (as compiling would)."""

    __slots__ = ("steps", "consts", "inputs", "captures", "outputs")


def _program(graph, programs, bound_inputs):
    """`graph`'s `_Program`, kept in `programs`. `bound_inputs`: how many of
    `graph.inputs` its caller binds (None: all). Kernel data: (kernel, input
    ids, attrs, output id) for one output (`_KERNEL`), (kernel, input ids,
    attrs, output ids) otherwise (`_KERNELS`)."""
    if graph._compiled is PRUNED:          # dead code elimination kept only needed nodes
        nodes = graph.nodes
    else:
        with memoized_flags(programs[None]):    # plan() asks nested graphs for side effects
            nodes = plan(graph)
    program = _Program()
    program.inputs = inputs = tuple(map(id, graph.inputs))
    program.captures = captures = tuple([id(inner) for _, inner in graph.captures])
    program.outputs = tuple(map(id, graph.outputs))
    bound = set(inputs if bound_inputs is None else inputs[:bound_inputs])
    bound.update(captures)
    steps, consts = [], []
    for node in nodes:
        op = node.op
        if op == "Const":
            consts.append((id(node.outputs[0]), scalar(node.attrs["value"])))
            continue
        if op == "Placeholder":
            if id(node.outputs[0]) in bound:
                continue
            step = (_PLACEHOLDER, node, None)
        elif op == "If" and (branches := if_branches(node)) is not None:
            step = (_IF, node, (id(node.inputs[0]), branches, tuple(map(id, node.inputs[1:])),
                                tuple(map(id, node.outputs))))
        elif op == "While" and (parts := while_parts(node)) is not None:
            step = (_WHILE, node, parts)
        else:
            outputs = tuple(map(id, node.outputs))
            inputs = tuple(map(id, node.inputs))
            if node.opdef.num_outputs == 1 and outputs:
                step = (_KERNEL, node, (node.opdef.kernel, inputs, node.attrs, outputs[0]))
            else:
                step = (_KERNELS, node, (node.opdef.kernel, inputs, node.attrs, outputs))
        steps.append(step)
    program.steps, program.consts = steps, consts
    programs[id(graph)] = program
    return program


def _nested_program(graph, programs, bound_inputs=None):
    """The program of a branch or loop graph, made when it first runs."""
    program = programs.get(id(graph))
    if program is None:
        with paused_gc():          # our own acyclic objects, thousands for a large graph
            program = _program(graph, programs, bound_inputs)
    return program


def _run(program, env, programs, where):
    """Run one graph's program, its values kept in `env` (one for all levels:
    each tensor is a different object). On an exception, `where[level]` is
    the node whose step raised (set then, not before every step)."""
    level = len(where) - 1
    for key, value in program.consts:
        env[key] = value
    try:
        for kind, node, data in program.steps:
            if kind == _KERNEL:
                kernel, inputs, attrs, output = data
                env[output] = kernel(*map(env.__getitem__, inputs), **attrs)
            elif kind == _IF:
                _run_if(data, env, programs, where)
            elif kind == _KERNELS:
                kernel, inputs, attrs, outputs = data
                result = kernel(*map(env.__getitem__, inputs), **attrs)
                if outputs:
                    _unpack(node, result, outputs, env)
            elif kind == _WHILE:
                _run_while(node, data, env, programs, where)
            else:                      # a placeholder nothing binds
                raise MalformedGraph(f"graph {node.graph.name!r}: placeholder {node.name} "
                                     "is neither an input nor a capture")
    except BaseException:
        where[level] = node
        raise


def _unpack(node, result, outputs, env):
    """The values of a kernel returning a sequence, one per output."""
    values = list(result)
    if len(values) != len(outputs):
        raise ValueError(f"{node.op} returned {len(values)} values for {len(outputs)} outputs")
    for key, value in zip(outputs, values):
        env[key] = value


def _run_nested(program, env, programs, where):
    where.append(None)
    _run(program, env, programs, where)
    where.pop()


def _run_if(data, env, programs, where):
    test, branches, inputs, outputs = data
    branch = _nested_program(branches[0 if env[test] else 1], programs)
    values = list(map(env.__getitem__, inputs))
    for key, value in zip(branch.captures, values):
        env[key] = value
    _run_nested(branch, env, programs, where)
    for key, out in zip(outputs, branch.outputs):
        env[key] = env[out]


def _run_while(node, parts, env, programs, where):
    cond, body, loop_vars, caps, has_limit = parts
    state = [env[id(t)] for t in loop_vars]
    captured = [env[id(t)] for t in caps]
    limit = int(env[id(node.inputs[-1])]) if has_limit else None
    count = 0
    test = id(cond.outputs[0])
    n = len(state)
    while limit is None or count < limit:
        if count == LONG_LOOP:
            state = _run_long_loop(node, state, captured, limit, count, programs, where)
            break
        program = _nested_program(cond, programs, n)
        _bind(program, state, captured, env)
        _run_nested(program, env, programs, where)
        if not env[test]:
            break
        program = _nested_program(body, programs, n)
        _bind(program, state, captured, env)
        _run_nested(program, env, programs, where)
        state = [env[key] for key in program.outputs]
        count += 1
    for t, value in zip(node.outputs, state):
        env[id(t)] = value


def _bind(program, values, captured, env):
    """A loop graph's inputs and captures take these values."""
    for key, value in zip(program.inputs, values):
        env[key] = value
    for key, value in zip(program.captures, captured):
        env[key] = value


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
