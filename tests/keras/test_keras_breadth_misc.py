"""keras.preprocessing.sequence.pad_sequences, optimizers.schedules
(CosineDecayRestarts, serialize/deserialize) and regularizers
(OrthogonalRegularizer) against Keras 3.15's values, recorded by
tools/record_keras_misc.py into tests/data/keras_misc.json."""

import json
import pathlib
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_misc import PAD_CASES, pad_outcome, schedules_and_regularizers  # noqa: E402

keras = tf.keras
REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_misc.json")
                 .read_text())
# Keras fails inside numpy on these ("zero-size array to reduction operation",
# "could not broadcast"); ours returns the empty padding
_OURS = {"P([])": [[], "int32"], "P([[1], [2, 3]], maxlen=0)": [[[], []], "int32"]}


@pytest.mark.parametrize("case", PAD_CASES)
def test_pad_sequences_as_keras(case):
    got = pad_outcome(keras.preprocessing.sequence.pad_sequences, case)
    assert got == _OURS.get(case, REC["pad_sequences"][case])


def test_schedules_and_regularizers_as_keras():
    got, rec = schedules_and_regularizers(keras), REC["schedules_regularizers"]
    assert got.keys() == rec.keys()
    for key in rec:
        if key.startswith("dict(") or key == "orthogonal":
            np.testing.assert_allclose(got[key], rec[key], rtol=1e-6, atol=1e-8)
        else:
            assert got[key] == rec[key], key


def test_cosine_decay_restarts_in_a_traced_step():
    schedule = keras.optimizers.schedules.CosineDecayRestarts(0.1, 4, t_mul=1.5, m_mul=0.5,
                                                              alpha=0.1)
    rates = tf.function(lambda step: schedule(step))
    expected = REC["schedules_regularizers"]["dict(t_mul=1.5, m_mul=0.5, alpha=0.1)"]
    np.testing.assert_allclose([float(rates(tf.constant(i))) for i in (0, 5, 100)],
                               [expected[0], expected[5], expected[12]], rtol=1e-6)


def test_orthogonal_regularizer_on_a_dense_kernel_has_a_gradient():
    reg = keras.regularizers.get("orthogonal_regularizer")
    assert isinstance(reg, keras.regularizers.OrthogonalRegularizer)
    assert reg.factor == float(np.float32(0.01))       # float32, as Keras keeps it
    w = tf.Variable(np.array([[1.0, 2.0], [0.5, -1.0], [0.3, 0.3]], "float32"))
    with tf.GradientTape() as tape:
        penalty = keras.regularizers.OrthogonalRegularizer(1.0, "columns")(w)
    grad = tape.gradient(penalty, w).numpy()
    assert np.isfinite(grad).all() and np.abs(grad).sum() > 0
    layer = keras.layers.Dense(2, kernel_regularizer=keras.regularizers.OrthogonalRegularizer())
    layer(np.ones((1, 3), "float32"))
    assert len(layer.losses) == 1


def test_saving_save_and_load_weights_functions(tmp_path):
    def model():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    a, b = model(), model()
    path = str(tmp_path / "m.weights.h5")
    keras.saving.save_weights(a, path)
    keras.saving.load_weights(b, path)
    for x, y in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_array_equal(x, y)
    with pytest.raises(TypeError, match="max_shard_size"):
        keras.saving.save_weights(a, path, max_shard_size=1)


def test_callback_list_as_keras():
    # Keras 3.15: ['Callback', 'History', 'ProgbarLogger'], the params as given,
    # and the logs' numbers as Python floats ({'a': 1} -> {'a': 1.0})
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    cl = keras.callbacks.CallbackList([keras.callbacks.Callback()], add_history=True,
                                      add_progbar=True, model=m, epochs=3, verbose=1, steps=2)
    assert [type(c).__name__ for c in cl.callbacks] == ["Callback", "History", "ProgbarLogger"]
    assert cl.params == {"epochs": 3, "verbose": 1, "steps": 2}
    assert cl.callbacks[1].model is m and isinstance(cl, keras.callbacks.Callback)
    seen = []
    cb = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append((e, logs)))
    keras.callbacks.CallbackList([cb]).on_epoch_end(3, {"a": 1})
    assert seen == [(3, {"a": 1.0})] and isinstance(seen[0][1]["a"], float)


class _Scale(keras.Operation):
    def call(self, x):
        return x * 2.0


