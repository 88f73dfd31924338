"""tf.train.TrackableView against TF 2.21: a tf.Module's children by attribute
name (variables, a sub-module, a list), children as a classmethod, and six
descendants breadth first with the root first."""

import runtime as tf


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.0)
        self.sub = tf.Module()
        self.sub.w = tf.Variable(2.0)
        self.l = [tf.Variable(3.0)]


def test_children_and_descendants_are_tfs():
    m = _Model()
    view = tf.train.TrackableView(m)
    assert view.root is m
    assert view.children(m) == {"v": m.v, "sub": m.sub, "l": m.l}
    assert tf.train.TrackableView.children(m.sub) == {"w": m.sub.w}
    found = view.descendants()
    assert found[0] is m and len(found) == 6
    assert {id(o) for o in found} == {id(o) for o in (m, m.v, m.sub, m.l, m.l[0], m.sub.w)}
