"""Control-flow operators: what converted `if`, `while` and `for` call.

Each is documented by the plain Python it means. Bodies are functions of the
variables the statement may change (its "state"), returning their new values:

    y, = if_stmt(x > 0, if_body, else_body, (y,), ('y',))
    # means:  y, = if_body(y) if x > 0 else else_body(y)

    y, = if_stmt(x > 0, if_body, else_body, names=('y',))
    # means:  y, = if_body() if x > 0 else else_body()   (both branches bind y)

    i, s = while_stmt(loop_test, loop_body, (i, s), ('i', 's'))
    # means:  while loop_test(i, s): i, s = loop_body(i, s)

    s, = for_stmt(items, loop_body, (s,), ('s',), extra_test=None)
    # means:  for item in items:
    #             if extra_test and not extra_test(s): break
    #             s, = loop_body(item, s)

    i, = while_stmt(loop_test, loop_body, (i,), ('i',), opts={'maximum_iterations': 3})
    # means:  the same loop; staged, it stops after 3 iterations (the loop's
    #         set_loop_options, see operators/directives.py; Python ignores them)

When the condition (or the iterated value) is a tensor of a registered
backend, the statement is staged with the backend's `cond` / `while_loop`
instead. A Python loop whose test becomes a tensor part-way is staged from
that point on.
"""

import inspect
import re

from .. import source_map
from ..backend import backend_of
from . import loops, side_effects, stream_loops, tracking
from .errors import mark as _mark
from .staged_if import is_plain as _is_plain, staged_if

__all__ = ["if_stmt", "while_stmt", "for_stmt", "match_subject"]


def _run(fn, state):
    """Call a body; bodies with no state return None."""
    if fn is None:
        return tuple(state)
    out = fn(*state)
    return () if out is None else tuple(out)


def if_stmt(cond, body, orelse=None, state=(), names=(), composites=None, effects=()):
    """`body(*state) if cond else orelse(*state)`; returns the new values of
    `names`: first those of `state` (passed in), then names both branches
    bind without reading them first (not passed in). `effects`: changes to
    Python objects in the branches, refused when the if is staged."""
    backend = backend_of(cond)
    tracking.record("if", backend is not None, body)
    if backend is None:
        return _run(body if cond else orelse, state)
    where = source_map.current_location()
    state, names = tuple(state), tuple(names) or tuple(f"<output {i}>" for i in range(len(state)))
    if effects:
        _report_effects(effects, "if statement", where, backend, dict(zip(names, state)))
    if composites is not None:
        return _staged_if_with_composites(backend, cond, body, orelse, state, names, where,
                                          composites)
    return staged_if(backend, cond, body, orelse, state, names, where)


def while_stmt(test, body, state=(), names=(), composites=None, effects=(), test_binds=(),
               opts=None):
    """`while test(*state): state = body(*state)`; returns the final state.
    `test_binds`: names the test assigns with `:=` (refused when staged).
    `opts`: the loop's set_loop_options, for the backend when staged."""
    state = tuple(state)
    t = test(*state)
    tracking.record("while", backend_of(t) is not None, body)
    while True:
        backend = backend_of(t)
        if backend is not None:
            where = source_map.current_location()
            if effects:
                _report_effects(effects, "while loop", where, backend, dict(zip(names, state)),
                                lists_carried=True)
            if test_binds:
                listed = ", ".join(f"'{n}'" for n in test_binds)
                raise _marked(ValueError(
                    f"the condition of a tensor while loop assigns {listed} with :="
                    f"{source_map.describe(where)}: a staged loop evaluates its condition "
                    f"apart from its body, so the body cannot see the value. Assign it "
                    f"before the loop and at the end of the body instead."))
            return loops.with_composites(composites, state, lambda t, b, s, extra: (
                loops.staged_while(backend, t, b, s, tuple(names) + extra, where, opts)),
                test, body)
        if not t:
            return state
        state = _run(body, state)
        t = test(*state)


def for_stmt(iterable, body, state=(), names=(), extra_test=None, composites=None, effects=(),
             opts=None):
    """Run `body(item, *state)` for each item until `extra_test(*state)` is false.
    `opts`: the loop's set_loop_options, for the backend when staged."""
    state = tuple(state)
    backend = backend_of(iterable) or loops.indexed_backend(iterable)
    tracking.record("for", backend is not None, body)
    if backend is not None:
        where = source_map.current_location()
        if effects:
            _report_effects(effects, "for loop", where, backend, dict(zip(names, state)),
                            lists_carried=True)
        stream = backend.stream(iterable)           # a dataset: not indexed
        if stream is not None:
            tracking.record(f"for over {stream.kind}", True, body)
        staged, over = ((stream_loops.staged_stream, stream) if stream is not None
                        else (loops.staged_for, iterable))
        return loops.with_composites(composites, state, lambda t, b, s, extra: (
            staged(backend, over, b, s, tuple(names) + extra, t, where, opts)),
            extra_test, body, item_first=True)
    if extra_test is None:
        for item in iterable:
            state = _run(_bind_item(body, item), state)
        return state
    t = extra_test(*state)
    if backend_of(t) is None and not t:
        return state
    for item in iterable:
        if backend_of(t) is not None:
            # The test became a tensor: every later iteration is staged as
            # `if extra_test(*state): state = body(item, *state)`.
            _report_effects(effects, "if statement (a for loop over Python values whose "
                            "break or return condition is a tensor)",
                            source_map.current_location(), backend_of(t),
                            dict(zip(names, state)))
            state = if_stmt(t, _bind_item(body, item), None, state, names,
                            composites=composites, effects=effects)
        else:
            state = _run(_bind_item(body, item), state)
        t = extra_test(*state)
        if backend_of(t) is None and not t:
            break
    return state


