"""`tf.strings`: string ops (see `runtime._src.ops.string_ops`).

    strings.format("x={}", [x])      # a scalar string tensor: b'x=[1 2 3]'
"""

from runtime._src.ops.string_ops import format  # noqa: A004 - TensorFlow's name

__all__ = ["format"]
