"""Differential fuzzing through ONNX, a smoke count: random programs (tools/fuzz.py's
generators) traced, exported, run by ONNX Runtime and compared with plain
Python (tools/fuzz_onnx.py). The seed comes from AUTOGRAPH_FUZZ_SEED when
set (CI varies it per run); a failure prints the command that replays it."""

import importlib.util
import os

import pytest

pytest.importorskip("onnx", reason="onnx is not installed (pip install -e '.[onnx]')")
pytest.importorskip("onnxruntime",
                    reason="onnxruntime is not installed (pip install -e '.[onnx]')")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("fuzz_onnx",
                                               os.path.join(ROOT, "tools", "fuzz_onnx.py"))
fuzz_onnx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_onnx)

SEED = int(os.environ.get("AUTOGRAPH_FUZZ_SEED", "0"))
# A smoke count of each mode: CI runs 120, 60 and 60 in its own step (.ci/fuzz).
COUNTS = {"default": 12, "composites": 6, "closures": 6}


@pytest.mark.parametrize("mode", sorted(COUNTS))
def test_fuzzed_programs_agree_in_onnx_runtime(mode):
    stats = fuzz_onnx.run(COUNTS[mode], SEED, mode, quiet=True)
    flag = "" if mode == "default" else f" --{mode}"
    for seed, source, rows in stats["failing"][:1]:
        pytest.fail(f"seed {seed} disagrees in ONNX Runtime (replay: python tools/fuzz_onnx.py "
                    f"--count {COUNTS[mode]} --seed {SEED}{flag}):\n{source}\n{rows}")
    assert stats["mismatches"] == 0
    assert stats["refused"] == 0, stats["refusals"]
