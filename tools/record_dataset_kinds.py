"""Print TensorFlow 2.21's values for tests/runtime/data/test_dataset_kinds.py:
for every way a user gets a dataset (tests/runtime/data/dataset_kinds.py),
whether it is a tf.data.Dataset, its repr and its first elements. Run with the
TensorFlow venv:

    $BENCH_TF_PYTHON tools/record_dataset_kinds.py

The test holds these values as literals; rerun this to check them again.
"""

import os
import sys
import tempfile

import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "runtime", "data"))
import dataset_kinds  # noqa: E402 - found through the path above


def main():
    built, seen = dataset_kinds.kinds(tf, tempfile.mkdtemp())
    for name, make in built.items():
        ds = make()
        print(f"    {name!r}: ({isinstance(ds, tf.data.Dataset)}, {repr(ds)!r},")
        print(f"        {dataset_kinds.values(tf, ds)!r}),")
    print("seen by user code:", seen)
    print("in a tf.function:", dataset_kinds.in_function(tf))


if __name__ == "__main__":
    main()
