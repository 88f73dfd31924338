"""Differential fuzzing, a smoke count of each mode: seeded random programs
run three ways (CI runs each mode at full count in its own step, .ci/fuzz).

Each program (tools/fuzz.py) runs as the original Python on ints and a list,
as `autograph.to_graph(main)` on the same values, and as
`runtime.function(main)` on int32 tensors; all three must agree for every
input. A failure message shows the (unshrunk) program and the three results;
run `python tools/fuzz.py --count 1 --seed 0` style commands to shrink it.

Also here: the generator's own guarantees (deterministic, valid Python, every
construct it promises shows up) and the shrinker, checked with a fake oracle.
"""

import contextlib
import importlib.util
import io
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("fuzz", os.path.join(ROOT, "tools", "fuzz.py"))
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)

# The programs the agreement tests run come from AUTOGRAPH_FUZZ_SEED: .ci/run
# picks a new one each run and prints it, so CI keeps finding new programs and
# a failure can be replayed (AUTOGRAPH_FUZZ_SEED=N python3 -m pytest
# tests/reliability/test_fuzz.py). Without it: 7. The checks of what the
# generators produce use the fixed seed 7.
CI_SEED = int(os.environ.get("AUTOGRAPH_FUZZ_SEED", "7"))
FIXED_SEED = 7
CI_COUNT = 300          # the generators' own checks read this many programs (no runs)
SMOKE_COUNT = 30        # programs run here; .ci/fuzz runs CI_COUNT of them


def _seed(k):
    return CI_SEED * 1_000_003 + k


def _fixed(k):
    return FIXED_SEED * 1_000_003 + k


@pytest.mark.parametrize("chunk", range(3))
def test_three_runs_agree(chunk):
    """10 programs per chunk, the first 30 of the 300 that .ci/fuzz runs."""
    per_chunk = SMOKE_COUNT // 3
    for k in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        s = _seed(k)
        source = fuzz.Generator(s).program()
        rows = fuzz.three_runs(source, s)
        bad = fuzz.mismatches(rows)
        assert not bad, (f"seed {s} disagrees (reproduce: python tools/fuzz.py "
                         f"--count 1 --seed ... or Generator({s}).program()):\n{source}\n"
                         + "\n".join(f"inputs {i}: original={o} converted={c} graph={g}"
                                     for i, o, c, g in bad))
        # Every run returned a value: the generator never divides by zero or
        # overflows, so an exception in any column is itself a bug.
        for _, orig, _, _ in rows:
            assert orig[0] == "ok", (s, orig)


def test_generator_is_deterministic_and_valid():
    for k in range(50):
        a, b = fuzz.Generator(k).program(), fuzz.Generator(k).program()
        assert a == b
        compile(a, f"<fuzz {k}>", "exec")
        assert "def main(a, b, v):" in a


def test_generator_covers_every_promised_construct():
    text = "".join(fuzz.Generator(_fixed(k)).program() for k in range(CI_COUNT))
    for construct in ["if ", "elif ", "else:", "while ", "for ", " in v:", "range(",
                      "break", "continue", "return ", " and ", " or ", "not ",
                      "def h0", "h0(", "//", "v[", "len(v)"]:
        assert construct in text, construct


def test_original_programs_terminate_and_stay_in_range():
    for k in range(100):
        ns = fuzz.load(fuzz.Generator(_fixed(k)).program(), _fixed(k))
        for a, b, v in fuzz.INPUTS:
            out = ns["main"](a, b, list(v))
            assert isinstance(out, int) and -2**31 <= out < 2**31


def test_shrink_keeps_only_what_disagrees(monkeypatch):
    """With an oracle that 'fails' whenever BAD() is called, the shrinker
    deletes every other statement."""
    source = ("def main(a, b, v):\n"
              "    x = a\n"
              "    y = b\n"
              "    if x > 1:\n"
              "        y = y + 1\n"
              "    BAD()\n"
              "    return (x + y) % 97\n")

    def fake_three_runs(src, seed):
        row = ((0, 0, [0]), ("ok", 0), ("ok", 0), ("ok", 1 if "BAD()" in src else 0))
        return [row]

    monkeypatch.setattr(fuzz, "three_runs", fake_three_runs)
    shrunk = fuzz.shrink(source, 0)
    assert shrunk == "def main(a, b, v):\n    BAD()\n"


