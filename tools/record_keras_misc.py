"""Record Keras 3.15's behaviour for keras.config, keras.tree, keras.utils
(Progbar, PyDataset, pad_sequences, ...) and the other names of
tests/keras/test_keras_config.py, test_keras_tree.py and test_keras_utils_breadth.py.

    /tmp/tfvenv/bin/python tools/record_keras_misc.py     # -> tests/data/keras_misc.json

Runs where TensorFlow 2.21 and Keras 3.15 are installed (never a dependency).
"""

import contextlib
import io
import json
import pathlib
import warnings

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_misc.json"


def _error(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:          # noqa: BLE001 - recording the exception is the point
        return [type(e).__name__, str(e)]
    return None


def record_config(keras):
    c = keras.config
    out = {"defaults": [c.floatx(), c.epsilon(), c.image_data_format(), c.backend(),
                        c.dtype_policy().name, c.is_interactive_logging_enabled(),
                        c.is_traceback_filtering_enabled(), c.max_epochs(),
                        c.max_steps_per_epoch(), c.is_flash_attention_enabled(),
                        c.is_nnx_enabled()]}
    out["errors"] = {"set_floatx": _error(c.set_floatx, "int32"),
                     "set_image_data_format": _error(c.set_image_data_format, "foo"),
                     "set_dtype_policy": _error(c.set_dtype_policy, 3)}
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    x, y = np.ones((64, 3), "float32"), np.ones((64, 1), "float32")
    c.set_max_epochs(2)
    c.set_max_steps_per_epoch(1)
    seen = []
    cb = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda b, logs: seen.append(["t", b]),
        on_test_batch_end=lambda b, logs: seen.append(["e", b]),
        on_epoch_end=lambda e, logs: seen.append(["E", e]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        h = m.fit(x, y, epochs=5, verbose=0, callbacks=[cb], validation_data=(x, y))
    out["capped_fit"] = {"warnings": [str(i.message) for i in w], "calls": list(seen),
                         "params": h.params}
    seen.clear()
    m.evaluate(x, y, verbose=0, callbacks=[cb])
    out["capped_evaluate"] = list(seen)
    out["capped_predict_rows"] = int(m.predict(x, verbose=0).shape[0])
    c.set_max_epochs(None)
    c.set_max_steps_per_epoch(None)
    c.disable_interactive_logging()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.fit(x, y, epochs=2, verbose=1)
        m.evaluate(x, y)
    c.enable_interactive_logging()
    out["quiet_stdout"] = buf.getvalue()
    return out


def main():
    import keras
    data = {"keras": keras.__version__, "config": record_config(keras)}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
