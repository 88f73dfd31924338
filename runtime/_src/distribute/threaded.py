"""`strategy.run` replica by replica on the executor, for a replica
function XLA cannot run as one program over the devices: one with an op
that has no XLA lowering (strings, `py_function`), or a global batch the
replicas do not share evenly (TF gives the last replicas fewer rows, or
none). As TF does, each replica runs the traced function on its own
thread; the cross-replica steps meet at a rendezvous:

    ReplicaId           the thread's replica
    ReplicaAllReduce    every replica's value, summed (or averaged)
    ReplicaAllGather    every replica's value, concatenated
    a Variable write    every replica's new value, combined as
                        replicated.py's `combine_write` does, written once

A SyncOnReadVariable, or a MirroredVariable of aggregation NONE, is a copy
per replica: each thread reads and writes its own, and the copies are
written back when the run ends.

Under MultiWorkerMirroredStrategy each process runs its own replicas so;
at a rendezvous, once its threads have met, the values cross the
processes (`process_gather`: JAX's distributed runtime, as the XLA
programs' collectives), so every process combines every replica's.
"""

import threading
import warnings

import numpy as np

from runtime._src.distribute.values import ReduceOp
from runtime._src.exec import executor as _executor
from runtime._src.function import variables as _variables
from runtime._src.function.concrete_function import _capture_value
from runtime._src.function.variable_sync import VariableAggregation
from runtime._src.jit import lower as _lower

__all__ = ["ThreadedProgram", "bound_replica", "ReplicaFallbackWarning", "process_gather",
           "shapes_across"]

_TIMEOUT = 600.0        # seconds a replica waits for the others at a rendezvous
_bound = threading.local()


class ReplicaFallbackWarning(UserWarning):
    """A `strategy.run` runs replica by replica on the executor, not as one
    XLA program: it names the ops or the uneven batch."""


def bound_replica():
    """(replica id, ThreadedProgram run) of this thread, or None."""
    return getattr(_bound, "replica", None)


class _Rendezvous:
    """Where the replicas' threads meet: `exchange(i, value, combine)`
    returns `combine(values of all replicas)`, computed once."""

    def __init__(self, n):
        self._n = n
        self._cond = threading.Condition()
        self._values, self._arrived, self._generation = [None] * n, 0, 0
        self._result, self.failed = None, None

    def exchange(self, i, value, combine):
        with self._cond:
            self._check()
            generation = self._generation
            self._values[i] = value
            self._arrived += 1
            if self._arrived == self._n:
                try:
                    self._result = combine(list(self._values))
                except BaseException as e:  # noqa: BLE001 - every replica raises it
                    self.failed = e
                self._arrived, self._generation = 0, generation + 1
                self._cond.notify_all()
            elif not self._cond.wait_for(lambda: self._generation != generation or self.failed,
                                         _TIMEOUT):
                self.failed = RuntimeError("strategy.run: a replica waited "
                                           f"{_TIMEOUT:.0f} s for the others")
                self._cond.notify_all()
            self._check()
            return self._result

    def fail(self, error):
        with self._cond:
            if self.failed is None:
                self.failed = error
            self._cond.notify_all()

    def _check(self):
        if self.failed is not None:
            raise _Aborted() from self.failed


class _Aborted(Exception):
    """Another replica failed: this one stops."""


