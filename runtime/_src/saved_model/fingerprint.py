"""`tf.saved_model.experimental.Fingerprint` and `read_fingerprint`: the
`fingerprint.pb` of a SavedModel directory, TensorFlow's `FingerprintDef`
protobuf (uint64 fields 1-5: saved_model_checksum, graph_def_program_hash,
signature_def_hash, saved_object_graph_hash, checkpoint_hash; 6: a
VersionDef whose field 1 is the producer; 7: a uuid string).

`save` writes one for our directories (`write_fingerprint`) with the same
fields, each a 64-bit hash of the part of our format it names: the whole
`saved_model.json`, its functions, its signatures, its variables' paths,
dtypes and shapes, and their values. `read_fingerprint` reads ours and
TensorFlow's alike.

    fp = tf.saved_model.experimental.read_fingerprint(export_dir)
    fp.singleprint()     # "graph_def_program_hash/signature_def_hash/..."
"""

import hashlib
import json
import os
import uuid

import numpy as np

from runtime._src.core import protowire as wire

__all__ = ["Fingerprint", "VersionDef", "read_fingerprint", "write_fingerprint",
           "FINGERPRINT_FILE"]

FINGERPRINT_FILE = "fingerprint.pb"
_FIELDS = ("saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
           "saved_object_graph_hash", "checkpoint_hash")


class VersionDef:
    """The `version` of a fingerprint: its `producer`."""

    def __init__(self, producer=0):
        self.producer = producer

    def __eq__(self, other):
        return isinstance(other, VersionDef) and other.producer == self.producer

    def __repr__(self):
        return f"producer: {self.producer}\n" if self.producer else ""


class Fingerprint:
    """The SavedModel fingerprint: the five hashes of `FingerprintDef` and the
    producer's `version`."""

    def __init__(self, saved_model_checksum=None, graph_def_program_hash=None,
                 signature_def_hash=None, saved_object_graph_hash=None, checkpoint_hash=None,
                 version=None):
        self.saved_model_checksum = saved_model_checksum
        self.graph_def_program_hash = graph_def_program_hash
        self.signature_def_hash = signature_def_hash
        self.saved_object_graph_hash = saved_object_graph_hash
        self.checkpoint_hash = checkpoint_hash
        self.version = version

    @classmethod
    def from_proto(cls, proto):
        """The Fingerprint of a serialized `FingerprintDef` (bytes)."""
        if not isinstance(proto, (bytes, bytearray)):
            raise ValueError("Given proto could not be deserialized as fingerprint: expected "
                             f"the bytes of a FingerprintDef, got {type(proto).__name__}")
        values, version = dict.fromkeys(_FIELDS, 0), VersionDef()
        for number, _, value in wire.fields(bytes(proto)):
            if 1 <= number <= 5:
                values[_FIELDS[number - 1]] = value
            elif number == 6:
                version = VersionDef(dict((n, v) for n, _, v in wire.fields(value)).get(1, 0))
        return cls(**values, version=version)

    def _hashes(self):
        return tuple(getattr(self, f) for f in _FIELDS)

    def __eq__(self, other):
        return isinstance(other, Fingerprint) and self._hashes() == other._hashes()

    def __str__(self):
        return "\n".join(["SavedModel Fingerprint"] + [f"  {f}: {getattr(self, f)}"
                                                        for f in _FIELDS])

    def __repr__(self):
        return f"Fingerprint({', '.join(str(h) for h in self._hashes())})"

    def singleprint(self):
        """"graph_def_program_hash/signature_def_hash/saved_object_graph_hash/
        checkpoint_hash": the fingerprint without the checksum of the file."""
        parts = self._hashes()[1:]
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
            raise ValueError(
                "Encounted invalid fingerprint values when constructing singleprint."
                f"graph_def_program_hash: {parts[0]}signature_def_hash: {parts[1]}"
                f"saved_object_graph_hash: {parts[2]}checkpoint_hash: {parts[3]}"
                "Singleprint() takes four integers")
        return "/".join(str(p) for p in parts)


def read_fingerprint(export_dir):
    """The Fingerprint in `export_dir`'s fingerprint.pb (FileNotFoundError
    when there is none, RuntimeError when it cannot be parsed)."""
    export_dir = os.fspath(export_dir)
    path = os.path.join(export_dir, FINGERPRINT_FILE)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError("SavedModel Fingerprint Error: Could not find fingerprint in "
                                f"directory: {export_dir}\nNOT_FOUND: {path} not found") from None
    try:
        return Fingerprint.from_proto(data)
    except wire.DecodeError as e:
        raise RuntimeError("SavedModel Fingerprint Error: Could not read fingerprint from "
                           f"fingerprint.pb file in directory: {export_dir}\n{e}") from None


def _hash(data):
    """A 64-bit unsigned hash of `data` (bytes, or a JSON-able value)."""
    if not isinstance(data, bytes):
        data = json.dumps(data, sort_keys=True).encode("utf-8")
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little")


def _value_bytes(value):
    value = np.asarray(value)
    if value.dtype == object:
        return repr(value.tolist()).encode("utf-8")
    return value.dtype.str.encode("ascii") + repr(value.shape).encode("ascii") + value.tobytes()


def write_fingerprint(export_dir, doc, document, variable_values, producer):
    """Write fingerprint.pb for our saved model: `doc` is saved_model.json's
    content (`document` its text), `variable_values` {name: numpy value}."""
    values = b"".join(name.encode("utf-8") + _value_bytes(value)
                      for name, value in sorted(variable_values.items()))
    signatures = {name: doc["functions"].get(name) for name in doc.get("signatures", [])}
    hashes = [_hash(document.encode("utf-8")), _hash(doc["functions"]), _hash(signatures),
              _hash(doc.get("variables")), _hash(values)]
    body = b"".join(wire.varint_field(i + 1, h) for i, h in enumerate(hashes))
    body += wire.length_field(6, wire.varint_field(1, producer))
    body += wire.length_field(7, str(uuid.uuid4().int).encode("ascii"))
    with open(os.path.join(export_dir, FINGERPRINT_FILE), "wb") as f:
        f.write(body)
