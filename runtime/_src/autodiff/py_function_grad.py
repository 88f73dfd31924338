"""The gradient of `py_function` (the `EagerPyFunc` op), as TensorFlow gives it:
the Python function is differentiated by running it under a GradientTape.

    y = tf.py_function(lambda a: a * a, [x], tf.float32)
    # dy/dx: a second EagerPyFunc node that runs the function again on x under
    # a tape and returns the tape's gradient of its outputs weighed by dy.

The rule lives in this layer, not next to the op (runtime/_src/ops/script_ops.py),
because it needs the tape. The function runs once more for the gradient
(TensorFlow keeps the forward tape instead), so its Python side effects happen
again then. Integer inputs get no gradient.
"""

import numpy as np

from runtime._src.autodiff.tape import GradientTape
from runtime._src.core import nest
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad

__all__ = []


def _differentiable(t):
    return t.dtype.is_floating


@define_grad("EagerPyFunc")
def _eager_py_func_grad(op, *grads):
    func = op.attrs["func"]
    inputs = list(op.inputs)
    wrt = [i for i, t in enumerate(inputs) if _differentiable(t)]
    weighed = [i for i, (o, g) in enumerate(zip(op.outputs, grads))
               if g is not None and _differentiable(o)]
    if not wrt or not weighed:
        return [None] * len(inputs)

    def vector_jacobian_product(*args):
        xs, gs = list(args[:len(inputs)]), args[len(inputs):]
        with GradientTape() as tape:
            tape.watch([xs[i] for i in wrt])
            result = func(*xs)
        outs = result if isinstance(result, (list, tuple)) else [result]
        targets = [_to_tensor(outs[i]) for i in weighed]
        found = tape.gradient(targets, [xs[i] for i in wrt], output_gradients=list(gs))
        return [np.zeros(xs[i].shape, xs[i].dtype.np_dtype) if g is None else g
                for i, g in zip(wrt, nest.flatten(found))]

    found = apply("EagerPyFunc", inputs + [grads[i] for i in weighed],
                  {"func": vector_jacobian_product,
                   "Tout": tuple(inputs[i].dtype for i in wrt)})
    out = [None] * len(inputs)
    for i, g in zip(wrt, found):
        out[i] = g
    return out


def _to_tensor(value):
    return value if isinstance(value, Tensor) else convert_to_tensor(value)
