"""Lowering one of our graphs to a Python function of `jax.numpy` / `jax.lax`
calls, which `jax.jit` compiles with XLA.

Each op has a rule in `RULES` (filled by rules_*.py): `rule(node, ins)` gets
the values of the node's inputs (JAX arrays, or numpy values known while
lowering) and returns its output (or a list of outputs). The walk is the
executor's: the nodes a run needs, in program order.

Values known while lowering stay numpy: a `Shape`, a `Const`, and any
stateless op whose inputs are all known is computed with our own numpy
kernel (the executor's semantics exactly), so `Reshape(x, Shape(y))` and
friends see static shapes, as XLA wants them.

Random ops draw on the host from the executor's own streams, when the
program runs (an ordered `io_callback`): the same values as the executor.

Variables are state threaded through the program: `Lowering.state` holds
the current value of each Variable the graph touches (the program's
inputs); `ReadVariableOp` reads it, `Assign*` replace it, and the final
state is the program's second output. `If` and `While` carry that state
through `lax.cond` / `lax.while_loop` with their own values:

    If(pred, *caps)     ->  lax.cond(pred, then, else, state), the branches
                            closing over the captures (a pred known while
                            lowering: that branch inline)
    While(*vars, *caps) ->  lax.while_loop over (vars, state, iteration)

`for i in range(n)` with `n` known only at run time makes a `Range` XLA
cannot build (its length is dynamic); it stays a `LazyRange`, which the
loop reads only for its length and its i-th element.
"""

import numpy as np

__all__ = ["RULES", "rule", "Lowering", "Unsupported", "is_static", "jnp", "lax"]

RULES = {}

jnp = lax = None      # jax.numpy and jax.lax, set by `load_jax` (JAX is optional)


# Hooks that rule modules register, so this module imports none of them:
# ON_LOAD(jax) runs when JAX is loaded (pytree registrations), and
# CARRY_PREPARERS(step, carry) -> carry before a while loop's lowering.
ON_LOAD = []
CARRY_PREPARERS = []


def load_jax():
    """Import JAX (once); returns the `jax` module."""
    global jnp, lax
    import jax
    if jnp is None:       # JAX's CPU device count: the split tf.config made
        from runtime._src.core.device_config import configure_jax
        configure_jax(jax)
    import jax.numpy
    jnp, lax = jax.numpy, jax.lax
    for hook in ON_LOAD:
        hook(jax)
    return jax


class Unsupported(Exception):
    """The graph holds something the compiled path cannot take."""

    node = None

    def at(self, node):
        """This error naming `node` (its op and the user's line), once."""
        if self.node is not None:
            return self
        loc = node.location
        where = f" at {loc[0]}:{loc[1]}" if loc else ""
        error = Unsupported(f"{self} (op {node.op}{where})")
        error.node = node
        return error


def rule(*names):
    """Register `fn(node, ins) -> output or list of outputs` for ops `names`."""
    def register(fn):
        for name in names:
            if name in RULES:
                raise ValueError(f"JAX rule for {name!r} defined twice")
            RULES[name] = fn
        return fn
    return register


def is_static(value):
    """True for a value known while lowering (numpy, not a JAX tracer)."""
    return isinstance(value, (np.ndarray, np.generic))


def static_ints(value, what):
    """A value known while lowering as a tuple of Python ints (shapes, axes)."""
    if not is_static(value):
        raise Unsupported(f"{what} must be known when the function is compiled")
    return tuple(int(v) for v in np.reshape(value, -1))


# Ops never computed by their numpy kernel while lowering, even when their
# inputs are known: they read state or make new values each run.
_NEVER_FOLDED = frozenset({"ReadVariableOp", "Placeholder"})


