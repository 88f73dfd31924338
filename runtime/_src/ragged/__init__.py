"""Layer above ops: ragged tensors (`tf.RaggedTensor`, `tf.ragged`) and the
string ops whose results are ragged (`tf.strings.split`, `unicode_split`, ...).

A RaggedTensor is a composite: its `flat_values` and one int64 `row_splits`
vector per ragged dimension, all ordinary tensors (eager values, or graph
tensors while tracing), so every op on it is an ordinary op.
"""

from runtime._src.ragged import dynamic_ragged_shape, ragged_dispatch  # noqa: F401,E402 - registers the handlers