def test_operation_eager_and_functional():
    # Keras 3.15: the name "__scale" (snake case of "_Scale"), (None, 3),
    # op.input/op.output, the model's layers only "input_layer", predict 2s
    keras.utils.clear_session()
    op = _Scale()
    assert op.name == "__scale"
    inputs = keras.Input((3,))
    out = op(inputs)
    assert out.shape == (None, 3) and op.output is out and op.input is inputs
    model = keras.Model(inputs, out)
    np.testing.assert_array_equal(model.predict(np.ones((1, 3)), verbose=0), [[2.0] * 3])
    assert [layer.name for layer in model.layers] == ["input_layer"]
    np.testing.assert_array_equal(_Scale()(np.ones(2)), [2.0, 2.0])
    assert _Scale(name="s").get_config() == {"name": "s"}


def test_remat_and_remat_scope():
    f = keras.remat(lambda x: tf.sin(x) * x)
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    v = np.array([0.5, 1.0])
    np.testing.assert_allclose(y.numpy(), np.sin(v) * v, rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.cos(v) * v + np.sin(v),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="Invalid mode 'x'. Supported modes are"):
        keras.RematScope(mode="x")
    from runtime._src.keras.ops.keras_operation import get_current_remat_mode
    with keras.RematScope(mode="larger_than", output_size_threshold=8) as scope:
        assert get_current_remat_mode() is scope
    assert get_current_remat_mode() is None


def test_mixed_float16_policy_as_keras():
    # Keras 3.15 (which also wraps SGD in a LossScaleOptimizer: the same steps
    # here, without overflow): float16 predictions, float32 weights
    from record_keras_misc import mixed_float16_run
    got, rec = mixed_float16_run(keras), REC["mixed_float16"]
    assert got["predict_dtype"] == rec["predict_dtype"] == "float16"
    assert got["weight_dtypes"] == rec["weight_dtypes"] and got["layer"] == rec["layer"]
    np.testing.assert_allclose(got["predict"], rec["predict"], rtol=1e-3)
    np.testing.assert_allclose(got["loss"], rec["loss"], rtol=1e-3)
    np.testing.assert_allclose(got["evaluate"], rec["evaluate"], rtol=1e-3)
    for ours, theirs in zip(got["weights"], rec["weights"]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-4)
    assert keras.config.dtype_policy().name == "float32"


def test_mixed_float16_layer_reads_weights_in_float16():
    d = keras.layers.Dense(2, dtype="mixed_float16", kernel_initializer="ones")
    x = tf.constant(np.ones((1, 3), "float32"))
    with tf.GradientTape() as tape:
        y = d(x)
        loss = tf.reduce_sum(tf.cast(y, tf.float32))
    assert y.dtype == tf.float16 and d.kernel.dtype == tf.float32
    grad = tape.gradient(loss, d.kernel)
    assert grad.dtype == tf.float32
    np.testing.assert_array_equal(grad.numpy(), np.ones((3, 2)))
    assert tf.function(lambda t: d(t))(x).dtype == tf.float16
    assert d.kernel.dtype == tf.float32           # outside the call: its own dtype


def test_stateless_scope_as_keras():
    # Keras 3.15: reads see the mapping ([3, 3], v + 1 = [4, 4]); assign and
    # assign_add inside are kept in the scope ([1, 1]); v itself stays [1, 1]
    v = keras.Variable(np.ones(2, "float32"), name="v")
    with keras.StatelessScope(state_mapping=[(v, np.full(2, 3.0, "float32"))]) as scope:
        np.testing.assert_array_equal(np.asarray(v.value), [3.0, 3.0])
        np.testing.assert_array_equal(np.asarray(v + 1.0), [4.0, 4.0])
        v.assign(np.zeros(2, "float32"))
        v.assign_add(np.ones(2, "float32"))
        np.testing.assert_array_equal(np.asarray(v.value), [1.0, 1.0])
    v.assign([7.0, 7.0])
    np.testing.assert_array_equal(v.numpy(), [7.0, 7.0])
    np.testing.assert_array_equal(scope.get_current_value(v).numpy(), [1.0, 1.0])
    with pytest.raises(ValueError, match="Invalid reference variable in StatelessScope"):
        keras.StatelessScope(state_mapping=[(1, 2)])
    with pytest.raises(ValueError, match=r"received invalid value \[1. 1. 1.\] with shape"):
        keras.StatelessScope(state_mapping=[(v, np.ones(3))])
    layer = keras.layers.Dense(1, kernel_initializer="ones")
    layer.build((None, 2))
    with keras.StatelessScope(state_mapping=[(layer.kernel, np.full((2, 1), 2.0, "float32"))],
                              collect_losses=True) as scope:
        np.testing.assert_array_equal(np.asarray(layer(np.ones((1, 2)))), [[4.0]])
        layer.add_loss(tf.constant(5.0))
        with pytest.raises(ValueError, match="create a variable while in a stateless scope"):
            keras.Variable(np.ones(2, "float32"))
    assert [float(x) for x in scope.losses] == [5.0]
    np.testing.assert_array_equal(np.asarray(layer(np.ones((1, 2)))), [[2.0]])
