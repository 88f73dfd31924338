"""Record Keras 3.15's moving averages of the weights (optimizers' `use_ema`,
`ema_momentum`, `ema_overwrite_frequency`) and `keras.callbacks.SwapEMAWeights`.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_ema.py   # -> tests/data/keras_ema.json

Runs where TensorFlow 2.21 and Keras 3.15 are installed (never a dependency);
tests/keras/test_keras_ema.py runs the same functions on runtime.keras.
"""

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_ema.json"
GRADS = [np.array([[0.5, -1.0], [2.0, 0.25]], "float32"),
         np.array([[-1.5, 0.5], [0.0, 1.0]], "float32"),
         np.array([[0.25, 0.25], [-3.0, 2.0]], "float32")]
# name -> optimizer source, K the keras module
OPTIMIZERS = {
    "sgd": "K.optimizers.SGD(0.1, use_ema=True)",
    "sgd_momentum_0": "K.optimizers.SGD(0.1, momentum=0.5, use_ema=True, ema_momentum=0.0)",
    "adam": "K.optimizers.Adam(0.05, use_ema=True, ema_momentum=0.9)",
    "rmsprop_overwrite_2": ("K.optimizers.RMSprop(0.05, use_ema=True, ema_momentum=0.7, "
                            "ema_overwrite_frequency=2)"),
    "adagrad_momentum_1": "K.optimizers.Adagrad(0.3, use_ema=True, ema_momentum=1.0)",
    "adamw_overwrite_1": ("K.optimizers.AdamW(0.1, use_ema=True, ema_momentum=0.5, "
                          "ema_overwrite_frequency=1)"),
}
BAD = ["K.optimizers.SGD(use_ema=True, ema_momentum=1.5)",
       "K.optimizers.SGD(use_ema=True, ema_momentum=-0.1)",
       "K.optimizers.Adam(use_ema=True, ema_overwrite_frequency=0)",
       "K.optimizers.Adam(use_ema=True, ema_overwrite_frequency=2.5)"]


def _np(value):
    return np.round(np.asarray(value, "float64"), 6).tolist()


def make(K, source):
    return eval(source, {"K": K})       # noqa: S307 - the cases are the literals above


def apply_steps(K, name, fn=lambda f: f):
    """The variable and the optimizer's variables after three steps of GRADS,
    each step through `fn` (identity, or a traced function)."""
    opt = make(K, OPTIMIZERS[name])
    v = K.Variable(np.array([[1.0, -2.0], [0.5, 3.0]], "float32"), name="w")
    step = fn(lambda g: opt.apply_gradients([(g, v)]))
    for g in GRADS:
        step(K.ops.convert_to_tensor(g))
    return {"variable": _np(v.numpy()),
            "optimizer": [_np(w.numpy()) for w in opt.variables],
            "config": {k: opt.get_config()[k] for k in
                       ("use_ema", "ema_momentum", "ema_overwrite_frequency")}}


def bad_outcome(K, source):
    try:
        make(K, source)
    except Exception as e:          # noqa: BLE001 - recording the exception is the point
        return [type(e).__name__, str(e)]
    return None


def _model(K, ema=True, momentum=0.6, name=None):
    model = K.Sequential([K.Input((3,)), K.layers.Dense(2, name="d")], name=name)
    for k, w in enumerate(model.weights):
        n = int(np.prod(w.shape))
        w.assign((0.5 * np.sin(0.37 * np.arange(n) + k)).reshape(tuple(w.shape)))
    model.compile(K.optimizers.SGD(0.2, use_ema=ema, ema_momentum=momentum), "mse")
    return model


X = (np.cos(0.7 * np.arange(12)).reshape(4, 3)).astype("float32")
Y = (np.sin(0.3 * np.arange(8)).reshape(4, 2)).astype("float32")


def fit_run(K, case):
    """fit (two epochs, batches of 2, no shuffling) with or without SwapEMAWeights;
    the history, the weights after fit, then evaluate and predict and the weights
    after them."""
    swap = {"plain": None, "swap": "K.callbacks.SwapEMAWeights()",
            "swap_on_epoch": "K.callbacks.SwapEMAWeights(swap_on_epoch=True)"}[case]
    model = _model(K)
    callbacks = [] if swap is None else [make(K, swap)]
    history = model.fit(X, Y, batch_size=2, epochs=2, verbose=0, shuffle=False,
                        validation_data=(X[:2], Y[:2]), callbacks=callbacks)
    out = {"history": {k: _np(v) for k, v in sorted(history.history.items())},
           "weights": [_np(w) for w in model.get_weights()],
           "averages": [_np(w.numpy()) for w in model.optimizer.variables[2:]]}
    out["evaluate"] = _np(model.evaluate(X, Y, verbose=0, callbacks=callbacks))
    out["after_evaluate"] = [_np(w) for w in model.get_weights()]
    out["predict"] = _np(model.predict(X[:2], verbose=0, callbacks=callbacks))
    out["after_predict"] = [_np(w) for w in model.get_weights()]
    return out


def swap_without_ema(K):
    model = _model(K, ema=False)
    try:
        model.fit(X, Y, epochs=1, verbose=0, validation_data=(X, Y),
                  callbacks=[K.callbacks.SwapEMAWeights()])
    except Exception as e:          # noqa: BLE001 - recording the exception is the point
        return [type(e).__name__, str(e)]
    return None


def main():
    import keras
    import tensorflow as tf
    data = {"keras": keras.__version__, "tensorflow": tf.__version__,
            "apply": {n: apply_steps(keras, n) for n in OPTIMIZERS},
            "names": [v.name for v in _names(keras)],
            "bad": {s: bad_outcome(keras, s) for s in BAD},
            "fit": {c: fit_run(keras, c) for c in ("plain", "swap", "swap_on_epoch")},
            "swap_without_ema": swap_without_ema(keras)}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def _names(K):
    model = _model(K, name="net")
    model.fit(X, Y, epochs=1, verbose=0)
    return model.optimizer.variables


if __name__ == "__main__":
    main()
