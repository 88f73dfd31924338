"""Staging loops whose condition or iterated value is a tensor.

A staged `for` is a staged `while` over an index:

    for item in xs:              i = 0
        s = body(item, s)   ->   while i < size(xs) and extra_test(s):
                                     s = body(xs[i], s); i += 1

Before staging, the body is probed once (in a throwaway graph, its printed
output discarded) when some variable needs a value it does not have yet:
a name first defined inside the loop, the return value slot, or an empty
Python list that the loop appends to (it becomes a tensor list, stacked
after the loop).
"""

import contextlib
import io
import sys
import threading

from .. import source_map
from . import side_effects, staging
from .variables import Undefined, aliased, dummy_like, is_return_slot
from .errors import display_names, mark as _mark, relocate

__all__ = ["staged_while", "staged_for", "indexed_backend", "IndexedIterable", "dummy_like"]


class IndexedIterable:
    """What `enumerate` / `zip` over tensors return: `length` items, `item(i)`."""

    def __init__(self, backend, length, item):
        self.backend = backend
        self.length = length
        self.item = item


def indexed_backend(iterable):
    return iterable.backend if isinstance(iterable, IndexedIterable) else None


def _mark_located(error):
    _mark(error)
    return error


def slot_values(get_state, names):
    """The current values of a statement's slots (`get_state()`), a missing
    one as `Undefined` named after its slot ("d['k']", 'o.w', 'k')."""
    return tuple(Undefined(name) if isinstance(v, Undefined) else v
                 for v, name in zip(get_state(), names))


def with_composites(composites, state, stage, test, body, item_first=False):
    """Run `stage(test, body, state, extra_names)` with the slots the loop
    assigns (`composites` = get_state, set_state, names: attributes, items
    and shared names) carried as extra loop variables."""
    if composites is None:
        return stage(test, body, state, ())
    get_state, set_state, comp_names = composites
    entry = slot_values(get_state, comp_names)
    for name, value in zip(comp_names, entry):
        if isinstance(value, Undefined) and ("." in name or "[" in name) \
                and side_effects.is_strict_side_effects():
            # As in TensorFlow, the key gets a placeholder value before the
            # loop (every traced iteration sees it, even the first, where
            # Python does not) and the loop must iterate at least once;
            # strict mode refuses the difference.
            raise _mark_located(ValueError(
                f"'{name}' is first set inside a tensor loop"
                f"{source_map.describe(source_map.current_location())}: the staged loop "
                f"gives it a value before the first iteration, so code testing for it "
                f"would see it where Python does not (strict side effects are on). Set "
                f"'{name}' before the loop."))
    n = len(state)

    def test2(*s):
        if test is None:
            return True
        set_state(s[n:])
        return test(*s[:n])

    def body2(*args):
        head, s = (args[:1], args[1:]) if item_first else ((), args)
        before = slot_values(get_state, comp_names) if _probing() else None
        set_state(s[n:])
        out = body(*head, *s[:n])
        after = slot_values(get_state, comp_names)
        if before is not None:      # a probe's values must not stay behind
            set_state(before)
        return (() if out is None else tuple(out)) + after

    try:
        out = stage(None if test is None else test2, body2, state + entry, tuple(comp_names))
    except BaseException:
        set_state(entry)
        raise
    set_state(out[n:])
    return out[:n]


def staged_for(backend, iterable, body, state, names, extra_test, where, opts=None):
    if isinstance(iterable, IndexedIterable):
        length, get = iterable.length, iterable.item
    else:
        length = backend.size0(iterable)

        def get(i):
            return backend.getitem(iterable, i)

    from .logical import and_

    def test(i, *s):
        if extra_test is None:
            return i < length
        return and_(i < length, lambda: extra_test(*s))

    def step(i, *s):
        out = body(get(i), *s)
        return (i + 1,) + (() if out is None else tuple(out))

    # A length known when tracing bounds the loop (a backend may stage a scan).
    bound = length if type(length) is int else None
    out = _stage(backend, test, step, (0,) + state, ("iteration",) + names, where, "for", opts,
                 bound=bound, exact=extra_test is None)
    return out[1:]


def staged_while(backend, test, body, state, names, where, opts=None):
    return _stage(backend, test, body, state, names, where, "while", opts)


@contextlib.contextmanager
def _quiet():
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        yield
    finally:
        sys.stdout = saved


def _needs_probe(v, backend):
    if isinstance(v, Undefined) or (isinstance(v, list) and not v):
        return True
    return not (backend.is_tensor(v) or backend.is_list(v) or v is None
                or isinstance(v, (bool, int, float, str, list, tuple)))


def _is_object(v, backend):
    """A Python object (not a number, string, tensor or Undefined)."""
    return not (isinstance(v, (Undefined, bool, int, float, str)) or backend.is_tensor(v))


_PROBING = threading.local()      # .depth > 0 while a body runs in a probe graph


def _probing():
    return getattr(_PROBING, "depth", 0) > 0


def _probe(backend, body, state):
    args = tuple(list(v) if isinstance(v, list) else v for v in state)
    _PROBING.depth = getattr(_PROBING, "depth", 0) + 1
    try:
        with _quiet():
            out = backend.probe(lambda *a: body(*a), args)
    finally:
        _PROBING.depth -= 1
    return () if out is None else tuple(out)