def test_report_prints_program_inputs_and_three_results(capsys):
    rows = [((1, 2, [3]), ("ok", 1), ("ok", 1), ("raised", "TypeError: boom"))]
    fuzz.report("def main(a, b, v):\n    return a\n", 42, rows)
    out = capsys.readouterr().out
    assert "MISMATCH (seed 42)" in out
    assert "def main(a, b, v):" in out
    assert "inputs (1, 2, [3]): original=('ok', 1) converted=('ok', 1) " \
           "graph=('raised', 'TypeError: boom')" in out


def test_cli_summary_line(capsys):
    assert fuzz.main(["--count", "3", "--seed", "5"]) == 0
    assert capsys.readouterr().out.strip().endswith("fuzz: 3 programs, seed 5, 0 mismatches")


def test_program_files_are_removed_when_the_process_ends(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    run = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "fuzz.py"),
                          "--count", "2", "--seed", "11"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("fuzz: 2 programs, seed 11, 0 mismatches")
    assert list(tmp_path.iterdir()) == []


# --- the extra modes: --composites, --closures, --mutations ---------------------------
#
# Four runs each (native, converted, eager tensors, graph). A clear refusal in
# the eager/graph run (a ValueError/TypeError/NotImplementedError naming a
# file:line) is counted apart; anything else that disagrees is a mismatch.

NEW_MODES = ["composites", "closures", "mutations"]
MODE_COUNT = 300                       # programs per mode in CI (.ci/fuzz)
MODE_SMOKE = 30                        # ... and here
MODE_CHUNKS = 1
MODE_INPUTS = fuzz.INPUTS[1:3]         # two of the four inputs, to keep CI fast

# While a fuzz mode finds converter mismatches not yet fixed, the agreement
# tests may fail and are expected to. Set to False once `python tools/fuzz.py --<mode> --count 300
# --seed 7` reports 0 mismatches for every mode.
MODES_HAVE_KNOWN_MISMATCHES = False


def _describe(rows):
    return "\n".join(f"inputs {r[0]}: " + "  ".join(
        f"{name}={o}" for name, o in zip(fuzz.RUNS, r[1:])) for r in fuzz.bad_rows(rows))


@pytest.mark.xfail(MODES_HAVE_KNOWN_MISMATCHES, strict=False,
                   reason="the fuzz modes still find converter mismatches")
@pytest.mark.parametrize("chunk", range(MODE_CHUNKS))
@pytest.mark.parametrize("mode", NEW_MODES)
def test_mode_runs_agree_or_refuse(mode, chunk):
    per_chunk = MODE_SMOKE // MODE_CHUNKS
    gen = fuzz.GENERATORS[mode]
    for k in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        s = _seed(k)
        source = gen(s).program()
        rows = fuzz.four_runs(source, s, MODE_INPUTS)
        assert fuzz.judge_program(rows) in ("ok", "refused"), (
            f"seed {s} disagrees (reproduce: python tools/fuzz.py --{mode} --count 1 "
            f"or fuzz.GENERATORS[{mode!r}]({s}).program()):\n{source}\n{_describe(rows)}")


@pytest.mark.parametrize("mode", NEW_MODES)
def test_mode_generators_are_deterministic_valid_and_terminate_in_range(mode):
    gen = fuzz.GENERATORS[mode]
    for k in range(60):
        s = _seed(k)
        a, b = gen(s).program(), gen(s).program()
        assert a == b
        compile(a, f"<fuzz {mode} {k}>", "exec")
        assert "def main(a, b, v):" in a and fuzz.terminates(a)
        ns = fuzz.load(a, s)
        for x, y, v in fuzz.INPUTS:
            with contextlib.redirect_stdout(io.StringIO()):
                out = ns["main"](x, y, list(v))
            assert isinstance(out, int) and -2**31 <= out < 2**31, (mode, s, out)


