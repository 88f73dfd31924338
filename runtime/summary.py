"""`tf.summary`: event files for TensorBoard (runtime/_src/summary; needs the
`tensorboard` package, an optional extra)."""

from types import SimpleNamespace as _Namespace

from runtime._src.summary.summary_ops import (audio, histogram, image, record_if,
                                              scalar, should_record_summaries, text, write)
from runtime._src.summary.summary_ops import get_step as _get_step
from runtime._src.summary.summary_ops import set_step as _set_step
from runtime._src.summary.summary_ops import summary_scope as _summary_scope
from runtime._src.summary.summary_ops import write_raw_pb as _write_raw_pb
from runtime._src.summary.trace import graph, trace_export, trace_off, trace_on
from runtime._src.summary.writer import (SummaryWriter, create_file_writer,
                                         create_noop_writer)


def flush(writer=None, name=None):
    """Flush `writer` (default: the default writer)."""
    from runtime._src.summary.writer import state
    writer = writer or state.writer
    if writer is not None:
        writer.flush()


# tf.summary.experimental
experimental = _Namespace(get_step=_get_step, set_step=_set_step, summary_scope=_summary_scope,
                          write_raw_pb=_write_raw_pb)

__all__ = ["audio", "SummaryWriter", "create_file_writer", "create_noop_writer", "experimental",
           "flush", "graph", "histogram", "image", "record_if", "scalar",
           "should_record_summaries", "text", "trace_export", "trace_off", "trace_on", "write"]
