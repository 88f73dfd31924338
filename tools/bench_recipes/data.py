"""The tf.data workload: one epoch of a shuffled, mapped, batched and
prefetched pipeline against the same batches made by hand in numpy (and
TensorFlow's tf.data when it imports here)."""

import numpy as np

import runtime as tf
from tools.bench_recipes.base import Unavailable, best_of, best_of_pair, fmt


def bench_data_pipeline():
    """One epoch of from_tensor_slices((x, y)).shuffle(10000, seed=1)
    .map(normalize).batch(64).prefetch(AUTOTUNE) over uint8[60000, 784], vs
    the same batches made by hand in numpy (a permutation, then one fancy
    index and one divide per batch), and TensorFlow's tf.data if importable."""
    if not hasattr(tf, "data"):
        raise Unavailable("tf.data is not available")
    rng = np.random.default_rng(3)
    xv = rng.integers(0, 256, size=(60000, 784), dtype=np.uint8)
    yv = rng.integers(0, 10, size=60000).astype(np.int64)

    def normalize(x, y):
        return tf.cast(x, tf.float32) / 255.0, y

    ds = tf.data.Dataset.from_tensor_slices((xv, yv)).shuffle(10000, seed=1) \
        .map(normalize).batch(64).prefetch(tf.data.AUTOTUNE)

    def epoch():
        n = 0
        for xb, yb in ds:
            n += len(yb)
        return n

    def epoch_np():
        order = np.random.default_rng(1).permutation(60000)
        n = 0
        for i in range(0, 60000, 64):
            rows = order[i:i + 64]
            xb, yb = xv[rows].astype(np.float32) / np.float32(255.0), yv[rows]
            n += min(len(xb), len(yb))
        return n

    assert epoch() == epoch_np() == 60000
    graph_t, numpy_t = best_of_pair(epoch, epoch_np, repeat=3)
    ds = ds._inputs[0]                                    # the same without prefetch
    plain_t = best_of(epoch, repeat=3)
    note = (f"one epoch, 938 batches; fused map-and-batch; without prefetch "
            f"{fmt(plain_t)} ({plain_t / numpy_t:.2f}x numpy)")
    extra = {"no_prefetch": plain_t}
    tf_t = _tf_data_epoch(xv, yv)
    if tf_t is not None:
        extra["tensorflow_tf_data"] = tf_t
        note += f"; TensorFlow tf.data {fmt(tf_t)} ({graph_t / tf_t:.2f}x of TF)"
    return dict(graph=graph_t, numpy=numpy_t, ratio_target=1.5, note=note, extra=extra)


def _tf_data_epoch(xv, yv):
    """One epoch of the same pipeline in TensorFlow, or None without it."""
    try:
        import tensorflow as real_tf
    except ImportError:
        return None
    ds = real_tf.data.Dataset.from_tensor_slices((xv, yv)).shuffle(10000, seed=1).map(
        lambda x, y: (real_tf.cast(x, real_tf.float32) / 255.0, y)).batch(64).prefetch(-1)

    def epoch():
        for _ in ds:
            pass
    return best_of(epoch, repeat=3)