class ThreadedProgram:
    """A replica function's graph run on the executor by a thread per replica."""

    def __init__(self, concrete, strategy, reason):
        self.graph = concrete._run_graph
        self.captures = concrete._capture_sources
        self.outputs = list(self.graph.outputs)
        self.local = strategy._local_replicas
        self.first = getattr(strategy, "_worker", 0) * self.local    # multi-worker: ours
        self.processes = getattr(strategy, "_workers", 1)
        self.reason = reason
        warnings.warn(f"{type(strategy).__name__}.run of {concrete.name!r} runs replica by "
                      f"replica on the executor (a thread each, as TF), not as one XLA "
                      f"program: {reason}", ReplicaFallbackWarning, stacklevel=5)

    def run(self, feeds, uneven=None):
        """`feeds`: per argument, this process's replicas' numpy values.
        Returns per output, their numpy values. (`uneven`: what the caller
        found of the shapes, known here already.)"""
        n = self.local
        run = _Run(n, self.first, self.processes)
        captured = [_capture_value(c) for c in self.captures]
        results = [None] * n

        def replica(i):
            _bound.replica = (i, run)
            try:
                results[i] = _executor.run(self.graph, [f[i] for f in feeds] + captured)
            except _Aborted:
                pass
            except BaseException as e:  # noqa: BLE001 - raised by the caller
                run.errors.append(e)
                run.rendezvous.fail(e)
            finally:
                _bound.replica = None

        threads = [threading.Thread(target=replica, args=(i,), daemon=True) for i in range(n)]
        with _io_hook():
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        if run.errors:
            raise run.errors[0]
        run.write_back()
        return [[results[i][j] for i in range(n)] for j in range(len(self.outputs))]


class _Run:
    """One threaded run: its rendezvous and the per-replica Variables' copies.
    With several processes (MultiWorkerMirroredStrategy) each runs its own
    replicas, `first` the id of its first one; a rendezvous's values cross
    the processes through JAX's distributed runtime (`everyone`)."""

    def __init__(self, n, first=0, processes=1):
        self.n, self.first, self.processes = n, first, processes
        self.rendezvous = _Rendezvous(n)
        self.errors = []
        self._copies = {}
        self._lock = threading.Lock()

    def copies(self, variable):
        with self._lock:
            found = self._copies.get(id(variable))
            if found is None:
                found = self._copies[id(variable)] = (variable, variable._replica_values())
            return found[1]

    def write_back(self):
        for variable, values in self._copies.values():
            variable._set_copies(values)

    def everyone(self, values):
        """Every replica's value (all processes'), in replica order, from
        this process's `values` (the same shape in every replica)."""
        if self.processes == 1:
            return values
        stacked = np.stack([np.asarray(v) for v in values])
        gathered = process_gather(stacked)
        return list(gathered.reshape((-1,) + stacked.shape[1:]))

    def gather_everyone(self, values, axis):
        """Every replica's value concatenated along `axis` (their lengths
        there may differ: a process's part is padded to cross, then cut)."""
        local = np.concatenate(values, axis=axis)
        if self.processes == 1:
            return local
        axis = axis % local.ndim
        lengths = process_gather(np.int64(local.shape[axis]))
        longest = int(lengths.max())
        if longest == 0:
            return local
        pad = [(0, 0)] * local.ndim
        pad[axis] = (0, longest - local.shape[axis])
        parts = process_gather(np.pad(local, pad))
        return np.concatenate([np.take(part, np.arange(int(k)), axis=axis)
                               for part, k in zip(parts, lengths)], axis=axis)


def process_gather(value):
    """Every process's numpy `value` (the same shape and dtype in each),
    stacked along a new first axis (JAX's distributed runtime: what
    MultiWorkerMirroredStrategy's XLA programs use too)."""
    value = np.asarray(value)
    if value.dtype.kind in "OSU":
        raise TypeError(f"tf.distribute: a {value.dtype} tensor cannot go from one worker "
                        "to another here (a cross-worker all-reduce or all-gather takes "
                        "numbers)")
    jax = _lower.load_jax()
    from jax.experimental import multihost_utils
    with jax.enable_x64(True):
        return np.asarray(multihost_utils.process_allgather(value))


def shapes_across(shapes):
    """`shapes`: per argument, this process's replicas' shapes. Returns per
    argument, every replica's shape (all processes', in replica order)."""
    flat = np.asarray([0] + [d for per in shapes for shape in per for d in shape], np.int64)
    gathered = process_gather(flat)          # [0]: never empty (scalars have no dims)
    out = [[] for _ in shapes]
    for row in gathered:
        it = iter(row.tolist()[1:])
        for j, per in enumerate(shapes):
            out[j].extend(tuple(next(it) for _ in shape) for shape in per)
    return out


