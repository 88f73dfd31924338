"""Graph plumbing ops: `Placeholder` (an input) and `Const` (a captured value)."""

import numpy as np

from runtime._src.graph.op_registry import define_op


def _infer_attr_spec(inputs, attrs):
    return [(attrs["dtype"], attrs["shape"] if "shape" in attrs else np.shape(attrs["value"]))]


@define_op("Placeholder", infer=_infer_attr_spec)
def _placeholder(*, dtype, shape):
    raise RuntimeError("a Placeholder is fed by the executor, never run")


@define_op("Const", infer=_infer_attr_spec)
def _const(*, value, dtype):
    return value
