"""`Dataset.save`, `Dataset.load` and `Dataset.snapshot` (and their
`tf.data.experimental` names), in a directory format of this runtime's own
(docs/tf_differences.md): TensorFlow's snapshot protos are not written.

    ds.save(path, compression="GZIP", shard_func=lambda x: x % 3)
    Dataset.load(path)                  # element_spec read from the directory
    ds.snapshot(path)                   # written on the first pass, read after

A saved directory holds `dataset_spec.json` (the element_spec),
`snapshot.metadata` (JSON: format, compression, element count, shard files)
and one TFRecord file per shard, `shard_<k>.tfrecord`, each element being
one record per tensor of it (TensorFlow's TensorProto bytes, as
`tf.io.serialize_tensor`). Loading reads each shard as a dataset and gives
`reader_func` the dataset of those datasets (default: interleave them with a
cycle of the CPU count, as TF's).
"""

import hashlib
import json
import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import NotFoundError
from runtime._src.core.tensor import EagerTensor, wrap_numpy
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import structure
from runtime._src.data.batching import Stored
from runtime._src.data.node import DatasetNode
from runtime._src.data.env import EMPTY
from runtime._src.io.tfrecord import TFRecordWriter, compression_of, read_records
from runtime._src.ops.io_ops import parse_tensor, serialize_tensor

__all__ = ["Load", "Snapshot", "save"]

_FORMAT = "runtime tf.data save 1"
_SPEC_FILE, _METADATA = "dataset_spec.json", "snapshot.metadata"


# --- element_spec as JSON ---------------------------------------------------------

def _spec_to_json(spec):
    if isinstance(spec, TensorSpec):
        return {"tensor": [spec.shape.as_list() if spec.shape.rank is not None else None,
                           spec.dtype.name]}
    if isinstance(spec, dict):
        return {"dict": [[k, _spec_to_json(v)] for k, v in spec.items()]}
    if isinstance(spec, (tuple, list)) and not hasattr(spec, "_fields"):
        return {type(spec).__name__: [_spec_to_json(v) for v in spec]}
    raise TypeError(f"Dataset.save: elements of {spec!r} cannot be saved (only structures "
                    f"of tensors: dicts, tuples, lists)")


def _spec_from_json(data):
    (kind, value), = data.items()
    if kind == "tensor":
        return TensorSpec(TensorShape(value[0]), dtypes.as_dtype(value[1]))
    if kind == "dict":
        return {k: _spec_from_json(v) for k, v in value}
    items = [_spec_from_json(v) for v in value]
    return tuple(items) if kind == "tuple" else items


# --- writing -------------------------------------------------------------------

def _shard_of(shard_func, element):
    if shard_func is None:
        return 0
    out = shard_func(*_args(structure.to_tensors(element)))
    value = np.asarray(out._value if isinstance(out, EagerTensor) else out)
    if value.ndim != 0 or value.dtype.kind not in "iu":
        raise ValueError(f"Dataset.save: shard_func must return a scalar int64 tensor, got "
                         f"{out!r}")
    return int(value)


def _args(element):
    return tuple(element) if type(element) is tuple else (element,)


class _Writer:
    """Shard files of one directory, opened as elements come."""

    def __init__(self, path, spec, compression, shard_func):
        os.makedirs(path, exist_ok=True)
        self.path, self.spec, self.shard_func = path, spec, shard_func
        self.compression = compression_of(None if compression == "AUTO" else compression)
        self.files, self.count = {}, 0
        with open(os.path.join(path, _SPEC_FILE), "w") as f:
            json.dump(_spec_to_json(spec), f)

    def write(self, element):
        shard = _shard_of(self.shard_func, element)
        if shard not in self.files:
            self.files[shard] = TFRecordWriter(
                os.path.join(self.path, f"shard_{shard}.tfrecord"), self.compression)
        for leaf in structure.flatten(element):
            self.files[shard].write(serialize_tensor(wrap_numpy(np.asarray(leaf)))._value.item())
        self.count += 1

    def finish(self):
        for f in self.files.values():
            f.close()
        with open(os.path.join(self.path, _METADATA), "w") as f:
            json.dump({"format": _FORMAT, "compression": self.compression,
                       "num_elements": self.count,
                       "shards": [f"shard_{k}.tfrecord" for k in sorted(self.files)]}, f)


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """`Dataset.save(path, compression=None, shard_func=None)`: write the
    elements to the directory `path` (shard_func: element -> int64 shard)."""
    writer = _Writer(_text(path), dataset.element_spec, compression, shard_func)
    for element in dataset._iterate(EMPTY):
        writer.write(element)
    writer.finish()


