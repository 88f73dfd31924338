"""The weights layers create: a `tf.Variable` named as Keras 3 names them.

    d = Dense(2); d.build((None, 3))
    d.kernel.name       # "kernel"
    d.kernel.path       # "dense/kernel" (inside a Sequential: "sequential/dense/kernel")

`path` is the names of the layers being called (or built) when the weight
was made, then the weight's own name; `regularizer` is the layer's penalty
for it (or None), `constraint` a function applied after each optimizer step.
"""

from runtime._src.function.variables import Variable

__all__ = ["KerasVariable"]


class KerasVariable(Variable):
    """A Variable with Keras 3's `name` (short) and `path` (scoped)."""

    def __init__(self, initial_value, trainable=True, name=None, dtype=None, path=None,
                 regularizer=None, constraint=None):
        super().__init__(initial_value, trainable=trainable, name=path or name, dtype=dtype)
        self._short_name = name or "Variable"
        self.regularizer = regularizer
        self.constraint = constraint

    @property
    def name(self):
        return self._short_name

    @property
    def path(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    def __repr__(self):
        try:
            value = f", value={self.numpy()}"
        except NotImplementedError:            # while a graph is traced
            value = ""
        return (f"<Variable path={self.path}, shape={tuple(self.shape.dims)}, "
                f"dtype={self.dtype.name}{value}>")
