"""Differential fuzzing: random programs run three ways must agree.

Each seeded program is a small module of functions over int32 scalars (and a
short int vector `v`: iterated, indexed, measured with len) with
if/elif/else, while and for loops that always end, break, continue, early
returns, helper calls, and/or/not, `a if c else b`, and arithmetic kept
in range (every assignment is reduced `% 97`; divisors are `% 7 + 1`), so
Python ints and int32 tensors cannot disagree by overflow or division by zero.

The three runs of `main(a, b, v)`:
  1. the original function on Python ints and a list;
  2. `autograph.to_graph(main)` on the same Python values;
  3. `runtime.function(main)` on int32 tensors.

    python tools/fuzz.py --count 500 --seed 1

A mismatch prints the program (shrunk to the fewest statements that still
disagree), the inputs and the three results, and the exit status is 1.

Modes (the default mode above is unchanged; its programs and output for a
seed are what they were):

    --composites   state in dict keys, object attributes (a `Box` class in the
                   program module) and list slots, nested and aliased; slots
                   made in one branch only or only inside a loop, read back
                   with .get/in/hasattr/getattr/len/vars; a slot as a for target
                   (`for d['k'] in v:`); scalar helpers h0/h1 with loops,
                   called from expressions and conditions (loop conditions
                   too); a `for` over a tensor range with a `continue` inside
                   a `while` that may run zero times (a shape that once
                   leaked the internal flag `continue_` into an error);
                   one program in ten reads `int('x' in locals())`
    --closures     lambdas and nested defs over variables that branches and
                   loops assign (late binding), closures made in a loop and
                   called after it, `nonlocal` writes called from loops, and
                   closures of one code object over a library function and
                   over a user function (`twice(abs)`, `twice(step)` made at import)
    --mutations    append/pop/extend/insert/del/update/setdefault/d.pop/slice
                   assignment/next(it)/a bound method, inside branches and loops
    --variables    float64 vectors and tf.Variables (module-level vectors, a
                   3x3 matrix and a scalar, and `w` passed in): reads
                   (`read_value`, `v + 0`, `tf.identity`, `value`,
                   `np.asarray` eagerly) held in locals across later
                   assign/assign_add/assign_sub (read_value=False too) in
                   branches and tensor loops, chained arithmetic whose
                   temporaries the graph overwrites (also of a length the
                   graph only knows at run time), temporaries read twice,
                   matmul, gradient tapes (persistent too, and a matmul
                   "training step") with an update before `tape.gradient`,
                   a nested tf.function, a Keras SGD step

The --variables mode checks that reusing memory (Variables updated in place,
temporaries overwritten: runtime/_src/function/variables.py and
runtime/_src/exec/codegen.py) never changes a value handed out earlier. Its
`main(x, y, n, w)` runs natively with a numpy stand-in for `tf` (reads are
copies: Python semantics), converted with the stand-in, eagerly and as a
graph; each run is a new module instance, calls main twice and only then
compares both calls' results (the locals, reads and temporaries main
returns), the Variables' final values and the arrays they started from.
Values are dyadic (k/4), so the float comparisons are exact.

Every mode checks exactness, so it runs with autograph's strict side effects
(`autograph.set_strict_side_effects`): a Python side effect inside a tensor
`if` or loop is a clear refusal, not run once while tracing as TensorFlow
runs it (the default).

A mode runs `main` four ways: native, converted on Python values,
eagerly (main called on runtime eager tensors) and as a graph
(`runtime.function`). Result, printed output (not for the graph, which prints
while it is traced) and exception type are compared. A clear refusal in the
eager or graph run (a ValueError/TypeError/NotImplementedError naming a
file:line) where Python succeeded is counted as "refused", printed once per
distinct message with its count; an internal-looking error (AttributeError,
KeyError, UnboundLocalError, NameError, "belongs to graph", "Undefined(",
"object has no attribute", "the transpiler failed", or any error naming a
name conversion made: 'continue_', 'break_', 'do_return', 'retval_', ...)
where Python did not raise is an internal error, counted as a mismatch. Only the first two
programs of each kind of mismatch are shrunk. The last line:

    fuzz: N programs, seed S, mode M, K mismatches, R refused

--backend jax runs each program (of any mode but --variables) natively and as
`jax.jit(autograph.to_graph(main))` on int32 arrays (JAX installed): values
and exception types must agree; a clear refusal is counted apart with its
message; the last line adds "backend jax":

    python tools/fuzz.py --backend jax --count 2000

--backend xla traces each program with `tf.function(jit_compile=True)` and runs
it compiled by XLA through JAX (tools/fuzz_xla.py): values must equal Python's;
a program that falls back to the executor (with its warning) counts as refused.

The implementation is the package tools/fuzzing/ (one module per generator,
the runner, the judging rules, the shrinker, the numpy stand-in); this file
is its command line and re-exports its names (`fuzz.four_runs`, ...).
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:          # `python tools/fuzz.py` from anywhere
    sys.path.insert(0, ROOT)
_TOOLS = os.path.dirname(os.path.abspath(__file__))
if _TOOLS not in sys.path:        # the fuzzing package beside this file
    sys.path.append(_TOOLS)

from fuzzing import shrinker as _shrinker
from fuzzing.gen_closures import ClosureGenerator
from fuzzing.gen_composites import CompositeGenerator
from fuzzing.gen_default import INPUTS, MOD, Generator
from fuzzing.gen_mutations import MutationGenerator
from fuzzing.gen_variables import VariableGenerator
from fuzzing.judging import (INTERNAL_TEXT, INTERNAL_TYPES, REFUSAL_TYPES, RUNS,
                             bad_rows, is_internal, is_refusal, judge, judge_jax,
                             judge_program, mismatches, refusal_key, signature)
from fuzzing.numpy_tf import _NativeTF
from fuzzing.runner import (GENERATORS, RUNNERS, VAR_INPUTS, _outcome4, _print_refusals,
                            four_runs, jax_runs, load, report, report4, run, run_jax,
                            run_mode, three_runs, variable_runs)
from fuzzing.shrinker import names_are_bound, terminates


def shrink(source, seed):
    """`fuzzing.shrinker.shrink` with this module's `three_runs`."""
    return _shrinker.shrink(source, seed, three_runs)


