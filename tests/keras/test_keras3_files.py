"""Files written by Keras 3 (TensorFlow 2.21) read without h5py: a functional
`.keras` model (Conv2D, BatchNormalization, Dense, Add), a subclassed model's
`.weights.h5`, a `.keras` model with every layer kind runtime.keras had
before it followed Keras 3's layer set, and a `.keras` model of attention layers. tests/keras/data/make_keras3_files.py wrote them; the expected
values are what it printed."""

import os

import numpy as np
import pytest

import runtime as tf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
L = tf.keras.layers


def test_keras_3_functional_file_loads_with_its_weights():
    model = tf.keras.models.load_model(os.path.join(DATA, "keras3_functional.keras"))
    assert [lay.name for lay in model.layers] == ["image", "conv", "bn", "flat", "a", "b",
                                                  "sum"]
    x = np.random.RandomState(0).rand(8, 6, 6, 1).astype("float32")
    # Keras 3 (TF 2.21): model.predict(x[:2]) right after saving
    np.testing.assert_allclose(model.predict(x[:2], verbose=0), [[0.203371, 0.126036, -0.249197],
     [-0.050231, -0.075871, -0.082523]], atol=2e-6)
    assert type(model.optimizer).__name__ == "Adam" and model.loss == "mse"


def test_training_resumes_from_a_keras_3_file_with_its_optimizer_state():
    model = tf.keras.models.load_model(os.path.join(DATA, "keras3_functional.keras"))
    assert int(model.optimizer.iterations) == 2          # Adam's state came with it
    x = np.random.RandomState(0).rand(8, 6, 6, 1).astype("float32")
    history = model.fit(x, np.ones((8, 3), "float32"), epochs=2, verbose=0, shuffle=False)
    # Keras 3 (TF 2.21): the same two epochs after keras.models.load_model(...)
    np.testing.assert_allclose(history.history["loss"], [1.792291, 1.734421], atol=2e-6)
    np.testing.assert_allclose(model.predict(x[:2], verbose=0),
                               [[0.177803, 0.120037, -0.223811],
                                [-0.046745, -0.065528, -0.060776]], atol=2e-6)


def test_keras_3_weights_h5_of_a_subclassed_model():
    class Sub(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.zeta = L.Dense(2)
            self.alpha = L.Dense(2)
            self.blocks = [L.Dense(2), L.BatchNormalization()]

        def call(self, x):
            return self.blocks[1](self.blocks[0](self.alpha(self.zeta(x))))

    model = Sub()
    xs = np.random.RandomState(1).rand(4, 3).astype("float32")
    model(xs)
    model.load_weights(os.path.join(DATA, "keras3_subclassed.weights.h5"))
    # Keras 3 (TF 2.21): s.predict(xs)
    np.testing.assert_allclose(model.predict(xs, verbose=0), [[-0.850021, 0.101123],
     [-0.231409, 0.048415],
     [0.062050, 0.029207],
     [-0.026726, 0.044031]], atol=2e-6)


def test_our_weights_h5_has_the_datasets_keras_wrote(tmp_path):
    """Re-saved by us, the subclassed model's file holds the same datasets at the
    same paths as Keras's (less the optimizer's state, which we do not write);
    Keras 3 in TF 2.21 loads such files (checked by hand: same predictions)."""
    from runtime._src.keras.saving import hdf5

    class Sub(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.zeta = L.Dense(2)
            self.alpha = L.Dense(2)
            self.blocks = [L.Dense(2), L.BatchNormalization()]

        def call(self, x):
            return self.blocks[1](self.blocks[0](self.alpha(self.zeta(x))))

    model = Sub()
    model(np.zeros((1, 3), "float32"))
    source = os.path.join(DATA, "keras3_subclassed.weights.h5")
    model.load_weights(source)
    model.save_weights(str(tmp_path / "ours.weights.h5"))
    with open(source, "rb") as f:
        theirs = {k: v for k, v in hdf5.read_datasets(f.read()).items()
                  if not k.startswith("optimizer")}
    ours = hdf5.read_datasets((tmp_path / "ours.weights.h5").read_bytes())
    assert sorted(ours) == sorted(theirs)
    for key, value in theirs.items():
        np.testing.assert_array_equal(ours[key], value)
        assert ours[key].dtype == value.dtype


def test_hdf5_reader_errors_name_the_problem(tmp_path):
    from runtime._src.keras.saving import hdf5

    with pytest.raises(ValueError, match="not an HDF5 file"):
        hdf5.read_datasets(b"PK\x03\x04 not hdf5")
    data = open(os.path.join(DATA, "keras3_subclassed.weights.h5"), "rb").read()
    found = hdf5.read_datasets(data)
    assert found["alpha/vars/0"].shape == (2, 2) and found["alpha/vars/0"].dtype == np.float32
    assert found["optimizer/vars/0"].dtype == np.int64 and found["optimizer/vars/0"].shape == ()
    path = tmp_path / "sub.weights.h5"
    path.write_bytes(data)
    other = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2), L.Dense(2)])
    with pytest.raises(ValueError, match="has no dataset 'layers/dense_1/vars/0'"):
        other.load_weights(str(path))
    wider = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(5)])
    with pytest.raises(ValueError, match=r"dataset 'layers/dense/vars/0' has shape \(3, 2\) "
                                         r"but weight '.*dense.*/kernel' has shape \(3, 5\)"):
        wider.load_weights(str(path))


