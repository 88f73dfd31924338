"""`tf.keras.models`: `Model`, `Sequential`, and loading and saving them."""

from runtime._src.keras.saving.saving_lib import (clone_model, load_model, model_from_json,
                                                  save_model)
from runtime._src.keras.models.model import Model, Sequential

__all__ = ["Model", "Sequential", "load_model", "save_model", "model_from_json", "clone_model"]
