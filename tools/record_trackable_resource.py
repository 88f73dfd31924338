"""Record TensorFlow 2.21's `tf.saved_model.experimental.TrackableResource`
for tests/runtime/saved_model/test_trackable_resource.py.

    $BENCH_TF_PYTHON tools/record_trackable_resource.py   # writes tests/data/trackable_resource_tf221.json

`run_cases(tf, directory)` makes resources whose `_create_resource` returns
a constant, logs when TF calls `_create_resource`, `_initialize` and
`_destroy_resource`, uses the tensor eagerly and in a `tf.function`, tracks
it in a Module (TrackableView, a checkpoint's CheckpointView), saves and
loads a function that uses it, and records the errors.
"""

import gc
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "trackable_resource_tf221.json")


def error_text(fn):
    """'ExceptionType: message' of what `fn()` raises, or "no error"."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        return f"{type(e).__name__}: {e}"
    return "no error"


def resource_class(tf, log):
    """TF's documented pattern: `_initialize` called from `__init__`."""
    class Pair(tf.saved_model.experimental.TrackableResource):
        def __init__(self, device=""):
            super().__init__(device=device)
            self._initialize()

        def _create_resource(self):
            log.append("create")
            return tf.constant([1.0, 2.0])

        def _initialize(self):
            log.append("init")

        def _destroy_resource(self):
            log.append("destroy")
    return Pair


def run_cases(tf, directory):
    log = []
    Pair = resource_class(tf, log)
    out = {}
    r = Pair()
    out["after_init"] = list(log)
    out["handle"] = r.resource_handle.numpy().tolist()
    out["after_handle"] = list(log)
    r.resource_handle
    out["after_second_use"] = list(log)
    out["in_function"] = tf.function(lambda: r.resource_handle * 2.0)().numpy().tolist()
    cpu = Pair(device="CPU")
    out["device"] = [cpu._resource_device, cpu.resource_handle.device.split("device:")[-1]]
    log.clear()
    gone = Pair()
    gone.resource_handle
    del gone
    gc.collect()
    out["deleted"] = list(log)
    log.clear()
    unused = Pair()
    del unused
    gc.collect()
    out["deleted_unused"] = list(log)
    m = tf.Module()
    m.r = Pair()
    m.v = tf.Variable(1.0)
    out["children"] = sorted(tf.train.TrackableView.children(m))
    path = tf.train.Checkpoint(m=m).write(os.path.join(directory, "ckpt"))
    view = tf.train.CheckpointView(path)
    out["checkpoint_children"] = sorted(view.children(view.children(0)["m"]))
    m.f = tf.function(lambda: m.r.resource_handle + m.v, input_signature=[])
    tf.saved_model.save(m, os.path.join(directory, "saved"))
    loaded = tf.saved_model.load(os.path.join(directory, "saved"))
    out["loaded_f"] = loaded.f().numpy().tolist()

    class Bare(tf.saved_model.experimental.TrackableResource):
        pass
    out["not_implemented"] = error_text(lambda: Bare().resource_handle)
    out["no_setter"] = error_text(lambda: setattr(r, "resource_handle", 3))
    return out


def main():
    import tensorflow as tf
    with tempfile.TemporaryDirectory() as directory:
        results = run_cases(tf, directory)
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": results}, f, indent=1)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
