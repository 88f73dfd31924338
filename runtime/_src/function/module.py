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

__all__ = ["Module", "is_variable"]

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
    return sorted(((k, v) for k, v in vars(module).items() if k != "_name"),
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


def _snake_case(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
