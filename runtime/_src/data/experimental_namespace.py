"""`tf.data.experimental`: the names TensorFlow keeps there too."""

from runtime._src.data.dataset import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
)
from runtime._src.data.example_parsing import parse_example_dataset
from runtime._src.data.readers import CsvDatasetV2 as CsvDataset
from runtime._src.data.readers import TFRecordWriter

__all__ = ["AUTOTUNE", "CsvDataset", "INFINITE_CARDINALITY", "TFRecordWriter",
           "UNKNOWN_CARDINALITY", "cardinality", "parse_example_dataset"]


def cardinality(dataset):
    return dataset.cardinality()
