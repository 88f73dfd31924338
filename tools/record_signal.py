"""Record TensorFlow 2.21's `tf.signal` values (and complex gradients) for
tests/data/signal_tf221.npz.

Run under a Python with TensorFlow 2.21 (the oracle):

    $BENCH_TF_PYTHON tools/record_signal.py

Each case is (id, function, array inputs, keyword arguments); a few cases are
complex arithmetic ("x:NAME", EXPRESSIONS) whose gradients tf.signal's build
on, and a few are keras.ops's Fourier functions ("k:NAME", KERAS). Recorded: the
inputs, the output (values and dtype) and, where TF has a gradient, the
gradient of sum(real(out) * w_re + imag(out) * w_im) (w fixed random weights,
also recorded) by each input (by its real and imaginary parts for a complex
one). tests/runtime/ops/test_signal.py replays them on the runtime, eagerly and
in tf.function. A keyword value "fn:NAME" is tf.signal.NAME, and
"inverse_fn:STEP" is tf.signal.inverse_stft_window_fn(STEP).
"""

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "signal_tf221.npz"

_RS = np.random.RandomState(221)


def R(*shape, dtype="float32"):  # noqa: N802 (short names for the table)
    return _RS.randn(*shape).astype(dtype)


def C(*shape, dtype="complex64"):  # noqa: N802
    return (_RS.randn(*shape) + 1j * _RS.randn(*shape)).astype(dtype)


