"""`tf.autodiff`: `GradientTape` (reverse mode) and `ForwardAccumulator`
(Jacobian-vector products, runtime/_src/autodiff/forward.py).

    with tf.autodiff.ForwardAccumulator(x, tangent) as acc:
        y = x * x
    acc.jvp(y)          # 2 * x * tangent
"""

from runtime._src.autodiff.forward import ForwardAccumulator
from runtime._src.autodiff.tape import GradientTape

__all__ = ["ForwardAccumulator", "GradientTape"]
