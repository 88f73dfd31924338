"""A tensor `if`, staged: each branch traced once, the two reconciled once.

    out = staged_if(backend, cond, body, orelse, state, names, where)

The backend's `cond` receives an `IfBranches` (the `Branches` of
autograph/backend.py): it traces each branch once (`trace`, in the order it
likes), then asks each for its outputs (`outputs`), which are decided from
both branches' values together:

- a name neither branch defines stays undefined (no output);
- a Python object (not a number) both branches leave as it was is no
  output: it is itself after the if;
- the return value defined in one branch only gets a placeholder of its type
  in the other (the flag beside it says it is not returned there);
- any other name one branch defines and the other does not, or with another
  structure in each, is the user's error, named with the statement.

`stage_cond` is the same for operators whose branches give plain values
(`a and b`, `x if c else y`).
"""

from .. import source_map
from . import staging
from .errors import display_names, mark, relocate
from .variables import Undefined, aliased, dummy_like, is_return_slot

__all__ = ["staged_if", "stage_cond", "IfBranches", "is_plain"]

_NO_VALUE = object()      # entry value of a name a staged if only outputs


def _marked(error):
    mark(error)
    return error


def is_plain(value, backend):
    """Values that cannot be a branch output: kept as they are if unchanged."""
    if backend.is_tensor(value) or backend.is_list(value) or value is None:
        return False
    return not isinstance(value, (bool, int, float, str, complex))


def _run(fn, state):
    if fn is None:
        return tuple(state)
    out = fn(*state)
    return () if out is None else tuple(out)


def staged_if(backend, cond, body, orelse, state, names, where):
    """Stage an `if` whose condition is a tensor; see `if_stmt`. A condition
    whose value the backend knows already runs one branch, as Python."""
    known = backend.static_truth(cond)
    if known is not None:
        return _run(body if known else orelse, state)
    branches = IfBranches(backend, body, orelse, state, names, where)
    try:
        out = backend.cond(cond, branches, display_names(names))
    except (TypeError, ValueError) as e:
        relocate(e, where)
        raise
    return branches.results(out)


def stage_cond(backend, pred, true_fn, false_fn, names):
    """`true_fn() if pred else false_fn()` for branches that return a tuple
    of values to output as they are."""
    known = backend.static_truth(pred)
    if known is not None:
        return tuple((true_fn if known else false_fn)())
    return tuple(backend.cond(pred, _PlainBranches(true_fn, false_fn), tuple(names)))


class _PlainBranches:
    def __init__(self, true_fn, false_fn):
        self._fns = {True: true_fn, False: false_fn}
        self._out = {}

    def trace(self, which):
        self._out[which] = tuple(self._fns[which]())
        return self._out[which]

    def outputs(self, which):
        return self._out[which]


class IfBranches:
    """The branches of one staged `if` (see the module docstring)."""

    def __init__(self, backend, body, orelse, state, names, where):
        self.backend, self.names, self.where = backend, tuple(names), where
        self.n_in = len(state)
        self.state = tuple(state) + (_NO_VALUE,) * (len(names) - len(state))
        self.fns = {True: body, False: orelse}
        self.raw, self.snap = {}, {}
        self.keep = None          # indexes whose plain value one branch changed

    def trace(self, which):
        if which in self.raw:
            raise RuntimeError(f"autograph: the backend traced the {_label(which)} twice")
        try:
            with staging.inside("if statement", self.where):
                out = _run(self.fns[which], self.state[:self.n_in])
        except Exception as e:
            mark(e)
            raise
        if len(out) != len(self.state):
            raise ValueError(f"autograph: a branch returned {len(out)} values for "
                             f"{len(self.state)} names")
        self.raw[which] = out
        # Its values as they are now: the other branch starts from the same
        # objects and may change a dict or list this one returns.
        for v in out:
            if isinstance(v, _CONTAINERS):
                out = tuple(map(_snapshot, out))
                break
        self.snap[which] = out
        return out

    def outputs(self, which):
        if len(self.raw) != 2:
            raise RuntimeError("autograph: the backend asked for a branch's outputs "
                               "before tracing both")
        if self.keep is None:
            try:
                self.keep = _reconcile(self.raw[True], self.raw[False], self.state, self.names,
                                       self.where, self.backend)
            except (TypeError, ValueError) as e:
                relocate(e, self.where)
                raise
        raw, other = self.raw[which], self.raw[not which]
        out = []
        for i, v in enumerate(self.snap[which]):
            out.append(self._encode(i, v, raw[i], other[i]))
        return tuple(out)

    def _encode(self, i, value, raw, other):
        if isinstance(raw, Undefined):
            if isinstance(other, Undefined):
                return None
            return dummy_like(self.backend, other)
        if i not in self.keep and raw is self.state[i] and is_plain(raw, self.backend):
            return None
        return value

    def results(self, out):
        """The statement's values from the outputs the backend chose."""
        result = []
        for i, v in enumerate(out):
            t, f = self.raw[True][i], self.raw[False][i]
            if isinstance(t, Undefined) and isinstance(f, Undefined):
                result.append(t)
            elif (i not in self.keep and t is self.state[i] and f is self.state[i]
                  and is_plain(t, self.backend)):
                result.append(self.state[i])
            elif t is f and type(t) in (dict, list):
                result.append(t)          # the same object either way: not a copy
            else:
                result.append(v)
        return tuple(result)


