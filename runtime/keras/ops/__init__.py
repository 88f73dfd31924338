"""`keras.ops`: Keras 3's backend-agnostic ops, on this runtime.

    from runtime.keras import ops
    ops.sum(ops.square(x), axis=-1)

Every name works eagerly, inside `tf.function`, under `GradientTape`, and
on KerasTensors (a functional model records it as an Operation). Dtypes
follow Keras: Python floats are float32, ints int32, mixed operands promote
by Keras's lattice. Defined in runtime/_src/keras/ops/.
"""

from runtime._src.keras.ops import core as _core
from runtime._src.keras.ops import einops as _einops
from runtime._src.keras.ops import linalg as _linalg
from runtime._src.keras.ops import math as _math
from runtime._src.keras.ops import nn as _nn
from runtime._src.keras.ops import numpy as _numpy
from runtime.keras.ops import image, linalg, nn, numpy

__all__ = sorted({*_numpy.__all__, *_nn.__all__, *_core.__all__, *_math.__all__,
                  *_linalg.__all__, *_einops.__all__, "image", "linalg", "nn", "numpy"})
for _module in (_numpy, _nn, _math, _linalg, _core, _einops):
    globals().update({_n: getattr(_module, _n) for _n in _module.__all__})
del _module
