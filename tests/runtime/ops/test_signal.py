"""`tf.signal` against TensorFlow 2.21's recorded values (tests/data/signal_tf221.npz,
written by tools/record_signal.py): every case's output eagerly and in
tf.function, and the gradients TF's tape gave, eagerly and in tf.function.
The cases cover random inputs and the special points: length 1, odd lengths,
fft_length shorter and longer than the input, empty batches, zeros."""

import json
import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA as TEST_DATA, TOOLS

sys.path.insert(0, str(TOOLS))
import record_signal as rec  # noqa: E402 (the recorder defines how a case runs)

DATA = np.load(TEST_DATA / "signal_tf221.npz")
CASES = [c for c in json.loads(str(DATA["cases"]))
         if not c["fn"].startswith("k:")]    # keras.ops: tests/keras/ops/test_keras_signal_ops.py
GRAD_CASES = [c for c in CASES if c["grads"]]


def _inputs(case):
    return [DATA[f"{case['id']}/in{i}"] for i in range(case["inputs"])]


def _close(got, want, what):
    got = np.asarray(got)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, TF {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, TF {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    tol = 1e-10 if want.dtype in (np.float64, np.complex128) else 2e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_values_eager_and_in_function(case):
    want = DATA[f"{case['id']}/out"]
    arrays = _inputs(case)
    eager = rec.call(tf, case["fn"], [tf.constant(a) for a in arrays], case["kwargs"])
    _close(eager.numpy(), want, "eager")
    traced = tf.function(lambda *xs: rec.call(tf, case["fn"], list(xs), case["kwargs"]))
    _close(traced(*[tf.constant(a) for a in arrays]).numpy(), want, "tf.function")


def _gradients(case):
    w_re, w_im = DATA[f"{case['id']}/w_re"], DATA[f"{case['id']}/w_im"]
    return rec.gradients(tf, case["fn"], _inputs(case), case["kwargs"], w_re, w_im)


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c["id"] for c in GRAD_CASES])
def test_gradients_eager_and_in_function(case):
    wants = [DATA[f"{case['id']}/grad{i}"] for i in range(case["grads"])]
    for mode, grads in (("eager", _gradients(case)),
                        ("tf.function", tf.function(lambda: _gradients(case))())):
        assert len(grads) == len(wants)
        for i, (g, want) in enumerate(zip(grads, wants)):
            _close(g.numpy(), want, f"{mode} gradient {i}")


def _numeric_gradient(f, x, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


@pytest.mark.parametrize("fn,kwargs", [
    ("rfft", {"fft_length": [4]}), ("irfft", {"fft_length": [4]}),
    ("rfft3d", {}), ("irfft3d", {}), ("fftnd", {"axes": [0, 2], "fft_length": [3, 2]}),
])
def test_gradients_where_tf_has_none_match_finite_differences(fn, kwargs):
    # TF fails on a cropping rfft/irfft and has no RFFT3D/IRFFT3D gradient; ours is
    # the exact adjoint (float64 here, against central differences). fftnd has none.
    rs = np.random.RandomState(0)
    shape = (2, 3, 6) if fn != "irfft" else (5,)
    x = rs.randn(*shape)
    complex_in = fn.startswith("i") or fn == "fftnd"
    out = getattr(tf.signal, fn)(_make(x, complex_in), **kwargs)
    w = rs.randn(*out.shape)

    def loss(v):
        y = getattr(tf.signal, fn)(_make(v, complex_in), **kwargs)
        return tf.reduce_sum(tf.math.real(y) * w) + tf.reduce_sum(tf.math.imag(y) * w[::-1])

    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        value = loss(xt)
    if fn == "fftnd":
        with pytest.raises(LookupError, match="FFTND"):
            tape.gradient(value, xt)
        return
    np.testing.assert_allclose(tape.gradient(value, xt).numpy(),
                               _numeric_gradient(lambda v: float(loss(tf.constant(v))), x),
                               rtol=1e-6, atol=1e-6)


def _make(v, complex_in):
    v = tf.convert_to_tensor(v)
    return tf.complex(v, v * 0.5) if complex_in else v


def test_nd_transforms_follow_numpy_with_axes_lengths_and_norm():
    # TF 2.21's CPU build has no FFTND kernels; the documented behaviour is numpy's.
    rs = np.random.RandomState(1)
    x = rs.randn(2, 3, 4).astype(np.float32)
    c = (x + 1j * x[::-1]).astype(np.complex64)
    checks = [
        (tf.signal.fftnd(c), np.fft.fftn(c)),
        (tf.signal.fftnd(c, fft_length=[5, 2], axes=[0, 2]), np.fft.fftn(c, [5, 2], [0, 2])),
        (tf.signal.ifftnd(c, axes=[1], norm="ortho"), np.fft.ifftn(c, axes=[1], norm="ortho")),
        (tf.signal.fftnd(c, axes=[-1], norm="forward"), np.fft.fftn(c, axes=[-1],
                                                                    norm="forward")),
        (tf.signal.rfftnd(x, fft_length=[2, 6], axes=[1, 2]), np.fft.rfftn(x, [2, 6], [1, 2])),
        (tf.signal.irfftnd(c), np.fft.irfftn(c, axes=[0, 1, 2])),
        (tf.signal.irfftnd(c, fft_length=[3, 5], axes=[0, 2]), np.fft.irfftn(c, [3, 5], [0, 2])),
    ]
    for got, want in checks:
        assert got.shape == want.shape
        assert got.dtype in (tf.complex64, tf.float32)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="norm must be one of"):
        tf.signal.fftnd(c, norm="both")


