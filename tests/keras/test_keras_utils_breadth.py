"""keras.utils against Keras 3.15: Progbar's exact output under a fake clock,
PyDataset in fit/evaluate/predict, Config, pack/unpack_x_y_sample_weight,
standardize_dtype, split_dataset, timeseries_dataset_from_array,
text_dataset_from_directory, CustomObjectScope, get_source_inputs. Keras 3.15's outputs were recorded by
tools/record_keras_misc.py into tests/data/keras_misc.json."""

import json
import pathlib
import sys
import time
import warnings

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_misc import (PROGBAR_CASES, TEXT_CASES, UTILS_CASES,  # noqa: E402
                               get_file_outcomes, make_text_folder, run_progbar,
                               text_outcome, utils_outcome)

keras = tf.keras
U = keras.utils
REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_misc.json")
                 .read_text())
# Keras's message lacks a space here ("= 12.0and total_length"); ours reads "= 12 and"
_MESSAGE_PREFIX_ONLY = {"U.split_dataset(np.arange(10), **dict(left_size=6, right_size=6))"}


@pytest.mark.parametrize("case", list(PROGBAR_CASES))
def test_progbar_prints_as_keras(case):
    assert run_progbar(U.Progbar, time, case) == REC["progbar"][case]


def test_progbar_refuses_both_metric_lists():
    with pytest.raises(ValueError, match="Only one of `stateful_metrics` or"):
        U.Progbar(3, stateful_metrics=["a"], stateless_metrics=["b"])


@pytest.mark.parametrize("case", UTILS_CASES)
def test_utils_case_as_keras(case):
    got, expected = utils_outcome(U, case), REC["utils"][case]
    if case in _MESSAGE_PREFIX_ONLY:
        got, expected = got[1][:80], expected[1][:80]
    assert got == expected


class _Batches(U.PyDataset):
    def __init__(self, x, y, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size = x, y, batch_size
        self.events = []

    def __len__(self):
        return -(-len(self.x) // self.batch_size)

    def __getitem__(self, i):
        s = slice(i * self.batch_size, (i + 1) * self.batch_size)
        return self.x[s], self.y[s]

    def on_epoch_begin(self):
        self.events.append("begin")

    def on_epoch_end(self):
        self.events.append("end")


def test_pydataset_in_fit_evaluate_predict():
    rec = REC["pydataset"]
    x = np.linspace(-1, 1, 30, dtype="float32").reshape(10, 3)
    y = (x.sum(1, keepdims=True) * 0.5).astype("float32")
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(
        1, kernel_initializer="ones", bias_initializer="zeros")])
    m.compile(keras.optimizers.SGD(0.1), "mse")
    data = _Batches(x, y, 4, workers=2)
    h = m.fit(data, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(h.history["loss"], rec["loss"], rtol=1e-5)
    np.testing.assert_allclose(m.get_weights()[0].ravel(), rec["kernel"], rtol=1e-5)
    np.testing.assert_allclose(m.evaluate(_Batches(x, y, 4), verbose=0), rec["evaluate"],
                               rtol=1e-5)
    np.testing.assert_allclose(m.predict(_Batches(x, y, 4), verbose=0).ravel(),
                               rec["predict"], rtol=1e-5)
    assert data.events == ["begin", "end"] * 2 and data.workers == 2
    assert data.num_batches == 3 and U.Sequence is U.PyDataset
    h = m.fit(data, epochs=2, verbose=0, steps_per_epoch=2)       # shuffled batches
    assert len(h.history["loss"]) == 2


def test_pydataset_without_super_init_warns():
    class Bare(U.PyDataset):
        def __init__(self):
            pass

    with pytest.warns(UserWarning, match="should call `super"):
        assert Bare().workers == 1
    with pytest.raises(NotImplementedError, match="num_batches"):
        type("NoLen", (U.PyDataset,), {})().num_batches


def test_custom_object_scope_is_a_class():
    assert U.CustomObjectScope is keras.saving.CustomObjectScope is U.custom_object_scope

    def twice(x):
        return 2 * x
    with U.CustomObjectScope({"twice": twice}) as scope:
        assert scope.custom_objects == {"twice": twice}
        assert keras.saving.get_registered_object("twice") is twice
    assert keras.saving.get_registered_object("twice") is None


def test_keras_tensor_helpers():
    a, b = keras.Input((3,)), keras.Input((3,))
    out = keras.layers.Dense(2)(keras.layers.Add()([a, b]))
    assert U.is_keras_tensor(a) and not U.is_keras_tensor(np.ones(2))
    assert not U.is_keras_tensor(tf.ones(2))
    sources = U.get_source_inputs(out)
    assert len(sources) == 2 and sources[0] is a and sources[1] is b
    assert U.get_source_inputs(a)[0] is a
    assert U.standardize_dtype(tf.float32) == "float32"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        U.clear_session()


@pytest.mark.parametrize("case", TEXT_CASES)
def test_text_dataset_from_directory_as_keras(case, tmp_path):
    root = tmp_path / "texts"
    make_text_folder(root)
    assert text_outcome(U.text_dataset_from_directory, root, case) == \
        REC["text_dataset"][case]


def test_preprocessing_namespace():
    P = keras.preprocessing
    assert P.text_dataset_from_directory is U.text_dataset_from_directory
    assert P.timeseries_dataset_from_array is U.timeseries_dataset_from_array
    assert P.sequence.pad_sequences is U.pad_sequences


def test_get_file_from_local_origins_as_keras():
    assert get_file_outcomes(U.get_file) == REC["get_file"]


def test_get_file_does_not_download(tmp_path):
    with pytest.raises(ValueError, match="does not use the network"):
        U.get_file("x.zip", origin="https://example.com/x.zip", cache_dir=str(tmp_path))
    (tmp_path / "datasets" / "x.zip").write_bytes(b"cached")
    assert U.get_file("x.zip", origin="https://example.com/x.zip",
                      cache_dir=str(tmp_path)) == str(tmp_path / "datasets" / "x.zip")
