"""A module written by `autograph convert` runs under jax.jit as it is: the
converted code calls the operators, which stage JAX tracers into lax."""

import importlib.util
import os
import subprocess
import sys

import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SOURCE = '''
def steps_until_small(x, limit):
    steps = 0
    while x > 1.0:
        if steps >= limit:
            break
        x = x / 2.0
        steps += 1
    return steps


def rows_total(xs):
    total = 0.0
    for row in xs:
        if row.sum() > 0:
            total = total + row.sum()
    return total
'''


def test_converted_module_runs_under_jit(tmp_path):
    src, out = tmp_path / "model.py", tmp_path / "model_ag.py"
    src.write_text(SOURCE)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-m", "autograph", "convert", str(src), "-o", str(out)],
                         capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    spec = importlib.util.spec_from_file_location("model_ag", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    f = jax.jit(module.steps_until_small)
    assert int(f(100.0, 3)) == 3 and int(f(100.0, 30)) == 7
    assert "while[" in str(jax.make_jaxpr(module.steps_until_small)(100.0, 3))
    xs = jax.numpy.asarray([[1.0, 2.0], [-5.0, 1.0], [0.5, 0.5]])
    assert float(jax.jit(module.rows_total)(xs)) == 4.0
    assert "scan[" in str(jax.make_jaxpr(module.rows_total)(xs))
