"""Record Keras 3.15's values for the Keras names no other test covered
(tools/keras_name_tests.py's audit): layers' outputs, gradients and one fit
step for identical weights and inputs, and the outcome of each call of CASES.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_audit.py  # -> tests/data/keras_audit.json

Runs where TensorFlow 2.21 and Keras 3.15 are installed (never a dependency);
tests/keras/test_keras_audit.py runs the same cases on runtime.keras.
"""

import json
import os
import pathlib
import re

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_audit.json"


def weight_value(shape, k):
    n = int(np.prod(shape)) if shape else 1
    return (0.5 * np.sin(0.37 * np.arange(n) + k)).reshape(shape).astype("float32")


def _input(shape, scale=1.0, offset=0.0):
    n = int(np.prod(shape))
    return (scale * np.cos(0.7 * np.arange(n)) + offset).reshape(shape).astype("float32")


# name -> (input, layer source with K the keras module, fit one SGD step)
LAYERS = {
    "adaptive_max_pooling1d": (_input((2, 7, 3)), "K.layers.AdaptiveMaxPooling1D(3)", False),
    "adaptive_max_pooling1d_first": (
        _input((2, 3, 8)), "K.layers.AdaptiveMaxPooling1D(3, data_format='channels_first')",
        False),
    "global_max_pooling1d": (_input((2, 5, 3)), "K.layers.GlobalMaxPooling1D()", False),
    "global_max_pool1d_keepdims": (_input((2, 5, 3)),
                                   "K.layers.GlobalMaxPool1D(keepdims=True)", False),
    "conv_lstm3d": (_input((2, 3, 3, 3, 3, 1)), "K.layers.ConvLSTM3D(2, 2)", True),
    "conv_lstm3d_seq_same": (_input((2, 2, 3, 3, 2, 2)),
                             "K.layers.ConvLSTM3D(2, 2, padding='same', return_sequences=True)",
                             True),
    "clahe": (np.round(_input((2, 8, 8, 3), 120.0, 127.0)),
              "K.layers.ContrastLimitedAdaptiveHistogramEqualization("
              "value_range=(0, 255), clip_limit=2.0, tile_grid_size=(2, 2))", False),
    "clahe_unit": (np.round(_input((1, 6, 4, 1), 0.4, 0.5), 2),
                   "K.layers.ContrastLimitedAdaptiveHistogramEqualization("
                   "value_range=(0, 1), tile_grid_size=(3, 2))", False),
}


def build_layer(K, name):
    x, source, _ = LAYERS[name]
    layer = eval(source, {"K": K})          # noqa: S307 - the cases are the literals above
    model = K.Sequential([K.Input(x.shape[1:]), layer])
    for k, w in enumerate(model.weights):
        w.assign(weight_value(tuple(w.shape), k))
    return model, x


def layer_grads(tf, model, x):
    """(output, gradients of sum(output ** 2) over the trainable weights and x)."""
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = model(x)
        loss = tf.reduce_sum(tf.square(tf.cast(out, "float32")))
    grads = tape.gradient(loss, list(model.trainable_weights) + [x])
    return out, grads


def fit_step(K, model, x, shape):
    """The weights after one SGD step of model.fit on mean squared error towards 0.5."""
    model.compile(K.optimizers.SGD(0.1), "mse")
    y = np.full(tuple(shape), 0.5, "float32")
    model.fit(x, y, batch_size=len(x), epochs=1, verbose=0, shuffle=False)
    return [w.numpy() for w in model.weights]


def record_layers(tf, K):
    out = {}
    for name, (_, _, fits) in LAYERS.items():
        model, x = build_layer(K, name)
        y, grads = layer_grads(tf, model, x)
        out[name] = {"output": encode(y),
                     "grads": [None if g is None else encode(g) for g in grads]}
        if fits:
            out[name]["fit"] = [encode(w) for w in fit_step(K, model, x, y.shape)]
    return out


class Clip01:
    """A keras.constraints.Constraint subclass, made for the keras module given."""

    @staticmethod
    def make(K):
        class ClipTo(K.constraints.Constraint):
            def __init__(self, bound=0.2):
                self.bound = bound

            def __call__(self, w):
                return K.ops.clip(w, -self.bound, self.bound)

            def get_config(self):
                return {"bound": self.bound}
        return ClipTo


