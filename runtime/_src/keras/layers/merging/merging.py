"""Merge layers: combine a list of tensors into one.

    Add()([a, b])              a + b (+ ...), shapes broadcast
    Subtract()([a, b])         a - b (exactly two inputs)
    Multiply()([a, b])         a * b (* ...)
    Average()([a, b])          (a + b + ...) / n
    Maximum()([a, b]), Minimum()([a, b])   elementwise
    Concatenate(axis=-1)([a, b])           along `axis`; the other sizes must match

The elementwise layers check that the shapes (after the batch dimension)
broadcast: `Add()([Input((3,)), Input((4,))])` is "Inputs have incompatible
shapes. Received shapes (3,) and (4,)", as in Keras.

Masks, as Keras 3's: the output of an elementwise merge is masked where any
input is (the OR of their masks, None unless every input has one); Maximum and
Minimum also ignore an input at its masked steps. Concatenate's mask is the OR
of the inputs' masks (a missing one counts as all True).
"""

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import Layer
from runtime._src.ops import array_ops, math_ops, reduction_ops, shape_ops

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate"]


def _shapes(inputs):
    if not isinstance(inputs, (list, tuple)):
        shape = getattr(getattr(inputs, "shape", None), "dims", None)
        raise ValueError("A merge layer should be called on a list of inputs. Received: "
                         f"input_shape={tuple(shape) if shape is not None else None} "
                         "(not a list of shapes)")
    return [None if t.shape.dims is None else tuple(t.shape.dims) for t in inputs]


def _broadcast(a, b):
    """Keras's merge of two shapes (after the batch axis): aligned at the right,
    an unknown size on either side stays unknown, a 1 takes the other size;
    None if two known sizes clash."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return tuple(a)
    out = list(a[:len(a) - len(b)])
    for x, y in zip(a[len(a) - len(b):], b):
        if x is None or y is None:
            out.append(None)
        elif x == 1 or y == 1:
            out.append(y if x == 1 else x)
        elif x != y:
            return None
        else:
            out.append(x)
    return tuple(out)


def _batch_of(shapes):
    """The one known batch size of `shapes` (None if none is known); a
    ValueError, as Keras's, when two differ."""
    sizes = {s[0] for s in shapes if s is not None and s and s[0] is not None}
    if len(sizes) > 1:
        raise ValueError("Cannot merge tensors with different batch sizes. Received tensors "
                         f"with shapes {[tuple(s) for s in shapes]}")
    return sizes.pop() if sizes else None


