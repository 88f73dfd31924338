"""What the Keras recorders (tools/record_distillation.py, record_feature_space.py,
record_elastic_transform.py) share: an error as recorded text, and writing a
run's results with Keras's version.

    record(OUT, lambda keras: run_cases(keras))   # in the TensorFlow 2.21 virtualenv
"""

import json


def error_text(fn):
    """'ExceptionType: message' of what `fn()` raises, or "no error"."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        return f"{type(e).__name__}: {e}"
    return "no error"


def record(path, run):
    """Write {"keras": version, "cases": run(keras)} to `path` as JSON."""
    import keras
    results = run(keras)
    with open(path, "w") as f:
        json.dump({"keras": keras.__version__, "cases": results}, f, indent=1)
    print(f"wrote {path}")
    return 0
