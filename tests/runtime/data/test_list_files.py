"""`tf.data.Dataset.list_files` and `tf.io.matching_files` as TF 2.21: one
sorted list over every pattern, shuffled per epoch unless shuffle=False, and
TF's error when nothing matches."""

import pytest

import runtime as tf
from runtime._src.core.errors import InvalidArgumentError


@pytest.fixture
def tree(tmp_path):
    for name in ("dogs/b.jpg", "dogs/a.png", "cats/c.png", "cats/d.jpg"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"x")
    return tmp_path


def test_patterns_give_one_sorted_list(tree):
    patterns = [str(tree / "dogs" / "*"), str(tree / "cats" / "*.png")]
    expected = [str(tree / n).encode() for n in ("cats/c.png", "dogs/a.png", "dogs/b.jpg")]
    assert tf.io.matching_files(patterns).numpy().tolist() == expected
    ds = tf.data.Dataset.list_files(patterns, shuffle=False)
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert [x.numpy() for x in ds] == expected


def test_shuffled_by_default_and_every_file_once(tree):
    ds = tf.data.Dataset.list_files(str(tree / "*" / "*"), seed=4)
    epochs = [sorted(x.numpy() for x in ds) for _ in range(2)]
    assert epochs[0] == epochs[1] == sorted(str(p).encode() for p in tree.glob("*/*"))


def test_no_match_is_tfs_error(tree):
    with pytest.raises(InvalidArgumentError, match="No files matched pattern: .*nothing"):
        tf.data.Dataset.list_files(str(tree / "nothing*"))
