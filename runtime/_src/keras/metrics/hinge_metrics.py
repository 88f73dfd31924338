"""`keras.metrics.Hinge`, `SquaredHinge`, `CategoricalHinge`: the mean over samples
of the loss function of the same name."""

from runtime._src.keras.losses.losses import categorical_hinge, hinge, squared_hinge
from runtime._src.keras.metrics.metrics import _loss_metric

__all__ = ["Hinge", "SquaredHinge", "CategoricalHinge"]


Hinge = _loss_metric("Hinge", hinge, "hinge")


SquaredHinge = _loss_metric("SquaredHinge", squared_hinge, "squared_hinge")


CategoricalHinge = _loss_metric("CategoricalHinge", categorical_hinge, "categorical_hinge")
