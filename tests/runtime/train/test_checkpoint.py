"""tf.train.Checkpoint: round trips (in a fresh process), deferred restoration,
statuses, errors; TensorFlow's behaviour recorded from TensorFlow 2.21."""

import json
import os
import sys
import textwrap

import numpy as np
import pytest

import runtime as tf
from runtime._src.train import checkpoint_io, tf_bundle

keras = tf.keras
HERE = os.path.dirname(__file__)

# The model, data and training step, shared by this process and the fresh one.
sys.path.insert(0, HERE)
import ckpt_model as _ns
from tests import fresh_process

FRESH_PROCESS = textwrap.dedent("""\
    import json, sys
    sys.path.insert(0, {here!r})
    from ckpt_model import Net, make_model, train_step
    import numpy as np
    import runtime as tf
    net, step = Net(), tf.Variable(0, dtype=tf.int64)
    model, optimizer = make_model()
    ckpt = tf.train.Checkpoint(net=net, step=step, model=model, optimizer=optimizer)
    status = ckpt.restore(tf.train.latest_checkpoint(sys.argv[1]))
    status.assert_existing_objects_matched()
    restored = [w.numpy().tolist() for w in model.weights]
    iterations = int(optimizer.iterations.numpy())
    loss = float(train_step(model, optimizer).numpy())
    status.assert_consumed()          # the optimizer's slots exist now, and were restored
    print(json.dumps({{"w": net.w.numpy().tolist(), "part0": int(net.parts[0].numpy()),
                      "b": net.parts[1]["b"].numpy().tolist(), "step": int(step.numpy()),
                      "save_counter": int(ckpt.save_counter.numpy()),
                      "restored": restored, "iterations": iterations, "loss": loss,
                      "after": [w.numpy().tolist() for w in model.weights]}}))
    """)


def test_round_trip_in_a_fresh_process_gives_identical_weights_and_next_step(tmp_path):
    net, step = _ns.Net(), tf.Variable(41, dtype=tf.int64)
    net.w.assign(np.arange(6, dtype=np.float32).reshape(2, 3) / 7)
    net.parts[0].assign(-3)
    net.parts[1]["b"].assign([np.pi, -np.e])
    model, optimizer = _ns.make_model()
    for _ in range(3):
        _ns.train_step(model, optimizer)
    ckpt = tf.train.Checkpoint(net=net, step=step, model=model, optimizer=optimizer)
    path = ckpt.save(str(tmp_path / "ckpt"))
    assert path == str(tmp_path / "ckpt-1")
    saved = [w.numpy() for w in model.weights]
    loss = float(_ns.train_step(model, optimizer).numpy())

    script = FRESH_PROCESS.format(here=HERE)
    root = os.path.dirname(os.path.dirname(HERE))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = fresh_process.run(["-c", script, str(tmp_path)], capture_output=True,
                            text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert np.array_equal(np.float32(got["w"]), net.w.numpy())
    assert got["part0"] == -3 and got["b"] == [np.pi, -np.e] and got["step"] == 41
    assert got["save_counter"] == 1 and got["iterations"] == 3
    for a, b in zip(got["restored"], saved):
        assert np.array_equal(np.float32(a), b)
    assert got["loss"] == loss                      # the same next step, bit for bit
    for a, b in zip(got["after"], model.weights):
        assert np.array_equal(np.float32(a), b.numpy())


def test_keys_are_tensorflows_object_paths(tmp_path):
    model, optimizer = _ns.make_model()
    _ns.train_step(model, optimizer)
    path = tf.train.Checkpoint(model=model, optimizer=optimizer).write(str(tmp_path / "k"))
    keys = dict(tf.train.list_variables(path))
    assert keys["model/layers/0/kernel/.ATTRIBUTES/VARIABLE_VALUE"] == [3, 4]
    assert keys["optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE"] == []
    assert keys["model/layers/1/bias/.OPTIMIZER_SLOT/optimizer/velocity/"
                ".ATTRIBUTES/VARIABLE_VALUE"] == [1]
    reader = tf.train.load_checkpoint(path)
    assert np.array_equal(reader.get_tensor("model/layers/0/kernel/.ATTRIBUTES/VARIABLE_VALUE"),
                          model.layers[0].kernel.numpy())
    assert reader.get_tensor("optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE") == 1


def test_deferred_restoration_of_a_layer_built_after_restore(tmp_path):
    layer = keras.layers.Dense(2)
    layer(np.ones((1, 3), np.float32))
    layer.kernel.assign(np.arange(6, dtype=np.float32).reshape(3, 2))
    path = tf.train.Checkpoint(layer=layer).write(str(tmp_path / "d"))

    fresh = keras.layers.Dense(2)
    status = tf.train.Checkpoint(layer=fresh).restore(path)
    status.assert_existing_objects_matched()       # nothing exists yet: fine
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()
    fresh(np.ones((1, 3), np.float32))              # builds: the saved values arrive
    assert np.array_equal(fresh.kernel.numpy(), layer.kernel.numpy())
    assert "build" not in vars(fresh)               # the restoration hook is gone
    status.assert_consumed()


def test_statuses_and_errors_as_tensorflow(tmp_path):
    v = tf.Variable(1.0)
    path = tf.train.Checkpoint(v=v).write(str(tmp_path / "s"))
    # the messages below are TensorFlow 2.21's
    with pytest.raises(AssertionError, match=r"No checkpoint specified \(save_path=None\); "
                                             "nothing is being restored."):
        tf.train.Checkpoint(v=v).restore(None).assert_consumed()
    with pytest.raises(ValueError, match="`Checkpoint` was expecting v to be a trackable "
                                         "object .* got 5."):
        tf.train.Checkpoint(v=5)
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(\) when "
                                         r"attempting to restore variable with shape \(2,\)"):
        tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).restore(path)
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for "
                                                      ".*nope-3"):
        tf.train.Checkpoint(v=v).restore(str(tmp_path / "nope-3"))
    extra = tf.train.Checkpoint(v=v, w=tf.Variable(2.0)).restore(path)
    with pytest.raises(AssertionError, match="Object not assigned a value from checkpoint.*w"):
        extra.assert_existing_objects_matched()
    extra.expect_partial()
    assert tf.train.latest_checkpoint(str(tmp_path / "empty")) is None


def test_checkpoint_manager_keeps_and_deletes_as_tensorflow(tmp_path):
    v = tf.Variable(0.0)
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2,
                                         checkpoint_name="model")
    for i in range(4):
        v.assign(float(i))
        assert manager.save() == str(tmp_path / f"model-{i + 1}")
    # TensorFlow 2.21 leaves exactly these files
    assert sorted(os.listdir(tmp_path)) == [
        "checkpoint", "model-3.data-00000-of-00001", "model-3.index",
        "model-4.data-00000-of-00001", "model-4.index"]
    assert manager.checkpoints == [str(tmp_path / "model-3"), str(tmp_path / "model-4")]
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model-4")
    assert manager.save(checkpoint_number=10) == str(tmp_path / "model-10")
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.checkpoints == [str(tmp_path / "model-4"), str(tmp_path / "model-10")]
    v.assign(-1.0)
    ckpt.restore(str(tmp_path / "model-4"))
    assert v.numpy() == 3.0
    with pytest.raises(ValueError, match="Expected a positive integer or `None` for "
                                         "`max_to_keep`, got 0."):
        tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=0)


def test_keep_checkpoint_every_n_hours_preserves_old_ones(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1e-9)
    for _ in range(3):
        manager.save()
    # TensorFlow 2.21: all three stay on disk, only the newest is managed
    assert sorted(f for f in os.listdir(tmp_path) if f.endswith(".index")) == [
        "ckpt-1.index", "ckpt-2.index", "ckpt-3.index"]
    assert manager.checkpoints == [str(tmp_path / "ckpt-3")]


def test_a_crash_mid_save_never_leaves_a_checkpoint_latest_checkpoint_returns(tmp_path,
                                                                              monkeypatch):
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3)
    first = manager.save()
    real_replace = os.replace

    def crash_on_index(src, dst):
        if dst.endswith(".index"):
            raise KeyboardInterrupt("simulated crash")
        return real_replace(src, dst)

    monkeypatch.setattr(checkpoint_io.os, "replace", crash_on_index)
    v.assign(2.0)
    with pytest.raises(KeyboardInterrupt):
        manager.save()
    monkeypatch.setattr(checkpoint_io.os, "replace", real_replace)
    assert tf.train.latest_checkpoint(str(tmp_path)) == first
    assert not os.path.exists(str(tmp_path / "ckpt-2.index"))
    ckpt.restore(tf.train.latest_checkpoint(str(tmp_path))).assert_consumed()
    assert v.numpy() == 1.0


def test_damaged_data_is_a_data_loss_error(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "x"))
    with open(checkpoint_io.data_path(path), "r+b") as f:
        f.write(b"\xff")
    with pytest.raises(tf.errors.DataLossError, match="Checksum does not match"):
        tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).restore(path)
    with open(path + ".index", "rb") as f:
        assert tf_bundle.is_tf_index(f.read())       # TensorFlow's SSTable, nothing pickled


FIXTURE = os.path.join(HERE, "fixtures", "tf221_ckpt")


