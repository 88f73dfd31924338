"""The JAX backend: converted code meeting a JAX tracer stages into `jax.lax`.

Registered lazily: `autograph.backend` imports this module the first time a
value whose type comes from `jax` / `jaxlib` reaches an operator, so
`import autograph` never imports JAX.

    if x > 0: ...            # x a tracer -> lax.cond (branch outputs unified
                             #   to one dtype and weak type as JAX promotes)
    while n != 1: ...        # -> lax.while_loop (forward-mode only: jax.grad
                             #   through it is an error naming the loop)
    for row in xs: ...       # xs a tracer, first axis static -> lax.scan
                             #   (reverse-differentiable; appends stack)
    for i in range(n): ...   # n a tracer -> lax.while_loop over an index

Only tracers (values inside `jax.jit`, `grad`, `vmap`, `make_jaxpr`) are
staged; concrete `jax.Array`s run plain Python, as eager tensors do.
A loop given a `maximum_iterations` bound becomes a bounded `lax.scan`.
"""

import threading

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax
from jax.interpreters import ad, batching, mlir

from .. import integration as ag

try:
    from jax.extend.core import Primitive
except ImportError:  # pragma: no cover - older JAX
    from jax.core import Primitive

try:
    from jax._src.dtypes import result_type as _result_type

    def _promote(a, b):
        return _result_type(a, b, return_weak_type_flag=True)
except ImportError:  # pragma: no cover - the public API: weak when both are
    def _promote(a, b):
        return jnp.result_type(a, b), _aval(a).weak_type and _aval(b).weak_type

try:
    from jax._src.lax.lax import _convert_element_type
except ImportError:  # pragma: no cover
    def _convert_element_type(x, dtype, weak_type=False):
        return lax.convert_element_type(x, dtype)

__all__ = ["JaxBackend", "BACKEND", "checks_enabled"]

_Tracer = jax.core.Tracer
_NUMBERS = (bool, int, float, complex)


# --- checkify: staged asserts, when the user asks for them -----------------------

_LOCAL = threading.local()


class checks_enabled:
    """`assert` on a traced value becomes `checkify.check` inside this block
    (the function must then run under `jax.experimental.checkify.checkify`;
    `autograph.jax.jit(f, checkify=True)` does both)."""

    def __enter__(self):
        _LOCAL.checks = getattr(_LOCAL, "checks", 0) + 1

    def __exit__(self, *exc):
        _LOCAL.checks -= 1
        return False


# --- values --------------------------------------------------------------------------

def _aval(x):
    return jax.typeof(x) if hasattr(jax, "typeof") else jax.core.get_aval(x)


def _describe(x):
    if x is None:
        return "None"
    if isinstance(x, _JaxList):
        return "a list being appended to"
    if _is_value(x):
        a = _aval(x)
        kind = "a Python " + type(x).__name__ if isinstance(x, _NUMBERS) else "an array"
        return f"{kind} of dtype {a.dtype}{' (weak)' if a.weak_type else ''}, shape {a.shape}"
    return f"a Python {type(x).__name__}"


def _is_value(x):
    return isinstance(x, (_Tracer, jax.Array, np.ndarray, np.generic) + _NUMBERS)


def _cast(x, dtype, weak):
    a = _aval(x)
    if a.dtype == dtype and a.weak_type == weak and not isinstance(x, _NUMBERS):
        return x
    return _convert_element_type(x, np.dtype(dtype), weak_type=weak)


def _truth(value):
    """Python truthiness as a bool scalar: a number is true when nonzero."""
    if isinstance(value, _JaxList):
        raise TypeError("the truth value of a list appended to in a JAX loop is not known "
                        "while tracing; test len(lst) > 0 on a list of static length instead")
    value = jnp.asarray(value) if not isinstance(value, _Tracer) else value
    if value.ndim:
        raise TypeError(f"the truth value of an array of shape {value.shape} is ambiguous in "
                        f"a condition; use jnp.any / jnp.all, or a scalar")
    return value if value.dtype == np.bool_ else value != 0


