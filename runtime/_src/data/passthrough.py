"""Nodes that pass the elements through: `ignore_errors`,
`tf.data.experimental.copy_to_device` and `from_variant`'s dataset (the
`tf.data.experimental` functions themselves are in experimental_namespace.py).

    ds.map(lambda x: tf.debugging.check_numerics(1. / x, "bad")).ignore_errors()
    ds.apply(tf.data.experimental.copy_to_device("/cpu:0"))   # one device: the same

`ignore_errors` runs its input with an `IgnoringEnv`: a map function that
raises drops its element (whatever lies between the map and ignore_errors:
see docs/tf_differences.md); an error from any other node ends the dataset.
"""

import logging

from runtime._src.data.env import Env
from runtime._src.data.node import UNKNOWN_CARDINALITY, DatasetNode

__all__ = ["IgnoreErrors", "CopyToDevice", "IgnoringEnv", "FromVariant"]


class IgnoringEnv(Env):
    """An Env whose map functions drop the elements they fail on."""

    __slots__ = ()
    ignore_errors = True


class _PassThrough(DatasetNode):
    def __init__(self, source):
        self._inputs = (source,)
        self._source = source
        super().__init__(source.element_spec)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY      # as TF's: the count is not kept


class IgnoreErrors(_PassThrough):
    """The elements whose computation raised no error."""

    def __init__(self, source, log_warning=False):
        super().__init__(source)
        self._log = bool(log_warning)

    def _iterate(self, env):
        it = self._source._iterate(IgnoringEnv(env.values))
        while True:
            try:
                yield next(it)
            except StopIteration:
                return
            except Exception as error:  # noqa: BLE001 - the error is what is ignored
                if self._log:
                    logging.warning("Dataset.ignore_errors: %s", error)
                return


class CopyToDevice(_PassThrough):
    """The same elements (this runtime has one device)."""

    def __init__(self, source, target_device, source_device="/cpu:0"):
        super().__init__(source)
        self.target_device, self.source_device = str(target_device), str(source_device)

    def _iterate(self, env):
        return self._source._iterate(env)


class FromVariant(_PassThrough):
    """`from_variant` of an eager variant: the dataset it holds."""
    _tf_class = "_VariantDataset"   # TensorFlow's repr

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        return self._source._iterate(env)
