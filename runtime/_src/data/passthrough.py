"""Transformations that pass the elements through: `ignore_errors` and
`tf.data.experimental`'s `copy_to_device`, `prefetch_to_device`,
`to_variant` and `from_variant`.

    ds.map(lambda x: tf.debugging.check_numerics(1. / x, "bad")).ignore_errors()
    ds.apply(tf.data.experimental.copy_to_device("/cpu:0"))   # one device: the same

`ignore_errors` runs its input with an `IgnoringEnv`: a map function that
raises drops its element (whatever lies between the map and ignore_errors:
see docs/tf_differences.md); an error from any other node ends the dataset.
"""

import logging

from runtime._src.core import dtypes
from runtime._src.core.tensor import EagerTensor, Tensor
from runtime._src.data.dataset import (UNKNOWN_CARDINALITY, Dataset, DatasetSpec, FromHandle,
                                       register)
from runtime._src.data.env import Env
from runtime._src.data.transforms import Prefetch

__all__ = ["IgnoreErrors", "CopyToDevice", "IgnoringEnv", "FromVariant", "copy_to_device",
           "prefetch_to_device", "ignore_errors", "to_variant", "from_variant"]


class IgnoringEnv(Env):
    """An Env whose map functions drop the elements they fail on."""

    __slots__ = ()
    ignore_errors = True


class _PassThrough(Dataset):
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


def to_variant(dataset):
    """`tf.data.experimental.to_variant`: the dataset as a scalar variant tensor."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"to_variant: expected a tf.data.Dataset, got {type(dataset).__name__}")
    (variant,) = DatasetSpec(dataset.element_spec)._to_components(dataset)
    return variant


def from_variant(variant, structure):
    """`tf.data.experimental.from_variant`: the dataset a variant tensor holds
    (of `to_variant`, or a tf.function's variant argument), its element_spec
    `structure`."""
    if not isinstance(variant, Tensor) or variant.dtype != dtypes.variant:
        raise TypeError(f"from_variant: expected a variant tensor, got {variant!r}")
    if isinstance(variant, EagerTensor):
        return FromVariant(variant._value.dataset)
    return FromHandle(variant, structure)


def ignore_errors(log_warning=False):
    """`tf.data.experimental.ignore_errors`: `Dataset.ignore_errors`, for `apply`."""
    return lambda dataset: IgnoreErrors(dataset, log_warning)


def copy_to_device(target_device, source_device="/cpu:0"):
    """`tf.data.experimental.copy_to_device`: the elements on `target_device`
    (here the one device, so the same elements), for `Dataset.apply`."""
    return lambda dataset: CopyToDevice(dataset, target_device, source_device)


def prefetch_to_device(device, buffer_size=None):
    """`tf.data.experimental.prefetch_to_device`: prefetching onto `device`
    (here the one device), for `Dataset.apply`; `buffer_size` None: AUTOTUNE."""
    return lambda dataset: Prefetch(dataset, -1 if buffer_size is None else buffer_size)


register(IgnoreErrors, CopyToDevice, FromVariant)
