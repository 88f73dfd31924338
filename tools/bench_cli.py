"""Benchmark: `autograph convert` on a generated 1,000-line module.

DESIGN.md's target: converting a 1,000-line module takes under 1 s. This tool
writes such a module (functions with loops, branches, break/continue, early
returns, and methods, separated by comments and constants that must be kept),
then times

  * in-process: parse + find spans + convert every function + splice (the
    CLI's own work, `autograph.cli.convert_text`), best of --repeat runs;
  * end to end: `python -m autograph convert FILE -o OUT` as a subprocess
    (includes interpreter start-up and imports), best of --repeat runs.

    python tools/bench_cli.py             # 1,000 lines, 5 repeats
    python tools/bench_cli.py --lines 5000 --repeat 3

It prints one line per measurement and exits 1 when the in-process time is
over the target.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from autograph import cli
from autograph.cli import source as cli_source

TARGET_SECONDS = 1.0

_FUNCTION = '''\
# --- block {i}: a comment the CLI must keep ---
LIMIT_{i} = {i} + 10


def loop_{i}(n, values):
    """Sum, with a break, a continue and a branch."""
    total = 0
    for v in values:
        if v < 0:
            continue
        if v > LIMIT_{i}:
            break
        total += v if v % 2 == 0 else -v
    while n > 0 and total < 1000:
        total += n
        n -= 1
    return total


def early_{i}(x):
    if x > {i}:
        return x - {i}
    elif x < -{i}:
        return -x
    return 0


class Model{i}:
    def __init__(self, scale):
        self.scale = scale

    def step(self, x):
        if not x:
            return self.scale
        return x * self.scale if x > 0 else -x


'''


def make_module(lines):
    """A module of about `lines` lines built from repeated blocks."""
    header = '"""Generated benchmark module."""\n\nimport math\n\n\n'
    block_lines = _FUNCTION.count("\n")
    blocks = max(1, -(-(lines - header.count("\n")) // block_lines))
    return header + "".join(_FUNCTION.format(i=i) for i in range(blocks))


def time_in_process(text, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        tree = cli_source.parse_source(text, "bench.py")
        lines = cli_source.split_lines(text)
        spans = cli_source.find_functions(tree, lines)
        out, results = cli.convert_text(text, tree, lines, spans, "bench.py")
        best = min(best, time.perf_counter() - start)
    converted = sum(r.status == "converted" for _, r in results)
    return best, len(spans), converted, out


def time_subprocess(path, out_path, repeat):
    env = dict(os.environ, PYTHONPATH=ROOT)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "autograph", "convert", path, "-o", out_path],
                              capture_output=True, text=True, env=env)
        best = min(best, time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"convert failed: {proc.stderr.strip()}")
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    text = make_module(args.lines)
    n_lines = text.count("\n")
    seconds, n_funcs, converted, out = time_in_process(text, args.repeat)
    compile(out, "converted.py", "exec")  # the output must be valid Python
    print(f"module: {n_lines} lines, {n_funcs} functions/methods, {converted} converted")
    print(f"in-process convert: {seconds * 1000:.1f} ms (target < {TARGET_SECONDS * 1000:.0f} ms)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench_module.py")
        with open(path, "w") as f:
            f.write(text)
        total = time_subprocess(path, os.path.join(tmp, "out.py"), args.repeat)
    print(f"end to end (python -m autograph convert): {total * 1000:.1f} ms")
    return 0 if seconds < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
