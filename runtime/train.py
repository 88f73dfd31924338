"""`tf.train`: checkpoints (runtime/_src/train; format in docs/checkpoint_format.md) and
the Example protos (runtime/_src/io/example_proto.py)."""

from runtime._src.io.example_proto import (BytesList, Example, Feature, FeatureList,
                                           FeatureLists, Features, FloatList, Int64List,
                                           SequenceExample)
from runtime._src.train.checkpoint import (Checkpoint, CheckpointLoadStatus,
                                           CheckpointOptions)
from runtime._src.train.manager import CheckpointManager
from runtime._src.train.checkpoint_view import CheckpointView
from runtime._src.train.reader import (CheckpointReader, list_variables,
                                       load_checkpoint)
from runtime._src.train.state_file import CheckpointState, latest_checkpoint
from runtime._src.train.state_file import read as _read_state
from runtime._src.train.coordination import ClusterSpec, Coordinator, checkpoints_iterator
from runtime._src.train.moving_averages import ExponentialMovingAverage
from runtime._src.train.tracking import TrackableView
from runtime._src.train.python_state import PythonState as _PythonState
from runtime._src.train import sharding as _sharding
from types import SimpleNamespace as _Namespace

# tf.train.experimental: Python state in checkpoints and checkpoint sharding
experimental = _Namespace(PythonState=_PythonState,
                          ShardableTensor=_sharding.ShardableTensor,
                          ShardingCallback=_sharding.ShardingCallback,
                          MaxShardSizePolicy=_sharding.MaxShardSizePolicy,
                          ShardByTaskPolicy=_sharding.ShardByTaskPolicy)


def load_variable(ckpt_dir_or_file, name):
    """The value of the variable `name` in a checkpoint (its latest, for a directory)."""
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState of `checkpoint_dir` (its `checkpoint` file), or None."""
    return _read_state(checkpoint_dir, latest_filename)


__all__ = ["CheckpointView", "TrackableView", "BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features",
           "FloatList", "Int64List", "SequenceExample", "Checkpoint", "CheckpointLoadStatus", "CheckpointManager", "CheckpointOptions",
           "CheckpointReader", "CheckpointState", "get_checkpoint_state", "latest_checkpoint",
           "list_variables", "load_checkpoint", "ClusterSpec", "Coordinator",
           "checkpoints_iterator", "ExponentialMovingAverage", "load_variable", "experimental"]
