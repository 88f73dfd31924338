"""tools/name_tests.py's ratchet: every public tf name (tf.keras aside) is named
by some test, except those in UNTESTED, a list that may only shrink: a new
name without a test fails here, and so does a listed name that a test now
covers or that is gone (take it off the list)."""

import sys

import pytest

from tests.paths import TOOLS

sys.path.insert(0, str(TOOLS))
import name_tests  # noqa: E402

sys.path.remove(str(TOOLS))

# Names no test names yet (tf.distribute's are the dist work's; the rest are
# classes reached only through others' results, or constants).
UNTESTED = {
    "tf.autograph.SideEffectWarning",
    "tf.autograph.convert",
    "tf.autograph.set_strict_side_effects",
    "tf.distribute.CrossDeviceOps",
    "tf.distribute.DistributedDataset",
    "tf.distribute.DistributedIterator",
    "tf.distribute.DistributedValues",
    "tf.distribute.HierarchicalCopyAllReduce",
    "tf.distribute.NcclAllReduce",
    "tf.distribute.ReductionToOneDevice",
    "tf.distribute.ReplicaContext",
    "tf.distribute.Strategy",
    "tf.distribute.StrategyExtended",
    "tf.distribute.experimental.CentralStorageStrategy",
    "tf.distribute.experimental.CommunicationImplementation",
    "tf.distribute.experimental.CommunicationOptions",
    "tf.distribute.experimental.ValueContext",
    "tf.dtypes.dtype_of_python",
    "tf.errors.StagingError",
    "tf.experimental.ExtensionTypeBatchEncoder",
    "tf.math.types",
    "tf.saved_model.FORMAT_VERSION",
    "tf.test.main",
    "tf.train.CheckpointLoadStatus",
    "tf.train.CheckpointReader",
    "tf.train.CheckpointState",
}


@pytest.fixture(scope="module")
def status():
    return name_tests.compute()[1]


def test_untested_names_only_shrink(status):
    untested = {n for n, how in status.items() if how is None}
    assert not untested - UNTESTED, f"public names with no test: {sorted(untested - UNTESTED)}"
    covered = UNTESTED - untested
    assert not covered, f"now tested or gone, take them off UNTESTED: {sorted(covered)}"


def test_tf_names_with_tests_stay_above_90_percent(status):
    theirs = name_tests.tf_names()
    tested = sum(status.get(n) is not None for n in theirs)
    assert tested / len(theirs) >= 0.9, (tested, len(theirs))


def test_the_reading_finds_each_kind_of_use():
    source = name_tests._Source(
        "import runtime as tf\n"
        "from runtime import linalg as la\n"
        "import runtime.experimental.numpy as tnp\n"
        "from runtime.image import (resize,\n    flip_left_right)\n"
        "D = tf.data.Dataset\n"
        "la.expm(x); tnp.abs(y); D.range(3)  # tf.not_this\n"
        "getattr(tf.signal, 'fft2d'); getattr(tf.math, name)\n")
    for name in ("tf.linalg.expm", "tf.experimental.numpy.abs", "tf.image.resize",
                 "tf.image.flip_left_right", "tf.data.Dataset.range", "tf.data.Dataset",
                 "tf.signal.fft2d"):
        assert name in source.found, name
    assert "tf.not_this" not in source.found
    assert source.dynamic == {"tf.math"}
