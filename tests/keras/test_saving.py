"""A Keras model saved with tf.saved_model.save and loaded in a fresh process
predicts the same, for any batch size (the serving signature's batch
dimension is free)."""

import json
import os
import textwrap

import numpy as np
import pytest

import runtime as tf
from tests import fresh_process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_and_predict(export_dir, x):
    script = textwrap.dedent(f"""
        import json, numpy as np
        import runtime as tf
        loaded = tf.saved_model.load({export_dir!r})
        fn = loaded.signatures["serving_default"]
        out = fn(tf.constant(np.array({x.tolist()!r}, np.float32)))
        print(json.dumps({{k: np.asarray(v).tolist() for k, v in out.items()}}))
    """)
    proc = fresh_process.run(["-c", script], cwd="/", capture_output=True,
                             text=True, timeout=120, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_sequential_model_round_trips_in_a_fresh_process(tmp_path):
    tf.random.set_seed(3)
    model = tf.keras.Sequential([tf.keras.layers.Dense(6, activation="relu"),
                                 tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(3)])
    x = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    model(x[:2])
    tf.saved_model.save(model, str(tmp_path))
    out = load_and_predict(str(tmp_path), x)
    assert list(out) == ["output_0"]
    np.testing.assert_allclose(out["output_0"], model(x).numpy(), rtol=1e-6)


def test_subclassed_model_with_a_traced_call_round_trips(tmp_path):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(4, activation="tanh")
            self.out = tf.keras.layers.Dense(2)

        @tf.function
        def call(self, x, training=False):
            return self.out(self.hidden(x))
    net = Net()
    x = np.ones((3, 2), np.float32)
    net(x)
    tf.saved_model.save(net, str(tmp_path))
    out = load_and_predict(str(tmp_path), x)
    np.testing.assert_allclose(out["output_0"], net(x).numpy(), rtol=1e-6)


def test_an_unbuilt_model_cannot_be_saved(tmp_path):
    with pytest.raises(ValueError, match="cannot be saved before it is built"):
        tf.saved_model.save(tf.keras.Sequential([tf.keras.layers.Dense(2)]), str(tmp_path))


def test_a_model_trained_with_fit_reloads_with_the_same_predictions(tmp_path):
    tf.random.set_seed(4)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((40, 3)).astype(np.float32)
    y = (x.sum(axis=1) > 0).astype(np.int32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    model.fit(x, y, batch_size=8, epochs=2, verbose=0)     # builds the model while tracing
    tf.saved_model.save(model, str(tmp_path))
    out = load_and_predict(str(tmp_path), x[:5])
    np.testing.assert_allclose(out["output_0"], model.predict(x[:5], verbose=0), rtol=1e-6)


def test_sequential_with_an_input_shape_is_built_at_once_and_saves_before_any_call(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(2, 3)),
                                 tf.keras.layers.Dense(4)])
    assert model.built and [v.shape.as_list() for v in model.weights] == [[6, 4], [4]]
    tf.saved_model.save(model, str(tmp_path))
    x = np.ones((2, 2, 3), np.float32)
    out = load_and_predict(str(tmp_path), x)
    np.testing.assert_allclose(out["output_0"], model(x).numpy(), rtol=1e-6)
