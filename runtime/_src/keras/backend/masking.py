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
from runtime._src.keras.backend.keras_tensor import KerasTensor

__all__ = ["call_masked", "accepts_mask", "output_mask"]


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
