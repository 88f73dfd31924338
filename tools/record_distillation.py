"""Record Keras 3.15's results (on TensorFlow 2.21) for the distillation cases
of tests/keras/distillation/test_distiller.py.

    $BENCH_TF_PYTHON tools/record_distillation.py   # writes tests/data/distillation_keras315.json

`run_cases(keras)` builds the same teacher and student models with fixed
weights, trains `keras.distillation.Distiller`s for a few steps and returns
the losses, the history logs and the student's weights, with the messages of
the errors Keras raises; the test runs it on `runtime.keras` and compares.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_recording import error_text, record  # noqa: E402 - after the path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "distillation_keras315.json")


def _data():
    rng = np.random.RandomState(0)
    x = rng.normal(size=(8, 4)).astype("float32")
    y = np.eye(3, dtype="float32")[rng.randint(0, 3, size=8)]
    return x, y


def _set(model, seed):
    rng = np.random.RandomState(seed)
    model.set_weights([rng.normal(scale=0.5, size=w.shape).astype("float32")
                       for w in model.get_weights()])
    return model


def _models(keras, functional=False):
    if functional:
        def build(name, width):
            inputs = keras.Input((4,), name=f"{name}_in")
            h = keras.layers.Dense(width, activation="relu", name=f"{name}_hidden")(inputs)
            f = keras.layers.Dense(5, name=f"{name}_feat")(h)
            out = keras.layers.Dense(3, name=f"{name}_out")(f)
            return keras.Model(inputs, out, name=name)
        return _set(build("teacher", 8), 1), _set(build("student", 3), 2)
    teacher = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                                keras.layers.Dense(3)], name="teacher")
    student = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)], name="student")
    return _set(teacher, 1), _set(student, 2)


def _floats(values):
    return [float(v) for v in np.ravel(values)]


def _train(keras, distiller, **compile_kwargs):
    x, y = _data()
    distiller.compile(optimizer=keras.optimizers.SGD(0.1), **compile_kwargs)
    history = distiller.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    logs = {k: [round(float(v), 5) for v in vals] for k, vals in sorted(history.history.items())}
    evaluated = distiller.evaluate(x, y, verbose=0, return_dict=True)
    return {"history": logs,
            "evaluate": {k: round(float(v), 5) for k, v in sorted(evaluated.items())},
            "student": [_floats(w) for w in distiller.student.get_weights()],
            "teacher_trainable": bool(distiller.teacher.trainable),
            "predict": _floats(distiller.predict(x[:2], verbose=0))}



def run_cases(keras):
    D = keras.distillation
    out = {}
    x, y = _data()
    t, s = _models(keras)
    out["logits_kl"] = _train(keras, D.Distiller(t, s, D.LogitsDistillation(temperature=2.0)),
                              loss="categorical_crossentropy")
    t, s = _models(keras)
    out["logits_cce_weighted"] = _train(keras, D.Distiller(
        t, s, D.LogitsDistillation(temperature=3.0, loss="categorical_crossentropy"),
        student_loss_weight=0.25), loss=keras.losses.CategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"])
    t, s = _models(keras, functional=True)
    out["features_and_logits"] = _train(keras, D.Distiller(
        t, s, [D.LogitsDistillation(), D.FeatureDistillation(
            loss="mse", teacher_layer_name="teacher_feat", student_layer_name="student_feat")],
        distillation_loss_weights=[1.0, 0.5], student_loss_weight=0.3), loss="mse")
    t, s = _models(keras)
    out["only_distillation"] = _train(keras, D.Distiller(
        t, s, D.FeatureDistillation(loss="mae"), student_loss_weight=0.0),
        loss="categorical_crossentropy")
    class MeanAbsolute(D.DistillationLoss):     # a user's distillation loss
        def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
            return keras.ops.mean(keras.ops.abs(teacher_outputs - student_outputs))
    t, s = _models(keras)
    out["custom_loss"] = _train(keras, D.Distiller(t, s, MeanAbsolute(),
                                                   student_loss_weight=0.2), loss="mse")
    t, s = _models(keras)
    logits = D.LogitsDistillation(temperature=2.0)
    teacher_logits = t(x[:3])
    student_logits = s(x[:3])
    out["compute_loss"] = round(float(logits.compute_loss(teacher_logits, student_logits)), 6)
    out["feature_compute_loss"] = round(float(D.FeatureDistillation(
        loss="cosine_similarity").compute_loss(teacher_logits, student_logits)), 6)
    out["configs"] = {
        "logits": repr(sorted(D.LogitsDistillation(temperature=2.0).get_config().items())),
        "feature": sorted(D.FeatureDistillation(teacher_layer_name="a").get_config()),
    }
    d = D.Distiller(t, s, D.LogitsDistillation())
    out["distiller_config_keys"] = sorted(d.get_config())
    out["distiller_attrs"] = [d.name, d.student_loss_weight, d.distillation_loss_weights]
    errors = {
        "weight_above_1": lambda: D.Distiller(t, s, D.LogitsDistillation(),
                                              student_loss_weight=1.5),
        "weight_not_number": lambda: D.Distiller(t, s, D.LogitsDistillation(),
                                                 student_loss_weight="a"),
        "losses_none": lambda: D.Distiller(t, s, None),
        "weights_length": lambda: D.Distiller(t, s, [D.LogitsDistillation()],
                                              distillation_loss_weights=[1.0, 2.0]),
        "teacher_not_model": lambda: D.Distiller(keras.layers.Dense(3), s,
                                                 D.LogitsDistillation()),
        "temperature_zero": lambda: D.LogitsDistillation(temperature=0),
        "temperature_str": lambda: D.LogitsDistillation(temperature="3"),
        "all_losses_none": lambda: D.LogitsDistillation(loss=[None, None]),
        "feature_all_none": lambda: D.FeatureDistillation(loss=None),
        "unknown_layer": lambda: D.Distiller(t, s, D.FeatureDistillation(
            teacher_layer_name="nope")),
        "compile_loss_none": lambda: D.Distiller(t, s, D.LogitsDistillation()).compile(
            optimizer="sgd"),
        "metrics_not_list": lambda: D.Distiller(t, s, D.LogitsDistillation()).compile(
            optimizer="sgd", loss="mse", metrics="accuracy"),
        "base_compute_loss": lambda: D.DistillationLoss().compute_loss(1.0, 2.0),
        "output_shapes": lambda: D.Distiller(t, keras.Sequential(
            [keras.Input((4,)), keras.layers.Dense(5)]), D.LogitsDistillation()),
    }
    out["errors"] = {name: error_text(fn) for name, fn in errors.items()}
    return out


def main():
    return record(OUT, run_cases)


if __name__ == "__main__":
    sys.exit(main())
