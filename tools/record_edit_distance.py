"""Print TensorFlow 2.21's values for tests/runtime/test_edit_distance.py (its TF_221
literals, line by line), or ours to compare:

    /tmp/tfvenv/bin/python tools/record_edit_distance.py tensorflow
    PYTHONPATH=. python3 tools/record_edit_distance.py runtime
"""

import importlib
import sys
tf = importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "tensorflow")
h = tf.SparseTensor([[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], [b"a", b"b", b"c", b"a"],
                    [2, 2, 2])
t = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]],
                    [b"a", b"b", b"d", b"x", b"y"], [2, 2, 3])
print(tf.edit_distance(h, t).numpy().tolist(),
      tf.edit_distance(h, t, normalize=False).numpy().tolist())
h2 = tf.SparseTensor([[0, 0], [0, 1]], [1, 2], [2, 2])
t2 = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [2, 2])
print(tf.edit_distance(h2, t2).numpy().tolist(),
      tf.edit_distance(h2, t2, normalize=False).numpy().tolist())
h3 = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], [3, 1, 4, 1], [3, 4])
t3 = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [2, 0]], [1, 3, 4, 5, 9], [2, 5])
print(tf.edit_distance(h3, t3).numpy().tolist())
f = tf.function(lambda a, b: tf.edit_distance(a, b))
print(f(h3, t3).numpy().tolist())
