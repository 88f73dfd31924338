"""`tf.keras.backend`: `clear_session`, `epsilon`/`set_epsilon` and
`floatx`/`set_floatx` (runtime/_src/keras/)."""

from runtime._src.keras.backend.config import epsilon, floatx, set_epsilon, set_floatx
from runtime._src.keras.backend.global_state import clear_session

__all__ = ["clear_session", "epsilon", "set_epsilon", "floatx", "set_floatx"]
