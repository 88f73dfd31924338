"""Run TF's tf.distribute notebooks (github.com/tensorflow/docs: the
custom-training-loop tutorial, site/en/tutorials/distribute/custom_training.ipynb,
and the guide, site/en/guide/distributed_training.ipynb) cell by cell on 4
logical CPUs, here or on TF, and print what each cell prints, so the two
can be compared:

    python3 tools/distribute_guides.py --docs /tmp/tfdocs [--notebook distributed_training]
    /tmp/tfvenv/bin/python tools/distribute_guides.py --docs /tmp/tfdocs --tf

The cells run as written, with three changes: the CPU is split into 4
logical devices first; Fashion-MNIST (a download) is replaced by 3,072
training and 1,024 test images of seeded random pixels and labels, of its
shapes and dtypes; and EPOCHS is 1 after the cell that sets it.
"""

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOKS = {"custom_training": "site/en/tutorials/distribute/custom_training.ipynb",
             "distributed_training": "site/en/guide/distributed_training.ipynb"}
SPLIT = ("cpu = tf.config.list_physical_devices('CPU')[0]\n"
         "tf.config.set_logical_device_configuration(cpu, "
         "[tf.config.LogicalDeviceConfiguration()] * 4)\n")
DATA = ("_rng = np.random.RandomState(0)\n"
        "train_images = _rng.randint(0, 256, (3072, 28, 28)).astype(np.uint8)\n"
        "train_labels = _rng.randint(0, 10, 3072).astype(np.uint8)\n"
        "test_images = _rng.randint(0, 256, (1024, 28, 28)).astype(np.uint8)\n"
        "test_labels = _rng.randint(0, 10, 1024).astype(np.uint8)")
REPLACE = {"fashion_mnist = tf.keras.datasets.fashion_mnist": "",
           "(train_images, train_labels), (test_images, test_labels) = "
           "fashion_mnist.load_data()": DATA}
AFTER = {"EPOCHS = 10": "EPOCHS = 1\n"}


def cells(docs, name):
    with open(os.path.join(docs, NOTEBOOKS[name])) as f:
        notebook = json.load(f)
    out = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        source = "\n".join(line for line in source.splitlines()
                           if not line.lstrip().startswith(("!", "%")))
        if "import tensorflow as tf" in source:
            source = source + "\n" + SPLIT
        for key, new in REPLACE.items():
            source = source.replace(key, new)
        for key, extra in AFTER.items():
            if key in source:
                source = source + "\n" + extra
        out.append(source)
    return out


def run(docs, name, use_tf):
    if not use_tf:
        sys.path.insert(0, ROOT)
        import runtime
        sys.modules["tensorflow"] = runtime
    namespace = {"__name__": "__main__"}
    os.chdir(tempfile.mkdtemp())
    results = []
    for i, source in enumerate(cells(docs, name)):
        buffer = io.StringIO()
        start = time.time()
        try:
            path = os.path.abspath(f"cell_{i}.py")     # a file: autograph reads the source
            with open(path, "w") as f:
                f.write(source)
            with contextlib.redirect_stdout(buffer):
                exec(compile(source, path, "exec"), namespace)  # noqa: S102 - running the cell
            error = None
        except Exception as e:  # noqa: BLE001 - reported per cell
            error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            traceback.print_exc(limit=-3)
        printed = re.sub(r"0x[0-9a-f]+", "0x...", buffer.getvalue())
        results.append({"cell": i, "error": error, "printed": printed,
                        "seconds": round(time.time() - start, 1)})
        print(f"--- cell {i} ({results[-1]['seconds']} s){' ERROR ' + error if error else ''}")
        print(printed, end="")
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", required=True, help="a checkout of tensorflow/docs")
    parser.add_argument("--tf", action="store_true", help="run on TensorFlow itself")
    parser.add_argument("--notebook", choices=sorted(NOTEBOOKS), default="custom_training")
    args = parser.parse_args()
    results = run(args.docs, args.notebook, args.tf)
    failed = [r["cell"] for r in results if r["error"]]
    print(f"{len(results) - len(failed)} of {len(results)} cells ran; failed: {failed}")


if __name__ == "__main__":
    main()
