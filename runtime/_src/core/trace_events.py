"""The events a running `tf.profiler` session records: one list per process.

While a session is on (`tf.profiler.experimental.start`), `context.state.profiler`
is its `Recorder`; the layers that do the work add timed events to it:

    eager ops          op_registry.apply: the op's type (`AddV2`), level 2
    tf.function calls  the profiler's call hook: the function's name, level 2,
                       with TF's `tf_function_call` and `tracing_count` stats
    annotations        `tf.profiler.experimental.Trace(name, **stats)`, level 1
    Python functions   `python_tracer_level=1`: `$file.py:line name`

An event is (thread id, name, start, end, stats) with perf_counter_ns times;
summary/profiler.py turns them into TensorFlow's XSpace file. With no session
each hook costs one attribute read.
"""

import threading
import time

__all__ = ["Recorder", "annotation_level", "op_level"]

annotation_level = 1      # TF's TraceMe levels: user annotations are "critical"
op_level = 2              # ops and function calls are "info"


class Recorder:
    """Timed host events of one profiling session."""

    def __init__(self, host_tracer_level=2):
        self.host_tracer_level = host_tracer_level
        self.events = []
        self.start_wall_ns = time.time_ns()
        self.start_ns = time.perf_counter_ns()
        self.stop_wall_ns = None
        self.thread_names = {}

    def records(self, level):
        return 0 < level <= self.host_tracer_level

    def add(self, name, start_ns, end_ns=None, stats=()):
        """One event from `start_ns` to `end_ns` (now if None), on this thread."""
        if end_ns is None:
            end_ns = time.perf_counter_ns()
        ident = threading.get_ident()
        if ident not in self.thread_names:
            current = threading.current_thread()
            self.thread_names[ident] = ("python" if current is threading.main_thread()
                                        else current.name)
        self.events.append((ident, name, start_ns, end_ns, tuple(stats)))

    def stop(self):
        self.stop_wall_ns = time.time_ns()
