"""`tf.experimental.dlpack`: `to_dlpack` and `from_dlpack`, tensors shared with
other frameworks through DLPack capsules."""

from runtime._src.core.dlpack import from_dlpack, to_dlpack

__all__ = ["to_dlpack", "from_dlpack"]
