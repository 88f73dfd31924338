"""Helpers for the CLI tests: run `python -m autograph` as a subprocess, or,
when nothing of the process matters (no stdin, the usual PATH),
`autograph.cli.main` in this process: a fresh interpreter spends a second or
more importing autograph (and runtime, for `graph` and `export`), and these
tests make about 150 calls. `main` catches every error itself
(one line on stderr, an exit status); the call runs in the same working
directory and environment, and the folders and modules it imports for the
user's file are dropped afterwards."""

import contextlib
import importlib.util
import io
import itertools
import os
import subprocess
import sys
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "modules")
_imports = itertools.count()


def run_cli(*args, stdin=None, cwd=None, env_path=None):
    """Run the CLI; return CompletedProcess with text stdout/stderr."""
    if stdin is None and env_path is None:
        return _run_in_process(args, cwd or ROOT)
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("AUTOGRAPH_CLI_TRACEBACK", None)
    if env_path is not None:
        env["PATH"] = env_path
    return subprocess.run([sys.executable, "-m", "autograph", *args], input=stdin,
                          capture_output=True, text=stdin is None or isinstance(stdin, str),
                          cwd=cwd or ROOT, env=env, timeout=120)


def _run_in_process(args, cwd):
    from autograph.cli import main
    out, err = io.StringIO(), io.StringIO()
    path, modules, here = list(sys.path), set(sys.modules), os.getcwd()
    trace = os.environ.pop("AUTOGRAPH_CLI_TRACEBACK", None)
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings():
            try:
                code = main(list(args))
            except SystemExit as e:              # argparse's usage errors and --help
                code = e.code if isinstance(e.code, int) else int(e.code is not None)
    finally:
        os.chdir(here)
        if trace is not None:
            os.environ["AUTOGRAPH_CLI_TRACEBACK"] = trace
        added = [p for p in sys.path if p not in path]
        sys.path[:] = path
        for name in set(sys.modules) - modules:
            where = getattr(sys.modules[name], "__file__", None) or ""
            if any(where.startswith(folder + os.sep) for folder in added):
                del sys.modules[name]
    return subprocess.CompletedProcess([sys.executable, "-m", "autograph", *args], code,
                                       out.getvalue(), err.getvalue())


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
