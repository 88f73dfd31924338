"""`keras.callbacks.RemoteMonitor` against Keras 3.15 (recorded on TF 2.21 by
tools/record_keras_remote_monitor.py into tests/data/keras_remote_monitor.json):
the POSTs a two-epoch fit sends to a local server, as a form and as JSON, and
the warning when the server cannot be reached."""

import json
import pathlib
import sys

import pytest

import runtime as tf
from tests.extras import skip_module_without

skip_module_without("requests", "requests")     # RemoteMonitor imports it when it posts
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_remote_monitor import posts, unreachable  # noqa: E402

REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_remote_monitor.json")
                 .read_text())


@pytest.mark.parametrize("send_as_json", [False, True], ids=["form", "json"])
def test_posts_as_keras(send_as_json):
    got = posts(tf.keras, send_as_json)
    want = REC["json" if send_as_json else "form"]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert {k: g[k] for k in ("path", "type", "run")} == \
            {k: w[k] for k in ("path", "type", "run")}
        assert sorted(g["payload"]) == sorted(w["payload"])
        assert g["payload"]["epoch"] == w["payload"]["epoch"]
        for key in ("loss", "mae"):
            assert g["payload"][key] == pytest.approx(w["payload"][key], rel=1e-5)


def test_unreachable_server_warns_as_keras():
    assert unreachable(tf.keras) == REC["unreachable"]
