"""The Variables a `MirroredStrategy` makes under its `scope()`:
`MirroredVariable` (ON_WRITE: a copy per replica, kept in step) and
`SyncOnReadVariable` (ON_READ: a copy per replica, combined when read in
cross-replica context, as a metric's accumulator).

    with strategy.scope():
        v = tf.Variable(1.0)                  # MirroredVariable:{0: ..., 1: ...}
        m = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    strategy.experimental_local_results(v)    # the per-replica copies (tf.Variables)

Both are `tf.Variable`s (and DistributedValues). Their value is replica 0's
copy (`_value`, what a graph outside `strategy.run` reads; for ON_READ the
copies combined by the aggregation). The copies are `_copies`: None while
they all equal replica 0's, else one array per replica. Inside
`strategy.run` (replicated.py) a mirrored Variable is one value every
replica reads, whose writes are combined by its aggregation; a
SyncOnReadVariable, or a MirroredVariable of aggregation NONE, is a value
per replica, each replica reading and writing its own, as TF's copies.
"""

import numpy as np

from runtime._src.distribute import context as _ctx
from runtime._src.distribute.values import DistributedValues, ReduceOp
from runtime._src.function.variable_sync import VariableAggregation, VariableSynchronization
from runtime._src.function.variables import Variable

__all__ = ["DistributedVariable", "MirroredVariable", "SyncOnReadVariable",
           "make_distributed_variable", "keras_mirror"]


def make_distributed_variable(strategy, next_creator, **kwargs):
    """The variable creator of a mirroring strategy's scope: a
    SyncOnReadVariable for ON_READ, else a MirroredVariable."""
    sync = kwargs.get("synchronization")
    cls = SyncOnReadVariable if sync is VariableSynchronization.ON_READ else MirroredVariable
    kwargs.pop("experimental_enable_variable_lifting", None)
    variable = cls(strategy, **kwargs)
    if variable.aggregation is VariableAggregation.MEAN and not variable.dtype.is_floating:
        raise ValueError("creating distributed tf.Variable with aggregation=MEAN and a "
                         "non-floating dtype is not supported, please use a different "
                         "aggregation or dtype")
    return variable


def _frozen(value):
    value = np.array(value)        # one's own array, read-only: never updated in place
    value.setflags(write=False)
    return value


class DistributedVariable(Variable, DistributedValues):
    """A tf.Variable with a copy per replica of its strategy."""

    def __init__(self, strategy, **kwargs):
        self._strategy = strategy
        local = strategy._local_replicas                  # multi-worker: this worker's
        first = getattr(strategy, "_worker", 0) * local
        self._devices = tuple(strategy.extended.worker_devices[first:first + local])
        self._copies = None
        Variable.__init__(self, **kwargs)

    @property
    def per_replica(self):
        """True when each replica of `strategy.run` keeps its own copy."""
        return self.aggregation is VariableAggregation.NONE

    @property
    def values(self):
        """The per-replica copies: a tf.Variable each (replica i's is named
        '<name>/replica_<i>:0', replica 0's '<name>:0')."""
        return tuple(_Copy(self, i) for i in range(len(self._devices)))

    @property
    def distribute_strategy(self):
        return self._strategy

    @property
    def device(self):
        return self._devices[0]

    def _replica_values(self):
        """One array per replica."""
        if self._copies is None:
            return [self._primary()] * len(self._devices)
        return list(self._copies)

    def _primary(self):
        return self._value

    def _set_copies(self, values):
        """After a replicated run: the replicas' own values."""
        values = [_frozen(v) for v in values]
        first = values[0]
        same = all(v is first or np.array_equal(v, first) for v in values[1:])
        self._store(first, None if same else tuple(values))

    def _store(self, primary, copies):
        Variable._write(self, primary)
        self._copies = copies

    def _write(self, value):
        """A write outside `strategy.run`: every copy gets it."""
        self._store(value, None)

    def _copy_value(self, i):
        return self._replica_values()[i]

    def _write_copy(self, i, value):
        copies = [np.array(v) for v in self._replica_values()]
        copies[i] = value
        self._set_copies(copies)

    def __repr__(self):
        inner = ",\n".join(f"  {i}: {c!r}" for i, c in enumerate(self.values))
        return f"{type(self).__name__}:{{\n{inner}\n}}"

    __str__ = __repr__

    def __hash__(self):
        return Variable.__hash__(self)


class MirroredVariable(DistributedVariable):
    """`MirroredVariable`: a copy per replica, written by every replica
    together (the writes combined by `aggregation`)."""

    def __init__(self, strategy, **kwargs):
        super().__init__(strategy, **kwargs)
        if self.synchronization is VariableSynchronization.AUTO:
            self.synchronization = VariableSynchronization.ON_WRITE


