"""Run guides cell by cell, here and on TF, and compare: the part shared by
tools/tf_guides.py (TF's notebooks) and tools/keras_guides.py (keras.io's .py guides).

A tool built on this module names its guides (name -> path under a checkout), how
a guide file splits into code cells, and where TF's record lives; this module runs
a guide's cells in order in one namespace, in a subprocess per guide, with
`tensorflow` (and `keras`) imported as `runtime` (and `runtime.keras`) when not
recording. What a cell shows is its printed output plus the repr of a final
expression, as a notebook shows it; addresses (0x...) and timings are blanked
before comparing. A cell counts when it ran on TF: it "runs" here if it raises
nothing, and "prints the same" if its normalized output equals TF's.
"""

import argparse
import ast
import contextlib
import difflib
import hashlib
import io
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = pathlib.Path(__file__).resolve().parent.parent
CELL_SECONDS = int(os.environ.get("GUIDE_CELL_SECONDS", "60"))

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
_TIMING = re.compile(r"\b\d+(\.\d+)?\s*(ms|s|us|µs|ns)(/step)?\b")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# timeit's seconds, printed as bare floats: TF's function and intro_to_graphs guides
# time eager against graph execution ("Eager conv: 3.10...", "Graph execution: 4.48...
# seconds"); the numbers are the machine's, not TF's values.
_TIMEIT = re.compile(r"^((?:Eager|Function|Graph) (?:conv|execution)): \d+\.\d+( seconds)?$",
                     re.MULTILINE)


def _as_displayed(text):
    """The lines a terminal shows: a line rewritten after `\\r` (Keras's dynamic
    progress bar, which backspaces over its last line first) shows its last
    version; colour codes are dropped. Records made before this rendering kept
    the overwritten versions as lines ending in backspaces: those are dropped."""
    lines = []
    for line in _ANSI.sub("", text).split("\n"):
        parts = line.split("\r")
        if len(parts) > 1 or not line.endswith("\b"):
            shown = next((part for part in reversed(parts) if part), "")
            lines.append(shown.replace("\b", ""))
    return "\n".join(lines)


def normalize(text):
    """Output as displayed, with addresses and timings blanked, trailing spaces
    dropped. Applying it again changes nothing, so records are compared after
    normalizing them once more (with any rule added since they were made)."""
    text = _TIMING.sub("<time>", _ADDRESS.sub("0x?", _as_displayed(text)))
    text = _TIMEIT.sub(r"\1: <time>\2", text)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def source_hash(source):
    return hashlib.sha256(source.encode()).hexdigest()[:16]


# --- the worker: runs one guide's cells in this process ------------------------------

def _alias_runtime():
    """Make `import tensorflow` (and its namespaces) and `import keras` give ours."""
    sys.path.insert(0, str(ROOT))
    import runtime
    _alias("tensorflow", runtime)
    _alias("keras", runtime.keras)


def _alias(name, module):
    """Register `module` and its public submodules under `name` in sys.modules."""
    import types
    pending = [(name, module)]
    while pending:
        name, module = pending.pop()
        sys.modules[name] = module
        for attr in dir(module):
            value = getattr(module, attr, None)
            if isinstance(value, types.ModuleType) and value.__name__.startswith("runtime") \
                    and f"{name}.{attr}" not in sys.modules:
                pending.append((f"{name}.{attr}", value))


def _preload(names):
    """Import TF (tens of seconds on a busy machine) before the first cell's clock
    starts, as the runtime is imported before it here."""
    import importlib
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout(f"cell ran over {CELL_SECONDS} s")


def _run_cell(source, namespace):
    """(output text, error line or None) of one cell."""
    buffer = io.StringIO()
    error = None
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return "", f"SyntaxError: {e}"
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    signal.alarm(CELL_SECONDS)
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
            exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 - running the cell
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"),  # noqa: S307
                             namespace)
                if value is not None:
                    print(repr(value))
    except BaseException as e:  # noqa: BLE001 - a cell's failure is data here
        error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
        if os.environ.get("TF_GUIDES_TRACE"):
            traceback.print_exc()
    finally:
        signal.alarm(0)
    return buffer.getvalue(), error


