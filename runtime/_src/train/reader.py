"""`tf.train.load_checkpoint` and `tf.train.list_variables`: the raw values of a
checkpoint by key, ours or one TensorFlow wrote.

    reader = tf.train.load_checkpoint("ckpts")          # a directory: its latest
    reader.get_variable_to_shape_map()   # {"model/w/.ATTRIBUTES/VARIABLE_VALUE": [2, 3], ...}
    reader.get_tensor("model/w/.ATTRIBUTES/VARIABLE_VALUE")   # a numpy array
    tf.train.list_variables("ckpts/ckpt-1")    # [(key, shape)], sorted by key

Both kinds list `_CHECKPOINTABLE_OBJECT_GRAPH` (a string), as TensorFlow does:
TF's serialized TrackableObjectGraph (ours keeps its object graph in the index
and gives it in TF's encoding).
"""

import os

from runtime._src.core.errors import NotFoundError
from runtime._src.train import checkpoint_io, state_file, tf_bundle, tf_bundle_write

__all__ = ["CheckpointReader", "load_checkpoint", "list_variables"]

_OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"


def _prefix(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = state_file.latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return latest
    return path


class CheckpointReader:
    """The values of one checkpoint, read on demand."""

    def __init__(self, prefix):
        self._prefix = prefix
        data = checkpoint_io.index_bytes(prefix)
        if tf_bundle.is_tf_index(data):
            self._entries, self._shards = tf_bundle.read_index(data)
            self._index = None
            self._shapes = {k: list(e.shape) for k, e in self._entries.items()}
            self._dtypes = {k: tf_bundle.dtype_name(e) for k, e in self._entries.items()}
        else:
            self._index = checkpoint_io.read_index(prefix, data)
            tensors = self._index["tensors"]
            self._shapes = {k: list(t["shape"]) for k, t in tensors.items()}
            self._dtypes = {k: t["dtype"] for k, t in tensors.items()}
            if self._index.get("objects"):
                self._shapes[_OBJECT_GRAPH] = []
                self._dtypes[_OBJECT_GRAPH] = "string"

    def get_variable_to_shape_map(self):
        return dict(self._shapes)

    def get_variable_to_dtype_map(self):
        from runtime._src.core import dtypes
        return {k: dtypes.as_dtype(v) for k, v in self._dtypes.items()}

    def has_tensor(self, name):
        return name in self._shapes

    def get_tensor(self, name):
        if name not in self._shapes:
            raise NotFoundError(f"Key {name} not found in checkpoint {self._prefix}")
        if self._index is not None and name == _OBJECT_GRAPH:
            return tf_bundle_write.object_graph_bytes(self._index["objects"])
        if self._index is None:
            value = tf_bundle.read_tensor(self._prefix, self._entries[name], self._shards)
        else:
            value = checkpoint_io.read_values(self._prefix, self._index, {name})[name]
        return value[()] if value.ndim == 0 and value.dtype != object else \
            (value.reshape(-1)[0] if value.ndim == 0 else value)


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader of the checkpoint (a prefix, or a directory's latest)."""
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """[(key, shape)] of every value in the checkpoint, sorted by key."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted((k, v) for k, v in reader.get_variable_to_shape_map().items())
