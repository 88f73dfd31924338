"""`tf.train.Coordinator`, `tf.train.ClusterSpec` and
`tf.train.checkpoints_iterator`.

    coord = tf.train.Coordinator()
    threads = [threading.Thread(target=work, args=(coord,)) for _ in range(4)]
    ...
    coord.request_stop(); coord.join(threads)   # re-raises a worker's exception

    spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"]})
    spec.num_tasks("worker"), spec.task_address("worker", 1)     # 2, 'w1:2222'
"""

import contextlib
import os
import sys
import threading
import time

from runtime._src.train.state_file import latest_checkpoint

__all__ = ["Coordinator", "ClusterSpec", "checkpoints_iterator"]


class Coordinator:
    """Threads that stop together: any of them may `request_stop` (with the
    exception that made it stop), every one polls `should_stop`, and `join`
    waits for them and re-raises the first exception reported."""

    def __init__(self, clean_stop_exception_types=None):
        self._clean = tuple(clean_stop_exception_types or ())
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._exc_info = None
        self._threads = set()
        self._joined = False

    def request_stop(self, ex=None):
        """Ask every thread to stop; `ex` (an exception or exc_info triple) is
        re-raised by `join` unless it is a clean-stop type."""
        with self._lock:
            if ex is not None and self._exc_info is None:
                info = ex if isinstance(ex, tuple) else (type(ex), ex, ex.__traceback__)
                if not issubclass(info[0], self._clean):
                    self._exc_info = info
            self._stop.set()

    def clear_stop(self):
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop.clear()

    def should_stop(self):
        return self._stop.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """A scope whose exception requests a stop (and is kept for `join`)."""
        try:
            yield
        except Exception:  # noqa: BLE001 - reported to the coordinator, as TF's
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """True once a stop is requested, False if `timeout` seconds pass first."""
        return self._stop.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for a stop, then for the threads; re-raise a reported exception.
        RuntimeError names threads still running after the grace period."""
        threads = set(threads or ()) | self._threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.time() + stop_grace_period_secs
        for t in threads:
            t.join(max(deadline - time.time(), 0))
        self._joined = True
        alive = [t.name for t in threads if t.is_alive()]
        if self._exc_info is not None:
            _, error, traceback = self._exc_info
            raise error.with_traceback(traceback)
        if alive and not ignore_live_threads:
            raise RuntimeError("Coordinator stopped with threads still running: " +
                               " ".join(alive))

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        if self._exc_info is not None:
            _, error, traceback = self._exc_info
            raise error.with_traceback(traceback)


class ClusterSpec:
    """`tf.train.ClusterSpec(cluster)`: job names mapped to task addresses (a
    list, by task index, or a {index: address} dict for sparse jobs)."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "(i) a list of network addresses, or (ii) a dictionary mapping "
                            "integer task indices to network addresses.")
        self._jobs = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._jobs[job] = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                self._jobs[job] = {int(i): a for i, a in tasks.items()}
            else:
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary "
                                f"from integers to strings.")
        self._dense = {job: isinstance(tasks, (list, tuple)) for job, tasks in cluster.items()}

    @property
    def jobs(self):
        return list(self._jobs)

    def num_tasks(self, job_name):
        return len(self._tasks(job_name))

    def task_indices(self, job_name):
        return sorted(self._tasks(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._tasks(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name):
        """The addresses by task index, None in the gaps of a sparse job."""
        tasks = self._tasks(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []

    def as_dict(self):
        return {job: ([tasks[i] for i in sorted(tasks)] if self._dense[job] else dict(tasks))
                for job, tasks in self._jobs.items()}

    def _tasks(self, job_name):
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._jobs[job_name]

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self.as_dict() == other.as_dict()

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        body = ", ".join(f"{job!r}: {tasks!r}" for job, tasks in sorted(self.as_dict().items()))
        return f"ClusterSpec({{{body}}})"


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir` as it appears,
    at most one per `min_interval_secs`; stop after `timeout` seconds without
    a new one (unless `timeout_fn()` says to keep waiting)."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    last = None
    while True:
        start = time.time()
        path = _wait_for_new(checkpoint_dir, last, timeout)
        if path is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        last = path
        yield path
        remaining = start + min_interval_secs - time.time()
        if remaining > 0:
            time.sleep(remaining)


def _wait_for_new(checkpoint_dir, last, timeout, poll=1.0):
    deadline = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if deadline is not None and time.time() + poll > deadline:
            return None
        time.sleep(poll)
