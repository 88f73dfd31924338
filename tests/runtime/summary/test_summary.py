"""tf.summary: event files read back with TensorBoard's own reader (not ours).
Behaviour recorded from TensorFlow 2.21 where noted."""

import os
import sys

import numpy as np
import pytest

import runtime as tf
from tests.extras import skip_module_without
from tests.paths import ROOT as ROOT_PATH

skip_module_without("tensorboard", "-e '.[tensorboard]'")


def _read(logdir):
    from tensorboard.backend.event_processing import event_accumulator as ea
    acc = ea.EventAccumulator(str(logdir), size_guidance={ea.TENSORS: 0})
    acc.Reload()
    return acc


def _values(acc, tag):
    from tensorboard.util import tensor_util
    return [(e.step, tensor_util.make_ndarray(e.tensor_proto)) for e in acc.Tensors(tag)]


def test_eager_scalar_histogram_text_image(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(tf.summary.scalar("loss", 0.25, step=3))
        tf.summary.histogram("weights", [1.0, 2.0, 2.0, 4.0], step=3, buckets=3)
        tf.summary.text("note", "hello", step=3)
        tf.summary.image("pic", np.full((2, 4, 5, 3), 0.5, np.float32), step=3, max_outputs=1)
    acc = _read(tmp_path)
    assert _values(acc, "loss") == [(3, np.float32(0.25))]
    assert acc.SummaryMetadata("loss").plugin_data.plugin_name == "scalars"
    (step, hist), = _values(acc, "weights")
    # TensorBoard's bucket rule: 3 equal buckets between min and max
    assert hist.tolist() == [[1.0, 2.0, 1.0], [2.0, 3.0, 2.0], [3.0, 4.0, 1.0]]
    assert _values(acc, "note")[0][1] == b"hello"
    (_, pic), = _values(acc, "pic")
    assert pic[:2].tolist() == [b"5", b"4"] and len(pic) == 3 and pic[2][:4] == b"\x89PNG"


def test_inside_tf_function_written_when_the_graph_runs_not_when_traced(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def train(x):
        tf.summary.scalar("x2", x * 2.0, step=step)
        return x + 1.0

    with writer.as_default():
        concrete = train.get_concrete_function(tf.TensorSpec([], tf.float32))  # traced only
        writer.flush()
        assert not _read(tmp_path).Tags()["tensors"]
        for i in range(3):
            step.assign(10 + i)
            concrete(tf.constant(float(i)))
    assert [(s, float(v)) for s, v in _values(_read(tmp_path), "x2")] == [
        (10, 0.0), (11, 2.0), (12, 4.0)]
    assert "WriteSummary" in [n.op for n in concrete.graph.get_operations()]


def test_no_writer_no_step_and_record_if(tmp_path):
    # TensorFlow 2.21: False without a default writer; ValueError without a step
    assert not bool(tf.summary.scalar("x", 1.0, step=1))
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match=r"No step set. Please specify one either through "
                                             r"the `step` argument or through "
                                             r"tf.summary.experimental.set_step\(\)"):
            tf.summary.scalar("x", 1.0)
        assert tf.summary.experimental.get_step() is None
        tf.summary.experimental.set_step(5)
        assert tf.summary.experimental.get_step() == 5
        tf.summary.scalar("x", 1.0)
        with tf.summary.record_if(False):
            assert not bool(tf.summary.scalar("x", 2.0, step=6))
        flag = tf.Variable(False)

        @tf.function
        def maybe(v):
            with tf.summary.record_if(lambda: flag.read_value()):
                return tf.summary.scalar("cond", v, step=7)
        assert not bool(maybe(tf.constant(1.0)))
        flag.assign(True)
        assert bool(maybe(tf.constant(2.0)))
        tf.summary.experimental.set_step(None)
    tf.summary.flush(writer)
    acc = _read(tmp_path)
    assert [s for s, _ in _values(acc, "x")] == [5]
    assert [(s, float(v)) for s, v in _values(acc, "cond")] == [(7, 2.0)]


def _cond_and_loop(x):
    y = tf.cond(x > 0.0, lambda: x * 2.0, lambda: x - 1.0)
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0),
                         [tf.constant(0), y])[1]


def test_trace_export_writes_the_graph_with_cond_and_loop_functions(tmp_path):
    from tensorboard.compat.proto import config_pb2, graph_pb2
    f = tf.function(_cond_and_loop)
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    f(tf.constant(2.0))
    with writer.as_default():
        tf.summary.trace_export(name="f_trace", step=0)
    acc = _read(tmp_path)
    (step, blob), = _values(acc, "f_trace")
    assert acc.SummaryMetadata("f_trace").plugin_data.plugin_name == "graph_run_metadata_graph"
    run_metadata = config_pb2.RunMetadata.FromString(blob.reshape(-1)[0])
    graph = run_metadata.function_graphs[0].pre_optimization_graph
    assert {"StatelessIf", "StatelessWhile"} <= {n.op for n in graph.node}
    assert len(graph.library.function) == 4
    assert isinstance(acc.Graph(), graph_pb2.GraphDef) and len(acc.Graph().node) == len(graph.node)


