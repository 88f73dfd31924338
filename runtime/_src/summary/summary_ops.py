"""`tf.summary.scalar`, `histogram`, `text`, `image`, `write`; `record_if`;
the default step (`experimental.set_step`/`get_step`).

Each summary is one op, `WriteSummary(step, value[, condition])`, with side
effects: eagerly it writes at once; inside `tf.function` it is a graph node
that writes every time the graph runs (not when it is traced), in program
order, like `tf.print`. Its attrs hold the writer and the tag, so the writer
that was the default while tracing is the one the graph writes to, as in
TensorFlow. The value is turned into TensorBoard's form when written
(summary_protos.py): a float32 scalar, `[k, 3]` histogram buckets, a string
tensor, PNG images.

Each returns a bool tensor: True when written, False when there is no
default writer or `record_if` says no (then no op is staged at all).
"""

import contextlib
import re

import numpy as np

from runtime._src.core import context as _context
from runtime._src.core import dtypes
from runtime._src.core.context import current_graph
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.function.variables import Variable
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.summary import summary_protos
from runtime._src.summary.writer import state

__all__ = ["scalar", "histogram", "text", "image", "write", "record_if",
           "should_record_summaries", "set_step", "get_step"]


def _infer(inputs, attrs):
    return [(dtypes.bool, TensorShape([]))]


@define_op("WriteSummary", infer=_infer, side_effect=True)
def _write_summary(step, value, *condition, writer, tag, kind, options):
    if condition and not bool(np.asarray(condition[0])):
        return np.bool_(False)
    writer.write_event(summary_protos.event(kind, tag, value, int(step), dict(options)))
    return np.bool_(True)


not_differentiable("WriteSummary")


# --- the step and the condition ---------------------------------------------------

def set_step(step):
    """The default `step` of summaries on this thread (an int, a tensor or a Variable:
    a Variable is read each time a summary is written, also in a traced graph)."""
    state.step = step


def get_step():
    return state.step


@contextlib.contextmanager
def record_if(condition):
    """`with tf.summary.record_if(cond):` summaries inside are written only when
    `cond` (a bool, a bool tensor, or a callable returning one) is true."""
    previous = state.record_if
    state.record_if = condition
    try:
        yield
    finally:
        state.record_if = previous


def should_record_summaries():
    """True (a bool tensor) when summaries would be written here and now."""
    if state.writer is None or getattr(state.writer, "noop", False):
        return convert_to_tensor(False)
    condition = _condition()
    return condition if isinstance(condition, Tensor) else convert_to_tensor(bool(condition))


def _condition():
    condition = state.record_if
    if callable(condition):
        condition = condition()
    if isinstance(condition, Variable):
        condition = condition.read_value()
    return condition


