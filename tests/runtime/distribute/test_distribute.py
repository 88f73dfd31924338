"""tf.distribute against TF 2.21's recorded values (tests/data/distribute_tf221.json,
tools/record_distribute.py: the programs of programs.py under TF's
MirroredStrategy on 4 and 8 logical CPUs).

JAX fixes its device count when it starts, so the runs on 8 logical CPUs
(MirroredStrategy on 8 and on 4 of them) and the 2-process
MultiWorkerMirroredStrategy run in their own processes (replicas.py,
worker.py), all started at once by one fixture (forked from this one when
JAX has not started here); each test checks a part of their results. The default strategy and
OneDeviceStrategy run here, without JAX.
"""

import importlib.util
import json
import os
import socket
import subprocess
import sys

import numpy as np
import pytest

try:
    import fcntl
except ImportError:            # not POSIX: each worker runs its own
    fcntl = None

import runtime as tf
from tests.paths import DATA

HERE = os.path.dirname(os.path.abspath(__file__))
with open(DATA / "distribute_tf221.json") as _f:
    TF = json.load(_f)["devices"]

def _has_jax():
    try:
        return importlib.util.find_spec("jax") is not None
    except ImportError:
        return False


needs_jax = pytest.mark.skipif(not _has_jax(),
                               reason="jax is not installed (pip install 'autograph-runtime[jax]')")


def _free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class _Forked:
    """A forked child calling `run()` of replicas.py or worker.py (the
    runtime already imported: faster than a new interpreter)."""

    def __init__(self, script, env):
        import multiprocessing
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(False)
        self._proc = ctx.Process(target=_child, args=(send, script, env))
        self._proc.start()

    def result(self):
        text = self._recv.recv() if self._recv.poll(600) else "no result in 600 s"
        self._proc.join(60)
        assert text.startswith("{"), text
        return json.loads(text)


def _child(send, script, env):
    try:
        os.environ.update(env)
        sys.path.insert(0, HERE)
        module = __import__(script)
        send.send(json.dumps(module.run()))
    except BaseException:  # noqa: BLE001 - reported to the test
        import traceback
        send.send(traceback.format_exc())
    finally:
        os._exit(0)