def test_reads_a_checkpoint_written_by_tensorflow():
    # written by tests/runtime/train/fixtures/make_tf_checkpoint.py with TensorFlow 2.21;
    # tf.train.list_variables there printed exactly this
    assert tf.train.list_variables(FIXTURE) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("d/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("flag/.ATTRIBUTES/VARIABLE_VALUE", []), ("name/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("net/b/.ATTRIBUTES/VARIABLE_VALUE", [3]),
        ("net/layers/0/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("net/w/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]), ("step/.ATTRIBUTES/VARIABLE_VALUE", [])]
    reader = tf.train.load_checkpoint(FIXTURE)
    w = reader.get_tensor("net/w/.ATTRIBUTES/VARIABLE_VALUE")
    assert w.dtype == np.float32 and w.tolist() == [[0, 0.25, 0.5], [0.75, 1, 1.25]]
    assert reader.get_tensor("net/layers/0/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [1, -2]
    assert reader.get_tensor("d/.ATTRIBUTES/VARIABLE_VALUE") == np.pi
    assert reader.get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE") == 7
    assert reader.get_tensor("flag/.ATTRIBUTES/VARIABLE_VALUE") is np.True_
    assert reader.get_tensor("name/.ATTRIBUTES/VARIABLE_VALUE") == b"hello"
    assert reader.get_variable_to_dtype_map()["d/.ATTRIBUTES/VARIABLE_VALUE"] == tf.float64
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")


def test_restores_a_tensorflow_checkpoint_into_our_objects():
    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.zeros((2, 3), np.float32))
            self.b = tf.Variable(np.zeros(3, np.float32))
            self.layers = [tf.Variable(np.zeros(2, np.int32))]

    net = Net()
    ckpt = tf.train.Checkpoint(net=net, step=tf.Variable(0, dtype=tf.int64),
                               flag=tf.Variable(False), d=tf.Variable(0.0, dtype=tf.float64),
                               name=tf.Variable(b""))
    ckpt.restore(FIXTURE).assert_consumed()
    assert net.b.numpy().tolist() == [0.5, -1.5, 2.25]
    assert net.layers[0].numpy().tolist() == [1, -2] and ckpt.step.numpy() == 7


def test_an_attribute_set_on_the_checkpoint_is_tracked(tmp_path):
    ckpt = tf.train.Checkpoint()
    ckpt.step = tf.Variable(7, dtype=tf.int64)
    path = ckpt.write(str(tmp_path / "a"))
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                             ("step/.ATTRIBUTES/VARIABLE_VALUE", [])]


def test_functional_model_restored_then_fit_continues_identically(tmp_path):
    def make():
        inputs = keras.Input((3,))
        hidden = keras.layers.BatchNormalization()(keras.layers.Dense(4)(inputs))
        model = keras.Model(inputs, keras.layers.Dense(2)(hidden))
        model.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss="mse")
        return model

    x = np.random.RandomState(0).randn(16, 3).astype("float32")
    y = np.zeros((16, 2), np.float32)
    trained = make()
    trained.fit(x, y, epochs=2, verbose=0)
    path = tf.train.Checkpoint(model=trained).save(str(tmp_path / "f"))   # model.optimizer too
    fresh = make()
    status = tf.train.Checkpoint(model=fresh).restore(path)
    status.assert_existing_objects_matched()
    for a, b in zip(trained.weights, fresh.weights):
        assert np.array_equal(a.numpy(), b.numpy())
    # the momentum slots are created inside fit's traced step and restored there
    assert trained.fit(x, y, epochs=1, verbose=0, shuffle=False).history["loss"] == \
        fresh.fit(x, y, epochs=1, verbose=0, shuffle=False).history["loss"]
    status.assert_consumed()


def test_dataset_iterator_position_is_checkpointed(tmp_path):
    # TensorFlow 2.21: the key, and the element after a restore is the one
    # after the save (2 after two next()s), also for a fresh iterator.
    it = iter(tf.data.Dataset.range(10))
    next(it), next(it)
    path = tf.train.Checkpoint(iterator=it).write(str(tmp_path / "ckpt"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "iterator/.ATTRIBUTES/ITERATOR_STATE"]
    assert int(next(it)) == 2
    tf.train.Checkpoint(iterator=it).restore(path)
    assert int(next(it)) == 2
    fresh = iter(tf.data.Dataset.range(10))
    tf.train.Checkpoint(iterator=fresh).restore(path)
    assert int(next(fresh)) == 2


def test_a_checkpoint_of_tf_keras_objects_says_it_does_not_map():
    # written by fixtures/make_tf_keras_checkpoint.py with TF 2.21's Keras 3.15: its
    # layout is model/_functional/_operations/1/..., optimizer/_variables/...; read into
    # our Keras objects it must say so, not restore silently in part
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d1")])
    opt = tf.keras.optimizers.Adam(0.1)
    before = model.weights[0].numpy().copy()
    with pytest.warns(UserWarning, match="was written by TensorFlow's Keras, whose object "
                      "layout .* runtime.keras objects do not have: .* model.load_weights"):
        status = tf.train.Checkpoint(model=model, optimizer=opt).read(
            os.path.join(HERE, "fixtures", "tf221_keras_ckpt"))
    np.testing.assert_array_equal(model.weights[0].numpy(), before)
    with pytest.raises(AssertionError, match="Object not assigned a value from checkpoint"):
        status.assert_existing_objects_matched()
