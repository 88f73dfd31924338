"""tf.saved_model's constants (TF 2.21's values) and Asset: the file copied
into assets/ on save, the loaded object's Asset and the saved functions
reading the copy (the original may be gone)."""

import os

import pytest

import runtime as tf

TF_CONSTANTS = {  # TF 2.21
    "ASSETS_DIRECTORY": "assets", "ASSETS_KEY": "saved_model_assets",
    "CLASSIFY_INPUTS": "inputs", "CLASSIFY_METHOD_NAME": "tensorflow/serving/classify",
    "CLASSIFY_OUTPUT_CLASSES": "classes", "CLASSIFY_OUTPUT_SCORES": "scores",
    "DEBUG_DIRECTORY": "debug", "DEBUG_INFO_FILENAME_PB": "saved_model_debug_info.pb",
    "DEFAULT_SERVING_SIGNATURE_DEF_KEY": "serving_default", "GPU": "gpu",
    "PREDICT_INPUTS": "inputs", "PREDICT_METHOD_NAME": "tensorflow/serving/predict",
    "PREDICT_OUTPUTS": "outputs", "REGRESS_INPUTS": "inputs",
    "REGRESS_METHOD_NAME": "tensorflow/serving/regress", "REGRESS_OUTPUTS": "outputs",
    "SAVED_MODEL_FILENAME_PB": "saved_model.pb", "SAVED_MODEL_FILENAME_PBTXT": "saved_model.pbtxt",
    "SAVED_MODEL_SCHEMA_VERSION": 1, "SERVING": "serve", "TPU": "tpu", "TRAINING": "train",
    "VARIABLES_DIRECTORY": "variables", "VARIABLES_FILENAME": "variables",
}


def test_constants_are_tfs():
    for name, value in TF_CONSTANTS.items():
        assert getattr(tf.saved_model, name) == value, name


class _Reader(tf.Module):
    def __init__(self, vocab, extra):
        super().__init__()
        self.vocab = tf.saved_model.Asset(vocab)
        self.parts = [tf.saved_model.Asset(extra)]

    @tf.function(input_signature=[])
    def read(self):
        return tf.io.read_file(self.vocab.asset_path)


def test_asset_is_copied_and_loaded_pointing_at_the_copy(tmp_path):
    vocab, other = tmp_path / "vocab.txt", tmp_path / "sub"
    vocab.write_text("a\nb\n")
    other.mkdir()
    (other / "vocab.txt").write_text("c\n")          # the same name: copied as vocab_1.txt
    module = _Reader(str(vocab), str(other / "vocab.txt"))
    assert module.read().numpy() == b"a\nb\n"
    assert module.vocab.asset_path.dtype == tf.string
    out = tmp_path / "saved"
    tf.saved_model.save(module, str(out))
    assert sorted(os.listdir(out / "assets")) == ["vocab.txt", "vocab_1.txt"]
    vocab.unlink()
    loaded = tf.saved_model.load(str(out))
    copy = loaded.vocab.asset_path.numpy().decode()
    assert os.path.dirname(copy) == str(out / "assets") and open(copy).read() == "a\nb\n"
    assert loaded.read().numpy() == b"a\nb\n"


def test_asset_errors(tmp_path):
    with pytest.raises(TypeError, match="path must be a string"):
        tf.saved_model.Asset(3)
    module = _Reader(str(tmp_path / "missing.txt"), str(tmp_path / "missing.txt"))
    with pytest.raises(FileNotFoundError, match="not a file"):
        tf.saved_model.save(module, str(tmp_path / "out"))
