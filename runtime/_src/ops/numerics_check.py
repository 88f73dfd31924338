"""`tf.debugging.enable_check_numerics` / `disable_check_numerics`: while on,
every op's floating-point outputs are checked for Inf and NaN, eagerly as it
runs and inside tf.function by a CheckNumerics after each op traced (so a
function traced before enabling is not checked, as in TF). The error is TF's:

    !!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!
      dtype: <dtype: 'float32'>
      shape: (2,)
      # of +NaN elements: 1
    ...
     : Tensor had NaN values
"""

import numpy as np

from runtime._src.core import context
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply

__all__ = ["enable_check_numerics", "disable_check_numerics"]


def _header(opdef, index, count, tensor, kind):
    return (f"\n\n!!! Detected Infinity or NaN in output {index} of {kind} op \"{opdef.name}\" "
            f"(# of outputs: {count}) !!!\n  dtype: {tensor.dtype}\n  shape: "
            f"{tuple(tensor.shape.as_list()) if tensor.shape.rank is not None else None}\n")


def _inputs_text(inputs):
    if len(inputs) == 1:
        return f"\n  Input tensor: {inputs[0]!s}\n"
    return f"\n  Input tensors ({len(inputs)}):\n" + "".join(
        f"    {i}: {t!s}\n" for i, t in enumerate(inputs))


def _counts(value):
    lines = [("-Inf", np.isneginf(value)), ("+Inf", np.isposinf(value)), ("+NaN", np.isnan(value))]
    return "".join(f"  # of {name} elements: {int(hits.sum())}\n" for name, hits in lines
                   if hits.any())


def _check(opdef, inputs, result, graph):
    outputs = result if isinstance(result, tuple) else (result,)
    if graph is not None:
        return tuple(_staged(opdef, inputs, outputs, i, t, graph) for i, t in enumerate(outputs))
    for i, t in enumerate(outputs):
        if t.dtype.is_floating or t.dtype.is_complex:
            value = np.asarray(t._value)
            if not np.isfinite(value).all():
                found = "NaN" if np.isnan(value).any() else "Inf"
                raise InvalidArgumentError(
                    _header(opdef, i, len(outputs), t, "eagerly-executing") + _counts(value) +
                    _inputs_text(inputs) + f"\n : Tensor had {found} values", opdef.name)
    return result


def _staged(opdef, inputs, outputs, index, t, graph):
    if opdef.name == "CheckNumerics" or not t.dtype.is_floating:
        return t
    message = (_header(opdef, index, len(outputs), t, "graph") + _inputs_text(inputs) +
               f"  Graph name: \"{graph.name}\"\n")
    return apply("CheckNumerics", [t], {"message": message, "where": ""})


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Check every op's float outputs for Inf and NaN from now on (eagerly, and in
    functions traced from now on): InvalidArgumentError naming the op."""
    context._State.check_numerics = staticmethod(_check)      # a plain function, read per op


def disable_check_numerics():
    """Stop checking (functions traced while it was on keep their checks)."""
    context._State.check_numerics = None