def constraint_step(K):
    """A Dense whose kernel keeps to [-0.2, 0.2] after one fit step, and its config."""
    clip = Clip01.make(K)
    model = K.Sequential([K.Input((3,)), K.layers.Dense(2, kernel_constraint=clip(0.2))])
    for k, w in enumerate(model.weights):
        w.assign(weight_value(tuple(w.shape), k))
    model.compile(K.optimizers.SGD(0.5), "mse")
    x = _input((4, 3))
    model.fit(x, np.ones((4, 2), "float32"), batch_size=4, verbose=0, shuffle=False)
    base = K.constraints.Constraint()
    return {"weights": [encode(w.numpy()) for w in model.weights],
            "config": model.layers[0].kernel_constraint.get_config(),
            "base_call": encode(base(K.ops.ones((2,)))), "base_config": base.get_config()}


def schedule_in_optimizer(K):
    """A LearningRateSchedule subclass driving SGD for three steps."""
    class Halving(K.optimizers.schedules.LearningRateSchedule):
        def __call__(self, step):
            return 0.4 * K.ops.power(0.5, K.ops.cast(step, "float32"))

    v = K.Variable(np.array([1.0, -2.0], "float32"))
    opt = K.optimizers.SGD(Halving())
    for _ in range(3):
        opt.apply_gradients([(K.ops.convert_to_tensor(np.array([1.0, 1.0], "float32")), v)])
    base = K.optimizers.schedules.LearningRateSchedule()
    try:
        base(1)
        error = None
    except Exception as e:          # noqa: BLE001 - recording the exception is the point
        error = [type(e).__name__, str(e)]
    return {"variable": encode(v.numpy()), "base_call": error}


def save_and_load(K, saver, tmp):
    """Predictions of a model saved by `saver` and loaded back, and their config."""
    model = K.Sequential([K.Input((3,)), K.layers.Dense(2, activation="tanh", name="d")])
    for k, w in enumerate(model.weights):
        w.assign(weight_value(tuple(w.shape), k))
    path = os.path.join(tmp, "m.keras")
    saver(model, path)
    loaded = K.saving.load_model(path)
    return {"predict": encode(loaded.predict(_input((2, 3)), verbose=0)),
            "layers": [la.name for la in loaded.layers],
            "activation": loaded.layers[0].get_config()["activation"]}


def metric_outcome(K, fn, source, updates):
    """Result of a metric after `updates`, each (y_true, y_pred[, sample_weight]),
    the update run through `fn` (identity, or a traced function)."""
    metric = eval(source, {"K": K})     # noqa: S307 - the cases are the literals below
    step = fn(lambda *a: metric.update_state(*a))
    for args in updates:
        step(*[np.array(a, "float32") for a in args])
    return encode(metric.result())


METRICS = {
    "accuracy": ("K.metrics.Accuracy()", [([[1], [2], [3], [4]], [[0], [2], [3], [4]]),
                                          ([[1], [2]], [[1], [0]], [1.0, 0.5])]),
    "accuracy_ties": ("K.metrics.Accuracy(name='a', dtype='float32')",
                      [([0.0, 1.0, 2.0], [0.0, 1.0000001, 2.0])]),
    "binary_accuracy": ("K.metrics.BinaryAccuracy()",
                        [([[1], [1], [0], [0]], [[0.98], [0.5], [0.5], [0.6]])]),
    "binary_accuracy_threshold_weights": (
        "K.metrics.BinaryAccuracy(threshold=0.7)",
        [([[1], [1], [0], [0]], [[0.98], [0.7], [0.3], [0.69]], [1.0, 0.0, 2.0, 0.5])]),
    "categorical_accuracy": ("K.metrics.CategoricalAccuracy()",
                             [([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])]),
    "categorical_accuracy_ties_weights": (
        "K.metrics.CategoricalAccuracy()",
        [([[0, 0, 1], [0, 1, 0], [1, 0, 0]], [[0.4, 0.2, 0.4], [0.3, 0.3, 0.3],
                                              [0.5, 0.5, 0.0]], [0.5, 1.0, 2.0])]),
}

IMG = "np.arange(2 * 5 * 6 * 3, dtype='float32').reshape(2, 5, 6, 3)"
# two sequences of 5 frames over 4 classes (a tie at frame 3 of the first)
PROBS = ("np.array([[[0.1, 0.6, 0.2, 0.1], [0.1, 0.6, 0.2, 0.1], [0.4, 0.4, 0.1, 0.1], "
         "[0.2, 0.1, 0.6, 0.1], [0.1, 0.1, 0.2, 0.6]], [[0.7, 0.1, 0.1, 0.1], "
         "[0.1, 0.1, 0.1, 0.7], [0.1, 0.1, 0.1, 0.7], [0.1, 0.7, 0.1, 0.1], "
         "[0.25, 0.25, 0.25, 0.25]]], 'float32')")