@pytest.mark.parametrize("mode, constructs", [
    ("composites", ["d['k'] = ", "o.a = ", "o.b.c = ", "d['n']['k'] = ", "l[0] = ", "m[1][0] = ",
                    "d['w'] = ", "o.w = ", "e = d", "p = o", "e = dict(d)", "o.b = nb", "len(d)", "'w' in d",
                    "hasattr(o, 'w')", "getattr(o, 'w', 3)", "for key in ['k', 'j']:",
                    "print('c'", "while ", "for j0 in ", "for d['k'] in ", "def h0(p, q):",
                    "def h1(p, q):", "len(vars(o))", "'w' in vars(o)", "int('x' in locals())"]),
    ("closures", ["lambda: ", "lambda j", "fs.append(lambda", "nonlocal acc", "nonlocal y",
                  "bump(", "sety(", "    def g1(p):", "f0()", "g0(", "sum(f() for f in fs)",
                  "print('f'", "while ", "for j0 in "]),
    ("mutations", ["l.append(", "l.pop(", "l.extend(", "l.insert(", "del l[", "del d['w']",
                   "d.update({", "d.update(k=", "d.setdefault(", "d.pop(", "l[0:1] = ",
                   "l[:] = l[-4:]", "next(it, ", "emit = out.append", "emit(", "print('m'",
                   "while ", "for j0 in "]),
])
def test_mode_generators_cover_every_promised_construct(mode, constructs):
    text = "".join(fuzz.GENERATORS[mode](_fixed(k)).program() for k in range(MODE_COUNT))
    for construct in constructs:
        assert construct in text, (mode, construct)


def test_composites_generate_the_continue_flag_shape():
    """The shape of tests/autograph/fuzz_found/continue_flag.py: a `for` over a tensor range with a `continue` inside a
    `while` that may run zero times, in main and in helpers; helpers called
    from loop conditions; `vars(o)` read at the end."""
    import re
    texts = [fuzz.GENERATORS["composites"](_fixed(k)).program() for k in range(MODE_COUNT)]
    nest = re.compile(r"\n( *)while (i\d+) < \d and [^\n]*:\n\1    \2 = \2 \+ 1\n"
                      r"\1    for j\d+ in range\([^\n]*% 3\):\n(?:\1        [^\n]*\n)*?"
                      r"\1            continue\n")
    assert sum(bool(nest.search(t)) for t in texts) >= 30
    in_helper = re.compile(r"def h\d\(p, q\):\n(?:    [^\n]*\n)*?( +)while (i\d+) < \d and "
                           r"[^\n]*:\n\1    \2 = \2 \+ 1\n\1    for j\d+ in range\([pq] % 3\):")
    assert sum(bool(in_helper.search(t)) for t in texts) >= 10
    called_in_loop_test = re.compile(r"while i\d+ < \d and [^\n]*\bh\d\(")
    assert sum(bool(called_in_loop_test.search(t)) for t in texts) >= 10


def test_default_mode_programs_are_unchanged():
    """The default generator's programs (and so its output) for a seed are
    pinned: a change to them is deliberate (last: helper-call arguments
    reduced % 97, so a helper squaring them cannot leave int32)."""
    import hashlib
    text = "".join(fuzz.Generator(k).program() for k in range(200))
    assert hashlib.sha256(text.encode()).hexdigest() == \
        "41b420933e643b1ed337737fd19f41e2aded065c8c2f372674f1150cc6d0ce4b"


LOC = "/tmp/autograph_fuzz_x/fuzz_prog_3_9.py:12: if a > b:"