def _text(path):
    path = path._value.item() if isinstance(path, EagerTensor) else path
    return os.fspath(path.decode() if isinstance(path, bytes) else path)


# --- reading ---------------------------------------------------------------------

def _read_metadata(path):
    spec_file = os.path.join(path, _SPEC_FILE)
    if not os.path.exists(spec_file):
        raise NotFoundError(f"tf.data snapshot element_spec file not found: {spec_file}.",
                            "LoadDataset")
    with open(os.path.join(path, _METADATA)) as f:
        return json.load(f)


def _shard_elements(path, shard, compression, spec):
    leaves = structure.flatten(spec)
    records = read_records(os.path.join(path, shard), compression)
    while True:
        flat = []
        for s in leaves:
            record = next(records, None)
            if record is None:
                return
            flat.append(np.asarray(parse_tensor(record, s.dtype)._value)[()])
        yield structure.pack(spec, flat)


class _Shard(DatasetNode):
    """One shard file's elements."""
    _tf_class = "_VariantDataset"   # TensorFlow's repr

    def __init__(self, path, shard, compression, spec):
        self._where = (path, shard, compression)
        super().__init__(spec)

    def _iterate(self, env):
        return _shard_elements(*self._where, self._spec)


def _default_reader(datasets):
    return datasets.interleave(lambda x: x, cycle_length=os.cpu_count() or 1)


class Load(DatasetNode):
    """`Dataset.load(path, element_spec=None, compression=None, reader_func=None)`."""

    def __init__(self, path, element_spec=None, compression=None, reader_func=None):
        self._path = _text(path)
        metadata = _read_metadata(self._path)
        if element_spec is None:
            with open(os.path.join(self._path, _SPEC_FILE)) as f:
                element_spec = _spec_from_json(json.load(f))
        self._count = metadata["num_elements"]
        shards = [self._public(_Shard)(self._path, s, metadata["compression"], element_spec)
                  for s in metadata["shards"]]
        stored = self._public(Stored)(shards, self._dataset_spec(element_spec))
        self._read = (reader_func or _default_reader)(stored)
        self._custom = reader_func is not None
        super().__init__(element_spec)

    def _cardinality(self):
        return self._read._cardinality() if self._custom else self._count

    def _iterate(self, env):
        return self._read._iterate(env)


class Snapshot(DatasetNode):
    """`Dataset.snapshot(path, compression='AUTO', reader_func=None,
    shard_func=None)`: the source's elements, written under `path` on the
    first complete pass and read from there on later passes (the directory
    `path/<fingerprint of the pipeline>`)."""
    _tf_class = "_MapDataset"   # TensorFlow's repr

    def __init__(self, source, path, compression="AUTO", reader_func=None, shard_func=None):
        self._inputs = (source,)
        self._source = source
        self._dir = os.path.join(_text(path), _fingerprint(source))
        self._compression, self._reader, self._shard_func = compression, reader_func, shard_func
        super().__init__(source.element_spec)

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        if os.path.exists(os.path.join(self._dir, _METADATA)):
            yield from self._public(Load)(self._dir, self._spec, None, self._reader)._iterate(env)
            return
        writer = _Writer(self._dir, self._spec, self._compression, self._shard_func)
        for element in self._source._iterate(env):
            writer.write(element)
            yield element
        writer.finish()


def _fingerprint(dataset):
    """A hash of the pipeline: node classes, element specs, the values it was
    built from and its functions' code."""
    h = hashlib.sha256()
    stack = [dataset]
    while stack:
        node = stack.pop()
        h.update(f"{type(node).__name__}{node.element_spec!r}".encode())
        for p in node._params:
            h.update(repr(np.asarray(getattr(p, "_value", p)).tolist()).encode())
        fn = getattr(getattr(node, "_fn", None), "func", None)
        code = getattr(fn, "__code__", None)
        if code is not None:
            h.update(code.co_code + repr(code.co_consts).encode())
        stack.extend(node._inputs)
    return str(int(h.hexdigest()[:15], 16))