class Lowering:
    """The values of one graph's tensors while it is lowered, and the state
    (one value per program Variable) it reads and writes."""

    def __init__(self, program, state):
        self.program = program
        self.state = state
        self.env = {}

    def run(self, graph, inputs, captured):
        """Lower `graph` with its placeholders bound to `inputs` and its
        captures to `captured`; returns the values of its outputs."""
        env = self.env
        for placeholder, value in zip(graph.inputs, inputs):
            env[id(placeholder)] = value
        for (_, placeholder), value in zip(graph.captures, captured):
            env[id(placeholder)] = value
        for node in self.program.plan(graph):
            ins = [env[id(t)] for t in node.inputs]
            outs = self.node(node, ins)
            for t, value in zip(node.outputs, outs):
                env[id(t)] = value
        return [env[id(t)] for t in graph.outputs]

    def node(self, node, ins):
        """The output values of `node` given its input values."""
        if node.op not in _CLOSES_OVER and any(v.__class__ is LazyRange for v in ins):
            try:
                return [LazyRange.use(node, ins)]
            except Unsupported as e:
                raise e.at(node) from None
        if (ins and node.op not in _NEVER_FOLDED and all(is_static(v) for v in ins)
                and not node.stateful and not node.subgraph_list()):
            result = node.opdef.kernel(*ins, **node.attrs)
        else:
            try:
                if node.op in _STATEFUL:
                    result = _STATEFUL[node.op](self, node, ins)
                else:
                    result = RULES[node.op](node, ins)
            except Unsupported as e:
                raise e.at(node) from None
        values = list(result) if isinstance(result, (list, tuple)) else [result]
        return [_as_dtype(v, t) for v, t in zip(values, node.outputs)]

    # --- variables --------------------------------------------------------

    def read(self, node):
        return self.state[self.program.variable_index(node.attrs["variable"])]

    def write(self, node, value):
        """Set the Variable's state; a replicated program (tf.distribute)
        first combines the replicas' writes (`program.combine_write`)."""
        i = self.program.variable_index(node.attrs["variable"])
        dtype = node.attrs["variable"]._np_dtype
        value = jnp.asarray(value, dtype)
        combine = self.program.combine_write
        if combine is not None:
            value = combine(node, self.state[i], value)
        self.state[i] = value
        return self.state[i]


