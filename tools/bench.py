"""Benchmark: every workload (the executor's, training, data, models) in one
process, as a table.

For each workload it measures the eager time, the graph time (a traced graph
run by the code-generating executor), the hand-written numpy time (the
physical limit) and the ratio graph/numpy, and checks the issue's target.

    python tools/bench.py                 # the table, about a minute
    python tools/bench.py --json out.json # the same figures as JSON
    python tools/bench.py --repeat 3      # fewer repetitions (noisier)
    python tools/bench.py --only JAX      # the JAX rows only

Timing is best-of-N: each of N repetitions times a batch of calls long
enough (>= 20 ms) to dwarf the clock's resolution; the fastest repetition
counts, which is the stable figure on a noisy machine. Graphs are traced with
`runtime.function`. A workload whose ops or packages are not available
here prints "n/a" and why.

The workloads are in tools/bench_recipes/, one module per family; this
module runs them and prints the table.
"""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools.bench_recipes import WORKLOADS, Unavailable, base  # noqa: E402 - after the path


def run_all(only=None):
    rows = []
    for title, fn in WORKLOADS:
        if only and only not in title:
            continue
        try:
            row = fn()
        except Unavailable as e:
            row = {"note": f"n/a ({e})", "ok": None}
        except Exception as e:  # noqa: BLE001 - one broken workload must not stop the table
            row = {"note": f"failed: {type(e).__name__}: {str(e).splitlines()[0][:150]}",
                   "ok": False}
        row["workload"] = title
        if row.get("graph") and row.get("numpy") and "ratio_target" in row:
            row["ratio"] = row["graph"] / row["numpy"]
            row["ok"] = row["ratio"] <= row["ratio_target"]
        rows.append(row)
        print_row(row)
    return rows


def print_header():
    print(f"best of N={base.REPEAT} batches (each >= {base.BATCH_SECONDS * 1e3:.0f} ms); "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}, {os.cpu_count()} cpus")
    print(f"{'workload':<50} {'eager':>11} {'graph':>11} {'numpy':>11} {'ratio':>14}  ok")


def print_row(row):
    ratio = row.get("ratio")
    ratio_s = f"{ratio:.2f} (<={row['ratio_target']})" if ratio is not None else "-"
    ok = {True: "yes", False: "NO", None: "-"}[row.get("ok")]
    eager, graph, numpy_t = (base.fmt(row.get(k)) for k in ("eager", "graph", "numpy"))
    print(f"{row['workload']:<50} {eager:>11} {graph:>11} {numpy_t:>11} {ratio_s:>14}  {ok}")
    if row.get("note"):
        print(f"{'':<4}{row['note']}")
    sys.stdout.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--repeat", type=int, default=base.REPEAT, help="N of best-of-N")
    parser.add_argument("--only", metavar="TEXT",
                        help="run only the workloads whose title contains TEXT (e.g. JAX)")
    args = parser.parse_args(argv)
    base.REPEAT = args.repeat
    start = time.perf_counter()
    print_header()
    rows = run_all(args.only)
    total = time.perf_counter() - start
    print(f"total {total:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"repeat": base.REPEAT, "total_seconds": total, "rows": rows}, f, indent=2,
                      default=float)
    return 0


if __name__ == "__main__":
    sys.exit(main())
