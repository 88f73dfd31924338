"""keras.config against Keras 3.15's recorded behaviour (tests/data/keras_misc.json,
recorded by tools/record_keras_misc.py on TF 2.21 / Keras 3.15)."""

import builtins
import contextlib
import io
import json
import logging
import pathlib
import warnings

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
C = keras.config
REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_misc.json")
                 .read_text())["config"]


@pytest.fixture
def restore():
    yield
    C.set_floatx("float32")
    C.set_epsilon(1e-7)
    C.set_image_data_format("channels_last")
    C.set_dtype_policy("float32")
    C.set_max_epochs(None)
    C.set_max_steps_per_epoch(None)
    C.enable_interactive_logging()
    C.enable_traceback_filtering()


def test_defaults():
    got = [C.floatx(), C.epsilon(), C.image_data_format(), C.backend(), C.dtype_policy().name,
           C.is_interactive_logging_enabled(), C.is_traceback_filtering_enabled(),
           C.max_epochs(), C.max_steps_per_epoch(), C.is_flash_attention_enabled(),
           C.is_nnx_enabled()]
    assert got == REC["defaults"]
    assert keras.backend.floatx is C.floatx      # one state for keras.backend and config


@pytest.mark.parametrize("name, arg", [("set_floatx", "int32"),
                                       ("set_image_data_format", "foo"),
                                       ("set_dtype_policy", 3)])
def test_errors(name, arg):
    kind, message = REC["errors"][name]
    with pytest.raises(getattr(builtins, kind)) as info:
        getattr(C, name)(arg)
    assert str(info.value).split("{")[0] == message.split("{")[0]


def test_setters_reach_layers(restore):
    C.set_epsilon(1e-5)
    assert C.epsilon() == keras.backend.epsilon() == 1e-5
    C.set_image_data_format("channels_first")
    assert C.image_data_format() == "channels_first"
    C.set_dtype_policy("float64")
    layer = keras.layers.Dense(2)
    assert layer.dtype == "float64" and C.dtype_policy() == keras.DTypePolicy("float64")
    assert layer(np.ones((1, 3))).dtype == tf.float64
    C.set_dtype_policy(keras.DTypePolicy("float32"))
    C.set_floatx("float16")         # the policy, once read, is kept (Keras 3.15 too)
    assert C.floatx() == "float16" and keras.layers.Dense(2).dtype == "float32"


def test_switches(restore):
    C.enable_flash_attention()
    assert C.is_flash_attention_enabled() is True
    C.disable_flash_attention()
    assert C.is_flash_attention_enabled() is False
    C.disable_traceback_filtering()
    assert not C.is_traceback_filtering_enabled()
    assert C.enable_unsafe_deserialization() is None
    C.set_backend("tensorflow")
    with pytest.raises(ValueError, match="'tensorflow' backend.*backend='jax'"):
        C.set_backend("jax")


def _model():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    return m, np.ones((64, 3), "float32"), np.ones((64, 1), "float32")


def test_fit_honours_max_epochs_and_steps(restore):
    m, x, y = _model()
    C.set_max_epochs(2)
    C.set_max_steps_per_epoch(1)
    seen = []
    cb = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda b, logs: seen.append(["t", b]),
        on_test_batch_end=lambda b, logs: seen.append(["e", b]),
        on_epoch_end=lambda e, logs: seen.append(["E", e]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        h = m.fit(x, y, epochs=5, verbose=0, callbacks=[cb], validation_data=(x, y))
    rec = REC["capped_fit"]
    assert [str(i.message) for i in w] == rec["warnings"]
    assert seen == rec["calls"] and h.params == rec["params"]
    seen.clear()
    with pytest.warns(UserWarning, match="Limiting steps_per_epoch to 1"):
        m.evaluate(x, y, verbose=0, callbacks=[cb])
    assert seen == REC["capped_evaluate"]
    assert m.predict(x, verbose=0).shape[0] == REC["capped_predict_rows"]
    with warnings.catch_warnings(record=True) as w:     # a dataset: the same caps
        warnings.simplefilter("always")
        h = m.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(8), epochs=3, verbose=0)
    assert h.params["epochs"] == 2 and len(h.history["loss"]) == 2


def test_interactive_logging_switch(restore, caplog):
    m, x, y = _model()
    C.disable_interactive_logging()
    assert not keras.utils.is_interactive_logging_enabled()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), caplog.at_level(logging.INFO, logger="keras"):
        m.fit(x, y, epochs=2, verbose=1)
        m.evaluate(x, y)
    assert buf.getvalue() == REC["quiet_stdout"] == ""
    assert "Epoch 2/2" in caplog.text and "2/2" in caplog.text
    keras.utils.enable_interactive_logging()
    with contextlib.redirect_stdout(buf):
        m.fit(x, y, epochs=2, verbose=1)
    assert buf.getvalue().startswith("Epoch 1/2\n2/2 ")


def test_bfloat16_floatx_is_taken_as_keras_takes_it():
    C.set_floatx("bfloat16")
    try:
        assert C.floatx() == "bfloat16"
    finally:
        C.set_floatx("float32")
    with pytest.raises(ValueError, match="Unknown `floatx` value"):
        C.set_floatx("bfloat17")


def test_dtype_policies_and_mixed_precision_names(restore):
    # Keras 3.15: get(None) is the global policy, a config dict or a name is
    # parsed, and serialize writes module "keras"
    D, M = keras.dtype_policies, keras.mixed_precision
    assert D.get(None) == C.dtype_policy() and D.get("float16") == D.DTypePolicy("float16")
    assert D.get({"class_name": "DTypePolicy", "config": {"name": "float64"}}).name == "float64"
    assert D.serialize(D.DTypePolicy("mixed_float16")) == {
        "module": "keras", "class_name": "DTypePolicy", "config": {"name": "mixed_float16"},
        "registered_name": None}
    assert D.deserialize(D.serialize(D.DTypePolicy("float64"))) == D.DTypePolicy("float64")
    with pytest.raises(ValueError, match="Cannot interpret `dtype` argument. Expected a string"):
        D.get(3)
    with pytest.raises(ValueError, match="Cannot convert 'foo' to a mixed precision"):
        D.get("foo")
    assert M.Policy is M.DTypePolicy is D.DTypePolicy
    assert M.set_global_policy is C.set_dtype_policy and M.global_policy is C.dtype_policy
    M.set_global_policy("float64")
    assert keras.layers.Dense(1).dtype == "float64"
