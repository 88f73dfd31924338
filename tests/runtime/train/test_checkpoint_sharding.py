"""Checkpoint sharding, PythonState and CheckpointView against TF 2.21's recorded
results (tools/record_checkpoint_sharding.py wrote
tests/data/checkpoint_sharding_tf221.json and fixtures/tf221_sharded_max20.*):
`tf.train.experimental.MaxShardSizePolicy` (16, 20, 40 and 1000 bytes),
`tf.train.experimental.ShardByTaskPolicy` and two user
`tf.train.experimental.ShardingCallback`s write the same data files as TF's
(a (3, 4) float32 and a (10,) float64 Variable cut into the same slices, in
the same shards), given the same `tf.train.experimental.ShardableTensor`s;
a `tf.train.experimental.PythonState` saves and restores its string; and
`tf.train.CheckpointView` gives TF's children, descendants and matches, on
our checkpoints and TensorFlow's."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from runtime._src.train import tf_bundle
from tools.record_checkpoint_sharding import make_root, run_cases

HERE = os.path.dirname(__file__)

DATA = os.path.join(HERE, "..", "..", "data", "checkpoint_sharding_tf221.json")
FIXTURE = os.path.join(HERE, "fixtures", "tf221_sharded_max20")


def _recorded():
    with open(DATA) as f:
        return json.load(f)["cases"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _recorded(), run_cases(tf, str(tmp_path_factory.mktemp("sharding")))


@pytest.mark.parametrize("case", sorted(_recorded()))
def test_matches_tensorflow(results, case):
    recorded, ours = results
    assert ours[case] == recorded[case]


def _spec(shape, extents):
    return " ".join(map(str, shape)) + " " + ":".join(
        f"{s},{shape[i] if n < 0 else n}" for i, (s, n) in enumerate(extents))


def _tf_layout(prefix):
    with open(prefix + ".index", "rb") as f:
        entries, _ = tf_bundle.read_index(f.read())
    out = []
    for key, e in entries.items():
        if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
            out += [(p.shard, key, _spec(e.shape, x)) for x, p in e.slices] or [(e.shard, key, "")]
    return sorted(out)


def test_slices_and_shards_are_tensorflows(tmp_path):
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(20))
    path = make_root(tf).write(str(tmp_path / "ckpt"), options=options)
    layout = _tf_layout(path)
    assert layout == _tf_layout(FIXTURE)
    assert (0, "m/a/.ATTRIBUTES/VARIABLE_VALUE", "3 4 0,1:0,4") in layout
    assert (8, "m/s/.ATTRIBUTES/py_state", "") in layout
    assert len([f for f in os.listdir(tmp_path) if f.startswith("ckpt.data-")]) == 9


def test_restores_tensorflows_sharded_checkpoint():
    root = make_root(tf, filled=False)
    root.restore(FIXTURE).assert_consumed()
    assert root.m.a.numpy().tolist() == np.arange(12, dtype=np.float32).reshape(3, 4).tolist()
    assert root.m.d.numpy().tolist() == np.linspace(0.0, 1.0, 10).tolist()
    assert root.m.c.numpy().tolist() == [b"ab", b"cde"] and root.m.b.numpy() == 5
    assert root.m.s.text == b"hello"               # deserialize gets bytes, as in TF
    reader = tf.train.load_checkpoint(FIXTURE)
    assert reader.get_tensor("m/a/.ATTRIBUTES/VARIABLE_VALUE")[2].tolist() == [8, 9, 10, 11]
    view = tf.train.CheckpointView(FIXTURE)
    assert view.children(1) == {"a": 2, "b": 3, "c": 4, "d": 5, "s": 6}
    assert view.descendants() == list(range(7))
    matched, only_saved, only_live = view.diff(tf.train.Checkpoint(m=tf.Module()))
    assert sorted(matched) == [0, 1] and only_saved == [2, 3, 4, 5, 6] and only_live == []


def test_sharded_write_inside_a_function(tmp_path):
    root = make_root(tf)
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(40))

    @tf.function
    def write():
        return root.write(str(tmp_path / "ckpt"), options=options)

    assert write().numpy() == str(tmp_path / "ckpt").encode()
    assert len([f for f in os.listdir(tmp_path) if ".data-" in f]) == 4
    back = make_root(tf, filled=False)
    back.read(str(tmp_path / "ckpt")).assert_consumed()
    assert back.m.s.text == b"hello" and back.m.d.numpy()[9] == 1.0


def test_a_shard_too_small_for_any_slice_is_an_error(tmp_path):
    # TF 2.21 never returns here (its partitioner starts new shards for ever)
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(8))
    with pytest.raises(ValueError, match=r"no slice of m/a/.ATTRIBUTES/VARIABLE_VALUE .*"
                                         r"smallest is 12 bytes"):
        make_root(tf).write(str(tmp_path / "ckpt"), options=options)
    with pytest.raises(ValueError, match="max_shard_size must be a positive number"):
        tf.train.experimental.MaxShardSizePolicy(0)


def test_python_state_round_trip_and_large_string_shard(tmp_path):
    note = make_root(tf).m.s
    note.text = "x" * 30                          # larger than a shard: a shard of its own
    ckpt = tf.train.Checkpoint(note=note, v=tf.Variable([1.0, 2.0]))
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(16))
    path = ckpt.save(str(tmp_path / "ckpt"), options=options)
    assert _tf_layout(path)[-1] == (1, "note/.ATTRIBUTES/py_state", "")
    note.text = "changed"
    ckpt.restore(path).assert_consumed()
    assert note.text == b"x" * 30


def test_checkpoint_manager_passes_the_options(tmp_path):
    root = make_root(tf)
    manager = tf.train.CheckpointManager(root, str(tmp_path), max_to_keep=1)
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(40))
    path = manager.save(options=options)
    assert sorted(f for f in os.listdir(tmp_path) if ".data-" in f)[-1] == \
        "ckpt-1.data-00003-of-00004"
    manager.save(options=options)                  # the first one is deleted, all shards
    assert not [f for f in os.listdir(tmp_path) if f.startswith("ckpt-1.")]
    back = make_root(tf, filled=False)
    back.restore(manager.latest_checkpoint).assert_consumed()
    assert back.m.a.numpy()[2, 3] == 11.0 and path.endswith("ckpt-1")