@pytest.mark.parametrize("other, verdict", [
    (("ok", 5, ""), "ok"),
    (("ok", 6, ""), "mismatch"),
    (("ok", 5, "x\n"), "mismatch"),                       # printed output differs
    (("raised", "ValueError", f"'d['w']' must be defined ({LOC})", ""), "refused"),
    (("raised", "NotImplementedError", f"l.pop() in a tensor loop ({LOC})", ""), "refused"),
    (("raised", "ValueError", "no location given", ""), "mismatch"),
    (("raised", "TypeError", f"'TensorArray' object is not subscriptable ({LOC})", ""),
     "mismatch"),
    (("raised", "TypeError", "capture: tensor X:0 belongs to graph 'cond_true'", ""), "internal"),
    (("raised", "TypeError", f"'x' is Undefined('x') ({LOC})", ""), "internal"),
    (("raised", "AttributeError", "'Box' object has no attribute 'b'", ""), "internal"),
    (("raised", "UnboundLocalError", "cannot access local variable 'y'", ""), "internal"),
    (("raised", "KeyError", "'w'", ""), "internal"),
    (("raised", "RuntimeError", "boom", ""), "mismatch"),
    # a generated name in a run-time refusal: internal (a converter bug)
    (("raised", "InvalidArgumentError",
      f"the loop must iterate at least once to define 'continue_' ({LOC})", ""), "internal"),
    (("raised", "InvalidArgumentError",
      f"the loop must iterate at least once to define 'j0' ({LOC})", ""), "refused"),
    (("raised", "ValueError", f"'break_' must also be initialized in the main branch ({LOC})",
      ""), "internal"),
])
def test_judge_graph_outcomes(other, verdict):
    native = ("ok", 5, "")
    row = ((1, 2, [3]), native, native, native, other)
    if other[0] == "ok" and other[2]:          # the graph prints while tracing: not compared
        assert fuzz.judge(row) == "ok"
        row = ((1, 2, [3]), native, native, other, native)
    assert fuzz.judge(row) == verdict


def test_judge_converted_run_never_refuses_and_native_errors_must_match():
    native = ("ok", 5, "")
    refusal = ("raised", "ValueError", f"refused ({LOC})", "")
    assert fuzz.judge(((0, 0, [0]), native, refusal, native, native)) == "mismatch"
    raised = ("raised", "KeyError", "'w'", "")
    assert fuzz.judge(((0, 0, [0]), raised, raised, raised, raised)) == "ok"
    assert fuzz.judge(((0, 0, [0]), raised, raised, raised, native)) == "mismatch"
    # an internal-looking error is only internal where Python did not raise it
    assert fuzz.judge(((0, 0, [0]), raised, raised, raised,
                       ("raised", "AttributeError", "x", ""))) == "mismatch"


def test_refusal_key_drops_locations_addresses_and_names():
    a = fuzz.refusal_key(f"'o.w' must also be initialized in the else branch ({LOC}). Define it.")
    b = fuzz.refusal_key("'d['w']' must also be initialized in the else branch "
                         "(/tmp/y/fuzz_prog_8_1.py:40: if (a > (b + 1)):). Define it.")
    assert a == b == "'_' must also be initialized in the else branch. Define it."
    c = fuzz.refusal_key("'f0' is <function main.<locals>.<lambda> at 0x7f00aa>, which "
                         f"cannot be converted ({LOC})")
    assert c == "'_' is <function <lambda>>, which cannot be converted"


def test_terminates_rejects_a_while_without_its_counter():
    ok = "def main(a, b, v):\n    i0 = 0\n    while i0 < 3 and a > 1:\n        i0 = i0 + 1\n"
    assert fuzz.terminates(ok)
    assert not fuzz.terminates(ok.replace("        i0 = i0 + 1\n", "        a = a\n"))


def test_shrink4_keeps_only_what_disagrees(monkeypatch):
    source = ("def BAD():\n"
              "    pass\n"
              "def main(a, b, v):\n"
              "    x = a\n"
              "    y = b\n"
              "    if x > 1:\n"
              "        y = y + 1\n"
              "    BAD()\n"
              "    return (x + y) % 97\n")
    native = ("ok", 0, "")

    def fake_four_runs(src, seed, inputs=fuzz.INPUTS):
        graph = ("ok", 1 if "    BAD()" in src else 0, "")
        return [((0, 0, [0]), native, native, native, graph)]

    monkeypatch.setattr(fuzz, "four_runs", fake_four_runs)
    assert fuzz.shrink4(source, 0) == "def BAD():\n    pass\ndef main(a, b, v):\n    BAD()\n"


