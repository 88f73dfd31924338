"""`Input` and `InputLayer`: where a functional model's data enters.

    inputs = Input(shape=(28, 28), name="image")   # KerasTensor shape=(None, 28, 28)
    inputs._keras_history[0]                        # the InputLayer "image"

`shape` leaves out the batch dimension (`batch_size` gives it, None by
default); `batch_shape` gives the whole shape instead. An `InputLayer` has no
weights; calling it passes its input through.
"""

import numbers

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.backend.keras_tensor import KerasTensor, Node
from runtime._src.keras.utils.naming import unique_name

__all__ = ["InputLayer", "Input"]


def _as_shape(shape):
    if isinstance(shape, numbers.Integral) or isinstance(shape, str):
        raise ValueError(f"Cannot convert '{shape}' to a shape.")
    try:
        return tuple(None if d is None else int(d) for d in shape)
    except (TypeError, ValueError):
        raise ValueError(f"Cannot convert '{shape}' to a shape.") from None


class InputLayer(Layer):
    """`tf.keras.layers.InputLayer(shape=None, batch_size=None, dtype=None,
    batch_shape=None, name=None)`; its `output` is the model input KerasTensor."""

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None,
                 batch_shape=None, input_tensor=None, optional=False, name=None, **kwargs):
        if "input_shape" in kwargs:
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same "
                             "time.")
        if batch_size is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the "
                             "same time.")
        if shape is None and batch_shape is None and input_tensor is None:
            raise ValueError("You must pass a `shape` argument.")
        super().__init__(name=name or unique_name("input_layer"), dtype=dtype, **kwargs)
        if input_tensor is not None:
            batch_shape = input_tensor.shape
            dtype = dtype or input_tensor.dtype
        elif batch_shape is None:
            batch_shape = (batch_size,) + _as_shape(shape)
        self.batch_shape = _as_shape(batch_shape)
        self._input_dtype = dtypes.as_dtype(dtype or "float32").name
        self.sparse = bool(sparse)
        self.optional = bool(optional)
        if input_tensor is None:
            input_tensor = KerasTensor(self.batch_shape, self._input_dtype,
                                       name=name, sparse=self.sparse)
        Node(self, (), {}, input_tensor)
        self.output = input_tensor
        self.built = True

    @property
    def dtype(self):
        return self._input_dtype

    def get_config(self):
        return {"batch_shape": self.batch_shape, "dtype": self._input_dtype,
                "sparse": self.sparse, "ragged": False, "name": self.name,
                "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("ragged", None)
        return cls(**config)

    def call(self, inputs=None):
        return inputs

    def compute_output_shape(self, input_shape=None):
        return self.batch_shape


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None,
          tensor=None, optional=False):  # Keras's name
    """`tf.keras.Input(shape=None, batch_size=None, dtype=None, batch_shape=None,
    name=None)`: a KerasTensor to call layers on and to give `Model` as inputs."""
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                       batch_shape=batch_shape, name=name, input_tensor=tensor,
                       optional=optional)
    return layer.output
