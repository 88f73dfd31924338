"""Differential fuzzing of dataset loops: random pipelines iterated by random
loops must give the same result as plain Python iteration.

Each seeded program is a module with one function `main(ds, c)`: a `for`
loop (sometimes two, or one nested `tf.range` loop) over a tf.data pipeline
built from random transformations (map, filter, take, skip, batch+unbatch,
shuffle with a fixed order, repeat, enumerate, concatenate), with break,
continue, an early return, a sum, a list appended to, and a counter. It runs
two ways, through `tf.debugging.check_equivalence`:

  1. eagerly: the converted code iterates the dataset in Python;
  2. as a tf.function: the loop is staged as one dataset loop in the graph.

    python tools/fuzz_data.py --count 200 --seed 1

A mismatch prints the program and both results, and the exit status is 1.
(tools/fuzz.py is the general fuzzer; this file is its dataset mode.)
"""

import argparse
import importlib.util
import os
import random
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import runtime as tf

TRANSFORMS = [
    "map(lambda x: x * {k} + {c})",
    "map(lambda x: x % {m})",
    "filter(lambda x: x % {m} != {r})",
    "take({n})",
    "skip({s})",
    "batch({b}).unbatch()",
    "batch({b}, drop_remainder=True).unbatch()",
    "shuffle({b}, seed={seed}, reshuffle_each_iteration=False)",
    "repeat(2)",
    "enumerate().map(lambda i, x: x + tf.cast(i, tf.int32))",
    "concatenate(tf.data.Dataset.range({n}).map(lambda x: tf.cast(x, tf.int32)))",
]

BODY = [
    "s += x",
    "s = s + x * {k}",
    "if x > {c}:\n    break",
    "if x % {m} == {r}:\n    continue",
    "if x == {c}:\n    return s * 1000 + n",
    "acc.append(x)",
    "n += 1",
    "for i in tf.range({m}):\n    s += i",
]


def _fill(text, rng):
    return text.format(k=rng.randint(1, 4), c=rng.randint(-5, 30), m=rng.randint(2, 5),
                       r=rng.randint(0, 1), n=rng.randint(0, 12), s=rng.randint(0, 4),
                       b=rng.randint(1, 5), seed=rng.randint(0, 9))


def _indent(text, spaces):
    return "\n".join(" " * spaces + line for line in text.splitlines())


def program(seed):
    """The source of one random program (a module defining `main(ds, c)`)."""
    rng = random.Random(seed)
    pipeline = "".join("." + _fill(rng.choice(TRANSFORMS), rng)
                       for _ in range(rng.randint(0, 4)))
    body = [_fill(rng.choice(BODY), rng) for _ in range(rng.randint(1, 4))]
    if any("return" in b for b in body):
        # an append after a conditional return is refused when staged (for any
        # tensor loop, not only datasets): keep such programs valid
        body = [b for b in body if not b.startswith("acc")]
    if not any(b.startswith(("s", "n", "acc")) for b in body):
        body.append("s += x")
    loop = _indent("\n".join(body), 8)
    second = ""
    if rng.random() < 0.3:
        second = "    for y in ds.take(3):\n        s -= y\n"
    return (f"import runtime as tf\n\n\n"
            f"def main(ds, c):\n"
            f"    ds = ds{pipeline}\n"
            f"    s = tf.constant(0)\n"
            f"    n = tf.constant(0)\n"
            f"    acc = [tf.constant(0)]\n"
            f"    for x in ds:\n{loop}\n{second}"
            f"    return s * 1000 + n + tf.reduce_sum(tf.stack(acc)) + c\n")


def _load(source, folder, seed):
    path = os.path.join(folder, f"fuzz_data_{seed}.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(f"fuzz_data_{seed}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def data(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-10, 30, size=int(rng.integers(0, 10))).astype(np.int32)
    return tf.data.Dataset.from_tensor_slices(values), tf.constant(int(rng.integers(0, 5)))


def run_one(seed, folder):
    """None when both runs agree, else a description of the mismatch."""
    source = program(seed)
    module = _load(source, folder, seed)
    ds, c = data(seed)
    report = tf.debugging.check_equivalence(module.main, ds, c)
    if report.eager.error is not None or report.graph.error is not None or \
            report.differences:
        return f"seed {seed}:\n{source}\n{report}"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seed, args.seed + args.count):
            problem = run_one(seed, folder)
            if problem:
                failures += 1
                print(problem)
    print(f"{args.count} programs, {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