# Keras 3 (TF 2.21): make_keras3_files.py's every_layer() printed these (rounded)
KERAS_PREDICTIONS = [[0.697097, 0.172082, 0.130821], [0.495681, 0.326749, 0.177571],
                     [0.529708, 0.233399, 0.236894], [0.624981, 0.208950, 0.166069]]


def test_keras_3_file_with_every_existing_layer_kind(tmp_path):
    model = tf.keras.models.load_model(os.path.join(DATA, "keras3_every_layer.keras"))
    x = [np.random.RandomState(0).rand(4, 8, 8, 2).astype("float32"),
         np.random.RandomState(1).randint(0, 10, (4, 5)).astype("int32")]
    y = np.eye(3, dtype="float32")[[0, 1, 2, 0]]
    np.testing.assert_allclose(model.predict(x, verbose=0), KERAS_PREDICTIONS, atol=2e-6)
    # the loss includes the kernel and bias regularizers, as Keras's does
    assert model.evaluate(x, y, verbose=0)[0] == pytest.approx(0.8747767210006714, abs=2e-6)
    assert type(model.optimizer).__name__ == "RMSprop"
    model.save(tmp_path / "again.keras")
    again = tf.keras.models.load_model(tmp_path / "again.keras")
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))


def _attention_inputs():
    return [np.random.RandomState(0).rand(3, 4, 6).astype("float32"),
            np.random.RandomState(1).rand(3, 3, 5).astype("float32")]


def test_keras_3_attention_file_loads_and_ours_has_its_datasets(tmp_path):
    """MultiHeadAttention (plain; gated, with a sliding window, a causal mask
    and a 2-d output_shape) and GroupQueryAttention, trained two epochs and
    saved by Keras 3 (TF 2.21): their EinsumDense sublayers' weights load, and
    our re-saved file has Keras's datasets (Keras 3 loads it: checked by hand,
    the same predictions)."""
    import zipfile

    from runtime._src.keras.saving import hdf5

    def datasets(keras_file):
        with zipfile.ZipFile(keras_file) as z:
            return hdf5.read_datasets(z.read("model.weights.h5"))

    path = os.path.join(DATA, "keras3_attention.keras")
    model = tf.keras.models.load_model(path)
    # Keras 3 (TF 2.21): model.predict(x), rounded to 6 places, right after saving
    np.testing.assert_allclose(model.predict(_attention_inputs(), verbose=0), [
        [-0.400125, 0.274443], [-0.433105, 0.304645], [-0.451606, 0.349601]], atol=2e-6)
    gated = model.get_layer("gated")
    assert [w.path for w in gated.weights][:6] == [
        "gated/query/kernel", "gated/query/bias", "gated/key/kernel", "gated/key/bias",
        "gated/gate/kernel", "gated/gate/bias"]
    assert gated.output_dense.equation == "abcd,cdef->abef"
    assert gated.output_dense.kernel.shape == (2, 3, 2, 4)
    assert gated.get_build_config() == {"shapes_dict": {"query_shape": (None, 4, 6),
                                                         "value_shape": (None, 4, 6)}}
    model.save(str(tmp_path / "ours.keras"))
    theirs, ours = datasets(path), datasets(str(tmp_path / "ours.keras"))
    theirs = {k: v for k, v in theirs.items() if not k.startswith("optimizer")}
    assert sorted(k for k in ours if not k.startswith("optimizer")) == sorted(theirs)
    assert "layers/multi_head_attention/query_dense/vars/0" in theirs
    for key, value in theirs.items():
        np.testing.assert_array_equal(ours[key], value)


