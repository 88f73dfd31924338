"""The ONNX workload: models exported with runtime.onnx and run in ONNX
Runtime against our executor, and the export time of a 100-node graph."""

import numpy as np

import runtime as tf
from tools.bench_recipes.base import Unavailable, best_of, best_of_pair, constant, fmt


def bench_onnx():
    """The README's Keras MLP (2 -> 16 relu -> 2, batch 64) and a small conv net
    (Conv2D 3x3x8 + MaxPool + Dense on 28x28x1, batch 64) exported with
    runtime.onnx and run in ONNX Runtime against our executor (TensorFlow's
    graph is not importable in this python); and the export time of a
    100-node graph (target < 100 ms)."""
    try:
        import onnxruntime
        from runtime import onnx as tf_onnx
    except ImportError:
        raise Unavailable("the onnx extra is not installed (pip install -e '.[onnx]')") from None
    keras, rng = tf.keras, np.random.default_rng(3)
    mlp = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(2)])
    mlp(constant(np.zeros((1, 2), np.float32)))
    inputs = keras.Input(shape=(28, 28, 1))
    h = keras.layers.MaxPooling2D(2)(keras.layers.Conv2D(8, 3, activation="relu")(inputs))
    conv = keras.Model(inputs, keras.layers.Dense(10)(keras.layers.Flatten()(h)))
    times = {}
    for name, model, shape in (("mlp", mlp, (64, 2)), ("conv", conv, (64, 28, 28, 1))):
        spec = [tf.TensorSpec((None,) + shape[1:], tf.float32)]
        proto, _ = tf_onnx.from_keras(model, input_signature=spec)
        session = onnxruntime.InferenceSession(proto.SerializeToString(),
                                               providers=["CPUExecutionProvider"])
        ours = tf.function(lambda x, m=model: m(x, training=False), input_signature=spec)
        xv = rng.standard_normal(shape).astype(np.float32)
        feed = {session.get_inputs()[0].name: xv}
        np.testing.assert_allclose(session.run(None, feed)[0], ours(xv).numpy(), rtol=1e-4,
                                   atol=1e-4)
        times[f"{name}_ours"], times[f"{name}_onnxruntime"] = best_of_pair(
            lambda f=ours, v=constant(xv): f(v), lambda s=session, d=feed: s.run(None, d))

    def hundred(x):                     # 100 ops: 25 rounds of 4
        for _ in range(25):
            x = tf.nn.relu(x * 1.01 + 0.5) - 0.25
        return x
    concrete = tf.function(hundred).get_concrete_function(tf.TensorSpec([None, 8], tf.float32))
    nodes = sum(1 for n in concrete.graph.nodes if n.op not in ("Placeholder", "Const"))
    export_t = best_of(lambda: tf_onnx.from_function(concrete), repeat=3)
    times["export_100_nodes"] = export_t
    return dict(eager=None, graph=times["conv_ours"], numpy=None, extra=times,
                ok=export_t < 0.1,
                note=", ".join(f"{k} {fmt(v)}" for k, v in times.items())
                + f" ({nodes} nodes; export target < 100 ms); TensorFlow: n/a (not importable)")
