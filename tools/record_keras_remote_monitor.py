"""Record what Keras 3.15's `keras.callbacks.RemoteMonitor` sends: each POST's
path, content type, custom header and payload, sent to a local HTTP server,
as a form and as JSON, and the warning for a server it cannot reach.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_remote_monitor.py
        # -> tests/data/keras_remote_monitor.json

Runs where TensorFlow 2.21 and Keras 3.15 are installed (never a dependency);
tests/keras/test_keras_remote_monitor.py runs the same functions on runtime.keras.
"""

import json
import pathlib
import socket
import threading
import urllib.parse
import warnings
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np

OUT = (pathlib.Path(__file__).resolve().parent.parent / "tests" / "data"
       / "keras_remote_monitor.json")


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):          # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        self.server.seen.append({"path": self.path, "type": self.headers["Content-Type"],
                                 "run": self.headers.get("X-Run"), "body": body})
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def _model(K):
    model = K.Sequential([K.Input((3,)), K.layers.Dense(1)])
    for k, w in enumerate(model.weights):
        n = int(np.prod(w.shape))
        w.assign((0.5 * np.sin(0.37 * np.arange(n) + k)).reshape(tuple(w.shape)))
    model.compile(K.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


X = np.cos(0.7 * np.arange(12)).reshape(4, 3).astype("float32")
Y = np.sin(0.3 * np.arange(4)).reshape(4, 1).astype("float32")


def posts(K, send_as_json):
    """The POSTs of a two-epoch fit, payloads decoded."""
    server = HTTPServer(("127.0.0.1", 0), _Handler)
    server.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monitor = K.callbacks.RemoteMonitor(root=f"http://127.0.0.1:{server.server_port}",
                                            path="/runs/", field="payload",
                                            headers={"X-Run": "7"}, send_as_json=send_as_json)
        _model(K).fit(X, Y, batch_size=4, epochs=2, verbose=0, shuffle=False,
                      callbacks=[monitor])
    finally:
        server.shutdown()
        server.server_close()
    for post in server.seen:
        body = post.pop("body")
        post["payload"] = json.loads(body) if send_as_json else json.loads(
            urllib.parse.parse_qs(body)["payload"][0])
    return server.seen


def unreachable(K):
    """The warnings of a fit whose server's port is closed ('ROOT' for the url)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = f"http://127.0.0.1:{port}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _model(K).fit(X, Y, epochs=1, verbose=0,
                      callbacks=[K.callbacks.RemoteMonitor(root=root)])
    return [str(w.message).replace(root, "ROOT") for w in caught
            if "RemoteMonitor" in str(w.message)]


def main():
    import keras
    data = {"keras": keras.__version__, "form": posts(keras, False),
            "json": posts(keras, True), "unreachable": unreachable(keras)}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