class _Range:
    """`range(start, limit, delta)` with a traced bound: iterated by a staged loop."""

    def __init__(self, start, limit, delta):
        self.start, self.limit, self.delta = start, limit, delta

    def size(self, clamp=True):
        """The number of items; unclamped (<= 0 when empty) is enough for a
        loop's `index < size` test and costs one operation less."""
        d = self.delta
        if type(d) is int and d == 1:
            n = self.limit if (type(self.start) is int and self.start == 0) \
                else self.limit - self.start
        else:
            span = self.limit - self.start
            if isinstance(d, int):
                n = (span + d - 1) // d if d > 0 else (-span - d - 1) // (-d)
            else:
                n = jnp.where(d > 0, (span + d - 1) // d,
                              (-span - d - 1) // jnp.where(d < 0, -d, 1))
        return jnp.maximum(n, 0) if clamp else n

    def item(self, i):
        if type(self.delta) is int and self.delta == 1:
            return i if type(self.start) is int and self.start == 0 else self.start + i
        return self.start + i * self.delta

    def __iter__(self):
        raise TypeError("a range() whose bound is a traced JAX value can only be iterated by "
                        "a for statement of converted code, not by a comprehension, "
                        "list(), * or a library function: write a for loop, or make the "
                        "bound a Python int (a static argument)")


class _JaxList:
    """A Python list that a staged loop appends to. In a loop whose trip
    count is static (a scan) each iteration's appends become the scan's
    stacked outputs; `items` are the elements appended before the loop,
    `new` those appended in the current iteration."""

    def __init__(self, items, like, new=()):
        self.items, self.like, self.new = list(items), like, tuple(new)

    def appended(self, x):
        return _JaxList(self.items, self.like, self.new + (x,))


class _Widen(Exception):
    """Retrace a staged statement with some values' types widened."""

    def __init__(self, plan):
        super().__init__("widen")
        self.plan = plan


# --- matching the types of two values (branches, or a loop's input and output) --------

class _Match:
    """Names and words for the two sides being matched, for error messages."""

    def __init__(self, first, second, same_what, fix):
        self.first, self.second, self.same_what, self.fix = first, second, same_what, fix


_COND = _Match("in the true branch", "in the false branch",
               "both branches must give it the same {what}", "")
_LOOP = _Match("before the loop", "after the loop body",
               "a loop variable must keep its {what}",
               ": give '{label}' the right {what} before the loop")


def _leaves(value, label):
    leaves, tree = jax.tree_util.tree_flatten(
        value, is_leaf=lambda x: x is None or isinstance(x, (_JaxList, _Range)))
    paths = _leaf_labels(value, label)
    return leaves, tree, paths if len(paths) == len(leaves) else [label] * len(leaves)


def _leaf_labels(value, label):
    if isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            keys = list(value)
        return [p for k in keys for p in _leaf_labels(value[k], f"{label}[{k!r}]")]
    if isinstance(value, (list, tuple)) and not isinstance(value, _JaxList):
        return [p for i, v in enumerate(value) for p in _leaf_labels(v, f"{label}[{i}]")]
    return [label]


def _target(a, b, label, m):
    """(dtype, weak) both sides take for one leaf, or an error naming it."""
    if a is None or b is None:
        if a is None and b is None:
            return None
        if m is _COND:
            none_in, other_in, other = ("if", "else", b) if a is None else ("else", "if", a)
            raise ValueError(
                f"'{label}' is None in the {none_in} branch but {_describe(other)} in the "
                f"{other_in} branch; a value a cond returns must be defined in both branches: "
                f"give '{label}' a value before the if, or in the {none_in} branch too")
        raise ValueError(f"'{label}' is {_describe(a)} {m.first} but {_describe(b)} {m.second}; "
                         f"a loop variable must be defined before the loop and keep a value: "
                         f"give '{label}' a value before the loop")
    for side, v in ((m.first, a), (m.second, b)):
        if not _is_value(v):
            raise TypeError(f"'{label}' {side} is {_describe(v)}, which is not a JAX type: "
                            f"staged control flow carries only arrays and numbers")
    aa, ab = _aval(a), _aval(b)
    if aa.shape != ab.shape:
        raise ValueError(f"'{label}' has shape {aa.shape} {m.first} but {ab.shape} {m.second}; "
                         + m.same_what.format(what="shape")
                         + " (a JAX array's shape is fixed when it is traced)")
    if aa.dtype == ab.dtype and aa.weak_type == ab.weak_type:
        return aa.dtype, aa.weak_type
    if aa.dtype != ab.dtype and not (aa.weak_type or ab.weak_type):
        raise TypeError(f"'{label}' has dtype {aa.dtype} {m.first} but {ab.dtype} {m.second}; "
                        + m.same_what.format(what="dtype")
                        + " (use .astype()" + (
                            m.fix.format(label=label, what="dtype") if m.fix else "") + ")")
    dtype, weak = _promote(a, b)
    return np.dtype(dtype), weak


def _same_structure(a, b, label, m):
    la, ta, pa = _leaves(a, label)
    lb, tb, _ = _leaves(b, label)
    if ta != tb:
        raise ValueError(f"'{label}' has a different structure {m.first} and {m.second}: "
                         f"{_shape_of(a)} and {_shape_of(b)}")
    return la, lb, pa


def _pair_targets(a, b, label, m):
    """(leaf of a, leaf of b, the type both take) for each leaf of two values
    of one structure."""
    la, lb, paths = _same_structure(a, b, label, m)
    return [(x, y, _target(x, y, path, m)) for x, y, path in zip(la, lb, paths)]


def _shape_of(value):
    return jax.tree_util.tree_structure(
        value, is_leaf=lambda x: x is None or isinstance(x, (_JaxList, _Range)))


# --- a guard that names a while loop when reverse-mode reaches it ---------------------

_guard_p = Primitive("autograph_no_reverse")


def _guard_transpose(ct, x, *, loop):
    raise ValueError(
        f"jax.grad cannot differentiate through the while loop{loop}: its trip count "
        f"depends on the data, and a lax.while_loop only supports forward-mode "
        f"(jax.jvp). Bound it: set a maximum_iterations option for the loop "
        f"(autograph.experimental.set_loop_options(maximum_iterations=N) as the loop "
        f"body's first statement) so it becomes a bounded lax.scan, or iterate over a "
        f"Python range or an array.")


_guard_p.def_impl(lambda x, *, loop: x)
_guard_p.def_abstract_eval(lambda x, *, loop: x)
ad.deflinear2(_guard_p, _guard_transpose)
batching.defvectorized(_guard_p)
mlir.register_lowering(_guard_p, lambda ctx, x, *, loop: [x])


def _guarded(values, where):
    loop = ag.describe(where)

    def guard(x):
        if isinstance(x, _Tracer) and jnp.issubdtype(x.dtype, jnp.inexact):
            return _guard_p.bind(x, loop=loop)
        return x
    return jax.tree_util.tree_map(guard, values)


# --- the backend ---------------------------------------------------------------------

class JaxBackend(ag.Backend):
    """Maps autograph's operators to `jax.lax` control flow and `jax.numpy`."""

    def is_tensor(self, value):
        return isinstance(value, (_Tracer, _Range))

    def is_list(self, value):
        return isinstance(value, _JaxList)

    # --- if ----------------------------------------------------------------------

    def cond(self, pred, branches, names):
        """Each branch is traced once into a jaxpr (`branches.trace`); their
        outputs, reconciled (`branches.outputs`), are unified by type;
        `lax.cond` then replays the jaxprs (user code runs once per branch,
        so nested ifs cost no retracing)."""
        pred = _truth(pred)
        names = tuple(names)
        true, false = _Branch(branches, True, names), _Branch(branches, False, names)
        true.finish(branches.outputs(True), "true")
        false.finish(branches.outputs(False), "false")
        picks, targets = [], []         # (branch leaf index, target type) per cond output
        rebuild = []                    # per name: how to make its value from the outputs
        for i, name in enumerate(names):
            a, b = true.out[i], false.out[i]
            if isinstance(a, _JaxList) or isinstance(b, _JaxList):
                common, _ = _branch_lists(a, b, name)
                start = len(picks)
                for k in range(common, len(a.new)):
                    picks.append((true.index[i][k], false.index[i][k]))
                    targets.append(_target(a.new[k], b.new[k], f"{name}[{k}]", _COND))
                rebuild.append(("list", a, common, start, len(picks)))
                continue
            slots = []
            for j, (x, y, t) in enumerate(_pair_targets(a, b, name, _COND)):
                if t is None:
                    slots.append(None)
                    continue
                slots.append(len(picks))
                picks.append((true.index[i][j], false.index[i][j]))
                targets.append(t)
            rebuild.append(("tree", _shape_of(a), slots))

        def replay(branch, side):
            def run():
                values = branch.replay()
                return [_cast(values[p[side]], *t) for p, t in zip(picks, targets)]
            return run
        if not picks:
            outs = []
        elif names in (("and",), ("or",)) and _cheap_bools(true, false, targets):
            # `a and b` on bool scalars: both sides are traced anyway, and
            # computing a bool cannot fail in XLA, so a select does.
            outs = [lax.select(pred, *(_cast(b.replay()[p[k]], *targets[0])
                                       for k, b in enumerate((true, false))))
                    for p in picks]
        else:
            outs = lax.cond(pred, replay(true, 0), replay(false, 1))
        result = []
        for how in rebuild:
            if how[0] == "list":
                _, a, common, start, stop = how
                result.append(_JaxList(a.items, a.like, a.new[:common] + tuple(outs[start:stop])))
            else:
                _, tree, slots = how
                result.append(jax.tree_util.tree_unflatten(
                    tree, [None if k is None else outs[k] for k in slots]))
        return tuple(result)

    # --- loops ---------------------------------------------------------------------

    def while_loop(self, cond_fn, body_fn, loop_vars, names, opts=None):
        bound = (opts or {}).get("maximum_iterations")
        if bound is not None:
            if not isinstance(bound, int) or isinstance(bound, bool):
                raise TypeError(f"maximum_iterations must be a Python int for JAX (a bounded "
                                f"lax.scan has a static length), got {bound!r}")
            return self.bounded_loop(cond_fn, body_fn, loop_vars, names, bound, exact=False)
        where = ag.current_location()
        names = tuple(names)
        for name, v in zip(names, loop_vars):
            if isinstance(v, _JaxList):
                raise ValueError(
                    f"'{name}' is appended to in a loop whose trip count is only known when "
                    f"the function runs: a JAX array has a static shape, so the list cannot "
                    f"grow by a traced number of elements. Preallocate an array "
                    f"(buf = jnp.zeros(n_max); buf = buf.at[i].set(x)), or give the loop a "
                    f"static bound (iterate a Python range or an array, or set "
                    f"maximum_iterations)")

        def run(init, fit):
            def test(c):
                return _truth(cond_fn(*c))

            def body(c):
                return fit(tuple(body_fn(*c)))
            return lax.while_loop(test, body, init)

        out = _fixpoint(loop_vars, names, run)
        return tuple(_guarded(out, where))

    def bounded_loop(self, cond_fn, body_fn, loop_vars, names, bound, exact, opts=None):
        """At most `bound` iterations (exactly `bound` when `exact`, without
        calling `cond_fn`): a `lax.scan`, so reverse-mode works."""
        names = tuple(names)
        if bound <= 0:
            return tuple(loop_vars)       # the body never runs (nor is it traced)
        lists = [i for i, v in enumerate(loop_vars) if isinstance(v, _JaxList)]
        if lists and not exact:
            raise ValueError(
                f"'{names[lists[0]]}' is appended to in a loop that may stop early (a while "
                f"loop, or a break or return in the loop): JAX stacks what each iteration "
                f"appends, so every iteration must append the same. Preallocate an array "
                f"(buf = jnp.zeros(n); buf = buf.at[i].set(x)) instead")
        carried = [i for i in range(len(loop_vars)) if i not in lists]

        def split(values):
            return tuple(values[i] for i in carried)

        def run(init, fit):
            def join(c):
                full = [None] * len(loop_vars)
                for i, v in zip(carried, c):
                    full[i] = v
                for i in lists:
                    full[i] = _JaxList([], loop_vars[i].like)
                return full

            def step(c, _):
                if exact:
                    out = tuple(body_fn(*join(c)))
                else:
                    def go():
                        return fit(split(tuple(body_fn(*join(c)))))
                    return lax.cond(_truth(cond_fn(*join(c))), go, lambda: c), ()
                for i in lists:
                    if not isinstance(out[i], _JaxList):
                        raise TypeError(f"'{names[i]}' is appended to in the loop but is "
                                        f"{_describe(out[i])} at the end of its body")
                return fit(split(out)), tuple(out[i].new for i in lists)
            return lax.scan(step, init, None, length=bound)

        state = {}

        def run_carry(init, fit):
            c, ys = run(init, fit)
            state["ys"] = ys
            return c
        out = _fixpoint(split(loop_vars), tuple(names[i] for i in carried), run_carry)
        full = list(loop_vars)
        for i, v in zip(carried, out):
            full[i] = v
        for i, ys in zip(lists, state.get("ys", ())):
            full[i] = _stacked_list(loop_vars[i], ys, bound)
        return tuple(full)

    # --- values ------------------------------------------------------------------

    def logical_not(self, x):
        return jnp.logical_not(_truth(x))

    def len(self, x):
        if isinstance(x, _Range):
            return x.size()
        if isinstance(x, _JaxList):
            raise TypeError("len() of a list being appended to in a JAX loop is not "
                            "supported; count the appends in a variable instead"
                            + ag.describe(ag.current_location()))
        if not jnp.ndim(x):
            raise TypeError(f"len() of a scalar array ({_describe(x)}) is not defined")
        return jnp.shape(x)[0]

    def size0(self, x):
        if isinstance(x, _Range):
            return x.size(clamp=False)
        if not jnp.ndim(x):
            raise TypeError(f"cannot iterate over a scalar array ({_describe(x)})")
        return jnp.shape(x)[0]

    def getitem(self, x, i):
        if isinstance(x, _Range):
            return x.item(i)
        if jnp.shape(x)[0] == 0:      # traced for a loop that never runs
            return jnp.zeros(jnp.shape(x)[1:], jnp.result_type(x))
        return x[i]

    def range(self, start, limit, delta):
        for v in (start, limit, delta):
            if not (isinstance(v, int) or (_is_value(v) and jnp.issubdtype(
                    _aval(v).dtype, jnp.integer) and not _aval(v).shape)):
                raise TypeError(f"range() takes integers, got {_describe(v)}")
        if isinstance(delta, int) and delta == 0:
            raise ValueError("range() arg 3 must not be zero")
        return _Range(start, limit, delta)

    def cast(self, x, kind):
        return jnp.asarray(x).astype(jnp.int32 if kind == "int" else jnp.float32)

    def reduce(self, kind, x):
        return (jnp.min if kind == "min" else jnp.max)(x)

    def sum0(self, x):
        if isinstance(x, _JaxList):
            raise TypeError("sum() of a list being appended to in a JAX loop is not "
                            "supported; sum it after the loop" + ag.describe(ag.current_location()))
        if isinstance(x, _Range):
            raise TypeError("sum() of a range with a traced bound is not supported")
        if not jnp.ndim(x):
            raise TypeError(f"sum() of a scalar array ({_describe(x)}) is not defined: it is "
                            f"not iterable")
        return jnp.sum(x, axis=0)

    def elementwise(self, kind, a, b):
        if type(a) is int and type(b) is int:       # static lengths stay static
            return min(a, b) if kind == "min" else max(a, b)
        return (jnp.minimum if kind == "min" else jnp.maximum)(a, b)

    def assert_(self, cond, message):
        if message.startswith("the loop must iterate at least once"):
            # autograph's own check (a name only a loop's body defines): a
            # run-time error from a host callback, with or without checkify
            def check(ok):
                if not ok:
                    raise UnboundLocalError(message)
            jax.debug.callback(check, _truth(cond))
            return None
        if getattr(_LOCAL, "checks", 0):
            from jax.experimental import checkify
            checkify.check(_truth(cond), message.replace("{", "{{").replace("}", "}}"))
            return None
        raise TypeError(
            f"assert on a traced JAX value: {message}. Compiled JAX code cannot raise; "
            f"stage the check with jax.experimental.checkify "
            f"(autograph.jax.jit(f, checkify=True)), or assert on a Python value")

    # --- lists ---------------------------------------------------------------------

    def new_list(self, items, like):
        sample = items[0] if items else like
        if sample is None:
            raise ValueError("cannot stage a loop appending to an empty list whose elements "
                             "are unknown")
        return _JaxList(items, like if like is not None else sample)

    def list_append(self, lst, x):
        if isinstance(lst, _JaxList):
            return lst.appended(x)
        if not jnp.ndim(lst):
            raise TypeError(f"cannot append to a scalar array ({_describe(lst)}): it is not a "
                            f"list")
        row = jnp.asarray(x, dtype=lst.dtype)[None]
        return jnp.concatenate([lst, row], axis=0)

    def list_stack(self, lst):
        if isinstance(lst, _JaxList):
            items = lst.items + list(lst.new)
            if not items:
                like = jnp.asarray(lst.like)
                return jnp.zeros((0,) + like.shape, like.dtype)
            return jnp.stack([jnp.asarray(v) for v in items])
        return lst

    # --- placeholders ----------------------------------------------------------------

    def probe(self, fn, args):
        """Trace `fn` once into a throwaway jaxpr; arrays and numbers among
        `args` become abstract inputs. The outputs are read for their types
        only."""
        at = [i for i, a in enumerate(args) if _is_value(a)]
        box = []

        def traced(*values):
            full = list(args)
            for i, v in zip(at, values):
                full[i] = v
            box.append(fn(*full))
            return ()
        jax.make_jaxpr(traced)(*[args[i] for i in at])
        return box[0]

    def dummy_like(self, value):
        if isinstance(value, (tuple, list)):
            return type(value)(self.dummy_like(v) for v in value)
        if isinstance(value, _JaxList):
            return _JaxList([], value.like)
        if isinstance(value, _NUMBERS):
            return type(value)(0)
        a = _aval(value)
        return _cast(jnp.zeros(a.shape, a.dtype), a.dtype, a.weak_type)


# --- helpers of cond and the loops -----------------------------------------------------

class _Branch:
    """One branch of a staged if, traced once into a jaxpr whose outputs are
    the arrays among the values it leaves; `finish` then takes its
    reconciled outputs: `out` (one per name), `index[i][j]` the position of
    name i's leaf j among `replay()`'s values (the jaxpr's outputs, then the
    values made after tracing: placeholders, numbers)."""

    def __init__(self, branches, which, names):
        box = {}

        def traced():
            leaves = [x for v in branches.trace(which) for x in _leaves(v, "")[0]
                      if isinstance(x, _JaxList) or _is_value(x)]
            flat = [y for x in leaves for y in (x.new if isinstance(x, _JaxList) else (x,))]
            box["traced"] = {id(x): k for k, x in enumerate(flat)}
            box["alive"] = flat          # kept so no id is reused before `finish`
            return flat
        self.jaxpr = jax.make_jaxpr(traced)()
        self.traced, self._alive = box["traced"], box["alive"]
        self.names, self.made = names, []

    def finish(self, out, label):
        self.out = tuple(out)
        if len(self.out) != len(self.names):
            raise ValueError(f"autograph: a branch returned {len(self.out)} values for "
                             f"{len(self.names)} names")
        self.index = []
        for i, v in enumerate(self.out):
            if isinstance(v, _JaxList):
                self.index.append([self._position(x) for x in v.new])
                continue
            flat, _, paths = _leaves(v, self.names[i])
            for x, path in zip(flat, paths):
                if x is not None and not _is_value(x):
                    raise TypeError(f"'{path}' in the {label} branch is {_describe(x)}, "
                                    f"which is not a JAX type: a staged if can only "
                                    f"choose between arrays (and numbers)")
            self.index.append([None if x is None else self._position(x) for x in flat])

    def _position(self, x):
        k = self.traced.get(id(x))
        if k is None:                    # made after tracing: replayed as a constant
            k = len(self.traced) + len(self.made)
            self.made.append(x)
        return k

    def replay(self):
        return list(jax.core.eval_jaxpr(self.jaxpr.jaxpr, self.jaxpr.consts)) + self.made


def _cheap_bools(true, false, targets):
    """Both branches give one bool scalar, with few operations and no effects."""
    return (len(targets) == 1 and targets[0][0] == np.bool_
            and all(not b.jaxpr.effects and len(b.jaxpr.jaxpr.eqns) <= 8 for b in (true, false))
            and all(v.shape == () for b in (true, false) for v in b.jaxpr.out_avals))


def _branch_lists(a, b, name):
    """A list appended to inside a loop, in both branches of an if: each
    branch must append the same number of elements."""
    if not (isinstance(a, _JaxList) and isinstance(b, _JaxList)):
        raise ValueError(f"'{name}' is a list being appended to in one branch but "
                         f"{_describe(b if isinstance(a, _JaxList) else a)} in the other")
    common = 0
    while common < min(len(a.new), len(b.new)) and a.new[common] is b.new[common]:
        common += 1
    if len(a.new) != len(b.new):
        raise ValueError(
            f"'{name}' gets {len(a.new) - common} element(s) appended in the true branch "
            f"but {len(b.new) - common} in the false branch of an if inside a JAX loop: "
            f"every iteration must append the same number of elements (they are stacked). "
            f"Append in both branches, or preallocate an array and set elements with .at[]")
    return common, a


def _stacked_list(lst, ys, n):
    """What a scan appended (per iteration, a tuple of appends), stacked in
    order after the elements the list held before the loop."""
    if not ys:
        return lst
    rows = jnp.stack([jnp.asarray(y) for y in ys], axis=1)
    rows = rows.reshape((n * len(ys),) + rows.shape[2:])
    if lst.items:
        rows = jnp.concatenate([jnp.stack([jnp.asarray(v, rows.dtype) for v in lst.items]),
                                rows])
    return rows


def _fixpoint(loop_vars, names, run):
    """Run a loop (`run(init, fit)`), widening the types of loop variables
    the body promotes (a Python int that becomes a float32, ...) and
    retracing; `fit` casts a body's outputs to the carried types."""
    plan = {}
    for _ in range(6):
        init = []
        trees = []
        for i, (name, v) in enumerate(zip(names, loop_vars)):
            leaves, tree, paths = _leaves(v, name)
            for x, path in zip(leaves, paths):
                if x is not None and not _is_value(x):
                    raise TypeError(f"'{path}' is {_describe(x)} before the loop, which is not "
                                    f"a JAX type: a staged loop carries only arrays and numbers")
            trees.append(tree)
            init.append(jax.tree_util.tree_unflatten(tree, [
                _cast(x, *plan[(i, j)]) if (i, j) in plan else
                (jnp.asarray(x) if isinstance(x, _NUMBERS) else x)
                for j, x in enumerate(leaves)]))
        init = tuple(init)

        def fit(out):
            if len(out) != len(init):
                raise ValueError(f"autograph: a loop body returned {len(out)} values for "
                                 f"{len(init)} names")
            widen, result = {}, []
            for i, (name, before, after) in enumerate(zip(names, init, out)):
                cast = []
                for j, (x, y, t) in enumerate(_pair_targets(before, after, name, _LOOP)):
                    if t is None:
                        cast.append(y)
                        continue
                    a = _aval(x)
                    if (a.dtype, a.weak_type) != t:
                        widen[(i, j)] = t
                    cast.append(_cast(y, a.dtype, a.weak_type))
                result.append(jax.tree_util.tree_unflatten(trees[i], cast))
            if widen:
                raise _Widen(widen)
            return tuple(result)
        try:
            return run(init, fit)
        except _Widen as w:
            plan.update(w.plan)
    raise RuntimeError("autograph: the types of a JAX loop's variables did not settle")


BACKEND = JaxBackend()
ag.register_backend(BACKEND)
