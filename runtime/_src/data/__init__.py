"""`tf.data`: input pipelines (see dataset.py). Importing this package
imports every node module, which registers its nodes in `dataset.NODES`."""

from runtime._src.data import (
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
