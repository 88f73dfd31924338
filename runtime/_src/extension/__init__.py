"""Layer beside ragged and sparse, above ops: `tf.experimental.ExtensionType`,
`BatchableExtensionType`, their specs, and dispatch of TensorFlow's APIs to
user functions (`tf.experimental.dispatch_for_api` and its family)."""

from runtime._src.extension import dispatch, extension_type, fields  # noqa: F401
