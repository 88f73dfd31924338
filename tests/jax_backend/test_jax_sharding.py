"""A converted function under jax.jit on an input sharded over an 8-device
CPU mesh: the result is right and the output is sharded as asked. JAX reads
XLA_FLAGS when it initialises, so the check runs in a process of its own
with --xla_force_host_platform_device_count=8 (forked from tests/fresh_process.py's
helper, which has not imported JAX)."""

import os
import textwrap

import pytest

from tests import fresh_process

pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent("""
    import numpy as np
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import autograph
    import autograph.jax

    def step(x, n):
        if jnp.sum(x) > 0:
            y = x * 2.0
        else:
            y = -x
        i = 0
        while i < n:
            y = y + 1.0
            i += 1
        for row in x:
            y = y + jnp.max(row) * 0.0
        return y

    def expected(x, n):
        y = x * 2.0 if x.sum() > 0 else -x
        return y + n

    assert len(jax.devices()) == 8, jax.devices()
    mesh = Mesh(np.array(jax.devices()), ("d",))
    sharded = NamedSharding(mesh, P("d"))
    x = jax.device_put(np.arange(32, dtype=np.float32).reshape(16, 2) - 10.0, sharded)
    assert len(x.sharding.device_set) == 8

    f = autograph.jax.jit(step, in_shardings=(sharded, None), out_shardings=sharded)
    out = f(x, 3)
    np.testing.assert_allclose(np.asarray(out), expected(np.asarray(x), 3))
    assert out.sharding.is_equivalent_to(sharded, out.ndim), out.sharding
    assert len(out.sharding.device_set) == 8
    neg = f(-x, 1)
    np.testing.assert_allclose(np.asarray(neg), expected(-np.asarray(x), 1))

    g = jax.jit(autograph.to_graph(step))       # sharding propagated from the input
    out = g(x, 2)
    np.testing.assert_allclose(np.asarray(out), expected(np.asarray(x), 2))
    assert len(out.sharding.device_set) == 8, out.sharding
    print("ok")
""")


def test_converted_function_on_an_8_device_cpu_mesh(tmp_path):
    path = tmp_path / "sharded.py"
    path.write_text(_SCRIPT)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    run = fresh_process.run([str(path)], capture_output=True, text=True, env=env,
                            timeout=300, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr
