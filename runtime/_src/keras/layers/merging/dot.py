"""`keras.layers.Dot(axes, normalize=False)`: the dot product of two batched
tensors along one axis each (Keras's `batch_dot`).

    Dot(axes=1)([a, b])          a, b (batch, n): sum(a * b, 1) -> (batch, 1)
    Dot(axes=(2, 2))([A, B])     (b, 3, 2), (b, 4, 2) -> (b, 3, 4)
    Dot(1, normalize=True)       each input L2-normalized along its axis first
                                 (the cosine similarity)

The output is (batch, the rest of a's axes, the rest of b's axes); (batch, 1)
when nothing is left. `axes` counts the batch axis; negative ones count from
the end of each input.
"""

import math

from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.losses.losses import normalize
from runtime._src.ops import array_ops, math_ops

__all__ = ["Dot", "dot"]


def _to_last(x, axis):
    """x with `axis` moved to the end, as (batch, rest..., k) -> (batch, prod(rest), k)."""
    rank = x.shape.rank
    perm = [0] + [a for a in range(1, rank) if a != axis] + [axis]
    rest = [x.shape.dims[a] for a in perm[1:-1]]
    moved = array_ops.transpose(x, perm)
    return array_ops.reshape(moved, [-1, math.prod(rest), x.shape.dims[axis]]), rest


class Dot(ConfigurableLayer):
    """`keras.layers.Dot(axes, normalize=False)` of exactly two inputs."""

    _config_keys = ("axes", "normalize")

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)) or len(axes) != 2 \
                    or not all(isinstance(a, int) for a in axes):
                raise ValueError("Invalid format for argument `axes`: list/tuple of two "
                                 f"integers, or one integer. Received: axes={axes}")
        self.axes, self.normalize = axes, normalize

    def _axes_for(self, ranks):
        axes = [self.axes, self.axes] if isinstance(self.axes, int) else list(self.axes)
        return [a % r if a < 0 else a for a, r in zip(axes, ranks)]

    def _check(self, shapes):
        if len(shapes) != 2:
            raise ValueError(f'Layer "{self.name}": a Dot layer should be called on a list '
                             f"of 2 inputs. Received: {len(shapes)} inputs.")
        ax, ay = self._axes_for([len(s) for s in shapes])
        if shapes[0][ax] is not None and shapes[1][ay] is not None \
                and shapes[0][ax] != shapes[1][ay]:
            raise ValueError(f"Incompatible input shapes: axis values {shapes[0][ax]} (at "
                             f"axis {ax}) != {shapes[1][ay]} (at axis {ay}). Full input "
                             f"shapes: {tuple(shapes[0])}, {tuple(shapes[1])}")
        return ax, ay

    def call(self, inputs):
        x, y = list(inputs) if isinstance(inputs, (list, tuple)) else (inputs, None)
        if y is None:
            self._check([x.shape.dims])
        ax, ay = self._check([x.shape.dims, y.shape.dims])
        if self.normalize:
            x = _l2(x, ax)
            y = _l2(y, ay)
        xf, x_rest = _to_last(x, ax)
        yf, y_rest = _to_last(y, ay)
        out = math_ops.matmul(xf, yf, transpose_b=True)      # (batch, px, py)
        shape = x_rest + y_rest
        return array_ops.reshape(out, [-1] + (shape or [1]))

    def compute_output_shape(self, input_shape):
        shapes = [tuple(s) for s in input_shape]
        ax, ay = self._check(shapes)
        rest = [d for i, d in enumerate(shapes[0]) if i not in (0, ax)] + \
               [d for i, d in enumerate(shapes[1]) if i not in (0, ay)]
        return (shapes[0][0], *(rest or [1]))


def _l2(x, axis):
    """Keras 3's normalize (epsilon 1e-7), as Dot(normalize=True) uses it."""
    return normalize(x, axis)


def dot(inputs, axes=-1, **kwargs):
    """`keras.layers.dot(inputs, axes=-1, normalize=False)`: Dot(axes)(inputs)."""
    return Dot(axes=axes, **kwargs)(inputs)