@pytest.mark.parametrize("mode", NEW_MODES)
def test_cli_mode_summary_line(mode, capsys):
    import re
    code = fuzz.main([f"--{mode}", "--count", "3", "--seed", "5", "--no-shrink"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(rf"fuzz: 3 programs, seed 5, mode {mode}, (\d+) mismatches, (\d+) refused",
                     last)
    assert m, last
    assert code == (1 if int(m.group(1)) else 0)


def test_shrink4_candidates_must_bind_every_name_they_read():
    assert fuzz.names_are_bound("def main(a, b, v):\n    x = a\n    f = lambda p: p + x\n"
                                "    return len(v) + f(1)\n")
    assert not fuzz.names_are_bound("def main(a, b, v):\n    o.b = nb\n    return 0\n")


# --- the --variables mode ---------------------------------------------------------------
#
# float64 vectors and tf.Variables, against a numpy stand-in for `tf` whose
# reads are copies: held reads, returned tensors, tape records and np.asarray
# results must never change when the graph executor updates a Variable in
# place (runtime/_src/function/variables.py) or reuses a temporary
# (runtime/_src/exec/codegen.py).

VAR_COUNT = 4                  # programs here; .ci/fuzz runs 12
VAR_INPUTS = fuzz.VAR_INPUTS[1:]


def test_variables_mode_runs_agree():
    for k in range(VAR_COUNT):
        s = _seed(k)
        source = fuzz.VariableGenerator(s).program()
        rows = fuzz.variable_runs(source, s, VAR_INPUTS)
        assert fuzz.judge_program(rows) == "ok", (
            f"seed {s} disagrees (reproduce: python tools/fuzz.py --variables --count 1 "
            f"or fuzz.VariableGenerator({s}).program()):\n{source}\n{_describe(rows)}")


def _first_mismatch(limit=12):
    for k in range(limit):
        s = _fixed(k)
        source = fuzz.VariableGenerator(s).program()
        if fuzz.judge_program(fuzz.variable_runs(source, s, VAR_INPUTS)) != "ok":
            return s
    return None


def test_variables_mode_sees_an_update_in_place_that_a_holder_would_see(monkeypatch):
    """The oracle works: with `_sole_owner` always true, a held read, a
    returned tensor or a tape record changes, and the mode says so."""
    from runtime._src.function import variables
    monkeypatch.setattr(variables, "_sole_owner", lambda variable: True)
    assert _first_mismatch() is not None


def test_variables_mode_sees_a_temporary_overwritten_while_still_read(monkeypatch):
    """...and with `Emitter.donor` ignoring how often a temporary is read."""
    from runtime._src.exec import codegen

    def donor(self, node):
        out = node.outputs[0]
        if node.op not in codegen._IN_PLACE or not out.shape.is_fully_defined():
            return None
        return next((i for i, t in enumerate(node.inputs) if id(t) in self.fresh
                     and t.dtype is out.dtype and t.shape == out.shape), None)
    monkeypatch.setattr(codegen.Emitter, "donor", donor)
    assert _first_mismatch() is not None


def test_variables_generator_is_deterministic_valid_and_covers_its_constructs():
    texts = []
    for k in range(150):
        gen = fuzz.VariableGenerator
        a, b = gen(_seed(k)).program(), gen(_seed(k)).program()
        assert a == b
        compile(a, f"<fuzz variables {k}>", "exec")
        assert "def main(x, y, n, w):" in a and fuzz.terminates(a)
        texts.append(a)
    text = "".join(texts)
    for construct in [".read_value()", " + 0)", "tf.identity(", ".value()", "np.asarray(",
                      ".assign_add(", ".assign_sub(", ".assign(", "m.assign_add(",
                      "for j0 in tf.range(n):", "for j1 in tf.range(", "for j0 in range(2):",
                      "while i0 < n:", "break", "continue", "if tf.reduce_sum(", "else:",
                      "tf.matmul(m, ", "t0 * 0.5 + t0", "* 2.0 + ", "tf.cast(j",
                      "with tf.GradientTape() as tape:", "persistent=True",
                      "tape.gradient(loss, [", "opt.apply_gradients(", "nesterov=True",
                      "= step(", "@tf.function", "tf.reshape(x, [n * 0 + 3])"]:
        assert construct in text, construct


def test_native_stand_in_gradients_are_the_runtime_gradients():
    """The native run's tape (a tiny reverse mode over +, -, * and
    reduce_sum) gives the runtime's gradients, and the value read before an
    update."""
    import numpy as np
    import runtime as tf
    grads = []
    for t in (fuzz._NativeTF, tf):
        v = t.Variable(t.constant([1.0, 2.0, -1.0], dtype=t.float64))
        c = t.constant([0.5, 0.25, 2.0], dtype=t.float64)
        with t.GradientTape() as tape:
            loss = t.reduce_sum((v * 2.0 - c) * v + c * v - v)
        v.assign_sub(c)                   # after the forward pass: not seen by the gradient
        grads.append(np.asarray(tape.gradient(loss, v)))
        assert float(np.asarray(loss)) == 10.0
    np.testing.assert_array_equal(grads[0], [3.0, 7.0, -5.0])     # 4v - c + c - 1
    np.testing.assert_array_equal(grads[1], grads[0])


def test_cli_variables_summary_line(capsys):
    code = fuzz.main(["--variables", "--count", "2", "--seed", "5", "--no-shrink"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == "fuzz: 2 programs, seed 5, mode variables, 0 mismatches, 0 refused"
    assert code == 0


# --- the JAX backend: --backend jax ---------------------------------------------------
#
# Each program runs natively and as jax.jit(autograph.to_graph(main)) on int32
# arrays; values and exception types must agree, or JAX refuses clearly.

JAX_COUNT = 12        # .ci/fuzz runs 100, from a new seed each CI run (AUTOGRAPH_FUZZ_SEED)
JAX_CHUNKS = 1


@pytest.mark.parametrize("chunk", range(JAX_CHUNKS))
def test_jax_backend_runs_agree_or_refuse(chunk):
    pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    per_chunk = JAX_COUNT // JAX_CHUNKS
    for k in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        s = _seed(k)
        source = fuzz.Generator(s).program()
        rows = fuzz.jax_runs(source, s)
        bad = [r for r in rows if fuzz.judge_jax(r) not in ("ok", "refused")]
        assert not bad, (f"seed {s} disagrees (reproduce: python tools/fuzz.py --backend jax "
                         f"--count 1 or Generator({s}).program()):\n{source}\n"
                         + "\n".join(f"inputs {r[0]}: native={r[1]} jax={r[2]}" for r in bad))


@pytest.mark.parametrize("staged, verdict", [
    (("ok", 5, ""), "ok"),
    (("ok", 5, "traced\n"), "ok"),                 # jit prints while tracing: not compared
    (("ok", 6, ""), "mismatch"),
    (("raised", "ValueError", f"'out' is appended to in a loop ({LOC})", ""), "refused"),
    (("raised", "TracerBoolConversionError", "Attempted boolean conversion", ""), "mismatch"),
    (("raised", "UnboundLocalError", "cannot access local variable 'y'", ""), "internal"),
])
def test_judge_jax_outcomes(staged, verdict):
    assert fuzz.judge_jax(((1, 2, [3]), ("ok", 5, ""), staged)) == verdict


def test_cli_xla_summary_line(capsys):
    # --backend xla: tf.function(jit_compile=True) against the executor (.ci/fuzz runs 100)
    pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    code = fuzz.main(["--backend", "xla", "--count", "2", "--seed", "5"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == "fuzz: 2 programs, seed 5, mode default, backend xla, 0 mismatches, 0 refused"
    assert code == 0


def test_cli_jax_summary_line(capsys):
    pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    code = fuzz.main(["--backend", "jax", "--count", "2", "--seed", "5", "--no-shrink"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == "fuzz: 2 programs, seed 5, mode default, backend jax, 0 mismatches, 0 refused"
    assert code == 0
