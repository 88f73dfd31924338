"""Record TensorFlow 2.21's results for the cases of
tests/runtime/train/test_checkpoint_sharding.py: checkpoints written with
`tf.train.CheckpointOptions(experimental_sharding_callback=...)` (TF's
`MaxShardSizePolicy` at several sizes, `ShardByTaskPolicy`, two user
`ShardingCallback`s), a `tf.train.experimental.PythonState` saved and
restored, `tf.train.CheckpointView` over them, and the errors.

    $BENCH_TF_PYTHON tools/record_checkpoint_sharding.py
    # writes tests/data/checkpoint_sharding_tf221.json and, for the test that
    # reads TensorFlow's files, tests/runtime/train/fixtures/tf221_sharded_max*.*

`run_cases(tf, directory)` runs every case with the module `tf` (TensorFlow,
or `runtime`) and returns JSON-ready results; the test runs it on runtime.
"""

import json
import os
import shutil
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "checkpoint_sharding_tf221.json")
FIXTURES = os.path.join(ROOT, "tests", "runtime", "train", "fixtures")
MAX_SIZES = [16, 20, 40, 1000]   # TF 2.21 never returns when a one-axis slice is larger
FIXTURE_SIZES = [20]          # TF's files kept for the test that reads them


def error_text(fn):
    """'ExceptionType: message' of what `fn()` raises, or "no error"."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        return f"{type(e).__name__}: {e}"
    return "no error"


def note_class(tf):
    """A PythonState holding a text."""
    class Note(tf.train.experimental.PythonState):
        def __init__(self, text=""):
            self.text = text

        def serialize(self):
            return self.text

        def deserialize(self, string_value):
            self.text = string_value
    return Note


def make_root(tf, filled=True):
    """A Checkpoint of a Module with float32 (3, 4), int64, string (2,) and
    float64 (10,) Variables and a PythonState, set in name order."""
    m = tf.Module()
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    m.a = tf.Variable(a if filled else np.zeros_like(a))
    m.b = tf.Variable(5 if filled else 0, dtype=tf.int64)
    m.c = tf.Variable(["ab", "cde"] if filled else ["", ""])
    d = np.linspace(0.0, 1.0, 10)
    m.d = tf.Variable(d if filled else np.zeros_like(d))
    m.s = note_class(tf)("hello" if filled else "")
    return tf.train.Checkpoint(m=m)


def policies(tf):
    """{case name: sharding callback}: TF's policies and two written by a user."""
    class AllInOne(tf.train.experimental.ShardingCallback):
        @property
        def description(self):
            return "Place all tensors in a single shard."

        def __call__(self, shardable_tensors):
            shard = {}
            for t in shardable_tensors:
                shard.setdefault(t.checkpoint_key, {})[t.slice_spec] = t.tensor
            return [shard]

    class EachOwn(tf.train.experimental.ShardingCallback):
        description = "Every tensor in a shard of its own."

        def __call__(self, shardable_tensors):
            return [{t.checkpoint_key: {t.slice_spec: t.tensor}} for t in shardable_tensors]

    found = {f"max{n}": tf.train.experimental.MaxShardSizePolicy(n) for n in MAX_SIZES}
    found.update(task=tf.train.experimental.ShardByTaskPolicy(), all_in_one=AllInOne(),
                 each_own=EachOwn())
    return found


def _value(x):
    x = np.asarray(x)
    if x.dtype == object or x.dtype.kind == "S":
        return [b.decode() if isinstance(b, bytes) else str(b) for b in x.reshape(-1).tolist()]
    return x.reshape(-1).tolist()


def _restored(tf, path):
    root = make_root(tf, filled=False)
    root.read(path).assert_consumed()
    m = root.m
    text = m.s.text
    return {"a": _value(m.a.numpy()), "b": _value(m.b.numpy()), "c": _value(m.c.numpy()),
            "d": _value(m.d.numpy()), "s": [type(text).__name__, _value([text])[0]]}


def _view(tf, path):
    view = tf.train.CheckpointView(path)
    fresh = make_root(tf, filled=False)
    partial = tf.train.Checkpoint(m=tf.Module())
    partial.m.a = tf.Variable(np.zeros((3, 4), np.float32))
    return {"children0": view.children(0), "children1": view.children(1),
            "descendants": view.descendants(),
            "match": sorted(view.match(fresh)), "match_partial": sorted(view.match(partial)),
            "match_module": sorted(view.match(fresh.m))}


def _shard_info(tf):
    """What the policies' callbacks are given: the ShardableTensors' fields."""
    seen = []

    class Spy(tf.train.experimental.ShardingCallback):
        description = "spy"

        def __call__(self, shardable_tensors):
            for t in shardable_tensors:
                seen.append([t.checkpoint_key, t.name, t.slice_spec, t.dtype.name,
                             [int(d) for d in t.shape], t.device.device_type, t.device.task,
                             t.trackable is None, hash(t) == hash(t)])
            return tf.train.experimental.ShardByTaskPolicy()(shardable_tensors)
    return Spy(), seen


def run_cases(tf, directory):
    out = {}
    for name, policy in policies(tf).items():
        path = os.path.join(directory, name, "ckpt")
        options = tf.train.CheckpointOptions(experimental_sharding_callback=policy)
        written = make_root(tf).write(path, options=options)
        names = [v for v, _ in tf.train.list_variables(written)
                 if v != "_CHECKPOINTABLE_OBJECT_GRAPH"]
        out[name] = {"files": sorted(os.listdir(os.path.dirname(path))), "variables": names,
                     "restored": _restored(tf, written), "view": _view(tf, written),
                     "description": policy.description}
    spy, seen = _shard_info(tf)
    saved = make_root(tf).save(os.path.join(directory, "spy", "ckpt"),
                               options=tf.train.CheckpointOptions(experimental_sharding_callback=spy))
    out["spy"] = {"path_end": os.path.basename(str(saved)), "tensors": seen,
                  "files": sorted(os.listdir(os.path.join(directory, "spy")))}
    out["policy_hash_equal"] = hash(tf.train.experimental.MaxShardSizePolicy(8)) == \
        hash(tf.train.experimental.MaxShardSizePolicy(8))
    out["errors"] = _errors(tf, directory)
    return out


def _errors(tf, directory):
    class Bad(tf.train.experimental.PythonState):
        def serialize(self):
            return 5

        def deserialize(self, string_value):
            pass
    return {
        "options_function": error_text(lambda: tf.train.CheckpointOptions(
            experimental_sharding_callback=lambda tensors: [])),
        "abstract_callback": error_text(lambda: tf.train.experimental.ShardingCallback()),
        "abstract_state": error_text(lambda: tf.train.experimental.PythonState()),
        "serialize_not_string": error_text(
            lambda: tf.train.Checkpoint(x=Bad()).write(os.path.join(directory, "bad", "c"))),
        "view_match_not_trackable": error_text(lambda: tf.train.CheckpointView(
            os.path.join(directory, "task", "ckpt")).match(3)),
    }


def main():
    import tensorflow as tf
    directory = tempfile.mkdtemp()
    try:
        results = run_cases(tf, directory)
        for n in FIXTURE_SIZES:
            for f in os.listdir(os.path.join(directory, f"max{n}")):
                shutil.copy(os.path.join(directory, f"max{n}", f),
                            os.path.join(FIXTURES, f.replace("ckpt", f"tf221_sharded_max{n}")))
    finally:
        shutil.rmtree(directory)
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": results}, f, indent=1)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