def _element_like(backend, probed):
    """An example element of what a probe left in a list variable, when it
    is still a Python list (an inner staged loop makes it a tensor of the
    probe's graph: unusable here, so None)."""
    if isinstance(probed, list):
        return probed[-1] if probed else None
    return None


def _initial_values(backend, body, state, names, where, kind):
    """(initial loop values, {index: loop-invariant value}, names that only
    a first iteration defines)."""
    probed = None
    if any(_needs_probe(v, backend) for v in state):
        probed = _probe(backend, body, state)
    init, invariant, must_define = [], {}, []
    for i, v in enumerate(state):
        if probed is not None and probed[i] is v and _is_object(v, backend):
            invariant[i] = v                    # the body never changes it
        elif isinstance(v, Undefined):
            if isinstance(probed[i], Undefined):
                invariant[i] = v                # defined on no path of the body
                continue
            if not is_return_slot(names[i]):
                must_define.append(names[i])
            init.append(dummy_like(backend, probed[i]))
        elif type(v) is dict and probed is not None and probed[i] is not v \
                and (aliased(v, names[i]) or aliased(probed[i], names[i])):
            raise ValueError(
                f"'{names[i]}' is replaced by another {type(probed[i]).__name__} in a tensor "
                f"{kind} loop{source_map.describe(where)}, and another name shares the dict it "
                f"holds before or after: after the loop '{names[i]}' is a copy, so changes "
                f"made through the other name would not reach it. Give the loop a dict of "
                f"its own ({names[i]} = dict(...)) before the loop and in it.")
        elif isinstance(v, list):
            like = _element_like(backend, None if probed is None else probed[i])
            try:
                init.append(backend.new_list(v, like))
            except (TypeError, ValueError) as e:
                raise type(e)(f"'{names[i]}' is appended to in a tensor {kind} loop, so it "
                              f"becomes a tensor list{source_map.describe(where)}, but {e}"
                              ) from None
        else:
            init.append(v)
    return init, invariant, must_define


def _marking(fn, kind, where):
    """Errors raised inside a loop's test or body already name their line.
    While it runs, the loop is the innermost staged statement."""
    def run(*args):
        try:
            with staging.inside(f"{kind} loop", where):
                return fn(*args)
        except Exception as e:
            _mark(e)
            raise
    return run


def _stage(backend, test, body, state, names, where, kind, opts=None, bound=None,
           exact=False):
    """Stage `while test(*state): state = body(*state)` with the backend.

    A name only the body defines gets a placeholder value before the loop,
    and a run-time check that the loop iterated at least once (as in
    TensorFlow, the same graph serves inputs that do iterate). A for loop
    counts its iterations already (its index); a while loop gets a counter.
    A for loop over a length known when tracing (`bound`, a Python int; no
    break or return when `exact`) goes to the backend's `bounded_loop`.
    """
    test, body = _marking(test, kind, where), _marking(body, kind, where)
    init, invariant, must_define = _initial_values(backend, body, state, names, where, kind)
    slots = [i for i in range(len(state)) if i not in invariant]
    counted = bool(must_define) and kind == "while"
    # `opts` (set_loop_options) only when given: backends written before it
    # existed take no such argument.
    options = {"opts": dict(opts)} if opts else {}

    def full(loop_vars):
        values = dict(invariant)
        values.update(zip(slots, loop_vars))
        return [values[i] for i in range(len(state))]

    def cond_fn(*loop_vars):
        return test(*full(loop_vars[:len(slots)]))

    def body_fn(*loop_vars):
        out = body(*full(loop_vars[:len(slots)]))
        out = () if out is None else tuple(out)
        count = (loop_vars[-1] + 1,) if counted else ()
        return tuple(out[i] for i in slots) + count

    loop_names = display_names(tuple(names[i] for i in slots))
    try:
        if bound is None:
            results = backend.while_loop(cond_fn, body_fn,
                                         tuple(init) + ((0,) if counted else ()),
                                         loop_names + (("iterations",) if counted else ()),
                                         **options)
        else:
            limit = (opts or {}).get("maximum_iterations")
            if type(limit) is int:
                bound = max(0, min(bound, limit))
            results = backend.bounded_loop(cond_fn, body_fn, tuple(init), loop_names, bound,
                                           exact, **options)
    except (TypeError, ValueError) as e:
        relocate(e, where)
        raise
    final = full(results[:len(slots)])
    for i, v in enumerate(final):
        # Python lists appended to in the loop became tensor lists: stack them.
        # A tensor list the user made (a TensorArray) stays one.
        if isinstance(state[i], list) and backend.is_list(v):
            final[i] = backend.list_stack(v)
    if must_define:
        _check_iterated(backend, results[-1] if counted else final[0], must_define, where)
    return tuple(final)


def _check_iterated(backend, iterations, defined, where):
    listed = ", ".join(f"'{n}'" for n in defined)
    backend.assert_(iterations > 0,
                    f"the loop must iterate at least once to define {listed}"
                    f"{source_map.describe(where)}")
