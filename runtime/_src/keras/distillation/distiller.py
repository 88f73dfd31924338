"""`keras.distillation.Distiller`: a Model that trains a student from a
frozen teacher. Its loss is

    student_loss_weight * (the compiled loss of y and the student's output)
    + (1 - student_loss_weight) * sum(weight_i * distillation_loss_i)

and fit/evaluate report `student_loss`, `distillation_loss` and `total_loss`
beside `loss`. Calling it (and `predict`) runs the student. A
FeatureDistillation that names layers reads them through feature-extractor
models over each model's inputs, built once.
"""

from runtime._src.keras.distillation.distillation_loss import loss_function
from runtime._src.keras.metrics.metrics import Mean
from runtime._src.keras.models.model import Model, Sequential
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.saving import serialization_lib
from runtime._src.keras.tree import tree_api as tree

__all__ = ["Distiller"]

_FINAL = "final_output"


class Distiller(Model):
    """`keras.distillation.Distiller(teacher, student, distillation_losses,
    distillation_loss_weights=None, student_loss_weight=0.5, name="distiller")`."""

    _keras_module = "keras.distillation"      # the module Keras's configs name

    def __init__(self, teacher, student, distillation_losses, distillation_loss_weights=None,
                 student_loss_weight=0.5, name="distiller", **kwargs):
        super().__init__(name=name, **kwargs)
        _check_models(teacher, student)
        self.teacher = teacher
        self.student = student
        if not isinstance(student_loss_weight, (int, float)):
            raise ValueError(f"student_loss_weight must be a number, got "
                             f"{type(student_loss_weight)}")
        if not 0.0 <= student_loss_weight <= 1.0:
            raise ValueError(f"student_loss_weight must be between 0.0 and 1.0, got "
                             f"{student_loss_weight}")
        self.student_loss_weight = student_loss_weight
        self.distillation_losses, self.distillation_loss_weights = _weighted(
            distillation_losses, distillation_loss_weights)
        for loss in self.distillation_losses:
            loss.validate_model_compatibility(teacher, student)
        self._teacher_features = _feature_extractor(
            teacher, _layer_names(self.distillation_losses, "teacher_layer_name"))
        self._student_features = _feature_extractor(
            student, _layer_names(self.distillation_losses, "student_layer_name"))
        self.teacher.trainable = False
        self.student_loss_tracker = Mean(name="student_loss")
        self.distillation_loss_tracker = Mean(name="distillation_loss")
        self.total_loss_tracker = Mean(name="total_loss")

    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        if loss is None:
            raise ValueError("'loss' cannot be `None`.")
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(f"metrics must be a list or tuple, got {type(metrics)}")
        self._student_loss = tree.map_structure(loss_function, loss)
        super().compile(optimizer=optimizer, loss=None, metrics=metrics, **kwargs)

    def call(self, inputs, training=None, **kwargs):
        return self.student(inputs, training=training, **kwargs)

    @property
    def metrics(self):
        trackers = [self.student_loss_tracker, self.distillation_loss_tracker,
                    self.total_loss_tracker]
        return list(super().metrics) + trackers if self._keras_state.compiled else []

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        if y_pred is None:
            y_pred = self(x, training=training)
        student_loss = self._student_loss_value(y, y_pred)
        distillation_loss = 0.0
        if self.student_loss_weight < 1.0:
            distillation_loss = self._distillation_loss_value(x, y_pred)
        total = knp.add(knp.multiply(self.student_loss_weight, student_loss),
                        knp.multiply(knp.subtract(1.0, self.student_loss_weight),
                                     distillation_loss))
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation_loss)
        self.total_loss_tracker.update_state(total)
        return total

    def _student_loss_value(self, y, y_pred):
        if self.student_loss_weight <= 0.0 or y is None:
            return 0.0
        values = tree.flatten(tree.map_structure(lambda fn, t, p: fn(t, p),
                                                 self._student_loss, y, y_pred))
        loss = knp.sum(knp.stack(values)) if len(values) > 1 else values[0]
        return knp.mean(loss) if len(getattr(loss, "shape", ())) > 0 else loss

    def _distillation_loss_value(self, x, y_pred):
        teacher = self._teacher_features(x, training=False) if self._teacher_features \
            else {_FINAL: self.teacher(x, training=False)}
        student = self._student_features(x, training=True) if self._student_features \
            else {_FINAL: y_pred}
        total = 0.0
        for loss, weight in zip(self.distillation_losses, self.distillation_loss_weights):
            if getattr(loss, "teacher_layer_name", None) is not None:
                teacher_out, student_out = _features(loss, teacher, student)
            else:
                teacher_out, student_out = teacher[_FINAL], y_pred
            loss.validate_outputs(teacher_out, student_out)
            value = loss.compute_loss(teacher_out, student_out)
            if len(getattr(value, "shape", ())) > 0:
                raise ValueError(f"Distillation loss {type(loss).__name__} returned a "
                                 f"non-scalar loss with shape {value.shape}. The "
                                 f"compute_loss method must return a scalar tensor.")
            total = knp.add(total, knp.multiply(weight, value))
        return total

    def get_config(self):
        config = super().get_config()
        config.update({
            "teacher": serialization_lib.serialize_keras_object(self.teacher),
            "student": serialization_lib.serialize_keras_object(self.student),
            "distillation_losses": [serialization_lib.serialize_keras_object(loss)
                                    for loss in self.distillation_losses],
            "distillation_loss_weights": self.distillation_loss_weights,
            "student_loss_weight": self.student_loss_weight})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("teacher", "student"):
            config[key] = serialization_lib.deserialize_keras_object(config[key])
        config["distillation_losses"] = [serialization_lib.deserialize_keras_object(loss)
                                         for loss in config["distillation_losses"]]
        return cls(**config)


