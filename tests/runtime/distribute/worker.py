"""One worker of a 2-process MultiWorkerMirroredStrategy run (the test
starts two, with TF_CONFIG set): prints one JSON line of results.

    TF_CONFIG='{"cluster": {"worker": [...]}, "task": {"type": "worker", "index": 0}}' \\
        python tests/runtime/distribute/worker.py
"""

import json
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))

import programs  # noqa: E402
import runtime as tf  # noqa: E402


def run():
    """This worker's results (a dict of plain values)."""
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    out = {"num_replicas": strategy.num_replicas_in_sync,
           "worker_devices": list(strategy.extended.worker_devices)}
    ids = strategy.run(lambda: tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0)
    out["local_ids"] = [float(v) for v in strategy.experimental_local_results(ids)]
    out["reduce_sum"] = float(strategy.reduce("SUM", ids, axis=None))
    out["gather"] = strategy.gather(strategy.run(lambda: tf.ones([2]) * tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)),
        axis=0).numpy().tolist()
    out["custom_loop"] = programs.custom_loop(tf, strategy)
    with warnings.catch_warnings(record=True) as caught:       # a thread per replica
        warnings.simplefilter("always")
        out["fallback"] = programs.fallback_checks(tf, strategy, programs.replica_id_of(tf))
    out["fallback_warnings"] = [str(w.message) for w in caught
                                if type(w.message).__name__ == "ReplicaFallbackWarning"]
    out["keras_value"] = programs.keras_variable_checks(tf, strategy)["keras_value"]
    with tempfile.TemporaryDirectory() as tmp:
        out["keras_fit"] = programs.keras_fit(tf, strategy, os.path.join(tmp, "model"))
    return out


if __name__ == "__main__":
    print("RESULT" + json.dumps(run()))
