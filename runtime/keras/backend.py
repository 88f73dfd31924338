"""`tf.keras.backend`: `clear_session`, `epsilon`/`set_epsilon`,
`floatx`/`set_floatx`, and tf.keras's Keras 2 functions (int_shape,
get_value, set_value, variable, the math and loss wrappers, ...:
runtime/_src/keras/legacy/backend.py)."""

from runtime._src.keras.backend.config import epsilon, floatx, set_epsilon, set_floatx
from runtime._src.keras.backend.global_state import clear_session

from runtime._src.keras.legacy.backend import *  # noqa: F401,F403 (tf.keras's Keras 2 functions)
from runtime._src.keras.legacy.backend import __all__ as _keras2
from runtime._src.keras.legacy.backend_nn import *  # noqa: F401,F403
from runtime._src.keras.legacy.backend_nn import __all__ as _keras2_nn
from runtime._src.keras.legacy.backend_rnn import rnn

__all__ = ["clear_session", "epsilon", "set_epsilon", "floatx", "set_floatx"] + _keras2 + _keras2_nn + ["rnn"]
