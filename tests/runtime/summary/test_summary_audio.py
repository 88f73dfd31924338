"""tf.summary.audio: the event TensorFlow 2.21 writes (recorded by
tools/record_data_extras.py): a string [k, 2]
tensor of (16-bit WAV, ""), plugin "audio" with content b"\\x10\\x0b"."""

import glob

import numpy as np
import pytest

import runtime as tf
from tests.extras import skip_module_without

skip_module_without("tensorboard", "-e '.[tensorboard]'")

CLIPS = np.array([[[0.], [0.5], [-1.]], [[1.], [0.25], [0.]]], np.float32)
# TF 2.21's WAV of CLIPS[0] at 8000 Hz
WAV0 = (b"RIFF*\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>\x00\x00"
        b"\x02\x00\x10\x00data\x06\x00\x00\x00\x00\x00\x00@\x00\x80")


def _summaries(logdir):
    from tensorboard.compat.proto import event_pb2
    out = []
    for path in glob.glob(str(logdir) + "/*"):
        for record in tf.data.TFRecordDataset(path).as_numpy_iterator():
            event = event_pb2.Event.FromString(record)
            out += [(event.step, v) for v in event.summary.value]
    return out


@tf.function
def _traced(data):
    return tf.summary.audio("snd", data, 8000, step=4, max_outputs=1)


def test_audio_event_as_tf(tmp_path):
    from tensorboard.util import tensor_util
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(tf.summary.audio("snd", CLIPS, 8000, step=3, description="hi"))
        assert bool(_traced(tf.constant(CLIPS)))
    writer.flush()
    (step, v), (step2, v2) = _summaries(tmp_path)
    assert (step, step2) == (3, 4) and v.tag == v2.tag == "snd"
    assert v.metadata.plugin_data.plugin_name == "audio"
    assert v.metadata.plugin_data.content == b"\x10\x0b"
    assert v.metadata.summary_description == "hi"
    value = tensor_util.make_ndarray(v.tensor)
    assert value.shape == (2, 2) and value[0, 0] == WAV0 and value[:, 1].tolist() == [b"", b""]
    assert tensor_util.make_ndarray(v2.tensor).tolist() == [[WAV0, b""]]


def test_audio_errors(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        with pytest.raises(ValueError, match="Unknown encoding: 'mp3'"):
            tf.summary.audio("snd", CLIPS, 8000, step=3, encoding="mp3")
        with pytest.raises(ValueError, match=r"must have rank 3.  Received rank 2, shape \(3, 1\)"):
            tf.summary.audio("snd", CLIPS[0], 8000, step=3)
