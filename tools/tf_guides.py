"""Run TensorFlow's guide notebooks cell by cell, here and on TF, and compare.

    # once, where TF is installed: record what each cell prints on TF 2.21
    $BENCH_TF_PYTHON tools/tf_guides.py --docs DOCS --record
    # then, with only this project installed:
    python3 tools/tf_guides.py --docs DOCS                  # the table
    python3 tools/tf_guides.py --docs DOCS --show data      # each cell of one guide

DOCS is a checkout of github.com/tensorflow/docs (its site/en/...). A
notebook's code cells run in order in one namespace, in a subprocess per
notebook, with `tensorflow` (and `keras`) imported as `runtime` (and
`runtime.keras`) when not recording (the machinery is tools/guide_cells.py,
shared with tools/keras_guides.py). Shell (`!`) and magic (`%`) lines are
skipped; each cell has a time limit. What a cell shows is its printed output
plus the repr of a final expression, as a notebook shows it; addresses
(0x...) and timings are blanked before comparing.

The record (tests/data/tf_guides.json) keeps, per cell, a hash of its source
and TF's outputs (facts about TF); the notebooks' code stays in the docs
checkout. A cell counts when it ran on TF: it "runs" here if it raises
nothing, and "prints the same" if its normalized output equals TF's.
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from guide_cells import ROOT, Guides, compare, normalize, run_file, table  # noqa: E402

__all__ = ["code_cells", "compare", "normalize", "run_notebook", "table"]
RECORD = ROOT / "tests" / "data" / "tf_guides.json"
GUIDES = {
    "basics": "site/en/guide/basics.ipynb",
    "tensor": "site/en/guide/tensor.ipynb",
    "variable": "site/en/guide/variable.ipynb",
    "autodiff": "site/en/guide/autodiff.ipynb",
    "advanced_autodiff": "site/en/guide/advanced_autodiff.ipynb",
    "intro_to_graphs": "site/en/guide/intro_to_graphs.ipynb",
    "intro_to_modules": "site/en/guide/intro_to_modules.ipynb",
    "function": "site/en/guide/function.ipynb",
    "basic_training_loops": "site/en/guide/basic_training_loops.ipynb",
    "tensor_slicing": "site/en/guide/tensor_slicing.ipynb",
    "random_numbers": "site/en/guide/random_numbers.ipynb",
    "data": "site/en/guide/data.ipynb",
    "checkpoint": "site/en/guide/checkpoint.ipynb",
    "ragged_tensor": "site/en/guide/ragged_tensor.ipynb",
    "sparse_tensor": "site/en/guide/sparse_tensor.ipynb",
    "extension_type": "site/en/guide/extension_type.ipynb",
    "tf_numpy": "site/en/guide/tf_numpy.ipynb",
    "tf_numpy_type_promotion": "site/en/guide/tf_numpy_type_promotion.ipynb",
    "tfrecord": "site/en/tutorials/load_data/tfrecord.ipynb",
    "customization_basics": "site/en/tutorials/customization/basics.ipynb",
    "custom_layers": "site/en/tutorials/customization/custom_layers.ipynb",
    "matrix_core": "site/en/guide/core/matrix_core.ipynb",
    "quickstart_core": "site/en/guide/core/quickstart_core.ipynb",
}


def code_cells(notebook_path):
    """The code cells' sources, shell and magic lines removed."""
    cells = json.loads(pathlib.Path(notebook_path).read_text())["cells"]
    out = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        lines = [line for line in source.splitlines()
                 if not line.lstrip().startswith(("!", "%"))]
        out.append("\n".join(lines))
    return out


def run_notebook(notebook, ours, python=None, timeout=1800):
    """[cell result dicts] of a notebook, run in a fresh subprocess."""
    return run_file(pathlib.Path(__file__).resolve(), notebook, ours, python=python,
                    timeout=timeout)


GUIDE_SET = Guides(GUIDES, RECORD, code_cells, pathlib.Path(__file__).resolve())


def main(argv=None):
    return GUIDE_SET.main(argv, __doc__.splitlines()[0], "--docs",
                          "a checkout of github.com/tensorflow/docs")


if __name__ == "__main__":
    sys.exit(main())