def _check_masks(inputs, mask):
    if not isinstance(mask, (tuple, list)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (tuple, list)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError("The lists `inputs` and `mask` should have the same length. "
                         f"Received: inputs={inputs} of length {len(inputs)}, and "
                         f"mask={mask} of length {len(mask)}")


class _Merge(Layer):
    """The elementwise merge layers: `_combine(a, b)` folded over the inputs
    (then `_finish(result, n)`), after checking the shapes broadcast."""

    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        _check_masks(inputs, mask)
        if any(m is None for m in mask):
            return None
        out = mask[0]
        for m in mask[1:]:
            out = math_ops.logical_or(out, m)
        return out

    def get_config(self):
        return super().get_config()          # no arguments of its own

    def _checked(self, inputs):
        """The inputs as a list, after checking that their shapes broadcast."""
        shapes = _shapes(inputs)
        known = [s for s in shapes if s is not None]
        _batch_of(known)
        if known:
            result = known[0][1:]
            for shape in known[1:]:
                merged = _broadcast(result, shape[1:])
                if merged is None:
                    raise ValueError("Inputs have incompatible shapes. Received shapes "
                                     f"{result} and {shape[1:]}")
                result = merged
        inputs = list(inputs)
        self._check_count(inputs)
        return inputs

    def call(self, inputs):
        inputs = self._checked(inputs)
        out = inputs[0]
        for x in inputs[1:]:
            out = self._combine(out, x)
        return self._finish(out, len(inputs))

    def _check_count(self, inputs):
        pass

    def _finish(self, result, n):
        return result

    def compute_output_shape(self, input_shape):
        out = tuple(input_shape[0][1:])
        for shape in input_shape[1:]:
            out = _broadcast(out, tuple(shape[1:]))
        return (_batch_of(input_shape),) + out


class Add(_Merge):
    """`tf.keras.layers.Add()`: the sum of its inputs."""

    _combine = staticmethod(math_ops.add)


class Subtract(_Merge):
    """`tf.keras.layers.Subtract()`: inputs[0] - inputs[1]."""

    _combine = staticmethod(math_ops.subtract)

    def _check_count(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")


class Multiply(_Merge):
    """`tf.keras.layers.Multiply()`: the product of its inputs."""

    _combine = staticmethod(math_ops.multiply)


class Average(_Merge):
    """`tf.keras.layers.Average()`: the mean of its inputs."""

    _combine = staticmethod(math_ops.add)

    def _finish(self, result, n):
        return math_ops.divide(result, array_ops.constant(float(n), result.dtype))


class _MaskedExtreme(_Merge):
    """Maximum/Minimum: with masks, a masked input step takes the other's value."""

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        out, out_mask = None, None
        for x, m in zip(self._checked(inputs), mask):
            if m is not None:
                m = shape_ops.broadcast_to(
                    array_ops.expand_dims(math_ops.cast(m, dtypes.bool), -1), array_ops.shape(x))
            if out is None:
                out, out_mask = x, m
                continue
            if m is not None:
                x = math_ops.where(m, x, out)
            if out_mask is not None:
                out = math_ops.where(out_mask, out, x)
            out_mask = None if m is None or out_mask is None else \
                math_ops.logical_or(out_mask, m)
            out = self._combine(out, x)
        return out


class Maximum(_MaskedExtreme):
    """`tf.keras.layers.Maximum()`: the elementwise maximum of its inputs."""

    _combine = staticmethod(math_ops.maximum)


class Minimum(_MaskedExtreme):
    """`tf.keras.layers.Minimum()`: the elementwise minimum of its inputs."""

    _combine = staticmethod(math_ops.minimum)


class Concatenate(Layer):
    """`tf.keras.layers.Concatenate(axis=-1)`: the inputs joined along `axis`."""

    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        _check_masks(inputs, mask)
        if all(m is None for m in mask):
            return None
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                m = array_ops.ones_like(x, dtype=dtypes.bool)
            elif m.shape.rank < x.shape.rank:
                m = math_ops.logical_or(array_ops.expand_dims(math_ops.cast(m, dtypes.bool), -1),
                                        array_ops.zeros_like(x, dtype=dtypes.bool))
            masks.append(m)
        return reduction_ops.reduce_any(array_ops.concat(masks, self.axis), axis=-1)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

    def call(self, inputs):
        shapes = _shapes(inputs)
        known = [s for s in shapes if s is not None]
        if known:
            rank = len(known[0])
            axis = self.axis % rank if -rank <= self.axis < rank else None
            for shape in known[1:]:
                if axis is None or len(shape) != rank or any(
                        i != axis and a is not None and b is not None and a != b
                        for i, (a, b) in enumerate(zip(known[0], shape))):
                    raise ValueError(
                        "A `Concatenate` layer requires inputs with matching shapes except "
                        f"for the concatenation axis. Received: input_shape={shapes}")
        return array_ops.concat(list(inputs), self.axis)

    def compute_output_shape(self, input_shape):
        out = list(input_shape[0])
        sizes = [s[self.axis] for s in input_shape]
        out[self.axis] = None if None in sizes else sum(sizes)
        return tuple(out)


# Keras's functional forms: `layers.concatenate([a, b])` is
# `layers.Concatenate()([a, b])`, and so on.

def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)
