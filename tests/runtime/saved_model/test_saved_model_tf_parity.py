"""Saved models behave as TensorFlow 2.21's: `__call__`
and other tf.function attributes are kept, the loaded object is callable,
Python arguments of a trace are accepted again, `save` returns None,
`SaveOptions` and `contains_saved_model` exist. Expected behaviour recorded
from TensorFlow 2.21 ($BENCH_TF_PYTHON)."""

import json
import os

import pytest

import runtime as tf


class Scaler(tf.Module):
    def __init__(self):
        self.v = tf.Variable(2.0)

    @tf.function
    def __call__(self, x):
        return x * self.v

    @tf.function
    def mul(self, x, n=2):
        return x * n


def _saved(tmp_path):
    m = Scaler()
    m(tf.constant(1.0))
    m.mul(tf.constant([1.0, 2.0]))
    m.mul(tf.constant(1.0), 3)
    path = str(tmp_path / "m")
    # TensorFlow 2.21: save returns None and accepts options=SaveOptions(...)
    assert tf.saved_model.save(m, path, options=tf.saved_model.SaveOptions(
        namespace_whitelist=None)) is None
    return path


def test_call_and_traced_methods_are_kept(tmp_path):
    loaded = tf.saved_model.load(_saved(tmp_path))
    # TensorFlow 2.21: callable; 6.0; [6. 2.]; 3.0 (mul traced with n=3, called again)
    assert callable(loaded)
    assert loaded(tf.constant(3.0)).numpy() == 6.0
    assert loaded.mul(tf.constant([3.0, 1.0])).numpy().tolist() == [6.0, 2.0]
    assert loaded.mul(tf.constant(1.0), 3).numpy() == 3.0
    assert list(loaded.signatures) == []


def test_arguments_no_trace_accepts_raise_tensorflows_value_error(tmp_path):
    loaded = tf.saved_model.load(_saved(tmp_path))
    # TensorFlow 2.21: ValueError "Could not find matching concrete function to call
    # loaded from the SavedModel. Got: ..."
    for call in (lambda: loaded.mul(tf.constant(1.0), 4), lambda: loaded(tf.constant(1))):
        with pytest.raises(ValueError, match="^Could not find matching concrete function "
                                             "to call loaded from the SavedModel. Got:"):
            call()


def test_a_module_without_call_is_not_callable(tmp_path):
    class Plain(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return x + 1

    path = str(tmp_path / "p")
    tf.saved_model.save(Plain(), path)
    loaded = tf.saved_model.load(path)
    assert not callable(loaded) and loaded.f(1.0).numpy() == 2.0


def test_contains_saved_model(tmp_path):
    # TensorFlow 2.21: True for a saved model's directory, False for an empty one
    assert tf.saved_model.contains_saved_model(_saved(tmp_path))
    os.makedirs(tmp_path / "empty")
    assert not tf.saved_model.contains_saved_model(str(tmp_path / "empty"))


def test_a_loaded_keras_model_is_callable_and_has_its_serving_signature(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    x = tf.ones([3, 4])
    expected = model(x).numpy()
    path = str(tmp_path / "k")
    tf.saved_model.save(model, path)
    loaded = tf.saved_model.load(path)
    # TensorFlow 2.21: signatures == ['serving_default'], returning {'output_0': ...}.
    # (Callable here as tf_keras models are; a Keras 3 model loaded by TF 2.21 is not:
    # docs/tf_differences.md.)
    assert list(loaded.signatures) == ["serving_default"]
    out = loaded.signatures["serving_default"](x)
    assert list(out) == ["output_0"] and out["output_0"].numpy().tolist() == expected.tolist()
    assert loaded(x).numpy().tolist() == expected.tolist()


def test_loading_runs_no_code_from_the_directory(tmp_path):
    path = _saved(tmp_path)
    marker = tmp_path / "ran"
    for name in ("__init__.py", "saved_model.py", "load.py"):
        (tmp_path / "m" / name).write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    with open(os.path.join(path, "saved_model.json")) as f:
        doc = json.load(f)
    doc["functions"]["mul"][0]["parameters"][1]["py"] = {"__import__": "os"}
    with open(os.path.join(path, "saved_model.json"), "w") as f:
        json.dump(doc, f)
    with pytest.raises(ValueError, match="bad parameter value"):
        tf.saved_model.load(path)
    assert not marker.exists()


class _Dense(tf.Module):
    def __init__(self, n_in, n_out):
        self.w = tf.Variable(tf.ones([n_in, n_out]))
        self.b = tf.Variable(tf.zeros([n_out]))

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class _Sequential(tf.Module):
    def __init__(self):
        self.dense_1, self.dense_2 = _Dense(3, 3), _Dense(3, 2)

    @tf.function
    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


def test_the_modules_guide_saves_functions_traced_with_python_lists(tmp_path):
    model = _Sequential()
    model([[2.0, 2.0, 2.0]])
    model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
    tf.saved_model.save(model, str(tmp_path / "s"))
    loaded = tf.saved_model.load(str(tmp_path / "s"))
    # TensorFlow 2.21 (the modules guide): [[18. 18.]], then shape (1, 2, 2), and a
    # list of other values matches no trace (ValueError); not a _Sequential.
    assert loaded([[2.0, 2.0, 2.0]]).numpy().tolist() == [[18.0, 18.0]]
    assert loaded([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]).shape == (1, 2, 2)
    with pytest.raises(ValueError, match="^Could not find matching concrete function"):
        loaded([[3.0, 2.0, 2.0]])
    assert not isinstance(loaded, _Sequential)


class _Custom(tf.Module):
    def __init__(self):
        self.v = tf.Variable(1.0)

    @tf.function
    def __call__(self, x):
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def mutate(self, new_v):
        self.v.assign(new_v)


def test_the_saved_model_guide_fine_tunes_a_loaded_module(tmp_path):
    module = _Custom()
    module(tf.constant(0.0))
    module(tf.constant([0.0, 0.0]))
    tf.saved_model.save(module, str(tmp_path / "c"))
    imported = tf.saved_model.load(str(tmp_path / "c"))
    assert imported(tf.constant(3.0)).numpy() == 3
    imported.mutate(tf.constant(2.0))
    assert imported(tf.constant(3.0)).numpy() == 6
    optimizer = tf.keras.optimizers.SGD(0.05)
    lines = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = (10.0 - imported(tf.constant(2.0))) ** 2
        variables = tape.watched_variables()
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        lines.append(f"loss={loss:.2f} v={imported.v.numpy():.2f}")
    # TensorFlow 2.21 (the saved model guide)
    assert lines == ["loss=36.00 v=3.20", "loss=12.96 v=3.92", "loss=4.67 v=4.35"]


def test_signatures_return_dicts_in_the_given_order(tmp_path):
    module = _Custom()
    call = module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    signatures = {"serving_default": call, "array_input": module.__call__.get_concrete_function(
        tf.TensorSpec([None], tf.float32))}
    tf.saved_model.save(module, str(tmp_path / "s"), signatures=signatures)
    loaded = tf.saved_model.load(str(tmp_path / "s"))
    # TensorFlow 2.21: ['serving_default', 'array_input'];
    # {'output_0': <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>}
    assert list(loaded.signatures) == ["serving_default", "array_input"]
    out = loaded.signatures["serving_default"](x=tf.constant([1.0]))
    assert repr(out) == ("{'output_0': <tf.Tensor: shape=(1,), dtype=float32, "
                         "numpy=array([1.], dtype=float32)>}")
