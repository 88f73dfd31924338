"""Record TF 2.21's values for the tf.distribute tests
(tests/runtime/distribute/programs.py run under TF with its CPU split into 1, 2, 4
and 8 logical devices) into tests/data/distribute_tf221.json.

    $BENCH_TF_PYTHON tools/record_distribute.py [N ...]   # default: 1 2 4 8

2 devices: only the steps XLA cannot run whole (what the 2-process
MultiWorkerMirroredStrategy test compares with).

Each device count runs in its own process (a split is fixed once TF starts);
the counts given replace theirs in the file, the others are kept.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "distribute_tf221.json")


def record(n):
    """The programs' values on `n` logical CPUs under MirroredStrategy (1:
    the default strategy)."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "runtime", "distribute"))
    import tensorflow as tf
    import programs
    cpu = tf.config.list_physical_devices("CPU")[0]
    if n > 1:
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * n)
        strategy = tf.distribute.MirroredStrategy()
    else:
        strategy = tf.distribute.get_strategy()
    if n == 2:
        return {"fallback": programs.fallback_checks(tf, strategy, programs.replica_id_of(tf))}
    out = {"custom_loop": programs.custom_loop(tf, strategy)}
    if n > 1:
        out["checks"] = programs.checks(tf, strategy)
    if n in (1, 4):
        with tempfile.TemporaryDirectory() as tmp:
            out["keras_fit"] = programs.keras_fit(tf, strategy, os.path.join(tmp, "model"))
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--devices":
        print("RESULT" + json.dumps(record(int(sys.argv[2]))))
        return
    counts = [int(a) for a in sys.argv[1:]] or [1, 2, 4, 8]
    results = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            results = json.load(f)["devices"]
    for n in counts:
        run = subprocess.run([sys.executable, __file__, "--devices", str(n)],
                             capture_output=True, text=True, check=True)
        line = [x for x in run.stdout.splitlines() if x.startswith("RESULT")][-1]
        results[str(n)] = json.loads(line[len("RESULT"):])
    with open(OUT, "w") as f:
        json.dump({"source": "TF 2.21 / Keras 3.15, tools/record_distribute.py",
                   "devices": results}, f, indent=1)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
