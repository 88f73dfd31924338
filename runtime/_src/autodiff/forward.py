"""`tf.autodiff.ForwardAccumulator`: Jacobian-vector products.

    with tf.autodiff.ForwardAccumulator(primals=x, tangents=t) as acc:
        y = f(x)
    acc.jvp(y)            # J_f(x) @ t, shaped like y

The product is computed from reverse mode (the "double-vjp" construction):
the accumulator records like a GradientTape watching the primals; `jvp(y)`
takes the vector-Jacobian product `u -> J^T u` with a symbolic cotangent
`u`, dots it with the tangents, and differentiates that (linear in `u`)
with respect to `u`, which gives `J t`. So every op with a gradient rule
has a forward derivative, eagerly and in graphs, and the values equal TF's
forward mode to rounding.
"""

from runtime._src.autodiff.tape import GradientTape, UnconnectedGradients
from runtime._src.core import nest
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """`tf.autodiff.ForwardAccumulator(primals, tangents)`: inside the
    `with` block, computations from `primals` are recorded; `jvp(target)`
    gives each target's derivative along `tangents`."""

    def __init__(self, primals, tangents):
        flat_primals, flat_tangents = nest.flatten(primals), nest.flatten(tangents)
        if len(flat_primals) != len(flat_tangents):
            raise ValueError(f"ForwardAccumulator: {len(flat_primals)} primals but "
                             f"{len(flat_tangents)} tangents")
        self._primals = flat_primals
        self._tangents = []
        for p, t in zip(flat_primals, flat_tangents):
            t = convert_to_tensor(t, p.dtype)
            if tuple(t.shape.dims or ()) != tuple(p.shape.dims or ()):
                raise ValueError(f"Mismatched shape for primal and tangent: {p.shape} vs "
                                 f"{t.shape}")
            self._tangents.append(t)
        self._tape = GradientTape(persistent=True)

    def __enter__(self):
        self._tape.__enter__()
        self._tape.watch(self._primals)
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The Jacobian-vector product of each target (a structure of tensors)
        along the tangents; None (or zeros) for a target the primals do not reach."""
        return nest.map_structure(lambda y: self._one(y, unconnected_gradients), primals)

    def _one(self, target, unconnected):
        target = convert_to_tensor(target._as_tensor() if reads_as_tensor(target)
                                   else target)
        with GradientTape() as outer:
            cotangent = array_ops.zeros_like(target)
            outer.watch(cotangent)
            grads = self._tape.gradient(target, self._primals, output_gradients=cotangent)
            pairs = [(g, t) for g, t in zip(grads, self._tangents) if g is not None]
            if not pairs:
                return self._unconnected(target, unconnected)
            dotted = math_ops.add_n([reduction_ops.reduce_sum(math_ops.multiply(g, t))
                                     for g, t in pairs])
        out = outer.gradient(dotted, cotangent)
        return self._unconnected(target, unconnected) if out is None else out

    @staticmethod
    def _unconnected(target, unconnected):
        if unconnected in ("zero", UnconnectedGradients.ZERO):
            return array_ops.zeros_like(target)
        return None
