"""`tf.saved_model.experimental.TrackableResource`: holds a tensor that a
`tf.function` can capture, made on first use.

A subclass overrides `_create_resource()` (returns the tensor: a lookup
table's state, a constant...), optionally `_initialize()` (fills it; call it
from `__init__`, as TensorFlow's example does) and `_destroy_resource()`
(run when the object is deleted, used or not, as in TensorFlow).

    class Scale(tf.saved_model.experimental.TrackableResource):
        def _create_resource(self):
            return tf.constant([1.0, 2.0])

    scale = Scale()
    tf.function(lambda x: x * scale.resource_handle)(tf.ones(2))

It is a node of the object graph (with no value of its own), so a
checkpoint or `tf.train.TrackableView` lists it under its attribute name; a
saved function that uses its tensor keeps the tensor as a constant.
"""

from runtime._src.core.context import init_scope
from runtime._src.core.devices import device

__all__ = ["TrackableResource"]


class TrackableResource:
    """Holds a Tensor which a tf.function can capture."""

    def __init__(self, device=""):
        self._resource_handle_value = None
        self._resource_device = device

    def _create_resource(self):
        """Returns the tensor this resource holds (subclasses override it)."""
        raise NotImplementedError("TrackableResource._create_resource not implemented.")

    def _initialize(self):
        """Initializes the resource (subclasses may override it)."""

    def _destroy_resource(self):
        """Releases the resource when the object is deleted (subclasses may
        override it)."""

    @property
    def resource_handle(self):
        """The tensor `_create_resource()` returned, made on first use (on
        `device`, outside any function being traced)."""
        if self._resource_handle_value is None:
            with init_scope(), device(self._resource_device or None):
                self._resource_handle_value = self._create_resource()
        return self._resource_handle_value

    def _checkpoint_children(self):
        return []

    def __del__(self):
        if hasattr(self, "_resource_device"):        # made, even when never used: as TF
            try:
                self._destroy_resource()
            except Exception:  # noqa: BLE001 - nothing can be raised from __del__
                pass
