"""`tf.data`: input pipelines (see dataset.py). Importing this package
imports every node module (Dataset's methods import their node classes where
they run) and `arguments`, which makes datasets composite values."""

from runtime._src.data import (
                               arguments,
                               batching,
                               dataset,
                               iterator_ops,
                               mapping,
                               readers,
                               selection,
                               shuffling,
                               sources,
                               transforms,
)
