"""The shared half of tests that replay a case table of tools/record_*.py: the
table module (its `cases(tf, wrap)` computes every case and `OUT` names the
.npz of TF 2.21's recorded values), those values, the case names, and a
module-scoped `results` fixture running the table eagerly and traced.

    table, DATA, NAMES = load("record_conv3d")
    results = results_fixture(table)       # a fixture: results[name] per mode
"""

import importlib
import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import TOOLS

MODES = {"eager": lambda f: f, "function": lambda f: tf.function(f, autograph=False)}


def load(module_name):
    """(the tools/ table module, its recorded arrays, the sorted case names)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    table = importlib.import_module(module_name)
    data = np.load(table.OUT)
    return table, data, sorted({k.split("/")[0] for k in data.files})


def results_fixture(table):
    """A module-scoped fixture: the table's results, once eagerly, once traced."""
    @pytest.fixture(scope="module", params=list(MODES))
    def results(request):
        return table.cases(tf, MODES[request.param])
    return results