def test_dtype_rules_and_errors():
    assert tf.signal.rfft([1, 2, 3]).dtype == tf.complex64        # ints: float32 first
    assert tf.signal.fft([1.0, 2.0]).dtype == tf.complex64        # floats: complex64 first
    assert tf.signal.fft([1 + 1j, 2]).dtype == tf.complex128
    # numpy arrays take the first allowed dtype; irfft's wrapper prefers complex64
    assert tf.signal.fft(np.ones(4, np.complex128)).dtype == tf.complex64
    assert tf.signal.rfft(np.ones(4)).dtype == tf.complex64
    assert tf.signal.irfft([1 + 1j, 2]).dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex"):
        tf.signal.fft(tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64"):
        tf.signal.rfft(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="must have rank at least 2"):
        tf.signal.overlap_and_add(tf.range(6.0), 1)
    with pytest.raises(ValueError, match="frame_step must be positive"):
        tf.signal.frame(tf.range(5.0), 3, 0)
    with pytest.raises(ValueError, match="Type-I DCT requires the dimension"):
        tf.signal.dct(tf.ones([1]), type=1)
    with pytest.raises(ValueError, match="Normalization is not supported for the Type-I"):
        tf.signal.dct(tf.ones([3]), type=1, norm="ortho")
    with pytest.raises(NotImplementedError, match="axis must be -1"):
        tf.signal.dct(tf.ones([3]), axis=0)
    with pytest.raises(ValueError, match="multiple of 4"):
        tf.signal.mdct(tf.range(16.0), 6)
    with pytest.raises(ValueError, match="dtype must be a floating point type"):
        tf.signal.hann_window(3, dtype=tf.int32)
    with pytest.raises(ValueError, match="Nyquist"):
        tf.signal.linear_to_mel_weight_matrix(3, 5, 8000, 100.0, 5000.0)


def test_stft_round_trip_and_unknown_batch_in_function():
    x = np.random.RandomState(2).randn(3, 64).astype(np.float32)

    @tf.function(input_signature=[tf.TensorSpec([None, 64])])
    def round_trip(signal):
        spec = tf.signal.stft(signal, 16, 4)
        back = tf.signal.inverse_stft(spec, 16, 4,
                                      window_fn=tf.signal.inverse_stft_window_fn(4))
        return spec, back

    spec, back = round_trip(tf.constant(x))
    assert spec.shape == (3, 13, 9) and spec.dtype == tf.complex64
    np.testing.assert_allclose(back.numpy()[:, 12:-12], x[:, 12:-12], atol=1e-5)


def test_second_order_gradients_of_frame_and_overlap_and_add():
    # d/dx of the gradient of sum(overlap_and_add(frame(x) * w)^2) runs the rules of
    # FrameGrad and of OverlapAndAdd's gradient (Frame);
    # checked against central differences of the first gradient (float64).
    rs = np.random.RandomState(3)
    x, w = rs.randn(9), rs.randn(5, 3)
    v = rs.randn(9)

    xt = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(xt)
        with tf.GradientTape() as inner:
            inner.watch(xt)
            framed = tf.signal.frame(xt, 3, 2, pad_end=True)
            loss = tf.reduce_sum(tf.square(tf.signal.overlap_and_add(framed * w, 2)))
        g = inner.gradient(loss, xt)
        gv = tf.reduce_sum(g * v)
    hv = outer.gradient(gv, xt).numpy()
    eps = 1e-6

    def grad_of(xv):
        xv = tf.constant(xv)
        with tf.GradientTape() as tape:
            tape.watch(xv)
            framed = tf.signal.frame(xv, 3, 2, pad_end=True)
            inner_loss = tf.reduce_sum(tf.square(tf.signal.overlap_and_add(framed * w, 2)))
        return tape.gradient(inner_loss, xv).numpy()
    numeric = (grad_of(x + eps * v) - grad_of(x - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("spec", [[None, None], None], ids=["unknown_dims", "unknown_rank"])
def test_fft_gradients_with_shapes_unknown_while_tracing(spec):
    # padding (rfft to 10) and cropping (irfft of 7 bins to 6 samples) read the
    # sizes at run time; TF's own rules fail on both. The eager gradients are the reference.
    x = tf.constant(np.random.RandomState(4).randn(2, 7).astype(np.float32))

    def grads(v):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(v)
            y = tf.signal.rfft(v, [10])
            padded = tf.reduce_sum(tf.math.real(y) * 1.5 + tf.math.imag(y) * 0.5)
            z = tf.signal.irfft(tf.complex(v, v * 0.5), [6])
            cropped = tf.reduce_sum(z * z)
        return [tape.gradient(loss, v) for loss in (padded, cropped)]

    traced = tf.function(grads, input_signature=[tf.TensorSpec(spec)])
    for got, want in zip(traced(x), grads(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)
