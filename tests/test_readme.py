"""The README's examples print what the README says they print."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def _run(code, tmp_path, name="demo.py"):
    path = tmp_path / name
    path.write_text(code)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _section(title):
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end]


def test_first_look_prints_the_rewrite_and_the_report(tmp_path):
    text = _section("A first look")
    example, rewrite = re.findall(r"```python\n(.*?)```", text, re.S)[:2]
    report = re.search(r"`report` says.*?```\n(.*?)```", text, re.S).group(1)
    out = _run(example, tmp_path).replace(str(tmp_path) + os.sep, "")   # demo.py:4
    assert rewrite.strip() in out
    assert report.strip() in out


def test_training_example_prints_what_the_readme_shows(tmp_path):
    code, printed = re.search(r"```python\n((?:(?!```).)*?)```\s*prints\s*```\n(.*?)```",
                              _section("Training"), re.S).groups()
    assert _run(code, tmp_path) == printed
