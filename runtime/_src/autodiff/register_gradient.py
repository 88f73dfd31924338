"""`tf.RegisterGradient` and `tf.no_gradient`: a gradient function, or none,
for an op type by its name, as TF keeps them (one registration per name).

    @tf.RegisterGradient("Unique")          # TF and we define none for Unique
    def _unique_grad(op, grad_y, grad_idx):
        return tf.gather(grad_y, op.outputs[1])

The function gets the op (`op.inputs`, `op.outputs`, `op.type`) and one
gradient per output, and returns one per input (None where none flows), as
the rules the runtime registers itself (graph/op_registry.define_grad).
A name the runtime does not define is kept too, as TF keeps any name;
registering a name twice, ours included, raises TF's KeyError.
"""

from runtime._src.graph.op_registry import NOT_DIFFERENTIABLE, OPS, define_grad

__all__ = ["RegisterGradient", "no_gradient"]

_OTHERS = {}    # op types we do not define: name -> function (or None)


def _register(op_type, rule):
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    opdef = OPS.get(op_type)
    taken = op_type in _OTHERS if opdef is None else opdef.grad is not None
    if taken:
        raise KeyError(f"Registering two gradient with name '{op_type}'!")
    if opdef is None:
        _OTHERS[op_type] = rule
    else:
        define_grad(op_type)(rule)


class RegisterGradient:
    """`tf.RegisterGradient(op_type)`: a decorator registering `f(op, *grads)`
    as the gradient of the ops of type `op_type`."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _register(self._op_type, f)
        return f


def no_gradient(op_type):
    """`tf.no_gradient(op_type)`: ops of type `op_type` pass no gradient (their
    inputs get None)."""
    _register(op_type, NOT_DIFFERENTIABLE if op_type in OPS else None)