CASES = [
    # complex FFTs: random, length 1, odd, empty batch, zeros, complex128
    ("fft", "fft", [C(5)], {}), ("fft_batch", "fft", [C(2, 4)], {}),
    ("fft_len1", "fft", [C(1)], {}), ("fft_empty_batch", "fft", [C(0, 4)], {}),
    ("fft_zeros", "fft", [np.zeros(3, np.complex64)], {}),
    ("fft_c128", "fft", [C(3, dtype="complex128")], {}),
    ("ifft", "ifft", [C(2, 5)], {}), ("fft2d", "fft2d", [C(2, 3, 4)], {}),
    ("ifft2d", "ifft2d", [C(3, 4)], {}), ("fft3d", "fft3d", [C(2, 2, 3)], {}),
    ("ifft3d", "ifft3d", [C(2, 3, 2)], {}),
    # real FFTs: even, odd, fft_length shorter and longer, length 1, float64, empty
    ("rfft", "rfft", [R(8)], {}), ("rfft_odd", "rfft", [R(2, 7)], {}),
    ("rfft_shorter", "rfft", [R(6)], {"fft_length": [4]}),
    ("rfft_longer", "rfft", [R(2, 5)], {"fft_length": [12]}),
    ("rfft_len1", "rfft", [R(1)], {}), ("rfft_f64", "rfft", [R(6, dtype="float64")], {}),
    ("rfft_empty_batch", "rfft", [R(0, 6)], {}),
    ("irfft", "irfft", [C(5)], {}), ("irfft_odd", "irfft", [C(2, 4)], {"fft_length": [7]}),
    ("irfft_shorter", "irfft", [C(5)], {"fft_length": [4]}),
    ("irfft_longer", "irfft", [C(3)], {"fft_length": [10]}),
    ("irfft_c128", "irfft", [C(2, 3, dtype="complex128")], {}),
    ("rfft2d", "rfft2d", [R(2, 4, 6)], {}),
    ("rfft2d_length", "rfft2d", [R(3, 4)], {"fft_length": [3, 6]}),
    ("irfft2d", "irfft2d", [C(3, 4)], {}),
    ("irfft2d_length", "irfft2d", [C(4, 3)], {"fft_length": [4, 5]}),
    ("rfft3d", "rfft3d", [R(2, 3, 4)], {}), ("irfft3d", "irfft3d", [C(2, 3, 3)], {}),
    ("fftshift", "fftshift", [R(10)], {}), ("fftshift_odd", "fftshift", [R(3, 5)], {}),
    ("fftshift_axis", "fftshift", [R(3, 5)], {"axes": 1}),
    ("ifftshift", "ifftshift", [R(3, 5)], {}),
    ("ifftshift_axes", "ifftshift", [R(4, 3)], {"axes": (0,)}),
    # framing
    ("frame", "frame", [R(10)], {"frame_length": 3, "frame_step": 2}),
    ("frame_pad", "frame", [R(2, 7)], {"frame_length": 3, "frame_step": 2, "pad_end": True,
                                       "pad_value": -1.0}),
    ("frame_axis0", "frame", [R(6, 2)], {"frame_length": 2, "frame_step": 2, "axis": 0}),
    ("frame_axis_neg2", "frame", [R(2, 7, 3)], {"frame_length": 4, "frame_step": 1,
                                                 "axis": -2}),
    ("frame_short", "frame", [R(2)], {"frame_length": 3, "frame_step": 1}),
    ("frame_gap", "frame", [R(9)], {"frame_length": 2, "frame_step": 3}),
    ("frame_int", "frame", [np.arange(6, dtype=np.int32)], {"frame_length": 2, "frame_step": 2}),
    ("overlap_and_add", "overlap_and_add", [R(3, 4)], {"frame_step": 2}),
    ("overlap_and_add_batch", "overlap_and_add", [R(2, 3, 4)], {"frame_step": 1}),
    ("overlap_and_add_gap", "overlap_and_add", [R(2, 3)], {"frame_step": 5}),
    ("overlap_and_add_empty", "overlap_and_add", [R(0, 4)], {"frame_step": 2}),
    # short-time transforms
    ("stft", "stft", [R(2, 20)], {"frame_length": 8, "frame_step": 4}),
    ("stft_fft16_pad", "stft", [R(19)], {"frame_length": 7, "frame_step": 3, "fft_length": 16,
                                         "pad_end": True}),
    ("stft_hamming", "stft", [R(12)], {"frame_length": 5, "frame_step": 2,
                                       "window_fn": "fn:hamming_window"}),
    ("stft_no_window_f64", "stft", [R(10, dtype="float64")],
     {"frame_length": 4, "frame_step": 4, "window_fn": None}),
    ("inverse_stft", "inverse_stft", [C(2, 4, 5)], {"frame_length": 8, "frame_step": 4}),
    ("inverse_stft_inverse_window", "inverse_stft", [C(5, 5)],
     {"frame_length": 8, "frame_step": 2, "window_fn": "inverse_fn:2"}),
    ("inverse_stft_short_fft", "inverse_stft", [C(3, 3)],
     {"frame_length": 6, "frame_step": 3, "fft_length": 4}),
    ("mdct", "mdct", [R(2, 24)], {"frame_length": 8}),
    ("mdct_ortho_pad", "mdct", [R(18)], {"frame_length": 8, "norm": "ortho", "pad_end": True}),
    ("mdct_no_window", "mdct", [R(16)], {"frame_length": 4, "window_fn": None}),
    ("inverse_mdct", "inverse_mdct", [R(3, 4)], {}),
    ("inverse_mdct_ortho", "inverse_mdct", [R(2, 3, 4)], {"norm": "ortho"}),
    # cosine transforms
    ("dct1", "dct", [R(2, 6)], {"type": 1}), ("dct2", "dct", [R(2, 6)], {}),
    ("dct3", "dct", [R(5)], {"type": 3}), ("dct4", "dct", [R(2, 5)], {"type": 4}),
    ("dct2_ortho", "dct", [R(2, 6)], {"norm": "ortho"}),
    ("dct3_ortho", "dct", [R(7)], {"type": 3, "norm": "ortho"}),
    ("dct4_ortho", "dct", [R(4)], {"type": 4, "norm": "ortho"}),
    ("dct2_n_crop", "dct", [R(2, 6)], {"n": 4}), ("dct2_n_pad", "dct", [R(5)], {"n": 9}),
    ("dct2_len1", "dct", [R(3, 1)], {}), ("dct2_f64", "dct", [R(4, dtype="float64")], {}),
    ("idct1", "idct", [R(5)], {"type": 1}), ("idct2", "idct", [R(2, 6)], {}),
    ("idct3_ortho", "idct", [R(6)], {"type": 3, "norm": "ortho"}),
    ("idct4", "idct", [R(5)], {"type": 4}),
    ("mfccs", "mfccs_from_log_mel_spectrograms", [R(2, 3, 10)], {}),
]

