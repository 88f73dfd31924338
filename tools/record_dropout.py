"""Print TensorFlow 2.21's values for tests/runtime/test_nn_experimental_dropout.py
(the literals in its TF_221 table, in order; the sixth line is the same call in
tf.function, the seventh the gradient), or ours to compare:

    /tmp/tfvenv/bin/python tools/record_dropout.py tensorflow
    PYTHONPATH=. python3 tools/record_dropout.py runtime
"""

import importlib
import sys

tf = importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "tensorflow")
x = tf.reshape(tf.range(12.), [3, 4]) - 5.0
outs = [tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]),
        tf.nn.experimental.stateless_dropout(x, 0.3, seed=[7, 3], noise_shape=[3, 1]),
        tf.nn.experimental.stateless_dropout(tf.cast(x, tf.float64),
                                             tf.constant(0.7, tf.float64), seed=[5, 5]),
        tf.nn.experimental.stateless_dropout(x, 0.0, seed=[1, 2]),
        tf.nn.experimental.general_dropout(
            x, 0.25, uniform_sampler=lambda shape, dtype: tf.reshape(
                tf.range(12., dtype=dtype) / 12., shape))]
for o in outs:
    print(repr(o.numpy().tolist()), o.dtype)
f = tf.function(lambda x: tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]))
print(repr(f(x).numpy().tolist()))
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.reduce_sum(tf.nn.experimental.stateless_dropout(x, 0.3, seed=[7, 3]))
print(repr(t.gradient(y, x).numpy().tolist()))
