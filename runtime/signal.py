"""`tf.signal`: Fourier transforms (runtime/_src/ops/fft_ops.py), framing
(signal_frames.py), windows (signal_windows.py), short-time transforms
(signal_spectral.py), cosine transforms and mel features (signal_dct.py).

    spectrogram = tf.abs(tf.signal.stft(audio, frame_length=256, frame_step=128))
    mel = tf.tensordot(spectrogram, tf.signal.linear_to_mel_weight_matrix(), 1)
"""

from runtime._src.ops.fft_ops import (fft, fft2d, fft3d, fftnd, fftshift, ifft, ifft2d, ifft3d,
                                      ifftnd, ifftshift, irfft, irfft2d, irfft3d, irfftnd, rfft,
                                      rfft2d, rfft3d, rfftnd)
from runtime._src.ops.signal_dct import (dct, idct, linear_to_mel_weight_matrix,
                                         mfccs_from_log_mel_spectrograms)
from runtime._src.ops.signal_frames import frame, overlap_and_add
from runtime._src.ops.signal_spectral import (inverse_mdct, inverse_stft, inverse_stft_window_fn,
                                              mdct, stft)
from runtime._src.ops.signal_windows import (hamming_window, hann_window,
                                             kaiser_bessel_derived_window, kaiser_window,
                                             vorbis_window)

__all__ = ["dct", "fft", "fft2d", "fft3d", "fftnd", "fftshift", "frame", "hamming_window",
           "hann_window", "idct", "ifft", "ifft2d", "ifft3d", "ifftnd", "ifftshift",
           "inverse_mdct", "inverse_stft", "inverse_stft_window_fn", "irfft", "irfft2d",
           "irfft3d", "irfftnd", "kaiser_bessel_derived_window", "kaiser_window",
           "linear_to_mel_weight_matrix", "mdct", "mfccs_from_log_mel_spectrograms",
           "overlap_and_add", "rfft", "rfft2d", "rfft3d", "rfftnd", "stft", "vorbis_window"]