def _weighted(losses, weights):
    if losses is None:
        raise ValueError("'distillation_losses' cannot be `None`. Provide a distillation loss "
                         "(e.g., LogitsDistillation or FeatureDistillation) or a list of "
                         "distillation losses.")
    if not isinstance(losses, (list, tuple)):
        return [losses], [1.0]
    if weights is None:
        return losses, [1.0] * len(losses)
    if len(weights) != len(losses):
        raise ValueError(f"Number of distillation_loss_weights ({len(weights)}) must match "
                         f"number of distillation_losses ({len(losses)})")
    return losses, weights


def _check_models(teacher, student):
    """Keras's checks: both Models, inputs and outputs of compatible shapes and
    equal dtypes (where both models have symbolic ones)."""
    for role, model in (("Teacher", teacher), ("Student", student)):
        if not isinstance(model, Model):
            raise ValueError(f"{role} must be a keras.Model, got {type(model)}")
    for kind in ("input", "output"):
        ours, theirs = getattr(teacher, kind + "s", None), getattr(student, kind + "s", None)
        if ours is not None and theirs is not None:
            tree.map_structure(lambda a, b: _same_shape(a.shape, b.shape, kind), ours, theirs)
    for kind in ("input", "output"):
        ours, theirs = getattr(teacher, kind + "s", None), getattr(student, kind + "s", None)
        if ours is None or theirs is None:
            return
        tree.map_structure(lambda a, b: _same_dtype(a.dtype, b.dtype, kind), ours, theirs)


def _same_shape(teacher, student, kind):
    teacher, student = tuple(teacher), tuple(student)
    if len(teacher) != len(student):
        raise ValueError(f"Teacher and student {kind} shapes have different dimensions. "
                         f"Teacher: {teacher}, Student: {student}.")
    if any(a is not None and b is not None and a != b for a, b in zip(teacher, student)):
        raise ValueError(f"Teacher and student {kind} shapes are incompatible. Teacher: "
                         f"{teacher}, Student: {student}. All dimensions must match.")


def _same_dtype(teacher, student, kind):
    if teacher != student:
        raise ValueError(f"Teacher and student {kind} dtypes must match. Teacher: "
                         f"{teacher}, Student: {student}.")


def _layer_names(losses, attribute):
    names = []
    for loss in losses:
        name = getattr(loss, attribute, None)
        if name and name not in names:
            names.append(name)
    return names


def _feature_extractor(model, layer_names):
    """A Model over `model`'s inputs whose outputs are a dict: the final
    output and each named layer's output (None when no layer is named)."""
    if not layer_names:
        return None
    if getattr(model, "inputs", None) is None:
        raise ValueError(f"Cannot create feature extractor for {model.name}. The model has "
                         f"no symbolic inputs attribute.")
    final = model.layers[-1].output if isinstance(model, Sequential) else model.output
    outputs = {_FINAL: final}
    for name in layer_names:
        outputs[name] = model.get_layer(name=name).output
    return Model(inputs=model.inputs, outputs=outputs,
                 name=f"{model.name}_multi_feature_extractor")


def _features(loss, teacher, student):
    try:
        return (_named(teacher, loss.teacher_layer_name),
                _named(student, loss.student_layer_name))
    except ValueError as e:
        raise RuntimeError(f"Failed to extract features for {type(loss).__name__} targeting "
                           f"teacher layer '{loss.teacher_layer_name}' and student layer "
                           f"'{loss.student_layer_name}'. Original error: {e}") from e


def _named(features, layer_name):
    name = layer_name or _FINAL
    if name not in features:
        raise ValueError(f"Layer '{name}' not found in extracted features. Available: "
                         f"{list(features)}")
    return features[name]


serialization_lib.register_builtin("keras.distillation", Distiller)
