"""Record TensorFlow 2.21's `tf.saved_model.experimental.Fingerprint` and
`read_fingerprint` for tests/runtime/saved_model/test_fingerprint.py.

    $BENCH_TF_PYTHON tools/record_fingerprint.py
    # writes tests/data/fingerprint_tf221.json and the fingerprint.pb of a small
    # SavedModel TF saved, tests/runtime/saved_model/fixtures/tf221_fingerprint.pb

`run_cases(tf, directory)` reads the fingerprint of `directory` and returns
its fields, text forms and singleprint, with the errors for a missing and a
damaged fingerprint.pb and an empty Fingerprint (paths shown as <DIR>).
"""

import json
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "fingerprint_tf221.json")
FIXTURE = os.path.join(ROOT, "tests", "runtime", "saved_model", "fixtures",
                       "tf221_fingerprint.pb")


def error_text(fn, directory):
    """'ExceptionType: message' of what `fn()` raises (paths as <DIR>)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        return f"{type(e).__name__}: {e}".replace(directory, "<DIR>")
    return "no error"


def run_cases(tf, directory):
    """Results for the fingerprint.pb in `directory` (and files made beside it)."""
    E = tf.saved_model.experimental
    fp = E.read_fingerprint(directory)
    same = E.Fingerprint(fp.saved_model_checksum, fp.graph_def_program_hash,
                         fp.signature_def_hash, fp.saved_object_graph_hash, fp.checkpoint_hash)
    with open(os.path.join(directory, "fingerprint.pb"), "rb") as f:
        data = f.read()
    bad = os.path.join(directory, "bad")
    os.makedirs(bad, exist_ok=True)
    with open(os.path.join(bad, "fingerprint.pb"), "wb") as f:
        f.write(b"\xff\xff")
    return {
        "fields": [fp.saved_model_checksum, fp.graph_def_program_hash, fp.signature_def_hash,
                   fp.saved_object_graph_hash, fp.checkpoint_hash, fp.version.producer],
        "repr": repr(fp), "str": str(fp), "singleprint": fp.singleprint(),
        "equal": [fp == same, fp == E.Fingerprint.from_proto(data), fp == 3,
                  fp == E.Fingerprint()],
        "empty_repr": repr(E.Fingerprint()),
        "given": E.Fingerprint(1, 2, 3, 4, 5).singleprint(),
        "missing": error_text(lambda: E.read_fingerprint(os.path.join(directory, "nope")),
                              directory),
        "damaged": error_text(lambda: E.read_fingerprint(bad), directory).split("\n")[0],
        "empty_singleprint": error_text(lambda: E.Fingerprint().singleprint(),
                                        directory).split("Singleprint()")[0],
    }


def main():
    import tensorflow as tf
    directory = tempfile.mkdtemp()
    try:
        m = tf.Module()
        m.v = tf.Variable([1.0, 2.0])
        m.f = tf.function(lambda x: x * m.v, input_signature=[tf.TensorSpec([2])])
        tf.saved_model.save(m, directory)
        shutil.copy(os.path.join(directory, "fingerprint.pb"), FIXTURE)
        results = run_cases(tf, directory)
    finally:
        shutil.rmtree(directory)
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": results}, f, indent=1)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
