"""`tf.register_tensor_conversion_function`: how `tf.convert_to_tensor` (and so
every op) turns values of a user's type into tensors.

    register_tensor_conversion_function(Point, lambda v, dtype=None, name=None,
                                        as_ref=False: tf.constant([v.x, v.y], dtype))

Functions are tried by `priority` (lower first; ties in registration order);
one returning NotImplemented passes to the next. Python numbers and numpy
values cannot be given other conversions, as in TensorFlow.
"""

import numbers

import numpy as np

__all__ = ["register_tensor_conversion_function", "REGISTRY", "conversion_functions"]

REGISTRY = []                  # [(priority, order, base_type, function)], sorted


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Use `conversion_func(value, dtype=None, name=None, as_ref=False)` for values
    that are instances of `base_type` (a type or a tuple of types)."""
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    if not all(isinstance(t, type) for t in types):
        raise TypeError(f"Argument `base_type` must be a type or a tuple of types. Received: "
                        f"{base_type}")
    if any(issubclass(t, (numbers.Number, np.ndarray, np.generic)) for t in types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy "
                        "scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"Argument `conversion_func` must be callable. Received "
                        f"{conversion_func}.")
    REGISTRY.append((int(priority), len(REGISTRY), types, conversion_func))
    REGISTRY.sort(key=lambda entry: entry[:2])


def conversion_functions(value):
    """The functions registered for `value`'s type, in the order to try them."""
    return [(types, fn) for _, _, types, fn in REGISTRY if isinstance(value, types)]