SEG_IMG = "(np.arange(2 * 3 * 4 * 3) * 7 % 256).reshape(2, 3, 4, 3).astype('float32')"
SEG = "(np.arange(24) % 5 - 1).reshape(2, 3, 4, 1).astype('int32')"
# a DTypePolicyMap with an exact key and a pattern (each case builds its own)
MAP = ("(K.dtype_policies.DTypePolicyMap('float32', {'encoder/dense': "
       "K.dtype_policies.DTypePolicy('bfloat16'), 'decoder/.*': "
       "K.dtype_policies.DTypePolicy('float16')}))")
CTC = f"K.ops.ctc_decode(np.log({PROBS}), np.array([5, 4])"
# (source, traced too): run eagerly, and inside tf.function where marked
CASES = [
    ("K.activations.exponential(np.array([-2.0, 0.0, 0.5, 3.0], 'float32'))", True),
    ("K.activations.exponential(np.array([[-100.0, 80.0]], 'float32'))", True),
    ("K.activations.deserialize('relu')(np.array([-1.0, 2.0], 'float32'))", False),
    ("K.activations.deserialize('exponential').__name__", False),
    ("K.activations.deserialize({'module': 'keras.activations', 'class_name': 'function', "
     "'config': 'elu', 'registered_name': 'elu'}).__name__", False),
    ("K.activations.deserialize('no_such_activation')", False),
    ("K.dtype_policies.serialize(K.dtype_policies.get('mixed_float16'))", False),
    ("K.dtype_policies.get('bfloat16').compute_dtype", False),
    ("[K.dtype_policies.get('mixed_bfloat16').compute_dtype, "
     "K.dtype_policies.get('mixed_bfloat16').variable_dtype]", False),
    ("K.dtype_policies.get(None).name", False),
    ("K.dtype_policies.get('float64').name", False),
    ("K.dtype_policies.get(3)", False),
    ("K.dtype_policies.deserialize(K.dtype_policies.serialize("
     "K.dtype_policies.DTypePolicy('mixed_float16'))).name", False),
    ("K.dtype_policies.deserialize({'module': 'keras', 'class_name': 'FloatDTypePolicy', "
     "'config': {'name': 'float16'}, 'registered_name': None}).name", False),
    (f"[{MAP}[k].name for k in ('encoder/dense', 'decoder/attention', 'decoder', 'head')]",
     False),
    (f"[{MAP}.name, len({MAP}), list({MAP}), 'decoder/.*' in {MAP}, 'decoder' in {MAP}]",
     False),
    (f"((m := {MAP}).__setitem__('decoder/att.*', 'float64'), m['decoder/attention'])", False),
    (f"((m := {MAP}).__setitem__('decoder/att.*', 'float64'), m['decoder/x'].name, "
     "m['decoder/attention/q'].name)", False),
    (f"{MAP}.__setitem__('encoder/dense', 'float16')", False),
    (f"{MAP}.__setitem__('new', 3)", False),
    (f"((m := {MAP}).__delitem__('encoder/dense').name, m['encoder/dense'].name, len(m))",
     False),
    ("[(m := K.dtype_policies.DTypePolicyMap('mixed_bfloat16')).name, m.compute_dtype, "
     "m.variable_dtype, m.quantization_mode, m.default_policy.name]", False),
    ("[(m := K.dtype_policies.DTypePolicyMap()).name, m['any/path'].name]", False),
    ("K.dtype_policies.DTypePolicyMap(K.dtype_policies.DTypePolicyMap())", False),
    ("K.dtype_policies.DTypePolicyMap(policy_map=[('a', 'float16')])", False),
    (f"K.dtype_policies.serialize({MAP})", False),
    (f"[(m := K.dtype_policies.deserialize(K.dtype_policies.serialize({MAP}))).name, "
     "m['decoder/x'].name, m['encoder/dense'].name, list(m)]", False),
    (f"(m := {MAP}) is K.dtype_policies.get(m)", False),
    ("[(d := K.layers.Dense(2, dtype=K.dtype_policies.DTypePolicyMap('float64'))).compute_dtype,"
     " d.variable_dtype, d(np.ones((1, 3))).dtype.name]", False),
    (f"re.sub('0x[0-9a-f]+', 'ID', repr({MAP}))", False),
    (f"K.visualization.draw_segmentation_masks({SEG_IMG}, {SEG})", False),
    (f"K.visualization.draw_segmentation_masks({SEG_IMG}, {SEG}, num_classes=4, alpha=0.5)",
     False),
    (f"K.visualization.draw_segmentation_masks({SEG_IMG}, {SEG}, num_classes=4, "
     "ignore_index=2, color_mapping=[(255, 0, 0), (0, 255, 0), (0, 0, 255), (9, 9, 9)])",
     False),
    (f"K.visualization.draw_segmentation_masks({SEG_IMG}, {SEG}, num_classes=4, blend=False)",
     False),
    (f"K.visualization.draw_segmentation_masks(np.transpose({SEG_IMG}, (0, 3, 1, 2)), "
     f"np.transpose({SEG}, (0, 3, 1, 2)), num_classes=3, data_format='channels_first')", False),
    (f"K.visualization.draw_segmentation_masks({SEG_IMG}, {SEG}.astype('float32'))", False),
    (f"K.visualization.draw_segmentation_masks({SEG_IMG}[0], {SEG}[0])", False),
    ("[(s := K.SymbolicScope()).__enter__() is s, type(s).__name__, s.original_scope, "
     "s.__exit__(None, None, None)]", False),
    ("[(s := K.SymbolicScope()).__enter__() is s, (t := K.SymbolicScope()).__enter__() is t, "
     "t.original_scope is s, t.__exit__(None, None, None), s.__exit__(None, None, None)]",
     False),
    ("K.losses.categorical_generalized_cross_entropy("
     "np.array([0, 1, 2], 'int32'), np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], "
     "[0.3, 0.3, 0.4]], 'float32'), 0.5)", True),
    ("K.losses.categorical_generalized_cross_entropy("
     "np.array([1, 0], 'int32'), np.array([[0.0, 1.0], [0.5, 0.5]], 'float32'), 0.999)", True),
    ("K.ops.switch(1, [lambda x: x + 1, lambda x: x * 3, lambda x: -x], "
     "np.array([1.0, 2.0], 'float32'))", True),
    ("K.ops.switch(7, [lambda x: x + 1, lambda x: x * 3, lambda x: -x], "
     "np.array([1.0, 2.0], 'float32'))", True),
    ("K.ops.switch(-3, [lambda x: x + 1, lambda x: x * 3], np.array([1.0, 2.0], 'float32'))",
     True),
    ("K.ops.switch(np.int32(0), [lambda a, b: a - b, lambda a, b: a * b], "
     "np.float32(3.0), np.float32(5.0))", True),
    (f"K.ops.image.extract_patches({IMG}, 2)", True),
    (f"K.ops.image.extract_patches({IMG}, (2, 3), strides=(1, 2), padding='same')", True),
    (f"K.ops.image.extract_patches({IMG}[0], 3, strides=2)", True),
    (f"K.ops.image.extract_patches({IMG}, 2, dilation_rate=2)", True),
    (f"K.ops.image.extract_patches({IMG}, 2, strides=1, dilation_rate=2)", True),
    (f"K.ops.image.extract_patches(np.transpose({IMG}, (0, 3, 1, 2)), 2, "
     "data_format='channels_first')", True),
    (f"{CTC})", True),
    (f"{CTC}, merge_repeated=False)", True),
    (f"{CTC}, mask_index=3)", True),
    (f"{CTC}, mask_index=None)", True),
    (f"K.ops.nn.ctc_decode({PROBS}, np.array([3, 5]))", True),
    (f"{CTC}, strategy='beam_search', beam_width=4, top_paths=3)", True),
    (f"{CTC}, strategy='beam_search', mask_index=2, top_paths=2)", True),
    (f"K.ops.ctc_decode(np.log({PROBS}).astype('float64'), np.array([5, 5]))", True),
    (f"{CTC}, strategy='viterbi')", False),
    ("[t.shape for t in K.ops.ctc_decode(K.Input((5, 4)), K.Input((), dtype='int32'))]",
     False),
    ("[t.shape for t in K.ops.ctc_decode(K.Input((5, 4)), K.Input((), dtype='int32'), "
     "strategy='beam_search', top_paths=2)]", False),
    ("[K.optimizers.schedules.InverseTimeDecay(0.1, 10, 0.5)(s) for s in (0, 5, 25)]", True),
    ("[K.optimizers.schedules.InverseTimeDecay(0.1, 10, 0.5, staircase=True)(s) "
     "for s in (0, 5, 25)]", True),
    ("[K.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])(s) "
     "for s in (0, 10, 11, 20, 21, 99)]", True),
    ("[K.optimizers.schedules.PolynomialDecay(0.1, 10, 0.01)(s) for s in (0, 3, 10, 15)]",
     True),
    ("[K.optimizers.schedules.PolynomialDecay(0.1, 10, 0.01, power=2.0, cycle=True)(s) "
     "for s in (0, 3, 10, 15, 25)]", True),
    ("K.optimizers.schedules.serialize(K.optimizers.schedules.PolynomialDecay(0.1, 10))",
     False),
    ("K.optimizers.schedules.serialize(K.optimizers.schedules.PiecewiseConstantDecay("
     "[10], [1.0, 0.5], name='pw'))", False),
    ("K.optimizers.schedules.deserialize(K.optimizers.schedules.serialize("
     "K.optimizers.schedules.InverseTimeDecay(0.1, 10, 0.5, staircase=True))).get_config()",
     False),
    ("K.optimizers.schedules.deserialize({'class_name': 'ExponentialDecay', 'config': "
     "{'initial_learning_rate': 0.1, 'decay_steps': 4, 'decay_rate': 0.5}})(8)", False),
    ("K.regularizers.deserialize({'class_name': 'L1L2', 'config': {'l1': 0.1, 'l2': 0.2}})"
     "(np.array([[1.0, -2.0]], 'float32'))", False),
    ("K.regularizers.deserialize('l2').get_config()", False),
    ("K.regularizers.deserialize({'module': 'keras.regularizers', 'class_name': 'L1', "
     "'config': {'l1': 0.5}, 'registered_name': None})(np.array([1.0, -3.0], 'float32'))",
     False),
    ("K.saving.get_registered_name(K.layers.Dense)", False),
    ("K.utils.get_registered_name(K.saving.register_keras_serializable('audit')("
     "type('Thing', (), {'get_config': lambda self: {}})))", False),
    ("K.saving.get_registered_name(K.saving.register_keras_serializable('pkg', 'Named')("
     "type('Other', (), {'get_config': lambda self: {}})))", False),
    ("K.saving.get_registered_name(K.activations.relu)", False),
    ("K.regularizers.deserialize('L1').get_config()", False),
    ("K.regularizers.get({'l1': 0.1})", False),
    ("K.saving.deserialize_keras_object({'a': {'class_name': 'L2', 'module': "
     "'keras.regularizers', 'config': {'l2': 0.5}, 'registered_name': None}, 'b': 3})", False),
    ("K.regularizers.deserialize('no_such_regularizer')", False),
    ("K.constraints.deserialize('non_neg')", False),
    ("K.constraints.deserialize('no_such_constraint')", False),
    ("K.initializers.deserialize('zeros')", False),
    ("K.initializers.deserialize('no_such_initializer')", False),
    ("K.losses.deserialize('no_such_loss')", False),
    ("K.metrics.deserialize('no_such_metric')", False),
    ("K.dtype_policies.deserialize('mixed_float16')", False),
]


