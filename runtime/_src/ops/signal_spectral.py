"""Short-time transforms of `tf.signal`: `stft`, `inverse_stft`,
`inverse_stft_window_fn`, `mdct`, `inverse_mdct`, written with the frame,
window, FFT and DCT functions (so their gradients are those ops' gradients).

    stft(x, frame_length, frame_step)     rfft(frame(x) * window, [fft_length])
    inverse_stft(s, frame_length, step)   overlap_and_add(irfft(s)[..., :frame_length]
                                                          * window, step)

`fft_length` defaults to the smallest power of 2 enclosing frame_length;
`inverse_stft` with `window_fn=inverse_stft_window_fn(frame_step)` inverts
`stft` (away from the signal's ends).
"""

import numpy as np

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.fft_ops import irfft, rfft
from runtime._src.ops.manipulation_ops import concat
from runtime._src.ops.math_ops import equal, multiply, negative, square, subtract, truediv, where
from runtime._src.ops.array_ops import reshape, zeros_like
from runtime._src.ops.tile_ops import tile
from runtime._src.ops.reduction_ops import reduce_sum
from runtime._src.ops.shape_ops import pad, reverse, split
from runtime._src.ops.signal_dct import dct
from runtime._src.ops.signal_frames import frame, overlap_and_add
from runtime._src.ops.signal_windows import hann_window, vorbis_window

__all__ = ["stft", "inverse_stft", "inverse_stft_window_fn", "mdct", "inverse_mdct"]


def _enclosing_power_of_two(n):
    return int(2 ** np.ceil(np.log2(n))) if n > 0 else 1


def _length(value, op_name, what):
    n = rules.static_int(value, op_name, what)
    if n <= 0:
        raise ValueError(f"{op_name}: {what} must be positive, got {n}")
    return n


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """`tf.signal.stft`: the short-time Fourier transform of real `signals`
    [..., samples] -> complex [..., frames, fft_length // 2 + 1]."""
    signals = convert_to_tensor(signals)
    if signals.shape.rank is not None and signals.shape.rank < 1:
        raise ValueError(f"Shape {signals.shape} must have rank at least 1")
    frame_length = _length(frame_length, "stft", "frame_length")
    if fft_length is None:
        fft_length = _enclosing_power_of_two(frame_length)
    fft_length = _length(fft_length, "stft", "fft_length")
    frames = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        frames = multiply(frames, window_fn(frame_length, dtype=frames.dtype))
    return rfft(frames, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """`tf.signal.inverse_stft_window_fn`: a `window_fn(frame_length, dtype)`
    for `inverse_stft` that undoes `forward_window_fn`: the forward window
    divided by the sum of the squared windows overlapping each sample."""
    def inverse_window(frame_length, dtype):
        step = _length(frame_step, "inverse_stft_window_fn", "frame_step")
        length = _length(frame_length, "inverse_stft_window_fn", "frame_length")
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)
        denominator = pad(square(forward), [[0, overlaps * step - length]])
        denominator = reduce_sum(reshape(denominator, [overlaps, step]), 0, keepdims=True)
        denominator = reshape(tile(denominator, [overlaps, 1]), [overlaps * step])[:length]
        safe = where(equal(denominator, 0), zeros_like(forward) + 1, denominator)
        return where(equal(denominator, 0), zeros_like(forward), truediv(forward, safe))
    return inverse_window


def _fit_frames(frames, frame_length):
    """The last axis cropped or zero-padded to frame_length."""
    length = frames.shape.dims[-1]
    if length > frame_length:
        return frames[..., :frame_length]
    if length < frame_length:
        return pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, frame_length - length]])
    return frames


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """`tf.signal.inverse_stft`: complex [..., frames, bins] -> real
    [..., samples], the windowed inverse FFTs of the frames overlapped and added."""
    stfts = convert_to_tensor(stfts)
    if stfts.shape.rank is not None and stfts.shape.rank < 2:
        raise ValueError(f"Shape {stfts.shape} must have rank at least 2")
    frame_length = _length(frame_length, "inverse_stft", "frame_length")
    if fft_length is None:
        fft_length = _enclosing_power_of_two(frame_length)
    fft_length = _length(fft_length, "inverse_stft", "fft_length")
    frames = _fit_frames(irfft(stfts, [fft_length]), frame_length)
    if window_fn is not None:
        frames = multiply(frames, window_fn(frame_length, dtype=stfts.dtype.real_dtype))
    return overlap_and_add(frames, frame_step)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """`tf.signal.mdct`: the modified DCT of frames of `frame_length` (a
    multiple of 4) every frame_length / 2 samples: [..., samples] ->
    [..., frames, frame_length / 2]."""
    signals = convert_to_tensor(signals)
    frame_length = _length(frame_length, "mdct", "frame_length")
    if frame_length % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    frames = frame(signals, frame_length, frame_length // 2, pad_end=pad_end)
    if window_fn is not None:
        frames = multiply(frames, window_fn(frame_length, dtype=frames.dtype))
    else:
        frames = multiply(frames, float(1.0 / np.sqrt(2.0)))
    a, b, c, d = split(frames, 4, axis=-1)
    folded = concat([subtract(negative(reverse(c, [-1])), d), subtract(a, reverse(b, [-1]))], -1)
    return dct(folded, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """`tf.signal.inverse_mdct`: [..., frames, half] -> [..., samples], the
    windowed type-4 DCTs unfolded and overlapped by `half` samples."""
    mdcts = convert_to_tensor(mdcts)
    if mdcts.shape.rank is not None and mdcts.shape.rank < 2:
        raise ValueError(f"Shape {mdcts.shape} must have rank at least 2")
    half = mdcts.shape.dims[-1]
    if half is None:
        raise ValueError("inverse_mdct: the last axis must have a length known while tracing")
    if norm is None:
        unfolded = multiply(dct(mdcts, type=4), float(0.5 / half))
    elif norm == "ortho":
        unfolded = dct(mdcts, type=4, norm="ortho")
    else:
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    first, second = split(unfolded, 2, axis=-1)
    frames = concat([second, negative(reverse(second, [-1])), negative(reverse(first, [-1])),
                     negative(first)], -1)
    if window_fn is not None:
        frames = multiply(frames, window_fn(2 * half, dtype=mdcts.dtype))
    else:
        frames = multiply(frames, float(1.0 / np.sqrt(2.0)))
    return overlap_and_add(frames, half)
