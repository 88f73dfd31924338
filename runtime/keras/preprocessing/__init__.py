"""`tf.keras.preprocessing`: datasets made from folders of images and text
files and from arrays of time steps, `preprocessing.image`'s helpers,
`preprocessing.sequence` and tf.keras's `preprocessing.text`."""

from runtime._src.keras.utils.dataset_utils import timeseries_dataset_from_array
from runtime._src.keras.utils.image_dataset_utils import image_dataset_from_directory
from runtime._src.keras.utils.text_dataset_utils import text_dataset_from_directory
from runtime.keras.preprocessing import image, sequence, text

__all__ = ["image", "image_dataset_from_directory", "sequence", "text", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]
