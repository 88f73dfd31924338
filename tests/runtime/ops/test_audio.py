"""tf.audio.encode_wav / decode_wav: the bytes TF 2.21 writes and the values it
reads (recorded from TF), eagerly and in tf.function, and its errors."""

import struct

import numpy as np
import pytest

import runtime as tf

AUDIO = [[0.0, 1.0], [-1.0, 0.5], [0.25, -0.3333], [2.0, -2.0], [1e-5, -1e-5],
         [0.99999, -0.99999]]
# TF 2.21: tf.audio.encode_wav(AUDIO, 16000).numpy().hex()
TF_WAV = ("524946463c00000057415645666d74201000000001000200803e000000fa0000040010006461746118"
          "0000000000ff7f00800040002056d5ff7f008000000000ff7f0080")
TF_DECODED = [[0.0, 0.9999695], [-1.0, 0.5], [0.25, -0.333313], [0.9999695, -1.0], [0.0, 0.0],
              [0.9999695, -1.0]]


def _wav(fmt, bits, channels, data, extra=b""):
    header = struct.pack("<IHHIIHH", 16, fmt, channels, 8000, 8000 * channels * bits // 8,
                         channels * bits // 8, bits)
    body = b"WAVEfmt " + header + extra + b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_encode_is_tfs_bytes_and_decode_reads_them(mode):
    encode = tf.function(tf.audio.encode_wav) if mode == "function" else tf.audio.encode_wav
    wav = encode(tf.constant(AUDIO), 16000)
    assert wav.dtype == tf.string and wav.numpy().hex() == TF_WAV
    decode = tf.function(tf.audio.decode_wav) if mode == "function" else tf.audio.decode_wav
    audio, rate = decode(wav)
    np.testing.assert_allclose(audio.numpy(), TF_DECODED, rtol=1e-6)
    assert audio.dtype == tf.float32 and rate.dtype == tf.int32 and int(rate) == 16000
    # TF 2.21: the first channel for one, the last repeated for more; zeros padded
    mono, _ = tf.audio.decode_wav(wav, desired_channels=1, desired_samples=8)
    np.testing.assert_allclose(mono.numpy().ravel(), [0, -1, 0.25, 0.9999695, 0, 0.9999695, 0, 0],
                               rtol=1e-6)
    three, _ = tf.audio.decode_wav(wav, desired_channels=3, desired_samples=2)
    np.testing.assert_allclose(three.numpy(), [[0, 0.9999695, 0.9999695], [-1, 0.5, 0.5]],
                               rtol=1e-6)


def test_empty_audio_extra_chunks_and_shapes():
    # TF 2.21: the 44-byte header of no samples
    assert tf.audio.encode_wav(tf.zeros([0, 1]), 8000).numpy().hex() == (
        "524946462400000057415645666d74201000000001000100401f0000803e00000200100064617461"
        "00000000")
    listed = _wav(1, 16, 1, struct.pack("<2h", 16384, -16384),
                  extra=b"LIST" + struct.pack("<I", 4) + b"abcd")
    assert tf.audio.decode_wav(listed)[0].numpy().ravel().tolist() == [0.5, -0.5]
    traced = tf.function(lambda c: tf.audio.decode_wav(c, desired_channels=2)[0])
    assert traced.get_concrete_function(tf.TensorSpec([], tf.string)).structured_outputs.shape \
        .as_list() == [None, 2]


@pytest.mark.parametrize("contents, message", [
    (b"", "Data too short when trying to read string"),
    (b"xxxx", "Header mismatch: Expected RIFF but found xxxx"),
    (_wav(1, 8, 1, bytes([0, 128, 255])), "Can only read 16-bit WAV files, but received 8"),
    (_wav(1, 24, 1, bytes(6)), "Can only read 16-bit WAV files, but received 24"),
    (_wav(3, 32, 1, struct.pack("<2f", 0.5, -0.25)),
     r"Bad audio format for WAV: Expected 1 \(PCM\), but got3"),
])
def test_decode_errors_are_tfs(contents, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.audio.decode_wav(contents)


def test_encode_needs_two_dimensions():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"audio must be 2-dimensional\[2\]"):
        tf.audio.encode_wav(tf.constant([0.1, 0.2]), 8000)