def test_keras_tensorboard_callback(tmp_path):
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x = np.random.RandomState(0).randn(16, 3).astype("float32")
    y = np.random.RandomState(1).randn(16, 1).astype("float32")
    history = model.fit(x, y, epochs=2, verbose=0, validation_data=(x, y),
                        callbacks=[keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1,
                                                                   write_images=True)])
    assert sorted(os.listdir(tmp_path)) == ["train", "validation"]   # as Keras 3
    train, val = _read(tmp_path / "train"), _read(tmp_path / "validation")
    for name in ("loss", "mae"):
        assert [(s, float(v)) for s, v in _values(train, f"epoch_{name}")] == [
            (0, pytest.approx(history.history[name][0])),
            (1, pytest.approx(history.history[name][1]))]
        assert [float(v) for _, v in _values(val, f"epoch_{name}")] == pytest.approx(
            history.history[f"val_{name}"])
    assert "epoch_learning_rate" in train.Tags()["tensors"]
    histograms = [t for t in train.Tags()["tensors"] if t.endswith("/histogram")]
    assert len(histograms) == 4 and all(t.startswith("sequential") for t in histograms)
    kernel_image = next(t for t in train.Tags()["tensors"] if t.endswith("kernel/image"))
    assert _values(train, kernel_image)[0][1][:2].tolist() == [b"3", b"2"]  # width, height
    assert train.Tags()["graph"] and any(n.op == "MatMul" for n in train.Graph().node)


def _batchnorm_model(keras):
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                             keras.layers.BatchNormalization(), keras.layers.Dense(1)])


def _nested_model(keras):
    inner = keras.Sequential([keras.layers.Dense(4), keras.layers.Dense(2)], name="inner")
    inputs = keras.Input((3,))
    return keras.Model(inputs, keras.layers.Dense(1)(inner(inputs)))


# TF 2.21's Keras 3 (3.15), each model fit for one epoch in a fresh session
# (keras.backend.clear_session()) with TensorBoard(histogram_freq=1,
# write_images=True): the tags of the train event file, as written. A weight
# is named by its path; a bias of one unit squeezes to a scalar: no image.
_BATCHNORM_TAGS = [
    "sequential/dense/kernel/histogram", "sequential/dense/kernel/image",
    "sequential/dense/bias/histogram", "sequential/dense/bias/image",
    "sequential/batch_normalization/gamma/histogram",
    "sequential/batch_normalization/gamma/image",
    "sequential/batch_normalization/beta/histogram",
    "sequential/batch_normalization/beta/image",
    "sequential/batch_normalization/moving_mean/histogram",
    "sequential/batch_normalization/moving_mean/image",
    "sequential/batch_normalization/moving_variance/histogram",
    "sequential/batch_normalization/moving_variance/image",
    "sequential/dense_1/kernel/histogram", "sequential/dense_1/kernel/image",
    "sequential/dense_1/bias/histogram"]
_NESTED_TAGS = [
    "inner/dense/kernel/histogram", "inner/dense/kernel/image",
    "inner/dense/bias/histogram", "inner/dense/bias/image",
    "inner/dense_1/kernel/histogram", "inner/dense_1/kernel/image",
    "inner/dense_1/bias/histogram", "inner/dense_1/bias/image",
    "dense_2/kernel/histogram", "dense_2/kernel/image", "dense_2/bias/histogram"]


@pytest.mark.parametrize("build, tags", [(_batchnorm_model, _BATCHNORM_TAGS),
                                         (_nested_model, _NESTED_TAGS)])
def test_keras_tensorboard_names_each_weight_by_its_layers(tmp_path, build, tags):
    keras = tf.keras
    keras.backend.clear_session()
    model = build(keras)
    model.compile("sgd", "mse")
    x = np.random.RandomState(0).rand(8, 3).astype("float32")
    y = np.random.RandomState(1).rand(8, 1).astype("float32")
    model.fit(x, y, epochs=1, batch_size=4, verbose=0,
              callbacks=[keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1,
                                                     write_images=True)])
    train = _read(tmp_path / "train")
    written = [t for t in train.Tags()["tensors"] if t.endswith(("/histogram", "/image"))]
    assert sorted(written) == sorted(tags)
    weights = {w.path: w.numpy() for layer in model.layers for w in layer.weights}
    for tag in tags:
        if tag.endswith("/histogram"):
            (step, buckets), = _values(train, tag)
            # 30 buckets of (left edge, right edge, count), counting every entry
            assert step == 0 and buckets.shape == (30, 3)
            assert buckets[:, 2].sum() == weights[tag[:-len("/histogram")]].size