# Complex arithmetic whose gradients tf.signal's rely on (TF's convention:
# dL/da + i dL/db for z = a + bi); "x:" names an EXPRESSIONS entry.
EXPRESSIONS = {
    "abs": lambda tf, z: tf.abs(z), "angle": lambda tf, z: tf.math.angle(z),
    "conj": lambda tf, z: tf.math.conj(z), "real": lambda tf, z: tf.math.real(z),
    "imag": lambda tf, z: tf.math.imag(z), "complex": lambda tf, a, b: tf.complex(a, b),
    "mul": lambda tf, z, w: z * w, "div": lambda tf, z, w: z / w,
    "exp": lambda tf, z: tf.exp(z), "log": lambda tf, z: tf.math.log(z),
    "sqrt": lambda tf, z: tf.sqrt(z), "square": lambda tf, z: tf.square(z),
    "pow": lambda tf, z, w: tf.pow(z, w),
    "matmul": lambda tf, z, w: tf.matmul(z, w),
    "to_real": lambda tf, z: tf.cast(z, z.dtype.real_dtype),
    "to_complex": lambda tf, x: tf.cast(x, tf.complex64) * tf.complex(x, x * x),
    "sum": lambda tf, z: tf.reduce_sum(z, 0), "mean": lambda tf, z: tf.reduce_mean(z),
}
CASES += [
    ("abs", "x:abs", [C(4)], {}),
    ("abs_at_0", "x:abs", [np.array([0, 1j, 3 + 4j], np.complex64)], {}),
    ("angle", "x:angle", [C(4)], {}), ("conj", "x:conj", [C(3)], {}),
    ("real", "x:real", [C(3)], {}), ("imag", "x:imag", [C(3, dtype="complex128")], {}),
    ("complex_broadcast", "x:complex", [R(2, 3), R(3)], {}),
    ("mul", "x:mul", [C(2, 3), C(3)], {}), ("div", "x:div", [C(4), C(4)], {}),
    ("exp", "x:exp", [C(3)], {}), ("log", "x:log", [C(3)], {}),
    ("sqrt", "x:sqrt", [C(3)], {}), ("square", "x:square", [C(3)], {}),
    ("pow", "x:pow", [C(3), C(3)], {}),
    ("matmul", "x:matmul", [C(2, 3), C(3, 2)], {}),
    ("to_real", "x:to_real", [C(3)], {}), ("to_complex", "x:to_complex", [R(3)], {}),
    ("sum", "x:sum", [C(2, 3)], {}), ("mean", "x:mean", [C(2, 3)], {}),
]

# keras.ops's Fourier functions ("k:NAME", KERAS): (real, imag) pairs in and out,
# stacked into one output; replayed by tests/keras/ops/test_keras_signal_ops.py.
KERAS = {
    "stft": lambda ops, x, **kw: ops.stack(ops.stft(x, **kw)),
    "istft": lambda ops, re, im, **kw: ops.istft((re, im), **kw),
    "fft": lambda ops, re, im: ops.stack(ops.fft((re, im))),
    "fft2": lambda ops, re, im: ops.stack(ops.fft2((re, im))),
    "ifft2": lambda ops, re, im: ops.stack(ops.ifft2((re, im))),
    "rfft": lambda ops, x, **kw: ops.stack(ops.rfft(x, **kw)),
    "irfft": lambda ops, re, im, **kw: ops.irfft((re, im), **kw),
}
CASES += [
    ("k_stft", "k:stft", [R(2, 20)], {"sequence_length": 8, "sequence_stride": 4,
                                      "fft_length": 8}),
    ("k_stft_hamming_uncentered", "k:stft", [R(19)],
     {"sequence_length": 5, "sequence_stride": 3, "fft_length": 8, "window": "hamming",
      "center": False}),
    ("k_stft_array_window_f64", "k:stft", [R(12, dtype="float64")],
     {"sequence_length": 3, "sequence_stride": 2, "fft_length": 4,
      "window": [0.25, 1.0, 0.5]}),
    ("k_stft_no_window", "k:stft", [R(10)], {"sequence_length": 4, "sequence_stride": 4,
                                              "fft_length": 4, "window": None}),
    ("k_istft", "k:istft", [R(6, 5), R(6, 5)], {"sequence_length": 8, "sequence_stride": 4,
                                                "fft_length": 8}),
    ("k_istft_length_uncentered", "k:istft", [R(2, 4, 5), R(2, 4, 5)],
     {"sequence_length": 6, "sequence_stride": 2, "fft_length": 8, "length": 9,
      "center": False}),
    ("k_istft_no_window", "k:istft", [R(3, 3), R(3, 3)],
     {"sequence_length": 4, "sequence_stride": 2, "fft_length": 4, "window": None,
      "center": False}),
    ("k_fft", "k:fft", [R(2, 5), R(2, 5)], {}), ("k_fft2", "k:fft2", [R(3, 4), R(3, 4)], {}),
    ("k_ifft2", "k:ifft2", [R(2, 3), R(2, 3)], {}),
    ("k_rfft", "k:rfft", [R(6)], {"fft_length": 5}),
    ("k_irfft", "k:irfft", [R(2, 4), R(2, 4)], {"fft_length": 7}),
]

# No array inputs: windows and the mel matrix.
CONSTANT_CASES = [
    (f"{fn}_{n}", fn, [], {"window_length": n})
    for fn in ("hann_window", "hamming_window", "kaiser_window", "kaiser_bessel_derived_window",
               "vorbis_window")
    for n in (1, 2, 5, 8)
] + [
    ("hann_symmetric_6", "hann_window", [], {"window_length": 6, "periodic": False}),
    ("hamming_f64", "hamming_window", [], {"window_length": 7, "dtype": "float64"}),
    ("kaiser_beta5", "kaiser_window", [], {"window_length": 6, "beta": 5.0}),
    ("kbd_beta3", "kaiser_bessel_derived_window", [], {"window_length": 10, "beta": 3.0}),
    ("mel_default", "linear_to_mel_weight_matrix", [], {}),
    ("mel_small", "linear_to_mel_weight_matrix", [],
     {"num_mel_bins": 3, "num_spectrogram_bins": 5, "sample_rate": 8000,
      "lower_edge_hertz": 100.0, "upper_edge_hertz": 4000.0}),
    ("mel_f64", "linear_to_mel_weight_matrix", [],
     {"num_mel_bins": 4, "num_spectrogram_bins": 9, "sample_rate": 16000,
      "lower_edge_hertz": 0.0, "upper_edge_hertz": 8000.0, "dtype": "float64"}),
    ("inverse_stft_window_fn", "inverse_stft_window_fn", [], {"frame_step": 3}),
]