def shrink4(source, seed, inputs=INPUTS, budget_s=60.0, runs=None):
    """`fuzzing.shrinker.shrink4` with this module's `four_runs` (or `runs`)."""
    runs = runs or four_runs
    return _shrinker.shrink4(source, seed, inputs, budget_s, runs, ints=runs is four_runs)


def shrink_jax(source, seed, inputs=INPUTS, budget_s=60.0):
    return _shrinker.shrink_jax(source, seed, inputs, budget_s, jax_runs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", action="store_true", help="print one program and exit")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--composites", dest="mode", action="store_const", const="composites",
                       help="state in dicts, attributes and lists; aliases; nesting")
    modes.add_argument("--closures", dest="mode", action="store_const", const="closures",
                       help="lambdas and nested defs, late binding, nonlocal")
    modes.add_argument("--mutations", dest="mode", action="store_const", const="mutations",
                       help="append/pop/extend/insert/del/update/setdefault/next in control flow")
    modes.add_argument("--datasets", dest="mode", action="store_const", const="datasets",
                       help="loops over random tf.data pipelines, eagerly and staged as one "
                            "dataset loop (tools/fuzz_data.py)")
    modes.add_argument("--variables", dest="mode", action="store_const", const="variables",
                       help="float vectors and tf.Variables: reads held across updates, "
                            "reused temporaries, matmul, gradient tapes")
    parser.add_argument("--backend", choices=("runtime", "jax", "onnx", "xla"), default="runtime",
                        help="jax: run each program natively and as "
                             "jax.jit(autograph.to_graph(main)) on int32 arrays; onnx: "
                             "traced, exported to ONNX and run by ONNX Runtime "
                             "(tools/fuzz_onnx.py); xla: traced with jit_compile=True, "
                             "compiled with XLA through JAX (tools/fuzz_xla.py)")
    args = parser.parse_args(argv)
    mode = args.mode or "default"
    if mode == "datasets":
        import fuzz_data
        return fuzz_data.main(["--count", str(args.count), "--seed", str(args.seed)])
    if args.show:
        print(GENERATORS[mode](args.seed).program())
        return 0
    if args.backend == "onnx":
        if mode not in ("default", "composites", "closures"):
            parser.error("--backend onnx runs the default, composites and closures modes")
        import fuzz_onnx
        flag = [] if mode == "default" else [f"--{mode}"]
        return fuzz_onnx.main(["--count", str(args.count), "--seed", str(args.seed), *flag])
    if args.backend == "xla":
        import fuzz_xla
        if mode not in fuzz_xla.MODES:
            parser.error(f"--backend xla runs the modes {', '.join(fuzz_xla.MODES)}")
        flag = [] if mode == "default" else [f"--{mode}"]
        return fuzz_xla.main(["--count", str(args.count), "--seed", str(args.seed), *flag])
    if args.backend == "jax":
        if mode == "variables":
            parser.error("--variables runs on the runtime only (its programs use tf.Variable)")
        stats = run_jax(args.count, args.seed, mode, not args.no_shrink)
        _print_refusals(stats)
        print(f"fuzz: {args.count} programs, seed {args.seed}, mode {mode}, backend jax, "
              f"{stats['mismatches']} mismatches, {stats['refused']} refused")
        return 1 if stats["mismatches"] else 0
    if mode == "default":
        failures = run(args.count, args.seed, args.verbose, not args.no_shrink)
        print(f"fuzz: {args.count} programs, seed {args.seed}, {failures} mismatches")
        return 1 if failures else 0
    stats = run_mode(args.count, args.seed, mode, args.verbose, not args.no_shrink)
    _print_refusals(stats)
    print(f"fuzz: {args.count} programs, seed {args.seed}, mode {mode}, "
          f"{stats['mismatches']} mismatches, {stats['refused']} refused")
    return 1 if stats["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
