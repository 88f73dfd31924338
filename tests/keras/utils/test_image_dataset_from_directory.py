"""`keras.utils.image_dataset_from_directory` against TF 2.21's Keras:
images, labels, class names, file order and element spec recorded for the
same folder of JPEG and PNG files (tests/data/image_dataset_tf221.npz, from
tools/record_image_dataset.py)."""

import pathlib
import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA, TOOLS

sys.path.insert(0, str(TOOLS))
import record_image_dataset as recorder  # noqa: E402

RECORDED = np.load(DATA / "image_dataset_tf221.npz")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("images")
    recorder.write_tree(str(root), {k.split("|", 1)[1]: RECORDED[k].tobytes()
                                    for k in RECORDED.files if k.startswith("file|")})
    return root


def _by_pixels(images, labels):
    order = sorted(range(len(images)), key=lambda i: images[i].tobytes())
    return images[order], labels[order]


@pytest.mark.parametrize("case", list(recorder.CASES))
def test_the_dataset_is_kerass(folder, case):
    ds = tf.keras.utils.image_dataset_from_directory(str(folder), **recorder.arguments(case))
    images, labels = zip(*[(x.numpy(), y.numpy()) for x, y in ds])
    images, labels = np.concatenate(images), np.concatenate(labels)
    expected = RECORDED[f"images|{case}"], RECORDED[f"labels|{case}"]
    if recorder.arguments(case)["shuffle"]:   # tf.data's shuffle: TF's order is not ours
        images, labels = _by_pixels(images, labels)
        expected = _by_pixels(*expected)
    np.testing.assert_array_equal(images, expected[0])
    np.testing.assert_array_equal(labels, expected[1])
    assert ds.class_names == RECORDED[f"classes|{case}"].tolist()
    paths = [str(pathlib.Path(p).relative_to(folder)) for p in ds.file_paths]
    assert paths == RECORDED[f"paths|{case}"].tolist()
    assert str(ds.element_spec) == str(RECORDED[f"spec|{case}"])


def test_both_subsets_and_the_messages(folder, tmp_path, capsys):
    train, val = tf.keras.utils.image_dataset_from_directory(
        str(folder), validation_split=0.3, subset="both", seed=3, image_size=(4, 4))
    assert len(train.file_paths) == 7 and len(val.file_paths) == 3
    assert set(train.file_paths).isdisjoint(val.file_paths)
    assert capsys.readouterr().out.splitlines() == [
        "Found 10 files belonging to 2 classes.", "Using 7 files for training.",
        "Using 3 files for validation."]
    with pytest.raises(ValueError, match="Only one of `pad_to_aspect_ratio`"):
        tf.keras.utils.image_dataset_from_directory(str(folder), crop_to_aspect_ratio=True,
                                                    pad_to_aspect_ratio=True)
    with pytest.raises(ValueError, match="`color_mode` must be one of"):
        tf.keras.utils.image_dataset_from_directory(str(folder), color_mode="cmyk")
    with pytest.raises(ValueError, match="No images found in directory"):
        tf.keras.utils.image_dataset_from_directory(str(tmp_path), labels=None, verbose=False)
