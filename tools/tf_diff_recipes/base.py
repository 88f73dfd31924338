"""The registry of tools/tf_diff.py's recipes and the input makers they share.

A recipe is `Recipe(family, cases)`: `cases(rng)` yields `Case`s, each the
positional and keyword arguments of one call. numpy arrays (also inside
lists) become tensors (graph inputs inside `tf.function`); anything else is
passed as it is. A module per family of ops registers its recipes with
`@recipe(family, "name other.name")`; the package imports them all.
"""

import numpy as np

F32, F64, F16, I32, I64 = np.float32, np.float64, np.float16, np.int32, np.int64


class Case:
    """One call: `op(*args, **kwargs)`; `label` names it in mismatch lines."""

    def __init__(self, label, *args, **kwargs):
        self.label, self.args, self.kwargs = label, args, kwargs

    def __repr__(self):
        return self.label


class Recipe:
    """How to call an op: its family (for the summary) and `cases(rng)`;
    `up_to_sign`: results are compared by absolute value (eigenvectors and
    singular vectors are unique only up to sign)."""

    def __init__(self, family, cases, up_to_sign=False):
        self.family, self.cases, self.up_to_sign = family, cases, up_to_sign


RECIPES = {}       # leaf name ("sin") or dotted name ("nn.top_k") -> Recipe


def recipe(family, names, up_to_sign=False):
    """Register the decorated `cases(rng)` (or `cases(rng, name)`) for `names`."""
    def register(fn):
        for name in names.split():
            takes_name = fn.__code__.co_argcount == 2
            RECIPES[name] = Recipe(family, (lambda rng, fn=fn, name=name: fn(rng, name))
                                   if takes_name else fn, up_to_sign)
        return fn
    return register


def _u(rng, shape, dtype=F32, lo=-3.0, hi=3.0):
    return rng.uniform(lo, hi, shape).astype(dtype)


def _i(rng, shape, dtype=I32, lo=-6, hi=7):
    return rng.randint(lo, hi, shape).astype(dtype)


SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e30, -1e-30],
                   np.float32)


class Shape(list):
    """A static shape argument: becomes the library's TensorShape."""