def resolve_kwargs(tf, kwargs):
    """The keyword arguments with "fn:"/"inverse_fn:" strings and dtype names resolved."""
    out = {}
    for key, value in kwargs.items():
        if isinstance(value, str) and value.startswith("fn:"):
            value = getattr(tf.signal, value[3:])
        elif isinstance(value, str) and value.startswith("inverse_fn:"):
            value = tf.signal.inverse_stft_window_fn(int(value.split(":")[1]))
        elif key == "dtype":
            value = tf.as_dtype(value)
        out[key] = value
    return out


def call(tf, fn, inputs, kwargs):
    """Run case `fn`: inverse_stft_window_fn returns a window of 8 samples."""
    kwargs = resolve_kwargs(tf, kwargs)
    if fn.startswith("x:"):
        return EXPRESSIONS[fn[2:]](tf, *inputs)
    if fn.startswith("k:"):
        return KERAS[fn[2:]](tf.keras.ops, *inputs, **kwargs)
    if fn == "inverse_stft_window_fn":
        return tf.signal.inverse_stft_window_fn(**kwargs)(8, tf.float32)
    return getattr(tf.signal, fn)(*inputs, **kwargs)


def sources(tf, arrays):
    """Watched float tensors for the inputs (real and imaginary parts of complex ones)
    and a function building the inputs from them."""
    parts = []
    for a in arrays:
        if np.iscomplexobj(a):
            parts += [tf.constant(a.real), tf.constant(a.imag)]
        elif a.dtype.kind == "f":
            parts.append(tf.constant(a))
        else:
            parts.append(None)

    def build(values):
        it, out = iter(values), []
        for a in arrays:
            if np.iscomplexobj(a):
                out.append(tf.complex(next(it), next(it)))
            else:
                v = next(it)
                out.append(tf.constant(a) if v is None else v)
        return out
    return parts, build


def weighted_sum(tf, out, w_re, w_im):
    if out.dtype.is_complex:
        return tf.reduce_sum(tf.math.real(out) * w_re) + tf.reduce_sum(tf.math.imag(out) * w_im)
    return tf.reduce_sum(out * w_re)


def gradients(tf, fn, arrays, kwargs, w_re, w_im):
    parts, build = sources(tf, arrays)
    watched = [p for p in parts if p is not None]
    with tf.GradientTape() as tape:
        tape.watch(watched)
        out = call(tf, fn, build(parts), kwargs)
        loss = weighted_sum(tf, out, w_re, w_im)
    return tape.gradient(loss, watched)


def main():
    import tensorflow as tf
    data, meta = {}, []
    for case_id, fn, arrays, kwargs in CASES + CONSTANT_CASES:
        out = call(tf, fn, [tf.constant(a) for a in arrays], kwargs).numpy()
        real_dtype = out.real.dtype if out.dtype.kind in "fc" else np.float32
        w_re = np.asarray(_RS.randn(*out.shape)).astype(real_dtype)
        w_im = np.asarray(_RS.randn(*out.shape)).astype(real_dtype)
        for i, a in enumerate(arrays):
            data[f"{case_id}/in{i}"] = a
        data[f"{case_id}/out"] = out
        data[f"{case_id}/w_re"], data[f"{case_id}/w_im"] = w_re, w_im
        grads = None
        if arrays and out.dtype.kind in "fc" and any(a.dtype.kind in "fc" for a in arrays):
            try:
                grads = gradients(tf, fn, arrays, kwargs, w_re, w_im)
            except (LookupError, ValueError, tf.errors.InvalidArgumentError) as e:
                print(f"{case_id}: no gradient in TF ({type(e).__name__})")
        if grads is not None:
            for i, g in enumerate(grads):
                data[f"{case_id}/grad{i}"] = g.numpy()
        meta.append({"id": case_id, "fn": fn, "inputs": len(arrays), "kwargs": kwargs,
                     "grads": 0 if grads is None else len(grads)})
    data["cases"] = np.array(json.dumps(meta))
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(meta)} cases to {OUT}")


if __name__ == "__main__":
    main()
