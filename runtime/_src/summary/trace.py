"""`tf.summary.trace_on(graph=True)` / `trace_export(name, step)`: write the
graphs of the tf.functions that ran in between, for TensorBoard's Graphs tab;
`tf.summary.graph(graph)` writes one graph directly.

    tf.summary.trace_on(graph=True)
    z = function(2)                          # its graph is recorded
    with writer.as_default():
        tf.summary.trace_export(name="function_trace", step=0)

As TensorFlow, the export is a summary tagged `name` whose value is a
`RunMetadata` holding each function's GraphDef as traced, before the
optimizer folded it (a function traced before `trace_on` and run during it:
the graph that runs) (plugin
"graph_run_metadata_graph"); TensorBoard lists it under that tag. Our cond
branches and loop bodies are the GraphDef's library functions
(graph/graphdef.py), which TensorBoard draws as function nodes.

`trace_on(profiler=True, profiler_outdir=logdir)` also starts a
`tf.profiler` session (summary/profiler.py); `trace_export` and `trace_off`
stop it and write its profile under `logdir`, as TensorFlow.
"""

import time
import warnings

from runtime._src.core.tf_logging import get_logger
from runtime._src.function import concrete_function
from runtime._src.summary import profiler as _profiler
from runtime._src.summary.writer import require_tensorboard, state

__all__ = ["trace_on", "trace_off", "trace_export", "graph"]


class _Trace:
    def __init__(self):
        self.graphs = []          # GraphDefs of the functions that ran, each once
        self.seen = set()

    def __call__(self, function):
        g = function.graph
        if id(g) not in self.seen:
            self.seen.add(id(g))
            # As traced (before the optimizer folded it) when it was traced
            # while the trace was on; else the graph that runs.
            traced = function._traced_graph_def
            self.graphs.append(traced if traced is not None
                               else g.as_graph_def(add_shapes=True))


_active = []


_profiling = []     # True while trace_on(profiler=True) runs a profiler session


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start recording the graphs of the tf.functions that run (and, with
    `profiler`, a profile written under `profiler_outdir`)."""
    if _active or _profiling:
        warnings.warn("Cannot enable trace inside a tf.function or while a trace is "
                      "already on.", UserWarning, stacklevel=2)
        return
    if profiler and profiler_outdir is None:
        get_logger().warning("No `profiler_outdir` passed to trace_on(). Profiler won't "
                             "be enabled.")
    elif profiler:
        _profiler.start(profiler_outdir)
        _profiling.append(True)
    if graph or profiler:
        trace = _Trace()
        _active.append(trace)
        concrete_function.call_observers.append(trace)


def trace_off():
    """Stop recording and forget what was recorded (a profiler session started
    by `trace_on` is stopped and written, as TF's)."""
    while _active:
        concrete_function.call_observers.remove(_active.pop())
    if _profiling:
        _profiling.clear()
        if _profiler.active():
            _profiler.stop()


def trace_export(name, step=None, profiler_outdir=None):
    """Write the recorded graphs under the tag `name`, then stop recording."""
    if step is None:
        step = state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` "
                         "argument or through tf.summary.experimental.set_step()")
    if profiler_outdir:
        get_logger().warning("Ignoring `profiler_outdir` passed to trace_export(). Please "
                             "pass it to trace_on() instead.")
    graphs = list(_active[0].graphs) if _active else []
    trace_off()
    writer = state.writer
    if writer is None:
        warnings.warn("tf.summary.trace_export: no default summary writer; nothing is "
                      "written. Call it inside `with writer.as_default():`.", UserWarning,
                      stacklevel=2)
        return
    from tensorboard.compat.proto import config_pb2
    _, event_pb2, summary_pb2 = require_tensorboard("tf.summary.trace_export")
    run_metadata = config_pb2.RunMetadata()
    for g in graphs:
        function_graphs = run_metadata.function_graphs.add()
        function_graphs.pre_optimization_graph.CopyFrom(g.to_proto())
    meta = summary_pb2.SummaryMetadata()
    meta.plugin_data.plugin_name = "graph_run_metadata_graph"
    meta.plugin_data.content = b"1"
    from tensorboard.util import tensor_util
    value = summary_pb2.Summary.Value(
        tag=name, metadata=meta,
        tensor=tensor_util.make_tensor_proto([run_metadata.SerializeToString()]))
    writer.write_event(event_pb2.Event(wall_time=time.time(), step=int(_numpy(step)),
                                       summary=summary_pb2.Summary(value=[value])))
    if graphs:
        writer.write_event(event_pb2.Event(
            wall_time=time.time(), step=int(_numpy(step)),
            graph_def=graphs[-1].SerializeToString()))


def graph(graph_data):
    """Write a graph (a Graph, a concrete function's graph, or a GraphDef) to the
    default writer; TensorBoard shows it as the run's graph. False without a writer."""
    writer = state.writer
    if writer is None:
        return False
    _, event_pb2, _ = require_tensorboard("tf.summary.graph")
    if hasattr(graph_data, "as_graph_def"):
        graph_data = graph_data.as_graph_def(add_shapes=True)
    data = graph_data.SerializeToString()
    writer.write_event(event_pb2.Event(wall_time=time.time(), graph_def=data))
    return True


def _numpy(value):
    if hasattr(value, "read_value"):
        value = value.read_value()
    return value.numpy() if hasattr(value, "numpy") else value