class SyncOnReadVariable(DistributedVariable):
    """`SyncOnReadVariable`: each replica updates its own copy; read in
    cross-replica context, the copies combine by `aggregation` (SUM: their
    sum, MEAN: their mean, ONLY_FIRST_REPLICA: replica 0's, NONE: TF's
    ValueError); written there, each copy gets the value (SUM: the value
    over the replicas)."""

    per_replica = True

    @property
    def _value(self):
        copies = self._replica_values()
        aggregation = self.aggregation
        if aggregation is VariableAggregation.NONE:
            ReduceOp.from_variable_aggregation(aggregation)      # TF's ValueError
        if aggregation is VariableAggregation.ONLY_FIRST_REPLICA or len(copies) == 1:
            return copies[0]
        stacked = np.stack(copies)
        total = stacked.sum(0) if aggregation is VariableAggregation.SUM else stacked.mean(0)
        return _frozen(np.asarray(total, copies[0].dtype))

    @_value.setter
    def _value(self, value):          # Variable.__init__ and lift_initializers
        self._stored, self._copies = value, None

    def _primary(self):
        return self._stored

    def _store(self, primary, copies):
        if primary.dtype != self._np_dtype:
            Variable._write(self, primary)          # its InvalidArgumentError
        self._stored, self._copies = primary, copies

    def _write(self, value):
        n = len(self._devices)
        if self.aggregation is VariableAggregation.SUM and n > 1:
            value = _frozen(np.asarray(np.true_divide(value, n), value.dtype))
        self._store(value, None)

    def _update(self, op_name, value, read_value):
        if op_name != "AssignVariableOp" and self.aggregation is VariableAggregation.SUM \
                and self._in_cross_replica():
            what = "assign_add" if op_name == "AssignAddVariableOp" else "assign_sub"
            raise ValueError(f"SyncOnReadVariable does not support `{what}` in cross-replica "
                             "context when aggregation is set to "
                             "`tf.VariableAggregation.SUM`.")
        return Variable._update(self, op_name, value, read_value)

    def _in_cross_replica(self):
        ctx = _ctx.get_replica_context()
        return ctx is None or ctx.strategy is not self._strategy


class _Copy(Variable):
    """Replica i's copy of a DistributedVariable, as a tf.Variable."""

    def __init__(self, parent, index):     # no Variable.__init__: nothing is created
        self._parent, self._index = parent, index
        self._dtype, self._np_dtype = parent._dtype, parent._np_dtype
        self._shape, self._trainable = parent._shape, parent._trainable
        self._name = parent._name if index == 0 else f"{parent._name}/replica_{index}"
        self._initializer, self.constraint = None, parent.constraint
        self.synchronization, self.aggregation = parent.synchronization, parent.aggregation

    @property
    def device(self):
        return self._parent._devices[self._index]

    @property
    def _value(self):
        return self._parent._copy_value(self._index)

    def _write(self, value):
        self._parent._write_copy(self._index, value)


# Keras variables name their aggregation with a string.
_KERAS_AGGREGATIONS = {"none": VariableAggregation.NONE, "sum": VariableAggregation.SUM,
                       "mean": VariableAggregation.MEAN,
                       "only_first_replica": VariableAggregation.ONLY_FIRST_REPLICA}


def keras_mirror(variable):
    """The `.value` of a Keras variable made under a mirroring strategy's
    scope (a MirroredVariable over the Keras variable's own state, as Keras 3
    wraps the tf.Variable the scope makes), or None outside one (and for an
    ON_READ Keras variable, whose value stays one)."""
    strategy = _ctx.get_strategy()
    if not getattr(strategy, "_MIRRORS_VARIABLES", False) or \
            variable.synchronization == "on_read":
        return None
    return _KerasMirror(strategy, variable)


class _KerasMirror(MirroredVariable):
    """A MirroredVariable whose value is a Keras variable's: reads and writes
    go to the Keras variable (so a graph, a tape and `strategy.run` see the
    one variable), its copies are tf.Variables per replica as TF's."""

    def __init__(self, strategy, owner):     # no Variable.__init__: nothing is created
        self._strategy, self._owner = strategy, owner
        local = strategy._local_replicas
        first = getattr(strategy, "_worker", 0) * local
        self._devices = tuple(strategy.extended.worker_devices[first:first + local])
        self._dtype, self._np_dtype, self._shape = owner._dtype, owner._np_dtype, owner._shape
        self._name, self._initializer = owner._name, None
        self.synchronization = VariableSynchronization.ON_WRITE
        self.aggregation = _KERAS_AGGREGATIONS[owner.aggregation]

    @property
    def _value(self):
        return self._owner._value

    @_value.setter
    def _value(self, value):
        self._owner._value = value

    @property
    def _copies(self):
        """The replicas' copies, while the Keras variable holds the value
        they were written with (a write of the Keras variable unites them)."""
        held = getattr(self._owner, "_replica_copies", None)
        return held[1] if held is not None and held[0] is self._owner._value else None

    @_copies.setter
    def _copies(self, copies):
        self._owner._replica_copies = None if copies is None else (self._owner._value, copies)

    @property
    def _trainable(self):
        return self._owner._trainable

    @property
    def constraint(self):
        return self._owner.constraint

    def _as_tensor(self):
        return self._owner._as_tensor()

    def assign(self, value, use_locking=False, name=None, read_value=True):
        return self._owner.assign(value, use_locking, name, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self._owner.assign_add(delta, use_locking, name, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self._owner.assign_sub(delta, use_locking, name, read_value)


# It is a MirroredVariable to its users (type(v).__name__, repr), as TF's.
_KerasMirror.__name__ = _KerasMirror.__qualname__ = "MirroredVariable"