class LazyRange:
    """A `Range` whose bounds are known only at run time: XLA cannot make an
    array of that length, but the loop autograph stages for `for i in
    range(n)` only asks for its length and its i-th element."""

    def __init__(self, node, start, limit, delta):
        self.dtype = node.outputs[0].dtype.np_dtype
        self.start, self.limit, self.delta = start, limit, delta

    def length(self):
        span = jnp.asarray(self.limit) - jnp.asarray(self.start)
        if np.dtype(self.dtype).kind == "f":
            n = jnp.ceil(span / self.delta)
        else:
            n = -((-span) // self.delta)
        return jnp.maximum(n, 0)

    @staticmethod
    def use(node, ins):
        """The output of `node` (Shape, Size or an index) on a LazyRange."""
        r = ins[0]
        out = node.outputs[0].dtype.np_dtype
        if node.op == "Shape" and len(ins) == 1:
            return jnp.reshape(r.length(), (1,)).astype(out)
        if node.op == "Size" and len(ins) == 1:
            return r.length().astype(out)
        spec = node.attrs.get("spec")
        if node.op == "StridedSlice" and len(spec) == 1 and spec[0][0] == "index":
            i = spec[0][1]
            i = jnp.asarray(ins[i[1]] if isinstance(i, tuple) else i).reshape(())
            i = jnp.where(i < 0, i + r.length().astype(i.dtype), i)
            return (r.start + i * r.delta).astype(out)
        raise Unsupported("a Range with bounds computed at run time used by "
                          f"{node.op} (XLA needs static shapes)")


def _as_dtype(value, tensor):
    """`value` with `tensor`'s dtype (numpy stays numpy, JAX stays JAX); a
    LazyRange or a TensorArray (rules_tensor_array.py) as it is."""
    if value.__class__ is LazyRange or getattr(value, "jit_opaque", False):
        return value
    want = tensor.dtype.np_dtype
    if is_static(value):
        value = np.asarray(value)
        return value if value.dtype == want else value.astype(want)
    return value if value.dtype == want else value.astype(want)


def dynamic(value, dtype=None):
    """`value` as a JAX array (of `dtype` when given); a TensorArray as it is."""
    if getattr(value, "jit_opaque", False):
        return value
    return jnp.asarray(value, dtype)


# --- variables ---------------------------------------------------------------

def _read_variable(low, node, ins):
    return low.read(node)


def _assign(low, node, ins):
    return low.write(node, ins[0])


def _assign_add(low, node, ins):
    return low.write(node, low.read(node) + ins[0])


def _assign_sub(low, node, ins):
    return low.write(node, low.read(node) - ins[0])


# --- control flow --------------------------------------------------------------

def _if(low, node, ins):
    pred, captured = ins[0], ins[1:]
    then_g, else_g = node.attrs["then_branch"], node.attrs["else_branch"]
    if is_static(pred):
        branch = then_g if bool(pred) else else_g
        return Lowering(low.program, low.state).run(branch, [], captured)
    dtypes = [t.dtype.np_dtype for t in node.outputs]

    def branch(graph):
        def lowered(state):          # the captures are closed over (JAX allows it)
            inner = Lowering(low.program, list(state))
            outs = inner.run(graph, [], captured)
            return [dynamic(v, d) for v, d in zip(outs, dtypes)], tuple(inner.state)
        return lowered

    outs, state = lax.cond(jnp.asarray(pred, bool).reshape(()), branch(then_g),
                           branch(else_g), tuple(low.state))
    low.state[:] = list(state)
    return outs


def _while(low, node, ins):
    attrs = node.attrs
    cond, body, n = attrs["cond"], attrs["body"], attrs["num_loop_vars"]
    limit = None
    if attrs["has_maximum_iterations"]:
        limit, ins = ins[-1], ins[:-1]
    dtypes = [t.dtype.np_dtype for t in body.inputs]
    initial = [dynamic(v, d) for v, d in zip(ins[:n], dtypes)]
    captured = ins[n:]
    program = low.program

    def test(carry):
        values, state, count = carry
        pred = Lowering(program, list(state)).run(cond, values, captured)[0]
        pred = jnp.asarray(pred, bool).reshape(())
        return pred if limit is None else jnp.logical_and(count < limit, pred)

    def step(carry):
        values, state, count = carry
        inner = Lowering(program, list(state))
        outs = inner.run(body, values, captured)
        return [dynamic(v, d) for v, d in zip(outs, dtypes)], tuple(inner.state), count + 1

    carry = (initial, tuple(low.state), jnp.asarray(0, np.int64))
    carry = _allocate_arrays(step, carry)
    values, state, _ = lax.while_loop(test, step, carry)
    low.state[:] = list(state)
    return values


def _allocate_arrays(step, carry):
    """`carry` as the registered preparers leave it (rules_tensor_array.py
    allocates its TensorArrays' buffers, their shapes found by tracing `step`)."""
    for prepare in CARRY_PREPARERS:
        carry = prepare(step, carry)
    return carry


# --- random ---------------------------------------------------------------------
#
# Random ops draw on the host, from the very stream the executor draws from,
# through an ordered `io_callback` when the program runs: the compiled
# function gives the executor's random values (and follows tf.random.set_seed).

def _host_draw(node, fn, shape, dtype, *args):
    from jax.experimental import io_callback
    import jax
    result = jax.ShapeDtypeStruct(tuple(shape), np.dtype(dtype))
    return io_callback(lambda *a: np.asarray(fn(*a), dtype), result, *args, ordered=True)


def _dropout(low, node, ins):
    from runtime._src.ops.random_ops import _generator
    from runtime._src.core import dtypes
    x, rate = ins
    attrs = node.attrs
    shape = np.shape(x)
    noise = attrs["noise_shape"]
    noise = shape if noise is None else tuple(
        shape[i] if d is None else d for i, d in enumerate(noise))
    dtype = dtypes.as_dtype(np.dtype(x.dtype))

    def draw():
        return _generator("Dropout", dtype, attrs["seeds"], attrs["stream"]).random(noise)
    keep = _host_draw(node, draw, noise, np.float64) >= jnp.asarray(rate, np.float64)
    scale = (1 / (1 - jnp.asarray(rate, np.float64))).astype(x.dtype)
    return x * scale * keep


def _random_op(low, node, ins):
    shape = static_ints(ins[0], "the shape of a random op")
    kernel, attrs = node.opdef.kernel, node.attrs
    return _host_draw(node, lambda *a: kernel(np.asarray(shape, np.int64), *a, **attrs), shape,
                      node.outputs[0].dtype.np_dtype, *ins[1:])


# Ops whose subgraphs close over their captures (a LazyRange may be one).
_CLOSES_OVER = frozenset({"If", "While"})

_STATEFUL = {"Dropout": _dropout, "RandomUniform": _random_op, "RandomNormal": _random_op,
             "TruncatedNormal": _random_op, "ReadVariableOp": _read_variable, "AssignVariableOp": _assign,
             "AssignAddVariableOp": _assign_add, "AssignSubVariableOp": _assign_sub,
             "If": _if, "While": _while}
SUPPORTED_SPECIAL = frozenset(_STATEFUL)
