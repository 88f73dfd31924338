"""`tf.profiler.experimental`: sessions, annotations and the XSpace file, read
back with the wire-format decoder. TF 2.21 writes the same layout for the same
program (`logdir/plugins/profile/<time>/<host>.xplane.pb`; planes "/host:CPU"
and "Task Environment"; `train` with stats step_num=1 and _r=1; `f` with
tf_function_call "traced-nonXla" then "notTraced-nonXla"), and its errors."""

import glob
import os

import pytest

import runtime as tf
from runtime._src.core import protowire as pw

prof = tf.profiler.experimental


def _fields(data):
    out = {}
    for number, _, value in pw.fields(data):
        out.setdefault(number, []).append(value)
    return out


def _read_space(path):
    """{plane name: [(line name, [(event name, offset_ps, duration_ps, {stat: value})])]}"""
    space = _fields(open(path, "rb").read())
    planes = {}
    for plane in map(_fields, space[1]):
        events = {m: _fields(e[2][0]) for e in map(_fields, plane.get(4, [])) for m in e[1]}
        stats = {m: _fields(e[2][0]) for e in map(_fields, plane.get(5, [])) for m in e[1]}
        lines = []
        for line in map(_fields, plane.get(3, [])):
            found = []
            for ev in map(_fields, line.get(4, [])):
                ev_stats = {}
                for st in map(_fields, ev.get(4, [])):
                    key = stats[st[1][0]][2][0].decode()
                    value = st.get(4, st.get(3, st.get(5)))[0]
                    ev_stats[key] = value.decode() if isinstance(value, bytes) else value
                found.append((events[ev[1][0]][2][0].decode(), ev[2][0], ev[3][0], ev_stats))
            lines.append((line[2][0].decode(), found))
        env = {stats[st[1][0]][2][0].decode(): st[3][0] for st in map(_fields, plane.get(6, []))}
        planes[plane[2][0].decode()] = lines or env
    return planes, [h.decode() for h in space[4]]


def test_a_session_records_annotations_ops_and_function_calls(tmp_path):
    @tf.function
    def f(x):
        return tf.matmul(x, x) + 1

    x = tf.ones([2, 2])
    prof.start(str(tmp_path))
    with prof.Trace("train", step_num=1, _r=1):
        f(x)
        tf.add(x, 1.0)
    f(x)
    prof.stop()
    tf.add(x, 1.0)                          # after stop: not recorded
    files = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.xplane.pb"))
    assert len(files) == 1
    planes, hosts = _read_space(files[0])
    assert os.path.basename(files[0]) == f"{hosts[0]}.xplane.pb"
    [(line, events)] = planes["/host:CPU"]
    assert line == "python"
    assert [(e[0], e[3]) for e in events] == [
        ("train", {"step_num": 1, "_r": 1}),
        ("f", {"tf_function_call": "traced-nonXla", "tracing_count": 1}),
        ("AddV2", {}),
        ("f", {"tf_function_call": "notTraced-nonXla", "tracing_count": 1})]
    train, first, add, _ = events
    assert train[1] <= first[1] and first[1] + first[2] <= add[1] <= train[1] + train[2]
    env = planes["Task Environment"]
    assert env["profile_start_time"] < env["profile_stop_time"]


def test_errors_options_and_levels(tmp_path):
    with pytest.raises(tf.errors.UnavailableError,
                       match="^Cannot export profiling results. No profiler is running.$"):
        prof.stop()
    prof.start(str(tmp_path))
    with pytest.raises(tf.errors.AlreadyExistsError, match="^Another profiler is running.$"):
        prof.start(str(tmp_path))
    prof.stop(save=False)
    assert not os.path.exists(tmp_path / "plugins")
    assert repr(prof.ProfilerOptions()) == ("ProfilerOptions(host_tracer_level=2, "
                                            "python_tracer_level=0, device_tracer_level=1, "
                                            "delay_ms=None)")
    with prof.Profile(str(tmp_path), options=prof.ProfilerOptions(host_tracer_level=1)):
        with prof.Trace("step") as trace:
            trace.set_metadata(step_num=3)
            tf.add(1.0, 2.0)                # level 2: left out at level 1
    [path] = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.xplane.pb"))
    [(_, events)] = _read_space(path)[0]["/host:CPU"]
    assert [(e[0], e[3]) for e in events] == [("step", {"step_num": 3})]


def test_python_tracer_records_python_calls(tmp_path):
    def helper():
        return 1

    with prof.Profile(str(tmp_path), prof.ProfilerOptions(python_tracer_level=1)):
        helper()
    [path] = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.xplane.pb"))
    [(_, events)] = _read_space(path)[0]["/host:CPU"]
    line = helper.__code__.co_firstlineno
    assert f"$test_profiler.py:{line} helper" in [e[0] for e in events]


def test_summary_trace_on_with_profiler_writes_a_profile(tmp_path):
    tf.summary.trace_on(graph=True, profiler=True, profiler_outdir=str(tmp_path))
    tf.add(1.0, 2.0)
    tf.summary.trace_off()
    [path] = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.xplane.pb"))
    [(_, events)] = _read_space(path)[0]["/host:CPU"]
    assert [e[0] for e in events] == ["AddV2"]
