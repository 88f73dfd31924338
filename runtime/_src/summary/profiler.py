"""`tf.profiler.experimental`: record what ran between `start` and `stop` and
write it where TensorBoard's Profile tab looks, in TensorFlow's XSpace format.

    tf.profiler.experimental.start("logs")
    with tf.profiler.experimental.Trace("train", step_num=step, _r=1):
        train_step(x)                    # one event; inside it the function call
    tf.profiler.experimental.stop()      # logs/plugins/profile/<time>/<host>.xplane.pb

What is recorded (core/trace_events.py), on one "/host:CPU" plane with a line
per thread, as TF's host tracer:
- `Trace` annotations with their keyword arguments as stats (level 1);
- each eager op, named by its type (`AddV2`), and each `tf.function` call,
  named by the function, with TF's `tf_function_call` stat
  (`traced-nonXla` when the call traced, `notTraced-nonXla` when it did not;
  `-xla` under `jit_compile=True`) and `tracing_count` (level 2);
- with `ProfilerOptions(python_tracer_level=1)`, every Python function call,
  named `$file.py:line function`.

A graph runs as generated Python code (exec/codegen.py), so the ops inside a
`tf.function` are not separate events: the call is one event (TF also times
each kernel of the graph). Nothing runs on a device, so `device_tracer_level`
changes nothing. `tf.summary.trace_on(profiler=True, profiler_outdir=...)`
starts a session that `trace_export`/`trace_off` stop.
"""

import collections
import os
import socket
import struct
import sys
import threading
import time

from runtime._src.core import protowire as pw
from runtime._src.core import trace_events
from runtime._src.core.context import state
from runtime._src.core.errors import AlreadyExistsError, UnavailableError
from runtime._src.function import config as function_config

__all__ = ["ProfilerOptions", "start", "stop", "Profile", "Trace"]

_lock = threading.Lock()
_session = None             # (Recorder, logdir, previous call hook, python tracer)


class ProfilerOptions(collections.namedtuple(
        "ProfilerOptions",
        ["host_tracer_level", "python_tracer_level", "device_tracer_level", "delay_ms"])):
    """`tf.profiler.experimental.ProfilerOptions(host_tracer_level=2,
    python_tracer_level=0, device_tracer_level=1, delay_ms=None)`: host levels
    1 (annotations only), 2 (also ops and function calls), 3 (verbose; the
    same events here); 0 records no host events."""

    __slots__ = ()

    def __new__(cls, host_tracer_level=2, python_tracer_level=0, device_tracer_level=1,
                delay_ms=None):
        return super().__new__(cls, host_tracer_level, python_tracer_level,
                               device_tracer_level, delay_ms)


def start(logdir, options=None):
    """Start a profiling session that `stop()` writes under `logdir`."""
    global _session
    options = ProfilerOptions() if options is None else options
    with _lock:
        if _session is not None:
            raise AlreadyExistsError(None, None, "Another profiler is running.")
        recorder = trace_events.Recorder(int(options.host_tracer_level))
        previous = function_config.call_hook
        function_config.set_call_hook(_function_call(previous))
        tracer = _PythonTracer(recorder) if options.python_tracer_level else None
        _session = (recorder, os.fspath(logdir), previous, tracer)
        type(state).profiler = recorder
        if tracer is not None:
            tracer.install()


def stop(save=True):
    """Stop the session; with `save`, write its XSpace file and return nothing."""
    global _session
    with _lock:
        if _session is None:
            raise UnavailableError(None, None,
                                   "Cannot export profiling results. No profiler is running.")
        recorder, logdir, previous, tracer = _session
        _session = None
        if tracer is not None:
            tracer.remove()
        type(state).profiler = None
        function_config.set_call_hook(previous)
        recorder.stop()
    if save:
        _write(recorder, logdir)


def active():
    """True while a session runs."""
    return _session is not None


class Profile:
    """`with tf.profiler.experimental.Profile(logdir, options=None):` starts a
    session on entry and stops and saves it on exit."""

    def __init__(self, logdir, options=None):
        self._logdir = logdir
        self._options = options

    def __enter__(self):
        start(self._logdir, self._options)

    def __exit__(self, typ, value, tb):
        stop()


class Trace:
    """`with tf.profiler.experimental.Trace(name, **kwargs):` one annotated
    event around the block while a session runs (TF's `step_num` and `_r=1`
    mark training steps); nothing otherwise."""

    def __init__(self, name, **kwargs):
        self._name = name
        self._stats = dict(kwargs)
        self._start = None

    def __enter__(self):
        recorder = state.profiler
        if recorder is not None and recorder.records(trace_events.annotation_level):
            self._recorder = recorder
            self._start = time.perf_counter_ns()
        return self

    def set_metadata(self, **kwargs):
        """Add stats to the event (TF's TraceMe metadata)."""
        self._stats.update(kwargs)

    def __exit__(self, typ, value, tb):
        if self._start is not None:
            self._recorder.add(self._name, self._start, stats=self._stats.items())
            self._start = None


# --- what records ------------------------------------------------------------------