def worker(cells, ours):
    """Run the code cells `cells` in order; print one JSON line per cell."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if ours:
        _alias_runtime()
    else:
        _preload(["tensorflow", "keras"])
    os.environ.setdefault("MPLBACKEND", "Agg")        # plots draw off screen
    signal.signal(signal.SIGALRM, _on_alarm)
    os.chdir(os.environ.get("TF_GUIDES_WORKDIR", "."))
    namespace = {"__name__": "__main__"}
    for source in cells:
        started = time.time()
        output, error = _run_cell(source, namespace)
        line = {"hash": source_hash(source), "output": normalize(output), "error": error,
                "seconds": round(time.time() - started, 2)}
        sys.__stdout__.write(json.dumps(line) + "\n")
        sys.__stdout__.flush()


# --- the driver ---------------------------------------------------------------------

def run_file(script, guide, ours, python=None, timeout=1800, env=None):
    """[cell result dicts] of `guide`, run by `script --worker guide` in a fresh subprocess."""
    with tempfile.TemporaryDirectory() as workdir:
        env = dict(os.environ, **(env or {}), TF_GUIDES_WORKDIR=workdir, PYTHONPATH=str(ROOT))
        cmd = [python or sys.executable, str(script), "--worker", str(guide)] + (
            ["--ours"] if ours else [])
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                  timeout=timeout)
            stdout = done.stdout
        except subprocess.TimeoutExpired as e:
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def compare(recorded, ours):
    """(cells that ran on TF, ran here, printed the same), matching cells by position."""
    ran_tf = ran = same = 0
    for i, tf_cell in enumerate(recorded):
        if tf_cell["error"] is not None:
            continue
        ran_tf += 1
        mine = ours[i] if i < len(ours) and ours[i]["hash"] == tf_cell["hash"] else None
        if mine is None or mine["error"] is not None:
            continue
        ran += 1
        same += normalize(mine["output"]) == normalize(tf_cell["output"])
    return ran_tf, ran, same


def _percent(n, total):
    return f"{100 * n / total:.0f}%" if total else "-"


def table(rows):
    lines = ["| guide | cells that run on TF | run here | print the same |",
             "|---|---|---|---|"]
    for name, (total, ran, same) in rows:
        lines.append(f"| {name} | {total} | {ran} ({_percent(ran, total)}) | "
                     f"{same} ({_percent(same, total)}) |")
    total = [sum(r[1][i] for r in rows) for i in range(3)]
    lines.append(f"| **all** | **{total[0]}** | **{total[1]} ({_percent(total[1], total[0])})** "
                 f"| **{total[2]} ({_percent(total[2], total[0])})** |")
    return "\n".join(lines)


def _show(recorded, ours):
    for i, (tf_cell, mine) in enumerate(zip(recorded, ours)):
        status = ("tf-error" if tf_cell["error"] else "error" if mine["error"]
                  else "same" if normalize(mine["output"]) == normalize(tf_cell["output"])
                  else "differs")
        print(f"--- cell {i}: {status} {mine['error'] or ''}")
        if status == "differs":
            diff = difflib.unified_diff(normalize(tf_cell["output"]).splitlines(),
                                        normalize(mine["output"]).splitlines(),
                                        "TF", "ours", n=1, lineterm="")
            print("\n".join(list(diff)[:40]))


class Guides:
    """One tool's guides: `paths` (name -> path in a checkout), `record` (the JSON
    file of TF's outputs), `cells(path)` (a guide file's code cells), `script` (the
    tool's file, run with --worker), and how TF runs (`tf_python`, `tf_env`)."""

    def __init__(self, paths, record, cells, script, tf_python=None, tf_env=None):
        self.paths, self.record, self.cells, self.script = paths, record, cells, script
        self.tf_python, self.tf_env = tf_python, tf_env or {}

    def run(self, checkout, name, ours):
        python = None if ours else self.tf_python
        env = None if ours else {"GUIDE_CELL_SECONDS": "300", **self.tf_env}  # TF's record
        return run_file(self.script, pathlib.Path(checkout) / self.paths[name], ours,
                        python=python, env=env)

    def present(self, checkout, names):
        """The names of `names` whose file the checkout has (the others are said)."""
        missing = [n for n in names if not (pathlib.Path(checkout) / self.paths[n]).exists()]
        if missing:
            print(f"not in {checkout}: {', '.join(missing)}", file=sys.stderr)
        return [n for n in names if n not in missing]

    def record_tf(self, checkout, names):
        record = json.loads(self.record.read_text()) if self.record.exists() else {}
        for name in names:
            record[name] = self.run(checkout, name, ours=False)
            print(f"{name}: {sum(c['error'] is None for c in record[name])} of "
                  f"{len(record[name])} cells ran on TF", flush=True)
        self.record.write_text(json.dumps(dict(sorted(record.items())), indent=1) + "\n")

    def compare_all(self, checkout, names, show=False):
        recorded = json.loads(self.record.read_text())
        rows = []
        for name in names:
            ours = self.run(checkout, name, ours=True)
            if show:
                _show(recorded[name], ours)
            rows.append((name, compare(recorded[name], ours)))
            print(f"{name}: {rows[-1][1]}", file=sys.stderr, flush=True)
        print(table(rows))

    def main(self, argv, description, checkout_flag, checkout_help):
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument(checkout_flag, dest="checkout", help=checkout_help)
        parser.add_argument("--record", action="store_true",
                            help=f"run on TensorFlow and write {self.record.name}")
        parser.add_argument("--only", nargs="*", help="guide names (default: all)")
        parser.add_argument("--show", help="print each cell's result of one guide")
        parser.add_argument("--worker", help=argparse.SUPPRESS)
        parser.add_argument("--ours", action="store_true", help=argparse.SUPPRESS)
        args = parser.parse_args(argv)
        if args.worker:
            worker(self.cells(args.worker), args.ours)
            return 0
        if not args.checkout:
            parser.error(f"{checkout_flag} is required")
        names = self.present(args.checkout,
                             args.only or ([args.show] if args.show else list(self.paths)))
        if args.record:
            self.record_tf(args.checkout, names)
        else:
            self.compare_all(args.checkout, names, show=bool(args.show))
        return 0
