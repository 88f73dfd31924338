"""`tf.audio`: 16-bit PCM WAV files (runtime/_src/ops/audio_ops.py).

    >>> import runtime as tf
    >>> audio, rate = tf.audio.decode_wav(tf.audio.encode_wav([[0.5], [-0.5]], 8000))
    >>> audio.numpy().ravel().tolist(), int(rate)
    ([0.5, -0.5], 8000)
"""

from runtime._src.ops.audio_ops import decode_wav, encode_wav

__all__ = ["decode_wav", "encode_wav"]
