"""Keras masks between layers: `Embedding(mask_zero=True)` marks padding, the
next layers receive `mask=`.

    x, mask = call_masked(layer, x, mask)     # one step of a Sequential / functional run

A layer whose `call` takes a `mask` argument receives the current mask; the
mask after the layer is `layer.compute_mask(inputs, mask)` where the layer
defines it (Embedding makes one, an RNN passes it on with
return_sequences=True and drops it otherwise), the same mask for a layer with
`supports_masking = True`, else None (as Keras 3's `Layer.compute_mask`).
Masks are computed only on real tensors, not while a model is built from
KerasTensors.
"""

import inspect

from runtime._src.core import nest
from runtime._src.core.tensor import Tensor
from runtime._src.keras.backend.keras_tensor import KerasTensor

__all__ = ["call_masked", "accepts_mask", "output_mask", "input_mask", "argument_masks"]


def argument_masks(layer, args, kwargs, mask_of=None):
    """Keras 3's `<name>_mask=` keyword arguments of a call with several tensor
    arguments (MultiHeadAttention's query_mask, value_mask, key_mask): the
    mask of each tensor argument whose `<name>_mask` parameter is not given."""
    call = getattr(layer, "call", None)          # a keras.ops operation has none
    if call is None:
        return {}
    try:
        params = list(inspect.signature(call).parameters)
    except (TypeError, ValueError):
        return {}
    named = {**dict(zip(params, args)), **kwargs}
    tensors = {k: v for k, v in named.items() if isinstance(v, (Tensor, KerasTensor))}
    if len(tensors) < 2:
        return {}
    mask_of = mask_of or (lambda t: getattr(t, "_keras_mask", None))
    found = {f"{k}_mask": mask_of(v) for k, v in tensors.items()
             if f"{k}_mask" in params and named.get(f"{k}_mask") is None}
    return {k: m for k, m in found.items() if m is not None}


def input_mask(inputs, mask_of=None):
    """The mask a layer called on `inputs` receives: the tensor's mask, or for a
    list or tuple of tensors the list of their masks (None when none has one).
    `mask_of(tensor)` reads a mask (default: the tensor's `_keras_mask`)."""
    mask_of = mask_of or (lambda t: getattr(t, "_keras_mask", None))
    if isinstance(inputs, (list, tuple)):
        masks = [mask_of(t) for t in inputs]
        return None if all(m is None for m in masks) else masks
    return mask_of(inputs)


def accepts_mask(layer):
    """Whether `layer.call` has a `mask` parameter."""
    try:
        params = inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False
    return "mask" in params


def output_mask(layer, inputs, mask):
    """The mask of `layer`'s output given its input and input mask."""
    if any(isinstance(t, KerasTensor) for t in nest.flatten(inputs)):
        return None
    compute = getattr(layer, "compute_mask", None)
    if compute is not None:
        return compute(inputs, mask)
    return mask if getattr(layer, "supports_masking", False) else None


def call_masked(layer, inputs, mask, **kwargs):
    """(layer(inputs, mask=mask, **kwargs), the output mask)."""
    if mask is not None and "mask" not in kwargs and accepts_mask(layer):
        kwargs["mask"] = mask
    outputs = layer(inputs, **kwargs)
    return outputs, output_mask(layer, inputs, mask)
