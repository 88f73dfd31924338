"""`tf.keras.preprocessing`: datasets made from folders of images and text
files and from arrays of time steps, `preprocessing.image`'s helpers and
`preprocessing.sequence.pad_sequences`."""

from runtime._src.keras.utils.dataset_utils import timeseries_dataset_from_array
from runtime._src.keras.utils.image_dataset_utils import image_dataset_from_directory
from runtime._src.keras.utils.text_dataset_utils import text_dataset_from_directory
from runtime.keras.preprocessing import image, sequence

__all__ = ["image", "image_dataset_from_directory", "sequence", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]
