"""Run tests/runtime/distribute/programs.py on the runtime with the CPU split into 8
logical devices, under MirroredStrategy on all 8 and on the first 4 (JAX
fixes its device count per process, so this runs in its own process),
printing one JSON line of results (test_distribute.py forks a process
that calls `run` when it can):

    python tests/runtime/distribute/replicas.py
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
    """The results (a dict of plain values)."""
    before = [d.name for d in tf.config.list_physical_devices("CPU")]
    from jax._src import xla_bridge
    started_early = xla_bridge.backends_are_initialized()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 8)
    out = {"physical_before_split": before, "jax_started_before_split": started_early,
           "logical": [d.name for d in tf.config.list_logical_devices("CPU")]}
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()])
    except RuntimeError as e:
        out["second_split"] = str(e)
    out["single"] = programs.custom_loop(tf, tf.distribute.get_strategy())
    for n, strategy in ((8, tf.distribute.MirroredStrategy()),
                        (4, tf.distribute.MirroredStrategy([f"cpu:{i}" for i in range(4)]))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out[str(n)] = {"custom_loop": programs.custom_loop(tf, strategy),
                           "checks": programs.checks(tf, strategy)}
        out[str(n)]["fallback_warnings"] = [str(w.message) for w in caught
                                            if type(w.message).__name__ ==
                                            "ReplicaFallbackWarning"]
    with tempfile.TemporaryDirectory() as tmp:
        out["keras_single"] = programs.keras_fit(tf, tf.distribute.get_strategy(),
                                                 os.path.join(tmp, "one"))
        strategy = tf.distribute.MirroredStrategy([f"cpu:{i}" for i in range(4)])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out["keras_fit"] = programs.keras_fit(tf, strategy, os.path.join(tmp, "model"))
        out["keras_fit_fallbacks"] = [str(w.message) for w in caught
                                      if type(w.message).__name__ == "ReplicaFallbackWarning"]
        out["keras_fit_programs"] = [type(t.program).__name__
                                     for t in strategy._traces.values()]
        out["restored"] = programs.restored(tf, os.path.join(tmp, "model"))
    return out


if __name__ == "__main__":
    print("RESULT" + json.dumps(run()))