def _label(which):
    return "if branch" if which else "else branch"


_CONTAINERS = (dict, list, tuple)   # what _snapshot may copy and _same_structure looks into


def _snapshot(value):
    if isinstance(value, dict):
        return {k: _snapshot(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_snapshot(v) for v in value)
    return value


def _same_structure(a, b):
    """Whether `a` and `b` nest dicts, lists and tuples alike (other values
    are leaves)."""
    if type(a) is dict or type(b) is dict:
        return (type(a) is dict and type(b) is dict and a.keys() == b.keys()
                and all(_same_structure(a[k], b[k]) for k in a))
    seqs = (list, tuple)
    if type(a) in seqs or type(b) in seqs:
        return (type(a) in seqs and type(b) in seqs and len(a) == len(b)
                and all(_same_structure(x, y) for x, y in zip(a, b)))
    return True


def _structure(value):
    """A short description of `value`'s nesting: 'a tuple of 2', 'a dict with
    keys ['a']', 'a single value'."""
    if type(value) is dict:
        return f"a dict with keys {sorted(map(str, value))}"
    if type(value) in (list, tuple):
        return f"a {type(value).__name__} of {len(value)}"
    return "a single value"


def _reconcile(t_out, f_out, state, names, where, backend):
    """Check the branches agree on what they define; return the indexes of
    Python values one branch leaves as they were and the other changes
    (those are outputs after all, so the backend says what is wrong)."""
    keep = set()
    for i, (t, f) in enumerate(zip(t_out, f_out)):
        _check_pair(i, t, f, names, where)
        if isinstance(t, Undefined) or isinstance(f, Undefined):
            continue
        t_plain = t is state[i] and is_plain(t, backend)
        f_plain = f is state[i] and is_plain(f, backend)
        if t_plain != f_plain:
            keep.add(i)
    return keep


def _check_pair(i, t, f, names, where):
    """The errors for one name's values in the two branches."""
    name = names[i]
    if (type(t) in (dict, list) and type(f) in (dict, list) and t is not f
            and (aliased(t, name) or aliased(f, name))):
        raise _marked(ValueError(
            f"'{name}' is a different {type(t).__name__} in each branch of a tensor if "
            f"statement{source_map.describe(where)}, and another name shares one of them: "
            f"after a staged if it is a copy, so changes made later through the other "
            f"name would not reach it. Build a new one in both branches, or copy it "
            f"before the if."))
    tu, fu = isinstance(t, Undefined), isinstance(f, Undefined)
    if is_return_slot(name) and (t is None) != (f is None) and not (tu or fu):
        none_in, value_in = ("if", "else") if t is None else ("else", "if")
        raise _marked(ValueError(
            f"the function returns a value in the {value_in} branch of a tensor if "
            f"statement but no value (None) in the {none_in} branch"
            f"{source_map.describe(where)}. Return a value on every path."))
    if not (tu or fu) and (type(t) in _CONTAINERS or type(f) in _CONTAINERS) \
            and not _same_structure(t, f):                  # (two leaves are alike)
        raise _marked(TypeError(                        # TensorFlow's type and phrase
            f"'{display_names((name,))[0]}' must have the same nested structure in "
            f"the main and else branches: {_structure(t)} in the if branch, "
            f"{_structure(f)} in the else branch of a tensor if statement"
            f"{source_map.describe(where)}. Give it the same structure in both branches."))
    if tu != fu and not is_return_slot(name):
        # TensorFlow's phrase first ("main" is its name for the if branch).
        missing, has = ("else branch", "if") if fu else ("main branch (the if branch)", "else")
        raise _marked(ValueError(
            f"'{name}' must also be initialized in the {missing}: it is defined in "
            f"the {has} branch of a tensor if statement and used after it"
            f"{source_map.describe(where)}. Define it before the if statement, or in "
            f"both branches."))