def _function_call(previous):
    """The call hook (function/config.py) of a session: each `tf.function`
    call as one event, then what would have run without the session."""
    def call(function, args, kwargs):
        recorder = state.profiler
        if recorder is None or not recorder.records(trace_events.op_level):
            return _run(previous, function, args, kwargs)
        before = function.experimental_get_tracing_count()
        begin = time.perf_counter_ns()
        try:
            return _run(previous, function, args, kwargs)
        finally:
            count = function.experimental_get_tracing_count()
            kind = ("traced" if count != before else "notTraced") + \
                ("-xla" if function._jit_compile else "-nonXla")
            recorder.add(function._name, begin,
                         stats=(("tf_function_call", kind), ("tracing_count", count)))
    return call


def _run(previous, function, args, kwargs):
    if previous is not None:
        return previous(function, args, kwargs)
    return function._call_graph(args, kwargs)


class _PythonTracer:
    """`python_tracer_level=1`: each Python function call as an event
    `$file.py:line function`, through `sys.setprofile` on every thread."""

    def __init__(self, recorder):
        self._recorder = recorder
        self._open = threading.local()

    def install(self):
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)

    def remove(self):
        sys.setprofile(None)
        threading.setprofile(None)

    def _profile(self, frame, event, arg):
        if event == "call":
            stack = self._stack()
            stack.append(time.perf_counter_ns())
        elif event == "return":
            stack = self._stack()
            if stack:
                code = frame.f_code
                self._recorder.add(f"${os.path.basename(code.co_filename)}:"
                                   f"{code.co_firstlineno} {code.co_name}", stack.pop())

    def _stack(self):
        stack = getattr(self._open, "stack", None)
        if stack is None:
            stack = self._open.stack = []
        return stack


# --- the XSpace file ---------------------------------------------------------------

def _write(recorder, logdir):
    """`<logdir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.xplane.pb`, as TF."""
    run = time.strftime("%Y_%m_%d_%H_%M_%S", time.localtime(recorder.start_wall_ns / 1e9))
    folder = os.path.join(logdir, "plugins", "profile", run)
    os.makedirs(folder, exist_ok=True)
    host = socket.gethostname()
    with open(os.path.join(folder, f"{host}.xplane.pb"), "wb") as f:
        f.write(xspace_bytes(recorder, host))


def xspace_bytes(recorder, host):
    """The serialized XSpace (tsl/profiler/protobuf/xplane.proto) of a session."""
    return (pw.length_field(1, _host_plane(recorder))
            + pw.length_field(1, _environment_plane(recorder))
            + pw.length_field(4, host.encode()))


class _Names:
    """Metadata ids by name (XPlane's event_metadata / stat_metadata maps)."""

    def __init__(self):
        self.ids = {}

    def __call__(self, name):
        return self.ids.setdefault(name, len(self.ids) + 1)

    def entries(self, field):
        out = b""
        for name, i in self.ids.items():
            meta = pw.varint_field(1, i) + pw.length_field(2, name.encode())
            out += pw.length_field(field, pw.varint_field(1, i) + pw.length_field(2, meta))
        return out


def _host_plane(recorder):
    events, stats = _Names(), _Names()
    by_thread = collections.defaultdict(list)
    for ident, name, begin, end, extra in recorder.events:
        by_thread[ident].append((name, begin, end, extra))
    lines = b""
    for ident, found in by_thread.items():
        body = b""
        for name, begin, end, extra in sorted(found, key=lambda e: e[1]):
            ev = (pw.varint_field(1, events(name))
                  + pw.varint_field(2, (begin - recorder.start_ns) * 1000)
                  + pw.varint_field(3, (end - begin) * 1000))
            for key, value in extra:
                ev += pw.length_field(4, _stat(stats(key), value))
            body += pw.length_field(4, ev)
        name = recorder.thread_names.get(ident, str(ident)).encode()
        lines += pw.length_field(3, pw.varint_field(1, ident & (1 << 63) - 1)
                                 + pw.length_field(2, name) + pw.length_field(11, name)
                                 + pw.varint_field(3, recorder.start_wall_ns) + body)
    return pw.length_field(2, b"/host:CPU") + lines + events.entries(4) + stats.entries(5)


def _environment_plane(recorder):
    stats = _Names()
    values = (pw.length_field(6, _stat(stats("profile_start_time"), recorder.start_wall_ns,
                                       unsigned=True))
              + pw.length_field(6, _stat(stats("profile_stop_time"), recorder.stop_wall_ns,
                                         unsigned=True)))
    return pw.length_field(2, b"Task Environment") + stats.entries(5) + values


def _stat(metadata_id, value, unsigned=False):
    out = pw.varint_field(1, metadata_id)
    if isinstance(value, bool) or isinstance(value, int) and not unsigned:
        return out + pw.varint_field(4, int(value))
    if isinstance(value, int):
        return out + pw.varint_field(3, value)
    if isinstance(value, float):
        return out + pw.key(2, 1) + struct.pack("<d", value)
    return out + pw.length_field(5, str(value).encode())
