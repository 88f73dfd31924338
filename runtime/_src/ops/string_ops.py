"""String ops: `strings.format`.

`format(template, inputs)` fills each placeholder (`{}`) of `template` with
the next input's text, in `tf.print`'s layout (`summarize` entries at each
end of every dimension, TF's element formats; see `logging_ops`):

    format("x={} y={}", [constant([0, 1, 2, 3, 4, 5, 6, 7]), constant("a")])
    # -> b'x=[0 1 2 ... 5 6 7] y="a"'  (a scalar string tensor)

In a graph the text is made when the graph runs.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import not_differentiable  # gradients
from runtime._src.ops.logging_ops import summarize_v2
from runtime._src.ops.shape_rules import static_int

__all__ = ["format"]


@define_op("StringFormat", infer=lambda inputs, attrs: [(dtypes.string, TensorShape([]))])
def _string_format(*values, parts, summarize):
    texts = [summarize_v2(v, summarize) for v in values]
    out = parts[0] + "".join(t + p for t, p in zip(texts, parts[1:]))
    return np.array(out.encode("utf-8"), dtype=object)


not_differentiable("StringFormat")


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # TF's name
    """`tf.strings.format`: `template` with each `placeholder` replaced by the
    text of the next tensor in `inputs` (a tensor or a list of them)."""
    if not isinstance(template, str):
        raise TypeError(f"strings.format: template must be a Python string, got {template!r}")
    if isinstance(inputs, Tensor) or reads_as_tensor(inputs):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"strings.format: inputs must be a tensor or a list of tensors, got "
                        f"{type(inputs).__name__}")
    parts = template.split(placeholder) if placeholder else [template]
    if len(parts) - 1 != len(inputs):
        raise ValueError(f"strings.format: The template expects {len(parts) - 1} tensors, but "
                         f"the inputs only has {len(inputs)}. Please ensure the number of "
                         "placeholders in template matches inputs length.")
    tensors = [convert_to_tensor(v._as_tensor() if reads_as_tensor(v) else v)
               for v in inputs]
    summarize = static_int(summarize, "strings.format", "summarize")
    return apply("StringFormat", tensors, {"parts": tuple(parts), "summarize": summarize})