def _step_tensor(step):
    if step is None:
        step = state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` "
                         "argument or through tf.summary.experimental.set_step()")
    if isinstance(step, Variable):
        step = step.read_value()
    step = convert_to_tensor(step)
    if step.dtype != dtypes.int64:
        step = math_ops.cast(step, dtypes.int64)
    return step


# --- the summaries -------------------------------------------------------------------

def _stage(kind, name, data, step, **options):
    """Stage (or run) one WriteSummary, or return False when nothing is to be written."""
    writer = state.writer
    if writer is None or getattr(writer, "noop", False):
        return convert_to_tensor(False)
    condition = _condition()
    if not isinstance(condition, Tensor) and not condition:
        return convert_to_tensor(False)
    inputs = [_step_tensor(step), data]
    if isinstance(condition, Tensor):
        inputs.append(condition)
    attrs = {"writer": writer, "tag": _scope_prefix() + name, "kind": kind,
             "options": tuple(sorted(options.items()))}
    return apply("WriteSummary", inputs, attrs)


def _scope_prefix():
    """The `tf.name_scope` prefix the tag gets ("train/" in `name_scope("train")`)."""
    graph = current_graph()
    return getattr(graph if graph is not None else _context.state, "name_scope_prefix", "")


_NOT_IN_SCOPES = re.compile(r"[^-_/.A-Za-z0-9]")


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """`tf.summary.experimental.summary_scope`: enter a name scope for a summary
    op and yield (tag, scope): the tag is the enclosing scope's prefix and `name`
    (or `default_name`) as given; the scope drops the characters a scope name
    cannot hold ("a b:c" -> "abc/")."""
    name = name or default_name
    tag = _scope_prefix() + name
    with _context.name_scope(_NOT_IN_SCOPES.sub("", name)) as scope:
        yield tag, scope


def _checked_name(name, what):
    if not isinstance(name, str) or not name:
        raise ValueError(f"tf.summary.{what}: name must be a non-empty string, got {name!r}")
    return name


def scalar(name, data, step=None, description=None):
    """Write a scalar (shown in TensorBoard's Scalars tab)."""
    _checked_name(name, "scalar")
    data = data.read_value() if isinstance(data, Variable) else convert_to_tensor(data)
    if data.shape.rank not in (None, 0):
        raise ValueError(f"tf.summary.scalar {name!r}: data must be a scalar, got shape "
                         f"{data.shape}")
    if data.dtype != dtypes.float32:
        data = math_ops.cast(data, dtypes.float32)
    return _stage("scalar", name, data, step, description=description)


def histogram(name, data, step=None, buckets=None, description=None):
    """Write the distribution of `data`'s values in `buckets` (30) equal-width buckets."""
    _checked_name(name, "histogram")
    data = data.read_value() if isinstance(data, Variable) else convert_to_tensor(data)
    if data.dtype.is_string or data.dtype.is_bool:
        raise TypeError(f"tf.summary.histogram {name!r}: data must be numeric, got "
                        f"{data.dtype.name}")
    return _stage("histogram", name, data, step, description=description,
                  buckets=30 if buckets is None else int(buckets))


def text(name, data, step=None, description=None):
    """Write a string tensor (TensorBoard's Text tab renders it as Markdown)."""
    _checked_name(name, "text")
    data = convert_to_tensor(data)
    if not data.dtype.is_string:
        raise TypeError(f"tf.summary.text {name!r}: data must be a string tensor, got "
                        f"{data.dtype.name}")
    return _stage("text", name, data, step, description=description)


def image(name, data, step=None, max_outputs=3, description=None):
    """Write up to `max_outputs` images of a `[k, h, w, c]` batch (c: 1, 3 or 4;
    floats in [0, 1] or uint8), PNG-encoded."""
    _checked_name(name, "image")
    data = convert_to_tensor(data)
    if data.shape.rank is not None and (data.shape.rank != 4 or
                                        data.shape.dims[-1] not in (1, 3, 4, None)):
        raise ValueError(f"tf.summary.image {name!r}: data must have shape [k, h, w, c] "
                         f"with c in 1, 3, 4; got {data.shape}")
    return _stage("image", name, data, step, description=description,
                  max_outputs=int(max_outputs))


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Write up to `max_outputs` clips of a float `[k, t, c]` batch (values in
    [-1, 1]) as 16-bit WAV files at `sample_rate` Hz (TensorBoard's Audio tab):
    a string `[k, 2]` tensor of (wav, label ""), as TensorBoard's summary."""
    _checked_name(name, "audio")
    if encoding not in (None, "wav"):
        raise ValueError(f"Unknown encoding: {encoding!r}")
    data = convert_to_tensor(data, dtypes.float32)
    if data.shape.rank is not None and data.shape.rank != 3:
        raise ValueError(f"Tensor  must have rank 3.  Received rank {data.shape.rank}, shape "
                         f"{tuple(data.shape.as_list())}")
    return _stage("audio", name, data, step, description=description,
                  sample_rate=_static_int(sample_rate, "sample_rate"),
                  max_outputs=_static_int(max_outputs, "max_outputs"))


def _static_int(value, what):
    if isinstance(value, Tensor):
        if not hasattr(value, "_value"):
            raise TypeError(f"tf.summary.audio: {what} must be known when the summary is "
                            f"staged (a Python number or an eager tensor), got {value!r}")
        value = value._value
    return int(np.asarray(value))


def write_raw_pb(tensor, step=None, name=None):
    """`tf.summary.experimental.write_raw_pb`: one event holding the serialized
    `tf.compat.v1.Summary` protos of the string tensor `tensor` (scalar or
    vector), merged; False when no writer records."""
    data = convert_to_tensor(tensor)
    if data.dtype != dtypes.string:
        raise TypeError(f"write_raw_pb: tensor must be a string tensor, got {data.dtype.name}")
    return _stage("raw", "", data, step)


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write `tensor` as is under `tag` (TensorBoard needs plugin metadata to show it)."""
    _checked_name(tag, "write")
    data = tensor.read_value() if isinstance(tensor, Variable) else convert_to_tensor(tensor)
    plugin = None
    if metadata is not None:
        plugin = getattr(getattr(metadata, "plugin_data", None), "plugin_name", None)
    return _stage("tensor", tag, data, step, plugin=plugin)
