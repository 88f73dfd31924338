"""Print TF's `tf.approx_top_k` values for tests/runtime/ops/nn/test_approx_top_k.py.

Run under TensorFlow (2.21 recorded): `$BENCH_TF_PYTHON tools/record_approx_top_k.py`.
TF's CPU kernel takes only the max along the last dimension; the other cases run
under XLA (`jit_compile=True`), as TF does them.
"""

import tensorflow as tf

X = [[3., 1., 3., -2., 0.], [0., 0., -1., 5., 5.]]
CASES = [dict(k=2), dict(k=5), dict(k=0), dict(k=3, is_max_k=False),
         dict(k=1, reduction_dimension=0), dict(k=2, reduction_dimension=0, is_max_k=False)]


def _gradient(x, kw):
    """d sum(values * [1, 2, ...]) / dx (TF's CPU kernel only: max_k, last dimension)."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        values = tf.approx_top_k(x, **kw)[0]
        weights = tf.reshape(tf.range(1., 1. + tf.cast(tf.size(values), tf.float32)), tf.shape(values))
        return tape.gradient(tf.reduce_sum(values * weights), x)


def main():
    x = tf.constant(X)
    for kw in CASES:
        try:
            v, i = tf.approx_top_k(x, **kw)
        except tf.errors.NotFoundError:
            v, i = tf.function(lambda x, kw=kw: tf.approx_top_k(x, **kw), jit_compile=True)(x)
        grad = _gradient(x, kw) if kw.get("is_max_k", True) and "reduction_dimension" not in kw else None
        print((kw, v.numpy().tolist(), i.numpy().tolist(), None if grad is None else grad.numpy().tolist()))


if __name__ == "__main__":
    main()
