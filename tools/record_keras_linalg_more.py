"""Print Keras 3.15's (TF 2.21) `keras.ops.lu_factor` and `keras.ops.eig` values
for tests/keras/ops/test_keras_linalg_more.py (its TF_221 literals), or ours:

    $BENCH_TF_PYTHON tools/record_keras_linalg_more.py keras
    PYTHONPATH=. python3 tools/record_keras_linalg_more.py runtime.keras
"""

import importlib
import sys

import numpy as np

keras = importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "keras")
ops = keras.ops
MATRICES = {"a": [[1.0, 2.0], [3.0, 4.0]],
            "b": [[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]],
            "ident": [[1.0, 0.0], [0.0, 1.0]]}
for name, m in MATRICES.items():
    lu, piv = ops.lu_factor(np.array(m, "float32"))
    print(name, "lu", np.round(np.asarray(lu), 6).tolist(), np.asarray(lu).dtype,
          np.asarray(piv).tolist(), np.asarray(piv).dtype)
rot = np.array([[0.0, -1.0], [1.0, 0.0]], "float32")
for name, m in (("sym", [[2.0, 1.0], [1.0, 2.0]]), ("rot", rot)):
    w, v = ops.eig(np.array(m, "float32"))
    order = np.argsort(np.asarray(w).real + 1e-3 * np.asarray(w).imag)
    print(name, "eig", np.round(np.asarray(w)[order], 6).tolist(), np.asarray(w).dtype,
          np.asarray(v).dtype, np.asarray(v).shape)
