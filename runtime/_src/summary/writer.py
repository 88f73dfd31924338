"""Summary writers and the summary state of a thread: which writer is the
default, the default step, and the `record_if` condition.

    writer = tf.summary.create_file_writer("logs/run1")
    with writer.as_default(step=0):
        tf.summary.scalar("loss", 0.5)        # written to logs/run1/events.out.tfevents...

The files are TensorBoard's own event files, written by the `tensorboard`
package's `EventFileWriter` (an optional dependency: `pip install tensorboard`,
or this package's `[tensorboard]` extra). Creating a writer without it raises
ImportError saying so; nothing else in the runtime needs it.
"""

import atexit
import contextlib
import os
import threading
import weakref

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "state",
           "require_tensorboard"]


def require_tensorboard(what):
    """Import and return tensorboard's event writer and protos, or raise ImportError."""
    try:
        from tensorboard.compat.proto import event_pb2, summary_pb2
        from tensorboard.summary.writer.event_file_writer import EventFileWriter
    except ImportError as e:
        raise ImportError(f"{what} writes TensorBoard event files with the tensorboard "
                          "package, which is not installed: pip install tensorboard (or "
                          "this project's [tensorboard] extra)") from e
    return EventFileWriter, event_pb2, summary_pb2


class _State(threading.local):
    def __init__(self):
        self.writer = None          # the default SummaryWriter
        self.step = None            # set_step's value (int, Tensor or Variable)
        self.record_if = True       # bool, Tensor or callable


state = _State()

_open_writers = weakref.WeakSet()


@atexit.register
def _flush_at_exit():
    """Write what is still queued when the program ends (as TensorFlow does)."""
    for writer in list(_open_writers):
        writer.flush()


class SummaryWriter:
    """Writes summaries to one event file in `logdir` (`tf.summary.SummaryWriter`)."""

    def __init__(self, logdir, max_queue=None, flush_millis=None, filename_suffix=None):
        self._logdir = os.fspath(logdir)
        self._max_queue = 10 if max_queue is None else int(max_queue)
        self._flush_secs = 120 if flush_millis is None else flush_millis / 1000.0
        self._suffix = ".v2" if filename_suffix is None else filename_suffix
        self._events = None
        self._closed = False
        require_tensorboard("tf.summary.create_file_writer")
        self.init()

    @property
    def logdir(self):
        return self._logdir

    def init(self):
        """Open the event file (done by the constructor; again after `close`)."""
        if self._events is None:
            event_file_writer = require_tensorboard("tf.summary.create_file_writer")[0]
            os.makedirs(self._logdir, exist_ok=True)
            self._events = event_file_writer(self._logdir, max_queue_size=self._max_queue,
                                             flush_secs=self._flush_secs,
                                             filename_suffix=self._suffix)
            self._closed = False
            _open_writers.add(self)

    def set_as_default(self, step=None):
        """Make this the default writer of this thread (no context manager)."""
        state.writer = self
        if step is not None:
            state.step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        """`with writer.as_default(step=None):` summaries inside go to this writer."""
        previous_writer, previous_step = state.writer, state.step
        state.writer = self
        if step is not None:
            state.step = step
        try:
            yield self
        finally:
            self.flush()
            state.writer = previous_writer
            if step is not None:
                state.step = previous_step

    def write_event(self, event):
        """Add an `Event` protobuf to the file (summaries call this)."""
        if self._events is None:
            self.init()
        self._events.add_event(event)

    def flush(self):
        if self._events is not None:
            self._events.flush()

    def close(self):
        """Flush and close the file; a later summary reopens a new one."""
        if self._events is not None:
            self._events.close()
            self._events = None
        self._closed = True

    def __repr__(self):
        return f"<SummaryWriter logdir={self._logdir!r}>"


class _NoopWriter(SummaryWriter):
    """`create_noop_writer()`: a SummaryWriter (as TF's) that accepts summaries,
    writes nothing and, as the default writer, records none
    (`should_record_summaries()` is False, `write` returns False)."""

    noop = True
    logdir = _logdir = None

    def __init__(self):     # noqa: D107 - no file, no state
        pass

    def init(self):
        pass

    def set_as_default(self, step=None):
        state.writer = self
        if step is not None:
            state.step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        previous_writer, previous_step = state.writer, state.step
        state.writer = self
        if step is not None:
            state.step = step
        try:
            yield self
        finally:
            state.writer = previous_writer
            if step is not None:
                state.step = previous_step

    def write_event(self, event):
        pass

    def flush(self):
        pass

    def close(self):
        pass


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter writing event files into `logdir` (made if missing)."""
    if logdir is None:
        raise ValueError("Expected logdir to be a path, got None")
    return SummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer():
    return _NoopWriter()
