"""`Module`: a container that finds the variables and submodules in its
attributes, like `tf.Module`.

Attributes are searched recursively (modules inside modules, and lists,
tuples and dicts of them), in sorted attribute order, each object once:

    class Dense(Module):
        def __init__(self):
            super().__init__()
            self.w = Variable([[1.0]])
            self.b = Variable([0.0], trainable=False)

    class Net(Module):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(), Dense()]

    Net().variables            # (w, b, w, b) of both layers
    Net().trainable_variables  # (w, w)
    Net().submodules           # (Dense, Dense)
"""

import re
from runtime._src.function.variables import Variable

__all__ = ["Module", "is_variable", "ListWrapper", "DictWrapper", "track_containers",
           "child_added", "on_new_child", "forget_new_child"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-/]*$")


def is_variable(obj):
    """True for `runtime.Variable` objects."""
    return isinstance(obj, Variable)


class Module:
    """Base class tracking variables and submodules found in attributes."""

    def __init__(self, name=None):
        if name is None:
            name = _snake_case(type(self).__name__)
        self._check_name(name)
        self._name = name

    def __setattr__(self, name, value):
        """A list or dict set on a Module is wrapped so that it stays tracked
        when it grows, as TF's `ListWrapper`/`DictWrapper`; a checkpoint
        restored earlier gives a new child its saved value."""
        if self._wraps_containers:
            value = track_containers(value)
        object.__setattr__(self, name, value)
        child_added(self)

    _wraps_containers = True      # a Keras layer tracks its own way (Keras 3)

    @staticmethod
    def _check_name(name):
        if not _NAME.match(name):
            raise ValueError(f"Module: {name!r} is not a valid module name; use letters, "
                             "digits and underscores, starting with a letter")

    @property
    def name(self):
        return self._name

    @property
    def variables(self):
        """Every variable in this module and its submodules, each once."""
        return tuple(self._flatten(is_variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if getattr(v, "trainable", True))

    @property
    def non_trainable_variables(self):
        return tuple(v for v in self.variables if not getattr(v, "trainable", True))

    @property
    def submodules(self):
        """Every module inside this one (not itself), each once."""
        return tuple(self._flatten(lambda o: isinstance(o, Module)))

    def _flatten(self, predicate, with_path=False):
        """Objects in attributes (recursively) satisfying predicate, with attr paths."""
        found = []
        seen = {id(self)}
        for key, value in _attributes(self):
            _collect(value, key, predicate, seen, found)
        return found if with_path else [obj for _, obj in found]


def _attributes(module):
    """(name, value) of a module's attributes, sorted by name (its own name excluded)."""
    return sorted(((k, v) for k, v in vars(module).items()
                   if k != "_name" and k != _DEFERRED),
                  key=lambda kv: kv[0])


def _collect(value, path, predicate, seen, found):
    """Depth-first search of value for objects matching predicate."""
    if id(value) in seen:
        return
    if predicate(value):
        seen.add(id(value))
        found.append((path, value))
    if isinstance(value, Module):
        seen.add(id(value))
        for key, item in _attributes(value):
            _collect(item, f"{path}.{key}", predicate, seen, found)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _collect(item, f"{path}[{i}]", predicate, seen, found)
    elif isinstance(value, dict):
        for key in sorted(value, key=str):
            _collect(value[key], f"{path}[{key!r}]", predicate, seen, found)


# --- containers that stay tracked ----------------------------------------------------

_DEFERRED = "_deferred_restores"


def child_added(owner):
    """Run the deferred restorations waiting on `owner` (a checkpoint restored
    before this child existed; see train/restore.py)."""
    waiting = owner.__dict__.get(_DEFERRED)
    if waiting:
        for restore in list(waiting):
            restore(owner)


def on_new_child(owner, callback):
    """Call `callback(owner)` each time `owner` (a Module, a Checkpoint, a
    ListWrapper or DictWrapper) gets a new child, until `forget_new_child`."""
    owner.__dict__.setdefault(_DEFERRED, []).append(callback)


def forget_new_child(owner, callback):
    waiting = owner.__dict__.get(_DEFERRED)
    if waiting and callback in waiting:
        waiting.remove(callback)


def track_containers(value):
    """A plain list or dict as a ListWrapper or DictWrapper; anything else as is."""
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return DictWrapper(value)
    return value


class ListWrapper(list):
    """A list held by a Module or Checkpoint (TF's `ListWrapper`): a list whose
    additions are new children of the object graph."""

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"

    def append(self, value):
        list.append(self, value)
        child_added(self)

    def extend(self, values):
        list.extend(self, values)
        child_added(self)

    def insert(self, index, value):
        list.insert(self, index, value)
        child_added(self)

    def __setitem__(self, index, value):
        list.__setitem__(self, index, value)
        child_added(self)

    def __iadd__(self, values):
        self.extend(values)
        return self


class DictWrapper(dict):
    """A dict held by a Module or Checkpoint (TF's `_DictWrapper`)."""

    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        child_added(self)

    def update(self, *args, **kwargs):
        dict.update(self, *args, **kwargs)
        child_added(self)

    def setdefault(self, key, default=None):
        value = dict.setdefault(self, key, default)
        child_added(self)
        return value


def _snake_case(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
