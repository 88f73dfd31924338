"""Checkpoints are written in TensorFlow's format: for the same objects the
index and data files are byte for byte the ones TensorFlow 2.21 wrote
(fixtures/make_tf_*.py recorded them), so TensorFlow restores ours; a damaged
value is TF's DataLossError; checkpoints in the JSON-indexed format this
runtime wrote before still restore."""

import os

import numpy as np
import pytest

import runtime as tf
from runtime._src.train import checkpoint_io, tf_bundle
from tests.runtime.train.fixtures import make_tf_checkpoint
from tests.runtime.train.fixtures.make_tf_dtypes_checkpoint import variables
from tools.record_checkpoint_sharding import make_root

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


def _files(prefix):
    directory, base = os.path.split(prefix)
    return sorted(f[len(base):] for f in os.listdir(directory)
                  if f.startswith(base + ".") and not f.endswith(".py"))


def _same_files(ours, theirs):
    assert _files(ours) == _files(theirs)
    for suffix in _files(theirs):
        with open(ours + suffix, "rb") as a, open(theirs + suffix, "rb") as b:
            assert a.read() == b.read(), suffix


def test_a_module_checkpoint_is_tensorflows_byte_for_byte(tmp_path):
    # the objects of fixtures/make_tf_checkpoint.py: kwargs tracked by name,
    # a Module's attributes in the order they were set, TF's full names
    ckpt = tf.train.Checkpoint(**make_tf_checkpoint.objects(tf))
    _same_files(ckpt.write(str(tmp_path / "c")), os.path.join(FIXTURES, "tf221_ckpt"))


def test_every_dtype_is_tensorflows_byte_for_byte(tmp_path):
    found = variables(tf)
    path = tf.train.Checkpoint(**found).write(str(tmp_path / "c"))
    _same_files(path, os.path.join(FIXTURES, "tf221_dtypes_ckpt"))
    back = {k: tf.Variable(tf.zeros_like(v)) for k, v in found.items()}
    tf.train.Checkpoint(**back).restore(path).assert_consumed()
    for name, v in found.items():
        assert back[name].dtype == v.dtype
        np.testing.assert_array_equal(back[name].numpy(), v.numpy())


def test_a_sharded_checkpoint_is_tensorflows_byte_for_byte(tmp_path):
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(20))
    path = make_root(tf).write(str(tmp_path / "c"), options=options)
    _same_files(path, os.path.join(FIXTURES, "tf221_sharded_max20"))


def test_a_damaged_value_is_tensorflows_data_loss_error(tmp_path):
    path = tf.train.Checkpoint(s=tf.Variable([b"ab", b"", b"xyz"]),
                               v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "c"))
    entries, _ = tf_bundle.read_index(open(path + ".index", "rb").read())
    for key, size in (("s", 12), ("v", 8)):
        entry = entries[f"{key}/.ATTRIBUTES/VARIABLE_VALUE"]
        with open(checkpoint_io.data_path(path), "r+b") as f:
            f.seek(entry.offset + entry.size - 1)
            last = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([last[0] ^ 1]))
        with pytest.raises(tf.errors.DataLossError,
                           match=rf"TensorBundle at .*c shard 0 \({size} bytes\): Checksum "
                                 r"does not match: stored \d+ vs\. calculated on the "
                                 r"restored bytes \d+"):
            tf.train.load_checkpoint(path).get_tensor(f"{key}/.ATTRIBUTES/VARIABLE_VALUE")


def test_tensorflows_numbers_in_the_data_loss_error(tmp_path):
    # fixtures/tf221_ckpt with the first byte of d flipped: TensorFlow 2.21 read it as
    # "... (8 bytes): Checksum does not match: stored 3369994218 vs. calculated on the
    # restored bytes 2179103437"
    for suffix in (".index", ".data-00000-of-00001"):
        with open(os.path.join(FIXTURES, "tf221_ckpt" + suffix), "rb") as f:
            data = bytearray(f.read())
        if suffix != ".index":
            data[0] ^= 1                   # d is the first value in the data file
        (tmp_path / ("c" + suffix)).write_bytes(bytes(data))
    with pytest.raises(tf.errors.DataLossError) as caught:
        tf.train.Checkpoint(d=tf.Variable(0.0, dtype=tf.float64)).restore(str(tmp_path / "c"))
    assert str(caught.value) == (
        f"TensorBundle at {tmp_path / 'c'} shard 0 (8 bytes): Checksum does not match: "
        "stored 3369994218 vs. calculated on the restored bytes 2179103437")


@pytest.mark.parametrize("fixture", ["runtime_json_v1_ckpt", "runtime_json_v2_sharded"])
def test_the_json_format_written_before_still_restores(fixture):
    path = os.path.join(FIXTURES, fixture)
    if fixture.endswith("v1_ckpt"):
        net = tf.Module()
        net.w, net.words = tf.Variable(tf.zeros((2, 3))), tf.Variable([b"", b""])
        ckpt = tf.train.Checkpoint(net=net, step=tf.Variable(0, dtype=tf.int64))
        ckpt.restore(path).assert_consumed()
        assert net.w.numpy().tolist() == (np.arange(6).reshape(2, 3) / 4).tolist()
        assert net.words.numpy().tolist() == [b"ab", b""] and ckpt.step.numpy() == 7
        return
    root = make_root(tf, filled=False)
    root.restore(path).assert_consumed()
    assert root.m.a.numpy().tolist() == np.arange(12, dtype=np.float32).reshape(3, 4).tolist()
    assert root.m.d.numpy().tolist() == np.linspace(0.0, 1.0, 10).tolist()
    assert root.m.s.text == b"hello"
    assert tf.train.list_variables(path)[0] == ("_CHECKPOINTABLE_OBJECT_GRAPH", [])
