"""The README's "Deploy with ONNX" example: export with runtime.onnx, then
run the model with ONNX Runtime in a process where autograph and runtime
cannot be imported."""

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("onnx", reason="onnx is not installed (pip install -e '.[onnx]')")
pytest.importorskip("onnxruntime",
                    reason="onnxruntime is not installed (pip install -e '.[onnx]')")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_BLOCK = ("import sys\n"
          "sys.modules['runtime'] = sys.modules['autograph'] = None   # not importable\n")


def _section():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    start = text.index("## Deploy with ONNX\n")
    return text[start:text.index("\n## ", start + 1)]


def _run(code, tmp_path, name):
    (tmp_path / name).write_text(code, encoding="utf-8")     # a file: autograph reads source
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, name], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_readme_exports_and_onnx_runtime_runs_it_alone(tmp_path):
    section = _section()
    export, deploy = re.findall(r"```python\n(.*?)```", section, re.S)
    printed = re.findall(r"prints `([^`]*)`", section)
    assert _run(export, tmp_path, "export.py").strip() == printed[0]
    assert (tmp_path / "collatz.onnx").exists()
    assert _run(_BLOCK + deploy, tmp_path, "deploy.py").strip() == printed[1]
