"""`tf.recompute_grad` and `tf.grad_pass_through`: custom gradients
(custom_gradient.py) that run the forward again under a tape, or pass the
upstream gradients through unchanged."""

import functools

from runtime._src.autodiff.custom_gradient import CustomGradientFunction
from runtime._src.autodiff.tape import GradientTape, UnconnectedGradients
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply

__all__ = ["recompute_grad", "grad_pass_through"]


def recompute_grad(f):
    """`tf.recompute_grad(f)`: `f`'s forward is not kept for the gradient (the
    tapes do not record it); the backward pass runs `f` again under a tape."""
    def inner(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad_fn(*upstream, variables=None):
            ids = [apply("Identity", (convert_to_tensor(a),)) for a in args]
            extra = list(variables or ())
            with GradientTape() as tape:
                tape.watch(ids)
                if extra:
                    tape.watch(extra)
                out = f(*ids, **kwargs)
            grads = tape.gradient(out, ids + extra, output_gradients=list(upstream),
                                  unconnected_gradients=UnconnectedGradients.ZERO)
            return grads[:len(ids)], grads[len(ids):]
        return result, grad_fn

    wrapped = CustomGradientFunction(inner, record=False)
    functools.update_wrapper(wrapped, f, updated=())
    return wrapped


def grad_pass_through(f):
    """`tf.grad_pass_through(f)`: `f`'s value, with the gradient of an
    identity (upstream gradients pass to the inputs unchanged)."""
    def inner(*args, **kwargs):
        def grad_fn(*upstream, **kw):
            variables = kw.get("variables")
            if variables is not None:
                return upstream, [None] * len(variables)
            return upstream
        return f(*args, **kwargs), grad_fn

    wrapped = CustomGradientFunction(inner)
    functools.update_wrapper(wrapped, f, updated=())
    return wrapped
