"""`keras.Variable`, and the weights layers create: a `tf.Variable` named as
Keras 3 names them.

    d = Dense(2); d.build((None, 3))
    d.kernel.name       # "kernel"
    d.kernel.path       # "dense/kernel" (inside a Sequential: "sequential/dense/kernel")
    v = keras.Variable(initializer="ones", shape=(2,), name="v")
    v.value             # the current value, a tensor (a property, as Keras 3;
                        # under MirroredStrategy.scope(): a MirroredVariable)

`path` is the names of the scopes open (layers being called or built,
`keras.name_scope`) when the weight was made, then the weight's own name;
`regularizer` is the layer's penalty for it (or None), `constraint` a
function applied after each optimizer step. Inside the call of a layer with
a mixed policy ("mixed_float16") a float variable reads as the compute dtype
(`autocast_scope`), as Keras autocasts.
"""

import contextlib
import threading

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.distribute.variables import keras_mirror
from runtime._src.function.variables import Variable
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.utils import naming
from runtime._src.keras.backend.stateless_scope import get_stateless_scope

__all__ = ["KerasVariable", "autocast_scope"]

_AGGREGATIONS = (None, "none", "mean", "sum", "only_first_replica")
_SYNCHRONIZATIONS = (None, "none", "on_read", "on_write", "auto")


def _check_choice(name, value, allowed):
    if value not in allowed:
        listed = ", ".join(f"`{a!r}`" if a else "`None`" for a in allowed)
        raise ValueError(f"Invalid value for argument `{name}`. Expected one of {listed}. "
                         f"Received: {name}={value}")


def _initial_value(initializer, shape, dtype):
    """The first value: an initializer (a name or a callable) called with
    `shape` and `dtype` (floatx by default), or a value cast to `dtype`."""
    from runtime._src.keras.initializers import initializers      # initializers use this module's users
    from runtime._src.ops import math_ops
    if isinstance(initializer, str) or (callable(initializer) and
                                        not hasattr(initializer, "dtype")):
        if shape is None:
            raise ValueError("When creating a Variable from an initializer, the `shape` "
                             "argument should be specified. Received: "
                             f"initializer={initializer} and shape={shape}")
        init = initializers.get(initializer)
        with init_scope():
            return init(tuple(shape), dtype=dtypes.as_dtype(dtype or backend_config.floatx()))
    with init_scope():
        value = initializer._as_tensor() if isinstance(initializer, Variable) else \
            convert_to_tensor(initializer)
        if dtype is not None and value.dtype != dtypes.as_dtype(dtype):
            value = math_ops.cast(value, dtype)
    return value


_autocast = threading.local()


@contextlib.contextmanager
def autocast_scope(dtype):
    """Inside: float KerasVariables (made with autocast=True) read as `dtype`
    (None: as they are). Layers with a mixed policy run `call` in one."""
    outer = getattr(_autocast, "dtype", None)
    _autocast.dtype = None if dtype is None else dtypes.as_dtype(dtype)
    try:
        yield
    finally:
        _autocast.dtype = outer


class KerasVariable(Variable):
    """`keras.Variable(initializer, shape=None, dtype=None, trainable=True,
    autocast=True, aggregation="none", synchronization="auto", name=None)`:
    a Variable with Keras 3's `name` (short), `path` (scoped) and `value`
    (a property). `initializer` is an initializer (a name or a callable,
    `shape` then required) or an initial value (whose shape is kept)."""

    _SHOWS_UNREAD = False     # Keras 3's assign results are plain tensors

    _mirror = None            # under a MirroredStrategy's scope: `.value`
    _replica_copies = None    # (value, per-replica copies) written through it

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, *, path=None,
                 regularizer=None, constraint=None):
        if get_stateless_scope() is not None:
            raise ValueError(
                "You are attempting to create a variable while in a stateless scope. This is "
                "disallowed. Make sure that all variables are created before you start using "
                "your layer/model objects.")
        if name is None:
            name = naming.unique_name("variable")
        if not isinstance(name, str) or ("/" in name and path is None):
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name}")
        _check_choice("aggregation", aggregation, _AGGREGATIONS)
        _check_choice("synchronization", synchronization, _SYNCHRONIZATIONS)
        if path is None:
            prefix = naming.current_path()
            path = f"{prefix}/{name}" if prefix else name
        value = _initial_value(initializer, shape, dtype)
        super().__init__(value, trainable=trainable, name=path, dtype=value.dtype)
        self._short_name = name
        self.regularizer = regularizer
        self.constraint = constraint
        self._autocast = bool(autocast)
        self.aggregation = aggregation or "none"
        self.synchronization = synchronization or "auto"
        self._mirror = keras_mirror(self)

    @property
    def value(self):
        """The current value (a tensor; a read of the variable while tracing).
        Made under a MirroredStrategy's scope: a MirroredVariable over this
        variable (a copy per replica, as Keras 3 on TF)."""
        return self._as_tensor() if self._mirror is None else self._mirror

    def _autocast_dtype(self):
        target = getattr(_autocast, "dtype", None)
        if target is not None and self._autocast and self._dtype.is_floating \
                and self._dtype != target:
            return target
        return None

    @property
    def dtype(self):
        """The dtype (inside a mixed layer's call: the compute dtype it reads as,
        as Keras's autocast variables report)."""
        return self._autocast_dtype() or self._dtype

    def _read(self):
        """The stored value, or the one a StatelessScope gives it."""
        scope = get_stateless_scope()
        value = scope.get_current_value(self) if scope is not None else None
        return super()._as_tensor() if value is None else value

    def _as_tensor(self):
        """The value, cast to the compute dtype inside the call of a layer whose
        policy is mixed (Keras's autocast of float variables)."""
        target = self._autocast_dtype()
        if target is None:
            return self._read()
        from runtime._src.ops import math_ops
        with autocast_scope(None):       # the read itself is of the stored dtype
            return math_ops.cast(self._read(), target)

    def _scoped_assign(self, value, read_value):
        """An assignment inside a StatelessScope: recorded there."""
        get_stateless_scope().add_update((self, value))
        return self._read() if read_value else None

    def assign(self, value, use_locking=False, name=None, read_value=True):
        if get_stateless_scope() is None:
            return super().assign(value, use_locking, name, read_value)
        return self._scoped_assign(value, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        if get_stateless_scope() is None:
            return super().assign_add(delta, use_locking, name, read_value)
        from runtime._src.ops import math_ops
        return self._scoped_assign(math_ops.add(self._read(), delta), read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        if get_stateless_scope() is None:
            return super().assign_sub(delta, use_locking, name, read_value)
        from runtime._src.ops import math_ops
        return self._scoped_assign(math_ops.subtract(self._read(), delta), read_value)

    @property
    def name(self):
        return self._short_name

    @property
    def path(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    def __repr__(self):
        try:
            value = f", value={self.numpy()}"
        except NotImplementedError:            # while a graph is traced
            value = ""
        return (f"<Variable path={self.path}, shape={tuple(self.shape.dims)}, "
                f"dtype={self.dtype.name}{value}>")
