"""The README's examples print what the README says they print."""

import os
import re

from tests import fresh_process

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def _run(code, tmp_path, name="demo.py", env=None):
    path = tmp_path / name
    path.write_text(code, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONIOENCODING="utf-8", **(env or {}))
    run = fresh_process.run([str(path)], capture_output=True, text=True, encoding="utf-8",
                            cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_training_lstm_example_prints_what_the_readme_shows(tmp_path):
    pairs = re.findall(r"```python\n((?:(?!```).)*?)```\s*prints[^\n]*\s*```\n(.*?)```",
                       _section("Training"), re.S)
    code, printed = next(p for p in pairs if "LSTM" in p[0])
    assert _run(code, tmp_path) == printed


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


def test_training_examples_print_what_the_readme_shows(tmp_path):
    # The functional-API example continues the first one (its data and layer names).
    pairs = re.findall(r"```python\n((?:(?!```).)*?)```\s*prints[^\n]*\s*```\n(.*?)```",
                       _section("Training"), re.S)
    pairs = [p for p in pairs if "LSTM" not in p[0]]       # the LSTM example runs alone
    assert len(pairs) >= 3
    code = "\n".join(c for c, _ in pairs)
    assert _run(code, tmp_path, env={"COLUMNS": "80"}) == "".join(p for _, p in pairs)
