"""Layer autodiff: reverse-mode differentiation. `GradientTape` records ops
(eagerly, or as the nodes of the graph being traced) and `backprop` runs the
op registry's gradient rules backwards over them; the rules of the
control-flow ops (`If`, `While`) and of TensorArrays live here because they
differentiate subgraphs with the same machinery."""

from runtime._src.autodiff import py_function_grad  # registers py_function's gradient
from runtime._src.autodiff import custom_gradient  # registers the CustomGradient op
from runtime._src.autodiff import function_call  # a tf.function under a tape: one recorded op