class _Spawned:
    """A new interpreter running replicas.py or worker.py (when JAX's backends
    already started in this process: a fork would inherit its device count)."""

    def __init__(self, script, env):
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(HERE)), **env)
        self._proc = subprocess.Popen([sys.executable, os.path.join(HERE, script + ".py")],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True)

    def result(self):
        out, err = self._proc.communicate(timeout=600)
        lines = [x for x in out.splitlines() if x.startswith("RESULT")]
        assert self._proc.returncode == 0 and lines, err[-3000:]
        return json.loads(lines[-1][len("RESULT"):])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """{"replicas": ..., "workers": [w0, w1]}: the three processes started at once,
    once per pytest run (under pytest-xdist the first worker to need them runs
    them and leaves their JSON results for the others: about 25 CPU-s each time)."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run_id is None or fcntl is None:
        return _start_runs()
    shared = tmp_path_factory.getbasetemp().parent / f"distribute-runs-{run_id}.json"
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # another worker may be running them
        if not shared.exists():
            text = json.dumps(_start_runs())
            shared.with_suffix(".tmp").write_text(text)
            os.replace(shared.with_suffix(".tmp"), shared)
        return json.loads(shared.read_text())


def _jax_started():
    """Whether JAX has started its backends here (imported only, as after the
    suite's collection, it has no device count yet: a fork may still set one)."""
    if "jax" not in sys.modules:
        return False
    from jax._src import xla_bridge
    return xla_bridge.backends_are_initialized()


def _start_runs():
    start = _Spawned if _jax_started() else _Forked
    os.environ.pop("TF_CONFIG", None)
    replicas = start("replicas", {})
    addresses = [f"localhost:{p}" for p in _free_ports(2)]
    workers = [start("worker", {"TF_CONFIG": json.dumps(
        {"cluster": {"worker": addresses}, "task": {"type": "worker", "index": i}})})
        for i in range(2)]
    return {"replicas": replicas.result(), "workers": [w.result() for w in workers]}


def _close(a, b, tol=1e-5):
    for x, y in zip(a, b):
        np.testing.assert_allclose(np.asarray(x, np.float64), np.asarray(y, np.float64),
                                   rtol=tol, atol=tol)


# --- several devices (subprocesses) -----------------------------------------------------

@needs_jax
def test_the_cpu_splits_into_jax_devices_after_listing_it(runs):
    run = runs["replicas"]
    assert run["physical_before_split"] == ["/physical_device:CPU:0"]
    assert run["jax_started_before_split"] is False
    assert run["logical"] == [f"/device:CPU:{i}" for i in range(8)]
    assert run["second_split"] == "Virtual devices cannot be modified after being initialized"


CHECKS = [(n, name) for n in ("4", "8") for name in sorted(TF[n]["checks"])]


@needs_jax
@pytest.mark.parametrize("n,name", CHECKS)
def test_strategy_behaviour_as_tf(runs, n, name):
    ours, theirs = runs["replicas"][n]["checks"][name], TF[n]["checks"][name]
    assert _same(ours, theirs), (ours, theirs)


def _same(ours, theirs):
    """Equal nests, floats to 1e-5 (float32 sums in another order; TF's
    float32 sin and cos one ulp off ours at a few points)."""
    if isinstance(theirs, list):
        return isinstance(ours, list) and len(ours) == len(theirs) and all(
            _same(a, b) for a, b in zip(ours, theirs))
    if isinstance(theirs, float) and isinstance(ours, (int, float)):
        return bool(np.isclose(ours, theirs, rtol=1e-5, atol=1e-6))
    return ours == theirs


@needs_jax
@pytest.mark.parametrize("n", ["4", "8"])
def test_steps_xla_cannot_run_whole_warn_once_naming_why(runs, n):
    strings, uneven, in_function = runs["replicas"][n]["fallback_warnings"]
    assert strings.startswith("MirroredStrategy.run of 'strings' runs replica by replica on "
                              "the executor (a thread each, as TF)")
    assert strings.endswith("no XLA lowering: AsString, EagerPyFunc, StringLength")
    rows = "[(2, 2), (2, 2), (2, 2), (1, 2)]" if n == "4" else \
        "[(1, 2), (1, 2), (1, 2), (1, 2), (1, 2), (1, 2), (1, 2), (0, 2)]"
    assert f"the replicas' inputs have different shapes {rows}" in uneven
    rows = "[(3,), (3,), (3,), (0,)]" if n == "4" else \
        "[(2,), (2,), (2,), (2,), (2,), (0,), (0,), (0,)]"
    assert f"the replicas' inputs have different shapes {rows}" in in_function


@needs_jax
@pytest.mark.parametrize("n", ["4", "8"])
def test_custom_loop_gives_tf_and_single_device_weights(runs, n):
    ours, theirs = runs["replicas"][n]["custom_loop"], TF[n]["custom_loop"]
    single = runs["replicas"]["single"]
    _close(ours["losses"], theirs["losses"])
    _close(ours["weights"], theirs["weights"])
    _close(ours["weights"], single["weights"])
    _close(single["weights"], TF["1"]["custom_loop"]["weights"])
    assert ours["accuracy"] == pytest.approx(theirs["accuracy"], abs=1e-6)
    assert ours["iterations"] == theirs["iterations"] == 8


@needs_jax
def test_keras_fit_on_4_replicas_as_tf_and_restored_on_one(runs):
    run = runs["replicas"]
    ours, theirs = run["keras_fit"], TF["4"]["keras_fit"]
    for key in ("loss", "accuracy"):
        _close(ours["history"][key], theirs["history"][key])
    _close(ours["evaluate"], theirs["evaluate"])
    _close(ours["predict"], theirs["predict"])
    _close(ours["weights"], theirs["weights"])
    _close(ours["weights"], run["keras_single"]["weights"])
    _close(run["keras_single"]["history"]["loss"], TF["1"]["keras_fit"]["history"]["loss"])
    _close(run["restored"]["loaded_predict"], ours["predict"][:8])
    _close(run["restored"]["weights_predict"], ours["predict"][:8])
    # One XLA program per step (train, evaluate, predict's batches of 8 and
    # its last of 4), none run by threads.
    assert run["keras_fit_programs"] == ["ReplicaProgram"] * 4
    assert run["keras_fit_fallbacks"] == []


@needs_jax
def test_multi_worker_two_processes(runs):
    w0, w1 = runs["workers"]
    assert w0["num_replicas"] == w1["num_replicas"] == 2
    assert w0["worker_devices"] == ["/job:worker/replica:0/task:0/device:CPU:0",
                                    "/job:worker/replica:0/task:1/device:CPU:0"]
    assert (w0["local_ids"], w1["local_ids"]) == ([1.0], [2.0])
    assert w0["reduce_sum"] == w1["reduce_sum"] == 3.0
    assert w0["gather"] == w1["gather"] == [0.0, 0.0, 1.0, 1.0]
    for w in (w0, w1):
        _close(w["custom_loop"]["losses"], TF["1"]["custom_loop"]["losses"])
        _close(w["custom_loop"]["weights"], TF["1"]["custom_loop"]["weights"])
        keras, theirs = w["keras_fit"], TF["1"]["keras_fit"]
        _close(keras["history"]["loss"], theirs["history"]["loss"])
        _close(keras["weights"], theirs["weights"])
        _close(keras["predict"], theirs["predict"])        # every worker's rows
        assert w["keras_value"] == TF["4"]["checks"]["keras_value"]


@needs_jax
def test_multi_worker_threads_per_replica_where_xla_cannot(runs):
    """Strings, py_function and uneven batches: each worker's replica on a
    thread, the all-reduces across the 2 processes; TF's values on 2 devices."""
    w0, w1 = runs["workers"]
    theirs = TF["2"]["fallback"]
    a, b = w0["fallback"], w1["fallback"]
    for key in ("strings_text", "strings_total", "py_function"):
        assert _same(a[key] + b[key], theirs[key]), key
    merged = [[x + y for x, y in zip(p, q)] for p, q in zip(a["uneven"], b["uneven"])]
    assert _same(merged, theirs["uneven"])
    for key in ("uneven_weights", "uneven_in_function", "uneven_rows"):
        assert _same(a[key], theirs[key]) and _same(b[key], theirs[key]), key
    for w in (w0, w1):
        warned = w["fallback_warnings"]
        assert warned[0].endswith("no XLA lowering: AsString, EagerPyFunc, StringLength")
        assert "different shapes [(4, 2), (3, 2)]" in warned[1]
        assert "different shapes [(3,), (2,)]" in warned[2]


# --- one replica, here (no JAX) ----------------------------------------------------------

def test_default_strategy_and_contexts():
    strategy = tf.distribute.get_strategy()
    assert not tf.distribute.has_strategy()
    assert not tf.distribute.in_cross_replica_context()
    ctx = tf.distribute.get_replica_context()
    assert (ctx.num_replicas_in_sync, int(ctx.replica_id_in_sync_group)) == (1, 0)
    assert ctx.replica_id_in_sync_group.dtype == tf.int32
    assert float(ctx.all_reduce("SUM", tf.constant(2.0))) == 2.0
    assert strategy.num_replicas_in_sync == 1
    assert float(strategy.run(lambda x: x + 1, args=(1.0,))) == 2.0
    assert float(strategy.reduce("SUM", tf.constant([1.0, 2.0]), axis=0)) == 3.0
    assert strategy.experimental_local_results(3) == (3,)
    with strategy.scope():
        assert not tf.distribute.in_cross_replica_context()
    assert float(tf.nn.compute_average_loss([1.0, 2.0, 3.0])) == 2.0
    assert float(tf.nn.scale_regularization_loss(4.0)) == 4.0


def test_one_device_strategy():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert strategy.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)
    with strategy.scope():
        assert tf.distribute.has_strategy() and tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        assert tf.distribute.get_strategy() is strategy
        v = tf.Variable(1.0)

    @tf.function
    def step(x):
        ctx = tf.distribute.get_replica_context()
        v.assign_add(x)
        return ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync

    replica, count = strategy.run(step, args=(tf.constant(2.0),))
    assert (int(replica), count, float(v.numpy())) == (0, 1, 3.0)
    batches = list(strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2)))
    assert [b.numpy().tolist() for b in batches] == [[0, 1], [2, 3]]
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)
    # TF 2.21's values: the key hashed with replica id 0 inside run, not outside.
    np.testing.assert_array_equal(strategy.run(lambda: g.normal([2])).numpy(),
                                  np.float32([-0.87930447, 1.4680789]))
    np.testing.assert_array_equal(tf.random.Generator.from_seed(1).normal([2]).numpy(),
                                  np.float32([0.43842274, -0.53439844]))
    other = tf.distribute.OneDeviceStrategy("/cpu:5")      # accepted, as TF (soft placement)
    assert other.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:5",)
    assert float(other.run(lambda: tf.constant(1.0) + 1)) == 2.0