class _HookCount:
    depth = 0
    lock = threading.Lock()


class _io_hook:
    """While a threaded run runs: the Variable kernels ask `_variable_io`."""

    def __enter__(self):
        with _HookCount.lock:
            _HookCount.depth += 1
            _variables.replica_io = _variable_io

    def __exit__(self, *exc):
        with _HookCount.lock:
            _HookCount.depth -= 1
            if not _HookCount.depth:
                _variables.replica_io = None


def _variable_io(op, variable, value):
    """A Variable kernel's read or write on a replica's thread (NotImplemented:
    not on one; the kernel goes on as usual)."""
    bound = bound_replica()
    if bound is None:
        return NotImplemented
    i, run = bound
    own = getattr(variable, "per_replica", False)
    if op == "ReadVariableOp":
        return run.copies(variable)[i] if own else NotImplemented
    old = run.copies(variable)[i] if own else variable._value
    dtype = variable._np_dtype
    if op == "AssignVariableOp":
        new = np.array(value, dtype)
    elif op == "AssignAddVariableOp":
        new = np.asarray(old + value, dtype)
    else:
        new = np.asarray(old - value, dtype)
    if own:
        run.copies(variable)[i] = new
        return new

    def combine(pairs):
        combined = combine_writes(variable, op, old, run.everyone(pairs))
        variable._write(np.asarray(combined, dtype))
        return variable._value
    return run.rendezvous.exchange(i, new, combine)


# Keras variables name their aggregation with a string.
KERAS_AGGREGATIONS = {"none": VariableAggregation.NONE, "sum": VariableAggregation.SUM,
                      "mean": VariableAggregation.MEAN,
                      "only_first_replica": VariableAggregation.ONLY_FIRST_REPLICA}


def write_rule(variable, op):
    """How the replicas' writes of `variable` by `op` combine: 'first' (replica
    0's value), or a VariableAggregation applied to the new values (assign)
    or to the deltas (assign_add / assign_sub). A tf.Variable of aggregation
    NONE (made outside a strategy's scope) gets every replica's delta, as
    TF's replicas, which update it one after another."""
    aggregation = getattr(variable, "aggregation", None)
    if aggregation is VariableAggregation.NONE and op != "AssignVariableOp":
        return VariableAggregation.SUM
    aggregation = KERAS_AGGREGATIONS.get(aggregation, aggregation)
    if aggregation in (None, VariableAggregation.NONE):
        return "first"
    return aggregation


def combine_writes(variable, op, old, news):
    """The value written from every replica's new value (numpy)."""
    rule = write_rule(variable, op)
    if rule == "first" or rule is VariableAggregation.ONLY_FIRST_REPLICA and \
            op == "AssignVariableOp":
        return news[0]
    base, deltas = (0, news) if op == "AssignVariableOp" else (old, [v - old for v in news])
    if rule is VariableAggregation.ONLY_FIRST_REPLICA:
        return base + deltas[0]
    total = np.sum(np.stack(deltas), axis=0)
    if rule is VariableAggregation.MEAN:
        kind = np.asarray(total).dtype.kind
        total = total // len(news) if kind in "iub" else total / len(news)
    return np.asarray(base + total, variable._np_dtype)


def all_reduce(i, run, value, reduce_op):
    """ReplicaAllReduce on replica i's thread."""
    def combine(values):
        values = run.everyone(values)
        total = np.sum(np.stack(values), axis=0).astype(values[0].dtype)
        if reduce_op == ReduceOp.MEAN.value:
            return total // len(values) if total.dtype.kind in "iub" else \
                (total / len(values)).astype(values[0].dtype)
        return total
    return run.rendezvous.exchange(i, np.asarray(value), combine)


def all_gather(i, run, value, axis):
    """ReplicaAllGather on replica i's thread."""
    return run.rendezvous.exchange(
        i, np.asarray(value), lambda values: run.gather_everyone(values, axis))
