"""tools/tf_guides.py runs a notebook's cells with `tensorflow` as `runtime`
and compares what each shows with TF's record (here a made-up notebook and
record, so the test needs neither TF nor the docs checkout)."""

import importlib.util
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool():
    spec = importlib.util.spec_from_file_location(
        "tf_guides", os.path.join(ROOT, "tools", "tf_guides.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _notebook(path, cells):
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": ["# t"]}] + [
        {"cell_type": "code", "source": [c]} for c in cells]}))
    return path


def test_cells_run_in_order_with_tensorflow_as_runtime(tmp_path):
    tool = _tool()
    notebook = _notebook(tmp_path / "t.ipynb", [
        "!pip install tensorflow\nimport tensorflow as tf\nimport keras",
        "x = tf.constant([1, 2])\nprint(tf.__name__, keras.__name__)\nx * 2",
        "tf.no_such_name",
        "def f():\n  return object()\nf()",
    ])
    cells = tool.run_notebook(notebook, ours=True)
    assert [c["error"] for c in cells[:2]] == [None, None]
    assert cells[1]["output"] == ("runtime runtime.keras\n<tf.Tensor: shape=(2,), dtype=int32, "
                                  "numpy=array([2, 4], dtype=int32)>")
    assert cells[2]["error"].startswith("AttributeError")
    assert cells[3]["output"] == "<object object at 0x?>"      # addresses blanked
    recorded = [dict(c) for c in cells]
    recorded[1]["output"] = "something else"
    recorded[2]["error"] = None                # ran on TF, fails here
    assert tool.compare(recorded, cells) == (4, 3, 2)
    assert "| **all** | **4** | **3 (75%)** | **2 (50%)** |" in tool.table(
        [("t", tool.compare(recorded, cells))])


def test_normalize_blanks_timings_and_addresses():
    tool = _tool()
    assert tool.normalize("took 12.5 ms  \n<f at 0x7f12ab34cd>\n") == "took <time>\n<f at 0x?>"
    # timeit's bare seconds in the function and intro_to_graphs guides; other floats stay
    assert tool.normalize("Eager conv: 3.103609009000138\nGraph execution: 4.48 seconds\n"
                          "loss: 0.30000001192092896") == \
        "Eager conv: <time>\nGraph execution: <time> seconds\nloss: 0.30000001192092896"