def test_small_types():
    ctx = tf.distribute.InputContext(4, 1, 8)
    assert str(ctx) == "tf.distribute.InputContext(input pipeline id 1, total: 4)"
    assert ctx.get_per_replica_batch_size(64) == 8
    with pytest.raises(ValueError, match="is not divisible by `num_replicas_in_sync` 8"):
        ctx.get_per_replica_batch_size(12)
    assert tf.distribute.ReduceOp("SUM") is tf.distribute.ReduceOp.SUM
    assert tf.distribute.ReduceOp.from_variable_aggregation(
        tf.VariableAggregation.MEAN) is tf.distribute.ReduceOp.MEAN
    assert tf.distribute.InputReplicationMode.PER_WORKER.value == "PER_WORKER"
    with pytest.raises(ValueError, match="reduce_op must be"):
        tf.distribute.get_strategy().reduce("MAX", tf.constant(1.0))


def test_mirrored_strategy_without_jax_names_the_extra(monkeypatch):
    from runtime._src.distribute import strategy as strategy_mod
    real = strategy_mod.importlib.util.find_spec
    monkeypatch.setattr(strategy_mod.importlib.util, "find_spec",
                        lambda name, *a: None if name == "jax" else real(name, *a))
    for cls in (tf.distribute.MirroredStrategy, tf.distribute.MultiWorkerMirroredStrategy):
        with pytest.raises(ImportError, match=r"autograph-runtime\[jax\]"):
            cls()


def test_tf_config_cluster():
    from runtime._src.distribute.multi_worker import cluster_of
    config = {"cluster": {"chief": ["a:1"], "worker": ["b:2", "c:3"]},
              "task": {"type": "worker", "index": 1}}
    assert cluster_of(json.dumps(config)) == (["a:1", "b:2", "c:3"], 2)
    assert cluster_of("{}") == ([], 0)
    with pytest.raises(ValueError, match="is not in its cluster"):
        cluster_of({"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": 3}})
    with pytest.raises(ValueError, match=r"job\(s\) \['ps'\]"):
        cluster_of({"cluster": {"worker": ["a:1"], "ps": ["b:2"]}, "task": {}})
