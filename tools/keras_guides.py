"""Run the keras.io developer guides cell by cell, here and on TF, and compare.

    # once, where TF is installed: record what each cell prints on Keras 3.15/TF 2.21
    python3 tools/keras_guides.py --guides KERAS --record    # runs /tmp/tfvenv/bin/python
    # then, with only this project installed:
    python3 tools/keras_guides.py --guides KERAS               # the table
    python3 tools/keras_guides.py --guides KERAS --show functional_api

KERAS is a checkout of github.com/keras-team/keras-io, or of keras-team/keras,
whose guides/ holds the same Keras 3 guides (serialization_and_saving and
migrating_to_keras_3 are in keras-io only, and skipped when absent). A guide is a .py file whose top-level string literals are
its markdown; the code between two of them is one cell. The cells run in order
in one namespace, in a subprocess per guide, with `keras` as `runtime.keras` and
`tensorflow` as `runtime` here, and on TF with `TF_PYTHON` (default
/tmp/tfvenv/bin/python) and KERAS_BACKEND=tensorflow. Lines importing torch,
jax or tensorflow_datasets are dropped (none of them is installed beside TF;
cells that use them fail on TF too and are left out). Cells that need a
download (keras.datasets, pretrained weights) fail on TF, where nothing is
downloaded, and are left out, with the cells that depend on them. The
machinery (running, normalizing, comparing) is tools/guide_cells.py, shared
with tools/tf_guides.py.

The record (tests/data/keras_guides.json) keeps, per cell, a hash of its source
and TF's outputs (facts about TF); the guides' code stays in the checkout.
"""

import ast
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from guide_cells import ROOT, Guides, compare, normalize, run_file, table  # noqa: E402

__all__ = ["code_cells", "compare", "normalize", "run_guide_file", "table"]
RECORD = ROOT / "tests" / "data" / "keras_guides.json"
TF_PYTHON = os.environ.get("TF_PYTHON", "/tmp/tfvenv/bin/python")
GUIDES = {name: f"guides/{name}.py" for name in [
    "functional_api",
    "sequential_model",
    "training_with_built_in_methods",
    "custom_train_step_in_tensorflow",
    "writing_a_custom_training_loop_in_tensorflow",
    "making_new_layers_and_models_via_subclassing",
    "serialization_and_saving",
    "writing_your_own_callbacks",
    "understanding_masking_and_padding",
    "transfer_learning",
    "distributed_training_with_tensorflow",
    "migrating_to_keras_3",
]}
_DROPPED_IMPORT = re.compile(r"^(import (torch|jax|tensorflow_datasets)\b|from (torch|jax)\b)")


def _is_markdown(node):
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def code_cells(path):
    """The code cells of a keras.io guide: the code between its markdown strings."""
    text = pathlib.Path(path).read_text()
    lines = text.splitlines()
    cells, start = [], 0
    for node in ast.parse(text).body + [None]:
        if node is not None and not _is_markdown(node):
            continue
        end = node.lineno - 1 if node is not None else len(lines)
        chunk = [line for line in lines[start:end] if not _DROPPED_IMPORT.match(line)]
        source = "\n".join(chunk).strip("\n")
        if source.strip():
            cells.append(source)
        start = node.end_lineno if node is not None else end
    return cells


def run_guide_file(path, ours, python=None, timeout=1800):
    """[cell result dicts] of one guide file, run in a fresh subprocess."""
    return run_file(pathlib.Path(__file__).resolve(), path, ours, python=python,
                    timeout=timeout, env=None if ours else {"KERAS_BACKEND": "tensorflow"})


GUIDE_SET = Guides(GUIDES, RECORD, code_cells, pathlib.Path(__file__).resolve(),
                   tf_python=TF_PYTHON, tf_env={"KERAS_BACKEND": "tensorflow"})


def main(argv=None):
    return GUIDE_SET.main(argv, __doc__.splitlines()[0], "--guides",
                          "a checkout of github.com/keras-team/keras-io (or keras-team/keras)")


if __name__ == "__main__":
    sys.exit(main())
