"""`tf.keras.models`: `Model`, `Sequential`, and loading and saving them."""

from runtime._src.keras.model_file import clone_model, load_model, model_from_json, save_model
from runtime._src.keras.models import Model, Sequential

__all__ = ["Model", "Sequential", "load_model", "save_model", "model_from_json", "clone_model"]
