"""Print TensorFlow 2.21's values for tests/runtime/test_ctc_greedy_decoder.py
(its TF_221 literals, line by line), or ours to compare:

    /tmp/tfvenv/bin/python tools/record_ctc_decode.py tensorflow
    PYTHONPATH=. python3 tools/record_ctc_decode.py runtime
"""

import importlib
import sys
tf = importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "tensorflow")
hits = tf.nn.compute_accidental_hits(tf.constant([[1, 2], [3, 3], [0, 5]], tf.int64),
                                     tf.constant([2, 3, 5, 2, 7], tf.int64), num_true=2)
print([h.numpy().tolist() for h in hits])
logits = tf.math.log(tf.constant([[[0.1, 0.6, 0.3], [0.3, 0.3, 0.4]],
                                  [[0.5, 0.2, 0.3], [0.2, 0.2, 0.6]],
                                  [[0.2, 0.7, 0.1], [0.7, 0.2, 0.1]],
                                  [[0.2, 0.7, 0.1], [0.7, 0.1, 0.2]],
                                  [[0.6, 0.3, 0.1], [0.1, 0.1, 0.8]]]))
for kw in [dict(), dict(merge_repeated=False), dict(blank_index=0), dict(blank_index=-2)]:
    for lengths in ([5, 5], [3, 0]):
        (d,), s = tf.nn.ctc_greedy_decoder(logits, lengths, **kw)
        print(kw, lengths, d.indices.numpy().tolist(), d.values.numpy().tolist(),
              d.dense_shape.numpy().tolist(), s.numpy().round(6).tolist())
f = tf.function(lambda x: tf.nn.ctc_greedy_decoder(x, [5, 4]))
(d,), s = f(logits)
print(d.values.numpy().tolist(), d.dense_shape.numpy().tolist(), s.numpy().round(6).tolist())
