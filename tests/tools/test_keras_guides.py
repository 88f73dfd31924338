"""tools/keras_guides.py splits a keras.io guide (.py) into cells at its markdown
strings and runs them with `keras` as `runtime.keras`; tools/guide_cells.py
compares what each shows with TF's record as a terminal displays it (here a
made-up guide and record, so the test needs neither TF nor a keras-io checkout)."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GUIDE = '''"""
Title: A made-up guide
"""
"""
## Setup
"""

import numpy as np
import torch
import keras
from keras import layers

"""
Some text.
"""

# a comment starts this cell
x = layers.Dense(2, kernel_initializer="ones")(np.ones((1, 3), "float32"))
print(keras.__name__)
x

"""shell
pip install nothing
"""

keras.no_such_name
'''


def _tool():
    spec = importlib.util.spec_from_file_location(
        "keras_guides", os.path.join(ROOT, "tools", "keras_guides.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cells_split_at_markdown_and_run_with_keras_as_runtime(tmp_path):
    tool = _tool()
    path = tmp_path / "guide.py"
    path.write_text(GUIDE)
    cells = tool.code_cells(path)
    assert cells == [
        "import numpy as np\nimport keras\nfrom keras import layers",   # torch dropped
        '# a comment starts this cell\nx = layers.Dense(2, kernel_initializer="ones")'
        '(np.ones((1, 3), "float32"))\nprint(keras.__name__)\nx',
        "keras.no_such_name"]
    # the cells after the imports, run as the worker runs them (in this process:
    # tools/tf_guides.py's test runs the worker's subprocess, which both tools share)
    import numpy as np

    import runtime
    runner = importlib.import_module("guide_cells")
    namespace = {"np": np, "keras": runtime.keras, "layers": runtime.keras.layers}
    results = []
    for source in cells[1:]:
        output, error = runner._run_cell(source, namespace)
        results.append({"hash": runner.source_hash(source), "output": tool.normalize(output),
                        "error": error})
    assert results[0] == {"hash": runner.source_hash(cells[1]), "error": None,
                          "output": "runtime.keras\n<tf.Tensor: shape=(1, 2), dtype=float32, "
                                    "numpy=array([[3., 3.]], dtype=float32)>"}
    assert results[1]["error"].startswith("AttributeError")
    recorded = [dict(r) for r in results]
    recorded[1]["error"] = None                  # ran on TF, fails here
    assert tool.compare(recorded, results) == (2, 1, 1)


def test_outputs_compare_as_a_terminal_shows_them():
    tool = _tool()
    # Keras's dynamic progress bar: colour codes, backspaces, a carriage return
    keras_bar = ("\x1b[1m1/4\x1b[0m \x1b[32m━━\x1b[0m \x1b[1m9s\x1b[0m 3s/step - loss: 0.5"
                 + "\b" * 40 + "\r\x1b[1m4/4\x1b[0m \x1b[32m━━\x1b[0m \x1b[1m1s\x1b[0m "
                 "12ms/step - loss: 0.25\n")
    ours = "4/4 ━━ 0s 2ms/step - loss: 0.25"
    assert tool.normalize(keras_bar) == tool.normalize(ours) == \
        "4/4 ━━ <time> <time> - loss: 0.25"
    # a record made before the rendering: the overwritten line ends in backspaces
    old = "Epoch 1/2\n1/4 ━━ <time> <time> - loss: 0.5\b\b\n4/4 ━━ <time> <time> - loss: 0.25"
    assert tool.normalize(old) == "Epoch 1/2\n4/4 ━━ <time> <time> - loss: 0.25"
    assert tool.normalize(tool.normalize(keras_bar)) == tool.normalize(keras_bar)
