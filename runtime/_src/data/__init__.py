"""`tf.data`: input pipelines (see dataset.py). node.py tells the layout: the
node classes, and above them the public `Dataset`, which imports them."""

from runtime._src.data import (
                               dataset,
                               experimental_namespace,
                               iterator_ops,
)
