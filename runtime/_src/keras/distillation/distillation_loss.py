"""The losses a `Distiller` adds to the student's own: how far the student's
outputs (or an inner layer's features) are from the teacher's.

    LogitsDistillation(temperature=3.0, loss="kl_divergence")   # on outputs / temperature
    FeatureDistillation(loss="mse", teacher_layer_name=..., student_layer_name=...)

`loss` may be a nested structure of losses matching the outputs, with None
where an output is left out. A loss named by a string is Keras's loss
function of that name, applied to the scaled logits as they are; only a
`keras.losses.KLDivergence` instance gets softmaxed inputs and the
temperature² factor (Keras 3.15 does the same).
"""

from runtime._src.keras.losses import losses as losses_mod
from runtime._src.keras.losses.serialization import deserialize, serialize
from runtime._src.keras.ops import nn as ops_nn, numpy as knp
from runtime._src.keras.saving import serialization_lib
from runtime._src.keras.tree import tree_api as tree

__all__ = ["DistillationLoss", "LogitsDistillation", "FeatureDistillation"]

_MODULE = "keras.distillation"        # the module Keras's configs name


def loss_function(identifier):
    """A loss from a string identifier (Keras's function of that name), a loss
    object or function as given, or None."""
    if identifier is None or not isinstance(identifier, str):
        return identifier
    fn = losses_mod.get(identifier)
    if fn is None:
        raise ValueError(f"Unknown loss function: '{identifier}'.")
    return fn


def _losses(loss):
    losses = tree.map_structure(loss_function, loss)
    return losses, [fn for fn in tree.flatten(losses) if fn is not None]


def _summed(values):
    return knp.sum(knp.stack(tree.flatten(values)))


class DistillationLoss:
    """`keras.distillation.DistillationLoss`: the base of distillation losses.
    A subclass defines `compute_loss(teacher_outputs, student_outputs)`, a
    scalar, and may check the outputs (`validate_outputs`) and the models
    (`validate_model_compatibility`)."""

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        raise NotImplementedError("Subclasses must implement compute_loss")

    def validate_outputs(self, teacher_outputs, student_outputs):
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        pass


class LogitsDistillation(DistillationLoss):
    """`keras.distillation.LogitsDistillation(temperature=3.0, loss="kl_divergence")`:
    the loss between the teacher's and the student's outputs, each divided by
    `temperature`."""

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        self.temperature = temperature
        self.loss, present = _losses(loss)
        if not present:
            raise ValueError("At least one loss must be non-`None`.")
        if not isinstance(temperature, (int, float)):
            raise ValueError(f"temperature must be a number, got {type(temperature)}")
        if temperature <= 0.0:
            raise ValueError("temperature must be positive.")

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def scaled(x):
            return knp.divide(x, self.temperature)

        def one(fn, teacher, student):
            if fn is None:
                return 0.0
            if isinstance(fn, losses_mod.KLDivergence):
                value = knp.mean(fn(ops_nn.softmax(teacher, axis=-1),
                                    ops_nn.softmax(student, axis=-1)))
                return value * (self.temperature ** 2)
            return knp.mean(fn(teacher, student))
        return _summed(tree.map_structure(one, self.loss,
                                          tree.map_structure(scaled, teacher_outputs),
                                          tree.map_structure(scaled, student_outputs)))

    def get_config(self):
        return {"temperature": self.temperature,
                "loss": serialization_lib.serialize_keras_object(self.loss)}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = deserialize(config["loss"])
        return cls(**config)


class FeatureDistillation(DistillationLoss):
    """`keras.distillation.FeatureDistillation(loss="mse", teacher_layer_name=None,
    student_layer_name=None)`: the loss between a teacher layer's and a student
    layer's outputs (the models' outputs when no layer is named)."""

    def __init__(self, loss="mse", teacher_layer_name=None, student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self.loss, present = _losses(loss)
        if not present:
            raise ValueError("The `loss` argument in `FeatureDistillation` must contain at "
                             "least one non-`None` value.")

    def validate_model_compatibility(self, teacher, student):
        if self.teacher_layer_name is not None or self.student_layer_name is not None:
            subclassed = [role for role, model in (("teacher", teacher), ("student", student))
                          if getattr(model, "inputs", None) is None]
            if subclassed:
                raise ValueError(
                    f"FeatureDistillation with specific layer names requires Functional or "
                    f"Sequential models. The {' and '.join(subclassed)} model(s) appear to "
                    f"be subclassed (no symbolic inputs/outputs). Either use "
                    f"Functional/Sequential models, or use FeatureDistillation without "
                    f"layer names (to distill final outputs only), or use "
                    f"LogitsDistillation instead.")
        for role, model, name in (("teacher", teacher, self.teacher_layer_name),
                                  ("student", student, self.student_layer_name)):
            if name is not None:
                try:
                    model.get_layer(name=name)
                except ValueError as e:
                    raise ValueError(f"In {role} model: {e}") from None

    def validate_outputs(self, teacher_outputs, student_outputs):
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except ValueError as e:
            raise ValueError(f"Loss structure mismatch. Loss structure: {self.loss!r}, "
                             f"Output structure: {teacher_outputs!r}. Error: {e}") from None

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def one(fn, teacher, student):
            return 0.0 if fn is None else knp.mean(fn(teacher, student))
        return _summed(tree.map_structure(one, self.loss, teacher_outputs, student_outputs))

    def get_config(self):
        return {"loss": serialize(self.loss),
                "teacher_layer_name": self.teacher_layer_name,
                "student_layer_name": self.student_layer_name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = deserialize(config["loss"])
        return cls(**config)


for _cls in (DistillationLoss, LogitsDistillation, FeatureDistillation):
    serialization_lib.register_builtin(_MODULE, _cls)
