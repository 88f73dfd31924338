"""Children added after `restore()` get their saved values, as in TF 2.21: a
Module's new attribute, a Checkpoint's list or dict that grows (TF's checkpoint
guide). The expected values are what TF 2.21 printed for the same code."""

import numpy as np
import pytest

import runtime as tf


@pytest.fixture
def saved(tmp_path):
    s = tf.train.Checkpoint()
    s.m = tf.Module()
    s.m.v = tf.Variable(5.0)
    s.m.l = [tf.Variable(3.0)]
    s.m.d = {"a": tf.Variable(4.0)}
    return s.save(str(tmp_path / "x"))


def test_lists_and_dicts_on_a_checkpoint_or_module_are_wrappers():
    c = tf.train.Checkpoint()
    c.l, c.d = [], {}
    m = tf.Module()
    m.l = [1]
    assert (repr(c.l), repr(c.d), repr(m.l)) == ("ListWrapper([])", "DictWrapper({})",
                                                  "ListWrapper([1])")
    assert c.l == [] and isinstance(c.l, list) and isinstance(c.d, dict)
    layer = tf.keras.layers.Dense(2)
    layer.things = []                         # a Keras 3 layer keeps it plain
    assert type(layer.things) is list


def test_module_children_set_after_restore_get_their_values(saved):
    r = tf.train.Checkpoint()
    r.m = tf.Module()
    r.restore(saved)
    r.m.v = tf.Variable(0.0)
    r.m.l = []
    r.m.l.append(tf.Variable(0.0))
    r.m.d = {}
    r.m.d["a"] = tf.Variable(0.0)
    assert [r.m.v.numpy(), r.m.l[0].numpy(), r.m.d["a"].numpy()] == [5.0, 3.0, 4.0]
    r.m.l.insert(0, tf.Variable(7.0))         # index 0 was restored already
    np.testing.assert_array_equal([x.numpy() for x in r.m.l], [7.0, 3.0])


def test_checkpoint_guide_list_restored_on_append(tmp_path):
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.0)]
    save.listed.append(tf.Variable(2.0))
    save.mapped = {"one": save.listed[0]}
    save.mapped["two"] = save.listed[1]
    path = save.save(str(tmp_path / "tf_list_example"))
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.0)
    restore.mapped = {"two": v2}
    restore.restore(path)
    assert v2.numpy() == 2.0
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])"
    v1 = tf.Variable(0.0)
    restore.listed.append(v1)
    assert v1.numpy() == 1.0
