"""`tf.train.list_variables` of our checkpoints lists `_CHECKPOINTABLE_OBJECT_GRAPH`
first, as TF 2.21 does (intro_to_modules guide: [('_CHECKPOINTABLE_OBJECT_GRAPH', []),
('model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE', [3]), ...]), and the reader gives it
as TF's TrackableObjectGraph bytes."""

import runtime as tf
from runtime._src.train import tf_bundle


def _checkpoint(tmp_path):
    class Dense(tf.Module):
        def __init__(self, n_in, n_out):
            self.w = tf.Variable(tf.ones([n_in, n_out]))
            self.b = tf.Variable(tf.zeros([n_out]))

    class Model(tf.Module):
        def __init__(self):
            self.dense_1 = Dense(3, 3)
            self.dense_2 = Dense(3, 2)

    return tf.train.Checkpoint(model=Model()).write(str(tmp_path / "c"))


def test_list_variables_names_the_object_graph_first(tmp_path):
    assert tf.train.list_variables(_checkpoint(tmp_path)) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE", [3]),
        ("model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE", [3, 3]),
        ("model/dense_2/b/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE", [3, 2])]


def test_object_graph_is_tf_trackable_object_graph_bytes(tmp_path):
    reader = tf.train.load_checkpoint(_checkpoint(tmp_path))
    assert reader.get_variable_to_dtype_map()["_CHECKPOINTABLE_OBJECT_GRAPH"] == tf.string
    nodes = tf_bundle.object_graph(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    assert nodes[0] == {"children": [["model", 1]]}
    assert nodes[1] == {"children": [["dense_1", 2], ["dense_2", 3]]}
    keys = sorted(n["key"] for n in nodes if "key" in n)
    assert keys == ["model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE",
                    "model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE",
                    "model/dense_2/b/.ATTRIBUTES/VARIABLE_VALUE",
                    "model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE"]
