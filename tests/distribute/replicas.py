"""Run tests/distribute/programs.py on the runtime with the CPU split into N
logical devices (JAX fixes its device count per process, so each count is
its own process), printing one JSON line of results:

    python tests/distribute/replicas.py 4
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import programs  # noqa: E402
import runtime as tf  # noqa: E402


def main(n):
    before = [d.name for d in tf.config.list_physical_devices("CPU")]
    from jax._src import xla_bridge
    started_early = xla_bridge.backends_are_initialized()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * n)
    out = {"physical_before_split": before, "jax_started_before_split": started_early,
           "logical": [d.name for d in tf.config.list_logical_devices("CPU")]}
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()])
    except RuntimeError as e:
        out["second_split"] = str(e)
    out["single"] = programs.custom_loop(tf, tf.distribute.get_strategy())
    strategy = tf.distribute.MirroredStrategy()
    out["custom_loop"] = programs.custom_loop(tf, strategy)
    out["checks"] = programs.checks(tf, strategy)
    if n == 4:
        with tempfile.TemporaryDirectory() as tmp:
            out["keras_single"] = programs.keras_fit(tf, tf.distribute.get_strategy(),
                                                     os.path.join(tmp, "one"))
            out["keras_fit"] = programs.keras_fit(tf, strategy, os.path.join(tmp, "model"))
            out["restored"] = programs.restored(tf, os.path.join(tmp, "model"))
    print("RESULT" + json.dumps(out))


if __name__ == "__main__":
    main(int(sys.argv[1]))
