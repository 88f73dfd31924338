"""Helpers for the CLI tests: run `python -m autograph` as a subprocess."""

import importlib.util
import itertools
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "modules")
_imports = itertools.count()


def run_cli(*args, stdin=None, cwd=None, env_path=None):
    """Run the CLI; return CompletedProcess with text stdout/stderr."""
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("AUTOGRAPH_CLI_TRACEBACK", None)
    if env_path is not None:
        env["PATH"] = env_path
    return subprocess.run([sys.executable, "-m", "autograph", *args], input=stdin,
                          capture_output=True, text=stdin is None or isinstance(stdin, str),
                          cwd=cwd or ROOT, env=env, timeout=120)


@pytest.fixture
def cli():
    return run_cli


def import_file(path, prefix):
    """Import the file at `path` as a new module named `<prefix>_<n>` (each call
    a fresh module, so an original and its converted output can sit side by side)."""
    name = f"{prefix}_{next(_imports)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
