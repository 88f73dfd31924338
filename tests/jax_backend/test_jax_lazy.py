"""`import autograph` never imports JAX: not on import, not when converted
code runs on Python values or on runtime tensors (eagerly and in a graph).
The JAX backend registers itself when a JAX value first reaches an
operator. Runs in a subprocess, with a fresh `sys.modules`."""

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent("""
    import sys
    import autograph
    assert "jax" not in sys.modules, "import autograph imported jax"

    def f(x, xs):
        s = 0
        for v in xs:
            if v > x:
                s += v
        while s > 10:
            s = s - 3
        return s

    g = autograph.to_graph(f)
    assert g(1, [1, 2, 30]) == f(1, [1, 2, 30])
    assert "jax" not in sys.modules, "Python values imported jax"
    import runtime as tf
    x, xs = tf.constant(1), tf.constant([1, 2, 30])
    assert int(g(x, xs)) == f(1, [1, 2, 30])
    assert int(tf.function(f)(x, xs)) == f(1, [1, 2, 30])
    assert "jax" not in sys.modules, "runtime tensors imported jax"
    from autograph import backend
    assert not any(type(b).__module__ == "autograph.jax_backend" for b in backend.backends())
    print("ok")
""")


def _run(tmp_path, script):
    """Run `script` from a file (converted functions need their source)."""
    path = tmp_path / "script.py"
    path.write_text(script)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env=env, timeout=120, cwd=ROOT)


def test_autograph_never_imports_jax(tmp_path):
    run = _run(tmp_path, _SCRIPT)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_first_jax_value_registers_the_backend(tmp_path):
    pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    run = _run(tmp_path, textwrap.dedent("""
        import sys
        import autograph
        from autograph import backend

        def f(x):
            if x > 0:
                x = x * 2
            return x

        assert "autograph.jax_backend" not in sys.modules
        import jax
        assert "autograph.jax_backend" not in sys.modules
        assert int(jax.jit(autograph.to_graph(f))(3)) == 6
        assert int(jax.jit(autograph.to_graph(f))(-3)) == -3
        assert [type(b).__name__ for b in backend.backends()] == ["JaxBackend"]
        print("ok")
    """))
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr
