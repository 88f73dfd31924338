"""Run TensorFlow's guide notebooks cell by cell, here and on TF, and compare.

    # once, where TF is installed: record what each cell prints on TF 2.21
    $BENCH_TF_PYTHON tools/tf_guides.py --docs DOCS --record
    # then, with only this project installed:
    python3 tools/tf_guides.py --docs DOCS                  # the table
    python3 tools/tf_guides.py --docs DOCS --show data      # each cell of one guide

DOCS is a checkout of github.com/tensorflow/docs (its site/en/...). A
notebook's code cells run in order in one namespace, in a subprocess per
notebook, with `tensorflow` (and `keras`) imported as `runtime` (and
`runtime.keras`) when not recording. Shell (`!`) and magic (`%`) lines are
skipped; each cell has a time limit. What a cell shows is its printed output
plus the repr of a final expression, as a notebook shows it; addresses
(0x...) and timings are blanked before comparing.

The record (tests/data/tf_guides.json) keeps, per cell, a hash of its source
and TF's outputs (facts about TF); the notebooks' code stays in the docs
checkout. A cell counts when it ran on TF: it "runs" here if it raises
nothing, and "prints the same" if its normalized output equals TF's.
"""

import argparse
import ast
import contextlib
import hashlib
import io
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time
import traceback

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "tf_guides.json"
GUIDES = {
    "basics": "site/en/guide/basics.ipynb",
    "tensor": "site/en/guide/tensor.ipynb",
    "variable": "site/en/guide/variable.ipynb",
    "autodiff": "site/en/guide/autodiff.ipynb",
    "advanced_autodiff": "site/en/guide/advanced_autodiff.ipynb",
    "intro_to_graphs": "site/en/guide/intro_to_graphs.ipynb",
    "intro_to_modules": "site/en/guide/intro_to_modules.ipynb",
    "function": "site/en/guide/function.ipynb",
    "basic_training_loops": "site/en/guide/basic_training_loops.ipynb",
    "tensor_slicing": "site/en/guide/tensor_slicing.ipynb",
    "random_numbers": "site/en/guide/random_numbers.ipynb",
    "data": "site/en/guide/data.ipynb",
    "checkpoint": "site/en/guide/checkpoint.ipynb",
    "ragged_tensor": "site/en/guide/ragged_tensor.ipynb",
    "sparse_tensor": "site/en/guide/sparse_tensor.ipynb",
    "extension_type": "site/en/guide/extension_type.ipynb",
    "tf_numpy": "site/en/guide/tf_numpy.ipynb",
    "tf_numpy_type_promotion": "site/en/guide/tf_numpy_type_promotion.ipynb",
    "tfrecord": "site/en/tutorials/load_data/tfrecord.ipynb",
    "customization_basics": "site/en/tutorials/customization/basics.ipynb",
    "custom_layers": "site/en/tutorials/customization/custom_layers.ipynb",
    "matrix_core": "site/en/guide/core/matrix_core.ipynb",
    "quickstart_core": "site/en/guide/core/quickstart_core.ipynb",
}
CELL_SECONDS = 60

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
_TIMING = re.compile(r"\b\d+(\.\d+)?\s*(ms|s|us|µs|ns)(/step)?\b")


def normalize(text):
    """Output with addresses and timings blanked, trailing spaces dropped."""
    text = _TIMING.sub("<time>", _ADDRESS.sub("0x?", text))
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def code_cells(notebook_path):
    """The code cells' sources, shell and magic lines removed."""
    cells = json.loads(pathlib.Path(notebook_path).read_text())["cells"]
    out = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        lines = [line for line in source.splitlines()
                 if not line.lstrip().startswith(("!", "%"))]
        out.append("\n".join(lines))
    return out


def source_hash(source):
    return hashlib.sha256(source.encode()).hexdigest()[:16]


# --- the worker: runs one notebook's cells in this process ----------------------------

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


def worker(notebook, ours):
    """Run every cell of `notebook`; print one JSON line per cell."""
    if ours:
        _alias_runtime()
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("MPLBACKEND", "Agg")        # plots draw off screen
    signal.signal(signal.SIGALRM, _on_alarm)
    os.chdir(os.environ.get("TF_GUIDES_WORKDIR", "."))
    namespace = {"__name__": "__main__"}
    for source in code_cells(notebook):
        started = time.time()
        output, error = _run_cell(source, namespace)
        line = {"hash": source_hash(source), "output": normalize(output), "error": error,
                "seconds": round(time.time() - started, 2)}
        sys.__stdout__.write(json.dumps(line) + "\n")
        sys.__stdout__.flush()


# --- the driver ---------------------------------------------------------------------

def run_guide(docs, name, ours):
    """[cell result dicts] of guide `name` of the docs checkout `docs`."""
    return run_notebook(pathlib.Path(docs) / GUIDES[name], ours)


def run_notebook(notebook, ours, python=None, timeout=1800):
    """[cell result dicts] of a notebook, run in a fresh subprocess."""
    import tempfile
    with tempfile.TemporaryDirectory() as workdir:
        env = dict(os.environ, TF_GUIDES_WORKDIR=workdir, PYTHONPATH=str(ROOT))
        cmd = [python or sys.executable, str(pathlib.Path(__file__).resolve()), "--worker",
               str(notebook)] + (["--ours"] if ours else [])
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                  timeout=timeout)
            stdout = done.stdout
        except subprocess.TimeoutExpired as e:
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    results = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            results.append(json.loads(line))
    return results


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
        same += mine["output"] == tf_cell["output"]
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", help="a checkout of github.com/tensorflow/docs")
    parser.add_argument("--record", action="store_true",
                        help="run on TensorFlow and write tests/data/tf_guides.json")
    parser.add_argument("--only", nargs="*", help="guide names (default: all)")
    parser.add_argument("--show", help="print each cell's result of one guide")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--ours", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.ours)
        return 0
    if not args.docs:
        parser.error("--docs is required")
    names = args.only or ([args.show] if args.show else list(GUIDES))
    if args.record:
        record = json.loads(RECORD.read_text()) if RECORD.exists() else {}
        for name in names:
            record[name] = run_guide(args.docs, name, ours=False)
            print(f"{name}: {sum(c['error'] is None for c in record[name])} of "
                  f"{len(record[name])} cells ran on TF", flush=True)
        RECORD.write_text(json.dumps(dict(sorted(record.items())), indent=1) + "\n")
        return 0
    recorded = json.loads(RECORD.read_text())
    rows = []
    for name in names:
        ours = run_guide(args.docs, name, ours=True)
        if args.show:
            for i, (tf_cell, mine) in enumerate(zip(recorded[name], ours)):
                status = ("tf-error" if tf_cell["error"] else "error" if mine["error"]
                          else "same" if mine["output"] == tf_cell["output"] else "differs")
                print(f"--- cell {i}: {status} {mine['error'] or ''}")
                if status == "differs":
                    print("TF:\n" + tf_cell["output"][:800] + "\nours:\n" + mine["output"][:800])
        rows.append((name, compare(recorded[name], ours)))
        print(f"{name}: {rows[-1][1]}", file=sys.stderr, flush=True)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