def test_quantizing_attention_quantizes_its_projections_at_keras_paths():
    # Keras 3.15 (TF 2.21): after model.quantize("int8") the layer's weights' paths
    # start multi_head_attention/query/bias, .../query/kernel, .../query/kernel_scale
    inp = tf.keras.Input((4, 5))
    layer = L.MultiHeadAttention(2, 3, name="multi_head_attention")   # its default name
    model = tf.keras.Model(inp, layer(inp, inp))
    model.quantize("int8")
    layer = model.layers[1]
    assert [v.path for v in layer.weights][:3] == [
        "multi_head_attention/query/bias", "multi_head_attention/query/kernel",
        "multi_head_attention/query/kernel_scale"]
    assert layer.query_dense.quantization_mode == layer.output_dense.quantization_mode == "int8"
    assert model(np.ones((1, 4, 5), "float32")).shape == (1, 4, 5)


def test_keras_3_recurrent_file_loads_and_round_trips(tmp_path):
    """Bidirectional(LSTM) (its config lists the backward layer, built),
    TimeDistributed, SimpleRNN and ConvLSTM2D (with a kernel regularizer), saved
    by Keras 3 (TF 2.21) after two epochs: they load with their weights, and
    our re-saved file loads again to the same predictions."""
    seq = np.random.RandomState(0).rand(2, 5, 3).astype("float32")
    frames = np.random.RandomState(1).rand(2, 2, 6, 6, 3).astype("float32")
    model = tf.keras.models.load_model(os.path.join(DATA, "keras3_recurrent.keras"))
    # Keras 3 (TF 2.21): model.predict, rounded to 6 places, right after saving
    want = [[-0.056679, -0.084957], [-0.164719, -0.113051]]
    np.testing.assert_allclose(model.predict([seq, frames], verbose=0), want, atol=2e-6)
    bi = model.get_layer("bi")
    assert (bi.forward_layer.name, bi.backward_layer.name) == ("forward_lstm", "backward_lstm")
    assert len(bi.weights) == 6
    config = model.get_layer("clstm").get_config()
    assert config["kernel_regularizer"]["class_name"] == "L2"
    assert len(model.losses) == 1                     # the regularizer's penalty
    model.save(str(tmp_path / "ours.keras"))
    again = tf.keras.models.load_model(str(tmp_path / "ours.keras"))
    np.testing.assert_allclose(again.predict([seq, frames], verbose=0), want, atol=2e-6)


def test_keras_3_adapted_vocabularies_load_from_the_files_assets(tmp_path):
    """An adapted TextVectorization, StringLookup (one_hot) and IntegerLookup
    (multi_hot, pad_to_max_tokens) saved by Keras 3 (TF 2.21): their
    vocabularies are in the file's assets, not its config."""
    path = os.path.join(DATA, "keras3_preprocessing.keras")
    model = tf.keras.models.load_model(path)
    inputs = [tf.constant(["the cat sat", "a dog ran far", "the dog", "cat and dog"]),
              tf.constant(["a", "z", "b", "c"]), tf.constant([5, 3, 7, 9], tf.int64)]
    # Keras 3 (TF 2.21): the model's outputs on these inputs right after saving
    want = [[[3, 4, 5, 0], [9, 2, 6, 7], [3, 2, 0, 0], [4, 8, 2, 0]],
            [[0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]],
            [[0, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]]
    assert [np.asarray(o).tolist() for o in model(inputs)] == want
    numbers = model.get_layer("integer_lookup")
    config = numbers.get_config()
    # Keras 3.15's keys, in its order (its "vocabulary" is None for an adapted one)
    assert list(config) == ["name", "trainable", "dtype", "invert", "max_tokens",
                            "num_oov_indices", "oov_token", "mask_token", "output_mode",
                            "sparse", "pad_to_max_tokens", "vocabulary_dtype", "idf_weights",
                            "vocabulary", "vocabulary_size", "oov_method", "salt"]
    assert config["vocabulary"] == [5, 9, 3] and config["vocabulary_size"] == 4
    model.save(str(tmp_path / "ours.keras"))          # the vocabularies in the config
    again = tf.keras.models.load_model(str(tmp_path / "ours.keras"))
    assert [np.asarray(o).tolist() for o in again(inputs)] == want


def test_adafactor_state_from_a_keras_3_file_resumes_training():
    """Keras 3 gives Adafactor an int32 placeholder for r and c of each
    variable of rank below 2: the saved optimizer has 14 variables for two
    Dense layers, and ours has them too, so its state loads (it was skipped
    with a warning) and training goes on as in Keras."""
    model = tf.keras.models.load_model(os.path.join(DATA, "keras3_adafactor.keras"))
    assert len(model.optimizer.variables) == 14
    x = np.random.RandomState(0).rand(16, 4).astype("float32")
    y = np.random.RandomState(1).rand(16, 2).astype("float32")
    history = model.fit(x, y, epochs=2, batch_size=8, verbose=0, shuffle=False)
    # Keras 3 (TF 2.21): the same two epochs after saving
    np.testing.assert_allclose(history.history["loss"], [0.38066038, 0.36277828], atol=1e-6)
