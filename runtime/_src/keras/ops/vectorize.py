"""`keras.ops.vectorize(pyfunc, *, excluded=None, signature=None)`: NumPy's
`vectorize` (generalized ufunc signatures included) over `tf.vectorized_map`.

    vadd = vectorize(lambda a, b: a + b)
    vadd([1, 2, 3, 4], 2)                                  # [3, 4, 5, 6]
    vmatvec = vectorize(lambda m, v: m @ v, signature="(m,n),(n)->(m)")

The loop dimensions of the arguments broadcast; the function sees one element
(or one core block, per `signature`) of each non-excluded positional argument.
Keyword arguments and the `excluded` positions pass through unchanged.
"""

import functools
import re

import numpy as np

from runtime._src.core import nest
from runtime._src.keras.ops.operation import tensor
from runtime._src.keras.ops.tfops import tf

__all__ = ["vectorize"]

_DIMS = r"\((?:\w+(?:,\s*\w+)*)?\)"
_SIGNATURE = re.compile(rf"^\s*{_DIMS}(?:,\s*{_DIMS})*\s*->\s*{_DIMS}(?:,\s*{_DIMS})*\s*$")


def _parse(signature):
    """([core dim names per input], [per output]) of a gufunc signature."""
    if not _SIGNATURE.match(signature):
        raise ValueError(f"Not a valid gufunc signature: {signature}")
    ins, outs = signature.split("->")
    return ([tuple(re.findall(r"\w+", group)) for group in re.findall(_DIMS, side)]
            for side in (ins, outs))


def _core_sizes(args, cores):
    """The size of each named core dimension, checked across the arguments."""
    sizes = {}
    for arg, core in zip(args, cores):
        shape = arg.shape.as_list()
        if len(shape) < len(core):
            raise ValueError(f"input with shape {tuple(shape)} does not have enough "
                             f"dimensions for its core dimensions {core}")
        for name, size in zip(core, shape[len(shape) - len(core):]):
            if sizes.setdefault(name, size) != size:
                raise ValueError(f"inconsistent size for core dimension {name!r}: "
                                 f"{size} vs {sizes[name]}")
    return sizes


def vectorize(pyfunc, *, excluded=None, signature=None):
    """See the module docstring."""
    if not callable(pyfunc):
        raise ValueError(f"Expected argument `pyfunc` to be a callable. Received: "
                         f"pyfunc={pyfunc}")
    excluded = set(excluded or ())
    in_cores, out_cores = _parse(signature) if signature else (None, None)

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        positions = [i for i in range(len(args)) if i not in excluded]
        dynamic = [tensor(args[i]) for i in positions]
        cores = in_cores if in_cores is not None else [()] * len(dynamic)
        if len(cores) != len(dynamic):
            raise TypeError(f"wrong number of positional arguments: expected {len(cores)}, "
                            f"got {len(dynamic)}")
        sizes = _core_sizes(dynamic, cores)
        loops = [tuple(a.shape.as_list()[:len(a.shape) - len(c)]) for a, c in zip(dynamic, cores)]
        loop = tuple(np.broadcast_shapes(*loops))
        flat = []
        for arg, core in zip(dynamic, cores):
            core_shape = [sizes[name] for name in core]
            arg = tf.broadcast_to(arg, list(loop) + core_shape)
            flat.append(tf.reshape(arg, [-1] + core_shape))

        def one(elements):
            full = list(args)
            for i, element in zip(positions, elements):
                full[i] = element
            return pyfunc(*full, **kwargs)
        out = tf.vectorized_map(one, tuple(flat))
        result = nest.map_structure(
            lambda o: tf.reshape(o, list(loop) + o.shape.as_list()[1:]), out)
        if out_cores is not None and len(out_cores) > 1 and not isinstance(result, tuple):
            raise TypeError(f"output must be a tuple when multiple outputs are expected, "
                            f"got: {result}")
        return result
    return wrapped