def _report_effects(effects, kind, where, backend, values=None, lists_carried=False):
    """A staged statement runs the changes to Python objects made in its
    bodies while tracing: a tensor if traces both branches (both changes
    stay), a tensor loop its body once (one change instead of one per
    iteration). Each is reported (see side_effects.py: a warning, or an
    error in strict mode). Appends are staged by a loop (`lists_carried`: it
    makes the list a tensor list) and by an if when the list already is one
    (`values`: the names' values): those are not side effects. A loop
    carries each Python list among its variables as a tensor list: other
    changes to it cannot be traced (a ValueError)."""
    carried = ({n for n, v in values.items() if type(v) is list} if lists_carried and values
               else set())
    for line, text, list_name in effects:
        if list_name is not None and lists_carried:
            continue
        changed = _changed_list(text, carried)
        if changed is not None:
            raise _marked(ValueError(
                f"'{text}' ({where[0] if where else '<unknown>'}:{line}) changes the list "
                f"'{changed}' inside a tensor {kind}{source_map.describe(where)}, which "
                f"carries it as a tensor list (a TensorArray): one that can only be appended "
                f"to and indexed. Build a new list in the loop, or keep the other changes "
                f"after it."))
        value = None if values is None or list_name is None else values.get(list_name)
        if list_name is not None and (backend.is_list(value) or backend.is_tensor(value)):
            continue    # a tensor list, or a stacked one: appending is staged
        if list_name is None and _staged_method_call(text):
            continue    # e.g. a lookup table's insert: a graph op, not a Python change
        filename = where[0] if where else "<unknown>"
        side_effects.report(f"'{text}'", (filename, line), kind, where)


_LIST_CHANGE = (r"(?<![\w.]){}\s*(\.\s*(pop|insert|remove|clear|sort|reverse)\s*\("
                r"|\[[^\]]*\]\s*=[^=])")


_METHOD_CALL = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.([A-Za-z_]\w*)\s*\(")


def _staged_method_call(text):
    """Whether the call `text` (`table.insert(k, v)`, `self.table.remove(k)`)
    calls a method its object stages in the graph instead of changing Python
    state: one its class names in `__autograph_staged_methods__`. The receiver
    is read, without running any code, in the generated function's frame."""
    found = _METHOD_CALL.match(text)
    frame = source_map.current_frame(2) if found else None
    if frame is None:
        return False
    first, *rest = found.group(1).split(".")
    scope = frame.f_locals if first in frame.f_locals else frame.f_globals
    if first not in scope:
        return False
    obj = scope[first]
    try:
        for name in rest:
            obj = inspect.getattr_static(obj, name)
    except AttributeError:
        return False
    return found.group(2) in getattr(type(obj), "__autograph_staged_methods__", ())


def _changed_list(text, carried):
    """The name in `carried` (lists a staged loop appends to) that the
    statement `text` changes otherwise (`l.pop()`, `del l[0]`, `l[i] = x`),
    or None."""
    for name in carried:
        pattern = _LIST_CHANGE.format(re.escape(name))
        if re.search(pattern, text) or re.match(rf"del\s+{re.escape(name)}\s*\[", text):
            return name
    return None


def match_subject(value):
    """The subject of a `match` statement, which always dispatches in Python:
    a tensor (or a tuple or list holding one) is refused with the line."""
    parts = tuple(value) if type(value) in (tuple, list) else (value,)
    if backend_of(*parts) is not None:
        raise _marked(TypeError(
            f"a match statement{source_map.describe(source_map.current_location())} "
            f"compares its subject in Python, but the subject is (or holds) a tensor, "
            f"whose value is only known when the graph runs. Use if/elif on the tensor "
            f"instead: those become tf.cond."))
    return value


def _bind_item(body, item):
    def run(*state):
        return body(item, *state)
    return run


# --- staged if -----------------------------------------------------------------

def _staged_if_with_composites(backend, cond, body, orelse, state, names, where, composites):
    """The slots the branches assign (attributes, items, shared names: see
    `loops.slot_values`) become extra state: each branch starts from their
    values before the if, and reports them after; the results are set back
    after the cond. A slot missing before a branch is missing again."""
    get_state, set_state, slot_names = composites
    entry = loops.slot_values(get_state, slot_names)
    n_in, k = len(state), len(slot_names)

    def wrap(fn):
        def run(*s):
            set_state(s[n_in:])
            out = _run(fn, s[:n_in])
            slots = loops.slot_values(get_state, slot_names)
            for name, before, after in zip(slot_names, entry, slots):
                if after is not before and _is_plain(after, backend) and not callable(after):
                    raise _marked(ValueError(
                        f"'{name}' is set to a new Python object ({type(after).__name__}) "
                        f"inside a tensor if statement{source_map.describe(where)}: a staged "
                        f"if can choose between tensors, not between objects. Change the "
                        f"object's tensor attributes instead, or make the condition a "
                        f"Python value."))
            return out[:n_in] + slots + out[n_in:]
        return run
    names = names[:n_in] + tuple(slot_names) + names[n_in:]
    try:
        out = staged_if(backend, cond, wrap(body), wrap(orelse), state + entry, names, where)
    except BaseException:
        set_state(entry)
        raise
    set_state(out[n_in:n_in + k])
    return out[:n_in] + out[n_in + k:]


def _marked(error):
    _mark(error)
    return error