def test_a_clear_import_error_without_tensorboard(monkeypatch, tmp_path):
    for name in list(sys.modules):
        if name == "tensorboard" or name.startswith("tensorboard."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "tensorboard", None)
    with pytest.raises(ImportError, match="pip install tensorboard"):
        tf.summary.create_file_writer(str(tmp_path))


def test_seed_tutorial_trace_on_trace_export_runs(tmp_path, monkeypatch, caplog):
    # seed tutorial 002: "Plot a graph for function() using Tensorboard"
    monkeypatch.chdir(tmp_path)
    from datetime import datetime

    @tf.function
    def function(x):
        a = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return a + b

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    logdir = "logs/func/%s" % stamp
    writer = tf.summary.create_file_writer(logdir)
    with caplog.at_level("WARNING"):
        tf.summary.trace_on(graph=True, profiler=True)
        z = function(2)
        with writer.as_default():
            tf.summary.trace_export(name="function_trace", step=0, profiler_outdir=logdir)
    # TF 2.21 logs these two warnings (and then raises UnavailableError, as no
    # profiler ran; we do not: tf_differences.md)
    assert [r.getMessage() for r in caplog.records] == [
        "No `profiler_outdir` passed to trace_on(). Profiler won't be enabled.",
        "Ignoring `profiler_outdir` passed to trace_export(). Please pass it to trace_on() "
        "instead."]
    assert z.numpy().tolist() == [[6.0], [7.0]]
    # The function as traced, not as our optimizer folded it (one Const): TF
    # 2.21's pre-optimization graph is Const, Const_1, add = AddV2(Const,
    # Const_1) (then its Identity and _Retval, which we have no use for).
    acc = _read(logdir)
    for graph in (acc.Graph(), _exported_graphs(acc, "function_trace")[0]):
        assert sorted(n.op for n in graph.node) == ["AddV2", "Const", "Const"]
        add, = (n for n in graph.node if n.op == "AddV2")
        assert sorted(add.input) == sorted(n.name for n in graph.node if n.op == "Const")


def _exported_graphs(acc, tag):
    from tensorboard.compat.proto import config_pb2
    from tensorboard.util import tensor_util
    (event,) = acc.Tensors(tag)
    blob = tensor_util.make_ndarray(event.tensor_proto)
    run_metadata = config_pb2.RunMetadata.FromString(blob.reshape(-1)[0])
    return [f.pre_optimization_graph for f in run_metadata.function_graphs]


def test_trace_export_writes_each_function_as_traced(tmp_path):
    @tf.function
    def g(x, y):
        z = x * 2.0 + y
        w = tf.constant(1.0) + tf.constant(2.0)
        return z - w

    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    assert g(tf.constant(1.0), tf.constant(3.0)).numpy() == 2.0
    with writer.as_default():
        tf.summary.trace_export(name="g_trace", step=0)
    graph, = _exported_graphs(_read(tmp_path), "g_trace")
    # TF 2.21's pre-optimization graph of g, less its _Arg (our Placeholder),
    # Identity and _Retval nodes: Mul(x, mul/y), AddV2, Const, Const_1,
    # add_1 = AddV2(Const, Const_1), sub = Sub(add, add_1). Nothing folded.
    ops = sorted(n.op for n in graph.node if n.op != "Placeholder")
    assert ops == ["AddV2", "AddV2", "Const", "Const", "Const", "Mul", "Sub"]


def test_trace_export_of_a_function_traced_before_trace_on(tmp_path):
    """Traced before the trace was on, only the graph that runs is left (the
    optimizer folded the constants): it is what is written."""
    @tf.function
    def h():
        return tf.constant(1.0) + tf.constant(2.0)

    h()
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    h()
    with writer.as_default():
        tf.summary.trace_export(name="h_trace", step=0)
    graph, = _exported_graphs(_read(tmp_path), "h_trace")
    assert [n.op for n in graph.node] == ["Const"]


def test_name_scope_prefixes_the_tag(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=1), tf.name_scope("train"):
        tf.summary.scalar("loss", 1.0)
    assert _read(tmp_path).Tags()["tensors"] == ["train/loss"]


def test_what_is_queued_is_written_when_the_program_ends(tmp_path):
    from tests import fresh_process     # a fork of its helper: the program's own exit
    root = str(ROOT_PATH)
    code = ("import sys, runtime as tf\n"
            "tf.summary.create_file_writer(sys.argv[1]).set_as_default(step=1)\n"
            "tf.summary.scalar('late', 3.0)\n")
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = fresh_process.run(["-c", code, str(tmp_path)], env=env,
                            capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert [(s, float(v)) for s, v in _values(_read(tmp_path), "late")] == [(1, 3.0)]
