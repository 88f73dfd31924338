"""The CLI is a package (`autograph/cli/`) reached three ways: `python -m
autograph`, the `autograph` console script declared in pyproject.toml, and
`autograph.cli.main(argv)`."""

import importlib
import os
import re
import shutil
import subprocess

import pytest

import autograph.cli
from conftest import ROOT, run_cli


def test_cli_is_a_package_with_one_module_per_concern():
    assert os.path.basename(autograph.cli.__file__) == "__init__.py"
    for name in ("args", "main", "convert", "check", "graph", "source", "transpiler"):
        assert importlib.import_module(f"autograph.cli.{name}").__name__ == f"autograph.cli.{name}"
    assert autograph.cli.main is importlib.import_module("autograph.cli.main").main


def test_python_dash_m_autograph_help():
    proc = run_cli("--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: autograph ")
    for command in ("convert", "check", "graph"):
        assert command in proc.stdout


def test_console_script_entry_point_resolves_to_main():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        scripts = f.read().split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    target = re.search(r'^autograph\s*=\s*"([^"]+)"', scripts, re.M).group(1)
    module_name, _, attr = target.partition(":")
    assert target == "autograph.cli:main"
    assert getattr(importlib.import_module(module_name), attr) is autograph.cli.main


def test_main_returns_exit_status_without_a_command(capsys):
    assert autograph.cli.main([]) == 2
    assert "usage: autograph" in capsys.readouterr().err


def test_installed_console_script_runs_when_present():
    exe = shutil.which("autograph")
    if exe is None:
        pytest.skip("the autograph console script is not installed (pip install -e .)")
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("autograph "), proc.stderr
