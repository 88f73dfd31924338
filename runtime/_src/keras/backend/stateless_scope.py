"""`keras.StatelessScope`: inside it, Keras variables read the values given
in `state_mapping` and assignments to them are recorded in the scope instead
of changing them.

    with keras.StatelessScope(state_mapping=[(layer.kernel, new_kernel)]) as scope:
        out = layer(x)                    # computed with new_kernel
        v.assign(v + 1.0)                 # v itself is unchanged
    scope.get_current_value(v)            # the value assigned inside

With `collect_losses=True` the losses layers add inside the scope are also
gathered in `scope.losses`. Creating a variable inside the scope is an error,
as in Keras. `keras.SymbolicScope` marks the symbolic stage the same way.
"""

import threading

import numpy as np

from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.function.variables import Variable

__all__ = ["StatelessScope", "SymbolicScope", "get_stateless_scope", "get_symbolic_scope",
           "in_symbolic_scope"]

_state = threading.local()


def get_stateless_scope():
    """The innermost StatelessScope open in this thread, or None."""
    stack = getattr(_state, "stack", None)
    return stack[-1] if stack else None


class StatelessScope:
    """`keras.StatelessScope(state_mapping=None, collect_losses=False,
    initialize_variables=True)`."""

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses = []
        self.state_mapping = {}
        for variable, value in state_mapping or ():
            if not (isinstance(variable, Variable) and hasattr(variable, "path")):
                raise ValueError("Invalid reference variable in StatelessScope: all keys in "
                                 "argument `mapping` must be Variable instances. Received "
                                 f"instead: {variable}")
            self.state_mapping[id(variable)] = (variable, self._as_value(variable, value))

    @staticmethod
    def _as_value(variable, value):
        if not isinstance(value, Tensor):
            value = convert_to_tensor(np.asarray(value, variable._dtype.as_numpy_dtype))
        if tuple(value.shape.as_list()) != tuple(variable.shape.as_list()):
            raise ValueError("Invalid variable value in StatelessScope: all values in "
                             "argument `mapping` must be tensors with a shape that matches "
                             "the corresponding variable shape. For variable "
                             f"{variable}, received invalid value {np.asarray(value)} with "
                             f"shape {tuple(value.shape.as_list())}.")
        return value

    def __enter__(self):
        stack = getattr(_state, "stack", None)
        if stack is None:
            stack = _state.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc_info):
        _state.stack.pop()

    def add_loss(self, loss):
        self.losses.append(loss)

    def add_update(self, update):
        """Record (variable, value) as the variable's value in this scope."""
        variable, value = update
        self.state_mapping[id(variable)] = (variable, self._as_value(variable, value))

    def get_current_value(self, variable):
        """The value `variable` has in this scope (given or assigned), or None."""
        found = self.state_mapping.get(id(variable))
        return None if found is None else found[1]


class SymbolicScope:
    """`keras.SymbolicScope()`: marks the symbolic stage (Keras opens one while it
    infers output specs); `in_symbolic_scope()` says whether one is open in this
    thread. Exiting restores the scope that was open before."""

    def __enter__(self):
        self.original_scope = get_symbolic_scope()
        _state.symbolic = self
        return self

    def __exit__(self, *exc_info):
        _state.symbolic = self.original_scope


def get_symbolic_scope():
    """The SymbolicScope open in this thread, or None."""
    return getattr(_state, "symbolic", None)


def in_symbolic_scope():
    return get_symbolic_scope() is not None
