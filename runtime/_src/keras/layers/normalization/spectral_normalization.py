"""`keras.layers.SpectralNormalization(layer, power_iterations=1)`: in training, the
wrapped layer's kernel divided by its largest singular value (a power iteration
from the non-trainable `vector_u`, kept between calls)."""

from runtime._src.keras.initializers import initializers
from runtime._src.ops import array_ops, gradient_ops, math_ops, reduction_ops
from runtime._src.keras.layers.core.wrapper import Wrapper

__all__ = ["SpectralNormalization"]


def _normalized(x):
    return x * math_ops.rsqrt(math_ops.maximum(reduction_ops.reduce_sum(math_ops.square(x)),
                                               1e-12))


class SpectralNormalization(Wrapper):
    """`keras.layers.SpectralNormalization(layer, power_iterations=1)`: `layer` has
    a `kernel`; in training each call does `power_iterations` steps of the power
    method and sets kernel = kernel / sigma."""

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        kernel = getattr(self.layer, "kernel", None)
        if kernel is None:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' "
                             "nor 'embeddings'")
        self.kernel = kernel
        self._own_weights.append(kernel)    # Keras 3 tracks it as this layer's: its order
        self.vector_u = self.add_weight(shape=(1, kernel.shape.as_list()[-1]),
                                        initializer=initializers.TruncatedNormal(stddev=0.02),
                                        trainable=False, name="vector_u")
        self.built = True

    def normalized_weights(self):
        """(the new vector_u, the kernel divided by sigma)."""
        kernel = self.kernel.read_value()
        weights = array_ops.reshape(kernel, [-1, kernel.shape.as_list()[-1]])
        u = self.vector_u.read_value()
        v = None
        for _ in range(self.power_iterations):
            v = _normalized(math_ops.matmul(u, weights, transpose_b=True))
            u = _normalized(math_ops.matmul(v, weights))
        u, v = gradient_ops.stop_gradient(u), gradient_ops.stop_gradient(v)
        sigma = math_ops.matmul(math_ops.matmul(v, weights), u, transpose_b=True)
        return u, array_ops.reshape(kernel / sigma, array_ops.shape(kernel))

    def call(self, inputs, training=False):
        if training:
            u, kernel = self.normalized_weights()
            self.vector_u.assign(u)
            self.kernel.assign(kernel)
        return self.layer(inputs)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
