"""`tf.keras.utils`: `to_categorical`, `pad_sequences`, `normalize`,
`set_random_seed`, `plot_model`, `Progbar`, `PyDataset`, `Config`, the data
helpers (`split_dataset`, `timeseries_dataset_from_array`, ...), and the
serialization helpers Keras also lists here."""

from runtime._src.keras.utils.config import Config
from runtime._src.keras.utils.dataset_utils import (pack_x_y_sample_weight, split_dataset,
                                                    timeseries_dataset_from_array,
                                                    unpack_x_y_sample_weight)
from runtime._src.keras.utils.file_utils import get_file
from runtime._src.keras.utils.io_utils import (disable_interactive_logging,
                                               enable_interactive_logging,
                                               is_interactive_logging_enabled)
from runtime._src.keras.utils.progbar import Progbar
from runtime._src.keras.trainers.data_adapters.py_dataset import PyDataset, Sequence
from runtime._src.keras.utils.sequence_utils import normalize, pad_sequences
from runtime._src.keras.saving.serialization_lib import (CustomObjectScope, custom_object_scope,
                                                         deserialize_keras_object,
                                                         get_custom_objects, get_registered_name,
                                                         get_registered_object,
                                                         register_keras_serializable,
                                                         serialize_keras_object)
from runtime._src.keras.utils.audio_dataset_utils import audio_dataset_from_directory
from runtime._src.keras.utils.image_dataset_utils import image_dataset_from_directory
from runtime._src.keras.utils.image_utils import array_to_img, img_to_array, load_img, save_img
from runtime._src.keras.utils.text_dataset_utils import text_dataset_from_directory
from runtime._src.keras.utils.tensor_utils import (get_source_inputs, is_keras_tensor,
                                                   standardize_dtype)
from runtime._src.keras.utils.model_visualization import model_to_dot, plot_model
from runtime._src.keras.backend.global_state import clear_session
from runtime._src.keras.layers.preprocessing.feature_space import FeatureSpace
from runtime._src.keras.utils.rng_utils import set_random_seed
from runtime._src.keras.utils.numerical_utils import to_categorical
from runtime.keras.utils import bounding_boxes, legacy

__all__ = ["to_categorical", "set_random_seed", "plot_model", "model_to_dot",
           "custom_object_scope", "CustomObjectScope", "register_keras_serializable",
           "get_registered_name", "get_registered_object", "get_custom_objects",
           "serialize_keras_object", "deserialize_keras_object", "normalize", "pad_sequences",
           "disable_interactive_logging", "enable_interactive_logging",
           "is_interactive_logging_enabled", "Progbar", "PyDataset", "Sequence", "Config",
           "pack_x_y_sample_weight", "unpack_x_y_sample_weight", "split_dataset",
           "timeseries_dataset_from_array", "get_source_inputs", "is_keras_tensor",
           "standardize_dtype", "clear_session", "text_dataset_from_directory",
           "image_dataset_from_directory", "get_file", "array_to_img", "img_to_array",
           "load_img", "save_img", "audio_dataset_from_directory", "bounding_boxes",
           "FeatureSpace", "legacy"]
