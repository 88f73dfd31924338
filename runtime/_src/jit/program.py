"""`tf.function(jit_compile=True)`: a traced graph compiled with XLA through JAX.

    program = compile_graph(graph, "train_step")     # None: fell back (warned)
    outputs = program.run(graph, inputs)             # as executor.run

A program is one `jax.jit` of the lowered graph (lower.py) taking the graph's
inputs and the current values of the Variables it touches, and returning its
outputs and the new values of the Variables it assigns, which `run` writes
back. So a training step's forward pass, gradient and optimizer updates are
one XLA program, compiled with `XLA_OPTIONS`.

When the graph holds an op with no JAX rule, or JAX is not installed, or
JAX cannot compile it (a shape known only at run time), the function runs on
our executor, with one `JitCompileWarning` naming the function, the ops and
the user's lines that made them.
"""

import importlib.util
import warnings

import numpy as np

from runtime._src.graph.graph import needed_nodes
from runtime._src.jit import lower, rules_math, rules_nn, rules_random  # noqa: F401 - fill RULES
from runtime._src.jit import rules_tensor_array
from runtime._src.jit.lower import RULES, SUPPORTED_SPECIAL, Lowering, Unsupported

__all__ = ["compile_graph", "JitProgram", "JitCompileWarning", "unsupported_ops"]

_WRITES = frozenset({"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"})

# Ops whose variant values lower (TensorArrays and loop accumulators,
# rules_tensor_array.py, and the ops that carry them).
_VARIANT_OK = rules_tensor_array.OPS | {"While", "If", "Identity"}


# XLA options of every program. Convolutions go to XLA:CPU's own (Eigen)
# convolution, not YNNPACK's, which took 1.3x as long on a 3x3 convolution of
# 32 channels and on its filter gradient (the CNN's second layer, 2 cores);
# dots and reductions stay with YNNPACK, as by default. A JAX whose XLA lacks
# the option compiles without it (`JitProgram._first_call`).
XLA_OPTIONS = {"xla_cpu_experimental_ynn_fusion_type":
               "LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT,LIBRARY_FUSION_TYPE_REDUCE"}


class JitCompileWarning(UserWarning):
    """A `jit_compile=True` function runs on the executor: it says which ops
    (and where) XLA could not take, or that JAX is not installed."""


def _walk(graph):
    yield graph
    for node in graph.nodes:
        for sub in node.subgraph_list():
            yield from _walk(sub)


def unsupported_ops(graph):
    """[(op, node)] of the ops a run of `graph` needs that have no JAX rule
    (one entry per op type, the first node that uses it)."""
    found = {}
    for g in _walk(graph):
        needed = needed_nodes(g)
        for node in g.nodes:
            if node not in needed or node.op == "Placeholder":
                continue
            if node.op not in RULES and node.op not in SUPPORTED_SPECIAL:
                found.setdefault(node.op, node)
                continue
            for t in node.outputs:
                if t.dtype.name == "variant" and node.op in _VARIANT_OK:
                    continue
                if t.dtype.name in ("string", "variant", "resource"):
                    found.setdefault(f"{node.op} (a {t.dtype.name} value)", node)
    return sorted(found.items())


def _where(node):
    loc = node.location
    return f" at {loc[0]}:{loc[1]}" if loc else ""


def warn_fallback(name, reason):
    warnings.warn(f"tf.function(jit_compile=True) of {name!r} runs on the graph executor, "
                  f"not compiled with XLA: {reason}", JitCompileWarning, stacklevel=4)


def compile_graph(graph, name):
    """The `JitProgram` of `graph`, or None (after one warning) when it
    cannot be compiled."""
    if importlib.util.find_spec("jax") is None:
        warn_fallback(name, "JAX is not installed (pip install 'autograph-runtime[jax]')")
        return None
    missing = unsupported_ops(graph)
    if missing:
        ops = ", ".join(f"{op}{_where(node)}" for op, node in missing)
        warn_fallback(name, f"no XLA lowering for the op(s) {ops}")
        return None
    return JitProgram(graph, name)


