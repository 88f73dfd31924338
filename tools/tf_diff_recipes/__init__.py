"""tools/tf_diff.py's recipes, one module per family of ops (base.py: the
registry, `Case`, `Recipe` and the input makers). Importing the package
registers every recipe in `RECIPES`."""

from tf_diff_recipes import (  # noqa: F401 - imported to register, in this order
    elementwise,
    reductions,
    shapes,
    scatter_sort,
    linalg,
    nn,
    everyday,
    strings,
)
from tf_diff_recipes.base import RECIPES, Case, Recipe

__all__ = ["RECIPES", "Case", "Recipe"]
