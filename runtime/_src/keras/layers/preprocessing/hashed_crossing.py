"""`keras.layers.HashedCrossing(num_bins, output_mode="int", sparse=False)`: the
hashed cross of two or more categorical features, as Keras 3 computes it on
TensorFlow (`tf.sparse.cross_hashed` of the features, each of shape (),
(batch,) or (batch, 1), integer or string).

    HashedCrossing(5)((["A", "B"], [101, 101]))   -> int64 bins in [0, 5)
    output_mode="one_hot"                          -> float32 (..., num_bins), a
                                                      SparseTensor with sparse=True
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.preprocessing.category_encoding import as_sparse, encode
from runtime._src.ops import array_ops
from runtime._src.sparse.sparse_cross import cross_hashed
from runtime._src.sparse.sparse_ops import to_dense

__all__ = ["HashedCrossing"]


class HashedCrossing(Layer):
    """See the module docstring."""

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None,
                 **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        if output_mode not in ("int", "one_hot"):
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"('int', 'one_hot'). Received: output_mode={output_mode}")
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, bool(sparse)

    def _convert_input(self, x):
        return x                       # features keep their dtypes (no float cast)

    def call(self, inputs):
        inputs = [convert_to_tensor(x) for x in _checked_list(inputs)]
        _check_features(inputs)
        shape = inputs[0].shape.as_list()
        columns = [array_ops.reshape(x, [-1, 1]) for x in inputs]
        crossed = to_dense(cross_hashed(columns, self.num_bins))
        outputs = array_ops.reshape(crossed, shape if None not in shape
                                    else array_ops.shape(inputs[0]))
        if self.output_mode == "int":
            return outputs
        if not shape:                  # a scalar's one-hot is (1, num_bins), as Keras's
            hot = array_ops.one_hot(array_ops.reshape(outputs, [1]), self.num_bins,
                                    dtype=self.compute_dtype)
        else:
            hot = encode(outputs, self.num_bins, "one_hot", dtypes.as_dtype(self.compute_dtype))
        return as_sparse(hot, self.sparse)

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if not first:
            return (1, self.num_bins)
        if first[-1] == 1:
            return first[:-1] + (self.num_bins,)
        return first + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self.dtype}


def _checked_list(inputs):
    if not isinstance(inputs, (list, tuple)):
        raise ValueError("`HashedCrossing` should be called on a list or tuple of inputs. "
                         f"Received: inputs={inputs}")
    if len(inputs) < 2:
        raise ValueError("`HashedCrossing` should be called on at least two inputs. "
                         f"Received: inputs={inputs}")
    return inputs


def _check_features(inputs):
    shape = inputs[0].shape.as_list()
    if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
        raise ValueError("All `HashedCrossing` inputs should have shape `()`, `(batch_size)` "
                         f"or `(batch_size, 1)`. Received: inputs={inputs}")
    if any(x.shape.as_list() != shape for x in inputs[1:]):
        raise ValueError("All `HashedCrossing` inputs should have equal shape. "
                         f"Received: inputs={inputs}")
    if not all(x.dtype.is_integer or x.dtype == dtypes.string for x in inputs):
        raise ValueError("All `HashedCrossing` inputs should have an integer or string "
                         f"dtype. Received: inputs={inputs}")
