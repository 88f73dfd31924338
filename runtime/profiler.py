"""`tf.profiler`: `tf.profiler.experimental.start(logdir)` / `stop()`, `Profile`,
`Trace` and `ProfilerOptions` (runtime/_src/summary/profiler.py): what ran,
written for TensorBoard's Profile tab in TensorFlow's XSpace format."""

from types import SimpleNamespace as _Namespace

from runtime._src.summary.profiler import Profile, ProfilerOptions, Trace, start, stop

# tf.profiler.experimental
experimental = _Namespace(Profile=Profile, ProfilerOptions=ProfilerOptions, Trace=Trace,
                          start=start, stop=stop)

__all__ = ["experimental"]
