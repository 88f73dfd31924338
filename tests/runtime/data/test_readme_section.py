"""The README's tf.data example prints what the README says it prints."""

import os
import re

from tests.paths import ROOT as ROOT_PATH
from tests import fresh_process

ROOT = str(ROOT_PATH)


def test_readme_data_example(tmp_path):
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("## Input pipelines (tf.data)\n")
    section = text[start:text.index("\n## ", start + 1)]
    code, printed = re.search(r"```python\n(.*?)```\s*prints\s*```\n(.*?)```", section,
                              re.DOTALL).groups()
    path = tmp_path / "demo.py"
    path.write_text(code + "print(tf.autograph.report(total_until.python_function))\n",
                    encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = fresh_process.run([str(path)], check=False, capture_output=True,
                            text=True,
                            env=env, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(printed)
    assert "staged as a dataset loop (1x)" in run.stdout
