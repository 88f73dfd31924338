"""`tf.keras.preprocessing`: datasets made from folders of text files and
from arrays of time steps, and `preprocessing.sequence.pad_sequences`.
(Image loading needs PIL, which runtime does not depend on: the image
helpers are absent.)"""

from runtime._src.keras.utils.dataset_utils import timeseries_dataset_from_array
from runtime._src.keras.utils.image_dataset_utils import image_dataset_from_directory
from runtime._src.keras.utils.text_dataset_utils import text_dataset_from_directory
from runtime.keras.preprocessing import sequence

__all__ = ["image_dataset_from_directory", "sequence", "text_dataset_from_directory", "timeseries_dataset_from_array"]
