"""keras.ops's Fourier functions (`fft`, `fft2`, `ifft2`, `rfft`, `irfft`,
`stft`, `istft`) against Keras 3.15's TensorFlow backend under TF 2.21: the
"k:" cases of tests/data/signal_tf221.npz (tools/record_signal.py), values
eagerly and in tf.function and the gradients TF's tape gave."""

import json
import pathlib
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tools"))
import record_signal as rec  # noqa: E402 (the recorder defines how a case runs)

DATA = np.load(pathlib.Path(__file__).resolve().parents[2] / "data" / "signal_tf221.npz")
CASES = [c for c in json.loads(str(DATA["cases"])) if c["fn"].startswith("k:")]


def _close(got, want, what):
    got = np.asarray(got)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), what
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    tol = 1e-10 if want.dtype == np.float64 else 2e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_keras_fourier_ops_match_keras(case):
    key = case["id"]
    arrays = [DATA[f"{key}/in{i}"] for i in range(case["inputs"])]
    want = DATA[f"{key}/out"]
    _close(rec.call(tf, case["fn"], [tf.constant(a) for a in arrays], case["kwargs"]), want,
           "eager")
    traced = tf.function(lambda *xs: rec.call(tf, case["fn"], list(xs), case["kwargs"]))
    _close(traced(*[tf.constant(a) for a in arrays]), want, "tf.function")
    if case["grads"]:
        grads = rec.gradients(tf, case["fn"], arrays, case["kwargs"], DATA[f"{key}/w_re"],
                              DATA[f"{key}/w_im"])
        for i, g in enumerate(grads):
            _close(g.numpy(), DATA[f"{key}/grad{i}"], f"gradient {i}")


def test_keras_fourier_ops_refuse_bad_arguments():
    x = tf.ones([8])
    with pytest.raises(ValueError, match="sequence_stride` must be a positive integer"):
        tf.keras.ops.stft(x, 4, 0, 4)
    with pytest.raises(ValueError, match="`fft_length` must equal or larger"):
        tf.keras.ops.stft(x, 4, 2, 2)
    with pytest.raises(ValueError, match='must be one of `"hann"`, `"hamming"`'):
        tf.keras.ops.stft(x, 4, 2, 4, window="box")
    with pytest.raises(TypeError, match="Expected `float32` or `float64`"):
        tf.keras.ops.stft(tf.ones([8], tf.int32), 4, 2, 4)
    with pytest.raises(ValueError, match="tuple of two tensors"):
        tf.keras.ops.fft(x)


def test_keras_fourier_ops_on_symbolic_inputs_build_models():
    # shapes as Keras 3.15 gives them: istft(stft(x)) keeps 16 samples, irfft 2 * (16 - 1)
    x = tf.keras.Input((16,))
    spectrum = tf.keras.ops.stft(x, 8, 4, 8)
    outputs = [tf.keras.ops.fft((x, x))[0], tf.keras.ops.irfft((x, x)),
               tf.keras.ops.istft(spectrum, 8, 4, 8)]
    assert [tuple(o.shape) for o in outputs] == [(None, 16), (None, 30), (None, 16)]
    model = tf.keras.Model(x, outputs)
    signal = np.random.RandomState(5).randn(2, 16).astype(np.float32)
    re, _, back = model(tf.constant(signal))
    np.testing.assert_allclose(re.numpy(), np.fft.fft(signal + 1j * signal).real, atol=1e-5)
    np.testing.assert_allclose(back.numpy(), signal, atol=1e-5)
