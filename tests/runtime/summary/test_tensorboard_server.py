"""A real `tensorboard` server reads our event files and answers its HTTP API."""

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import runtime as tf

pytest.importorskip("tensorboard",
                    reason="tensorboard is not installed (pip install -e '.[tensorboard]')")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url, as_json=True, timeout=2):
    """The answer at `url`; a short `timeout` while polling a server that may not be up."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        text = response.read().decode("utf-8")
    return json.loads(text) if as_json else text


def _loop(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0),
                         [tf.constant(0), x])[1]


def test_tensorboard_server_serves_our_scalars_and_graph(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "run1"))
    with writer.as_default():
        for step, loss in enumerate([0.5, 0.25, 0.125]):
            tf.summary.scalar("loss", loss, step=step)
        tf.summary.graph(tf.function(_loop).get_concrete_function(
            tf.TensorSpec([], tf.float32)).graph)
    writer.close()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tensorboard.main", "--logdir", str(tmp_path), "--host",
         "127.0.0.1", "--port", str(port), "--load_fast", "false", "--reload_interval", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}/data/plugin/scalars"
        deadline, points = time.monotonic() + 60, None     # its start on a loaded machine
        while time.monotonic() < deadline and points is None:
            try:
                if "loss" in _get(f"{base}/tags").get("run1", {}):
                    points = _get(f"{base}/scalars?run=run1&tag=loss")
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if points is None:
                if server.poll() is not None:
                    pytest.fail(f"tensorboard exited with {server.returncode}")
                time.sleep(0.2)
        assert points is not None, "tensorboard did not serve the scalars within 60 s"
        assert [(step, value) for _, step, value in points] == [(0, 0.5), (1, 0.25),
                                                                (2, 0.125)]
        graph = _get(f"http://127.0.0.1:{port}/data/plugin/graphs/graph?run=run1",
                     as_json=False, timeout=60)     # the server is up: a loaded machine may be slow
        assert 'op: "StatelessWhile"' in graph and "library {" in graph
    finally:
        server.kill()
        server.wait(timeout=10)
