"""`tf.keras.constraints`: weight constraints applied after each optimizer
step (runtime/_src/keras/constraints/constraints.py)."""

from runtime._src.keras.constraints.constraints import (Constraint, MaxNorm, MinMaxNorm, NonNeg,
                                                        UnitNorm, deserialize, get, max_norm,
                                                        min_max_norm, non_neg, serialize, unit_norm)

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "max_norm",
           "min_max_norm", "non_neg", "unit_norm", "get", "serialize", "deserialize"]