def encode(value):
    """JSON form of a case's result: arrays as {array, dtype}, exceptions as [name, message]."""
    if hasattr(value, "numpy") and not isinstance(value, type):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return {"array": np.round(np.asarray(value, "float64"), 6).tolist()
                if value.dtype.kind == "f" else value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(type(value).__name__)


def outcome(K, case, fn=lambda f: f):
    """encode() of `case` evaluated with K as the keras module, through `fn`."""
    try:
        return encode(fn(lambda: eval(case, {"K": K, "np": np, "re": re}))())   # noqa: S307
    except Exception as e:          # noqa: BLE001 - recording the exception is the point
        return [type(e).__name__, str(e).splitlines()[0] if str(e) else ""]


def main():
    import tempfile

    import keras
    import tensorflow as tf
    with tempfile.TemporaryDirectory() as tmp:
        saved = {"models": save_and_load(keras, keras.models.save_model, tmp),
                 "saving": save_and_load(keras, keras.saving.save_model, tmp)}
    data = {"keras": keras.__version__, "tensorflow": tf.__version__,
            "layers": record_layers(tf, keras),
            "metrics": {n: metric_outcome(keras, lambda f: f, *c) for n, c in METRICS.items()},
            "constraint": constraint_step(keras), "schedule": schedule_in_optimizer(keras),
            "save_model": saved,
            "cases": {c: outcome(keras, c) for c, _ in CASES}}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
