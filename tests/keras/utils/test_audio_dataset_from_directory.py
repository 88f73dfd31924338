"""`keras.utils.audio_dataset_from_directory` against TF 2.21's Keras: audio
(padded, cut, ragged), labels and class names recorded for the same folder
of .wav files (tests/data/audio_dataset_tf221.npz, from
tools/record_audio_dataset.py)."""

import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA, TOOLS

sys.path.insert(0, str(TOOLS))
import record_audio_dataset as recorder  # noqa: E402

RECORDED = np.load(DATA / "audio_dataset_tf221.npz")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("audio")
    recorder.write_tree(str(root), {k.split("|", 1)[1]: RECORDED[k].tobytes()
                                    for k in RECORDED.files if k.startswith("file|")})
    return root


@pytest.mark.parametrize("case", list(recorder.CASES))
def test_the_dataset_is_kerass(folder, case):
    ds = tf.keras.utils.audio_dataset_from_directory(str(folder), **recorder.arguments(case))
    elements = list(ds)
    if case == "validation":     # shuffled by tf.data: TF's random order is not ours
        elements.sort(key=lambda e: e[0].numpy().tobytes())
    audio = [e[0] if isinstance(e, tuple) else e for e in elements]
    values, lengths = recorder.flatten(audio)
    np.testing.assert_array_equal(lengths, RECORDED[f"lengths|{case}"])
    np.testing.assert_array_equal(values, RECORDED[f"audio|{case}"])
    if f"labels|{case}" in RECORDED.files:
        np.testing.assert_array_equal(np.concatenate([e[1].numpy() for e in elements]),
                                      RECORDED[f"labels|{case}"])
    assert (ds.class_names or []) == RECORDED[f"classes|{case}"].tolist()


def test_kerass_argument_errors(folder):
    with pytest.raises(ValueError, match="Cannot set both `ragged` and"):
        tf.keras.utils.audio_dataset_from_directory(str(folder), ragged=True,
                                                    output_sequence_length=4)
    with pytest.raises(ImportError, match="you should install tensorflow_io"):
        tf.keras.utils.audio_dataset_from_directory(str(folder), sampling_rate=16000)