class JitProgram:
    """A graph lowered to JAX and compiled with `jax.jit` on its first run."""

    # f(node, old, new) -> the value an Assign* node writes, or None: as
    # lowered (tf.distribute sets it to combine the replicas' writes).
    combine_write = None

    def __init__(self, graph, name):
        self.name = name
        self.graph = graph
        self.variables = []            # every Variable the graph reads or writes
        self._index = {}
        written = set()
        for g in _walk(graph):
            for node in g.nodes:
                variable = node.attrs.get("variable")
                if variable is not None and node.op in SUPPORTED_SPECIAL:
                    self._add_variable(variable)
                    if node.op in _WRITES:
                        written.add(self._index[id(variable)])
        self.written = sorted(written)
        # Per Variable: the host array last seen and its device copy, so a
        # Variable nothing else changed is not copied to the device again.
        self._host = [None] * len(self.variables)
        self._device = [None] * len(self.variables)
        self._plans = {}
        self._jitted = None
        self.failed = None             # why JAX could not compile it, once it could not

    def _add_variable(self, variable):
        if id(variable) not in self._index:
            self._index[id(variable)] = len(self.variables)
            self.variables.append(variable)

    def variable_index(self, variable):
        return self._index[id(variable)]

    def plan(self, graph):
        """The nodes of `graph` a run lowers, in program order."""
        found = self._plans.get(id(graph))
        if found is None:
            needed = needed_nodes(graph)
            found = self._plans[id(graph)] = [
                n for n in graph.nodes if n in needed and n.op != "Placeholder"]
        return found

    def _lowered(self, inputs, state):
        low = Lowering(self, list(state))
        n = len(self.graph.inputs)
        outs = low.run(self.graph, inputs[:n], inputs[n:])
        for value, tensor in zip(outs, self.graph.outputs):
            if value.__class__ is lower.LazyRange:
                raise Unsupported("a Range with bounds computed at run time is an output (its "
                                  "length is known only at run time; XLA needs static "
                                  "shapes)").at(tensor.node)
        outs = [lower.jnp.asarray(v) for v in outs]
        return outs, [low.state[i] for i in self.written]

    def run(self, graph, inputs):
        """Run the compiled program on numpy `inputs` (arguments, then
        captures); returns the numpy outputs and writes the Variables."""
        jax = lower.load_jax() if self._jitted is None else self._jax
        if self._jitted is None:
            self._jax = jax
            self._jitted = self._first_call
        host, device = self._host, self._device
        state = []
        for i, v in enumerate(self.variables):
            value = v._value
            state.append(device[i] if host[i] is value else value)
        with jax.enable_x64(True):
            outs, written = self._jitted(list(inputs), state)
        variables = self.variables
        for i, value in zip(self.written, written):
            variable = variables[i]
            variable._write(np.asarray(value))
            host[i], device[i] = variable._value, value
        return [np.asarray(v) for v in outs]

    def _first_call(self, inputs, state):
        """Compile with `XLA_OPTIONS` (without them where this XLA rejects
        them) and run."""
        jax = self._jax
        self._jitted = jax.jit(self._lowered, compiler_options=XLA_OPTIONS)
        try:
            return self._jitted(inputs, state)
        except jax.errors.JaxRuntimeError as e:
            if not any(name in str(e) for name in XLA_OPTIONS):
                raise
        self._jitted = jax.jit(self._lowered)
        return self._jitted(inputs, state)


def try_run(program, graph, inputs, fallback):
    """`program.run`, or (JAX could not compile this graph: warned once)
    `fallback(graph, inputs)` from then on."""
    if program.failed is None:
        try:
            return program.run(graph, inputs)
        except Unsupported as e:
            program.failed = str(e)
        except Exception as e:  # noqa: BLE001 - warned; the executor runs it (or says what is wrong)
            program.failed = f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}"
        warn_fallback(program.name, program.failed)
    return fallback(graph, inputs)
