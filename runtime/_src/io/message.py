"""A small protocol buffer message class, enough for TensorFlow's Example
protos: int64, float and bytes scalars (repeated, packed), sub-messages,
oneofs and string-keyed maps of messages, with the Python protobuf API that
TensorFlow's users call and the bytes and text that protobuf writes.

    class Int64List(Message):
        _FULL_NAME = "tensorflow.Int64List"
        FIELDS = (Field("value", 1, "int64", repeated=True),)

    m = Int64List(value=[1, 2])
    m.value.append(3)
    m.SerializeToString()            # b'\\n\\x03\\x01\\x02\\x03'
    Int64List.FromString(b'\\n\\x01\\x05').value    # [5]
    print(m)                         # value: 1\\nvalue: 2\\nvalue: 3

Reading an unset message field gives an empty message that becomes set
(in its parent, and up) once something is written into it, as in protobuf.
Maps serialize in key order (TensorFlow's protobuf writes them in a
per-process hash order; `deterministic=True` there gives ours) and print
with keys in descending order, as TensorFlow's protobuf prints them.
"""

import operator

import numpy as np

from runtime._src.core import protowire as wire
from runtime._src.io.message_codec import decode_into, encode, text

__all__ = ["Field", "Message", "DecodeError"]

DecodeError = wire.DecodeError

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


class Field:
    """One field: its name, number, kind ('int64', 'float', 'bytes',
    'message', 'map'), the message class of 'message' and 'map' values, and
    whether it is repeated (packed for numbers) or in a oneof."""

    __slots__ = ("name", "number", "kind", "message", "repeated", "oneof")

    def __init__(self, name, number, kind, message=None, repeated=False, oneof=None):
        self.name, self.number, self.kind = name, number, kind
        self.message, self.repeated, self.oneof = message, repeated, oneof


# --- scalar checks (protobuf's messages) ---------------------------------------------

def _check_scalar(field, owner, value):
    kind = field.kind
    if kind == "int64":
        if isinstance(value, bool):
            raise TypeError(f"Field {owner._FULL_NAME}.{field.name}: Expected an int, got a "
                            "boolean.")
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError(f"'{_type_name(value)}' object cannot be interpreted as an "
                            "integer") from None
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise ValueError(f"Value out of range: {value}")
        return value
    if kind == "float":
        try:
            if isinstance(value, (str, bytes)):
                raise TypeError
            return float(np.float32(float(value)))
        except TypeError:
            raise TypeError(f"must be real number, not {_type_name(value)}") from None
    if isinstance(value, str):
        raise TypeError("expected bytes, str found")
    if not isinstance(value, bytes):
        raise TypeError(f"expected bytes, {_type_name(value)} found")
    return bytes(value)


def _type_name(value):
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


# --- containers ----------------------------------------------------------------------

class _Repeated:
    """What both repeated fields share: a list of `_items`, compared with
    lists, tuples and repeated fields of the same kind."""

    __slots__ = ()

    def __delitem__(self, index):
        del self._items[index]

    def __getitem__(self, index):
        return self._items[index]

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __eq__(self, other):
        if isinstance(other, type(self)):
            other = other._items
        return isinstance(other, (list, tuple)) and self._items == list(other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None


class RepeatedScalars(_Repeated):
    """A repeated int64/float/bytes field: a list that checks what goes in."""

    __slots__ = ("_owner", "_field", "_items")

    def __init__(self, owner, field):
        self._owner, self._field, self._items = owner, field, []

    def _check(self, value):
        return _check_scalar(self._field, self._owner, value)

    def append(self, value):
        self._items.append(self._check(value))
        self._owner._modified()

    def extend(self, values):
        self._items.extend(self._check(v) for v in _iterable(values))
        self._owner._modified()

    def insert(self, index, value):
        self._items.insert(index, self._check(value))
        self._owner._modified()

    def pop(self, index=-1):
        return self._items.pop(index)

    def remove(self, value):
        self._items.remove(value)

    def sort(self, **kwargs):
        self._items.sort(**kwargs)

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            self._items[index] = [self._check(v) for v in value]
        else:
            self._items[index] = self._check(value)
        self._owner._modified()

    def __repr__(self):
        return repr(self._items)

    def __array__(self, dtype=None, copy=None):
        """numpy's view: float32, int64 or bytes_ by the field's kind (as protobuf's)."""
        natural = {"float": np.float32, "int64": np.int64}.get(self._field.kind, np.bytes_)
        return np.array(self._items, dtype=dtype or natural)


class RepeatedMessages(_Repeated):
    """A repeated message field: `add(**fields)`, `append`, `extend`, indexing."""

    __slots__ = ("_owner", "_field", "_items")

    def __init__(self, owner, field):
        self._owner, self._field, self._items = owner, field, []

    def add(self, **kwargs):
        item = self._field.message(**kwargs)
        item._parent = (self._owner, None)
        self._items.append(item)
        self._owner._modified()
        return item

    def append(self, message):
        self._items.append(_copied(self._field, message, self._owner))
        self._owner._modified()

    def extend(self, messages):
        for m in _iterable(messages):
            self.append(m)

    def pop(self, index=-1):
        return self._items.pop(index)

    def __repr__(self):
        return "[" + ", ".join(str(m) for m in self._items) + "]"


class MessageMap:
    """A map<string, message> field. Reading a missing key adds an empty value
    (as protobuf does); `get` does not. Values cannot be assigned: write into
    `m[key]`, or `m[key].CopyFrom(value)`."""

    __slots__ = ("_owner", "_field", "_items")

    def __init__(self, owner, field):
        self._owner, self._field, self._items = owner, field, {}

    def __getitem__(self, key):
        key = _map_key(key)
        item = self._items.get(key)
        if item is None:
            item = self._field.message()
            item._parent = (self._owner, None)
            self._items[key] = item
            self._owner._modified()
        return item

    def __setitem__(self, key, value):
        raise ValueError("Message objects may not be assigned")

    def get(self, key, default=None):
        return self._items.get(_map_key(key), default)

    def __contains__(self, key):
        return _map_key(key) in self._items

    def __delitem__(self, key):
        del self._items[_map_key(key)]

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def keys(self):
        return self._items.keys()

    def values(self):
        return self._items.values()

    def items(self):
        return self._items.items()

    def clear(self):
        self._items.clear()

    def update(self, other):
        for k, v in dict(other).items():
            self[k].CopyFrom(v)

    def __eq__(self, other):
        if isinstance(other, MessageMap):
            other = other._items
        return isinstance(other, dict) and self._items == other

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        return repr(self._items)


def _map_key(key):
    if isinstance(key, bytes):
        return key.decode("utf-8")
    if not isinstance(key, str):
        raise TypeError("bad argument type for built-in operation")
    return key


def _iterable(values):
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError("must assign iterable")
    return values.tolist() if isinstance(values, np.ndarray) and values.dtype != object \
        else values


def _copied(field, value, owner):
    """A new message of `field`'s class from a message or a dict of fields."""
    cls = field.message
    if isinstance(value, dict):
        item = cls(**value)
    elif isinstance(value, cls):
        item = cls()
        item.MergeFrom(value)
    else:
        raise TypeError(f"Parameter to {field.name} must be {cls._FULL_NAME} or a dict, "
                        f"got {type(value).__name__}")
    item._parent = (owner, None)
    return item


# --- the message -------------------------------------------------------------------------

class Message:
    """Base of the message classes; a subclass lists its FIELDS."""

    _FULL_NAME = ""
    FIELDS = ()
    __slots__ = ("_values", "_lazy", "_parent", "_unknown")

    def __init__(self, **kwargs):
        self._values, self._lazy, self._parent, self._unknown = {}, {}, None, b""
        for name, value in kwargs.items():
            field = self._BY_NAME.get(name)
            if field is None:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 'field.')
            if value is not None:
                self._init_field(field, value)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._BY_NAME = {f.name: f for f in cls.FIELDS}
        cls._BY_NUMBER = {f.number: f for f in cls.FIELDS}

    def _init_field(self, field, value):
        if field.kind == "message" and not field.repeated:
            self._set_message(field, _copied(field, value, self))
        elif field.kind == "map":
            target = self._container(field)
            for k, v in dict(value).items():
                target[k].MergeFrom(v if isinstance(v, Message) else field.message(**v))
        elif field.repeated:
            self._container(field).extend(value)
        else:
            setattr(self, field.name, value)

    # --- presence -----------------------------------------------------------------
    def _modified(self):
        """Something was written into this message: mark it set in its parent."""
        if self._parent is None:
            return
        parent, field = self._parent
        if field is not None and parent._values.get(field.name) is not self:
            parent._lazy.pop(field.name, None)
            parent._set_message(field, self)
        else:
            parent._modified()

    def _set_message(self, field, message):
        if field.oneof:
            for other in self.FIELDS:
                if other.oneof == field.oneof and other is not field:
                    self._values.pop(other.name, None)
        message._parent = (self, field)
        self._values[field.name] = message
        self._modified()

    def _container(self, field):
        found = self._values.get(field.name)
        if found is None:
            kind = {"map": MessageMap, "message": RepeatedMessages}.get(field.kind,
                                                                         RepeatedScalars)
            found = self._values[field.name] = kind(self, field)
        return found

    def __getattr__(self, name):
        field = type(self)._BY_NAME.get(name) if not name.startswith("_") else None
        if field is None:
            raise AttributeError(name)
        if field.repeated or field.kind == "map":
            return self._container(field)
        found = self._values.get(name)
        if found is not None:
            return found
        if field.kind != "message":
            return {"int64": 0, "float": 0.0, "bytes": b""}[field.kind]
        lazy = self._lazy.get(name)
        if lazy is None:
            lazy = self._lazy[name] = field.message()
            lazy._parent = (self, field)
        return lazy

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        field = self._BY_NAME.get(name)
        if field is None:
            raise AttributeError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 'field.')
        if field.repeated or field.kind in ("message", "map"):
            what = "message" if field.kind == "message" and not field.repeated else \
                "map, or repeated"
            raise AttributeError(f'Assignment not allowed to {what} field "{name}" in protocol '
                                 'message object.')
        self._values[name] = _check_scalar(field, self, value)
        self._modified()

    # --- the protobuf API -------------------------------------------------------------
    def HasField(self, name):
        field = self._BY_NAME.get(name)
        if field is None or field.repeated or field.kind == "map":
            raise ValueError(f'Protocol message {type(self).__name__} has no singular "{name}" '
                             'field.')
        return name in self._values

    def WhichOneof(self, group):
        names = [f.name for f in self.FIELDS if f.oneof == group]
        if not names:
            raise ValueError(f'Protocol message has no oneof "{group}" field.')
        return next((n for n in names if n in self._values), None)

    def ClearField(self, name):
        if name not in self._BY_NAME:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        self._values.pop(name, None)
        self._lazy.pop(name, None)

    def Clear(self):
        self._values.clear()
        self._lazy.clear()
        self._unknown = b""

    def ListFields(self):
        return [(f, self._values[f.name]) for f in self.FIELDS
                if f.name in self._values and _present(self._values[f.name])]

    def CopyFrom(self, other):
        if other is self:
            return
        self.Clear()
        self.MergeFrom(other)

    def MergeFrom(self, other):
        if not isinstance(other, type(self)):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: "
                            f"expected {self._FULL_NAME} got {type(other).__name__}.")
        self.MergeFromString(other.SerializeToString())

    def IsInitialized(self):
        return True

    def SerializeToString(self, deterministic=None):
        return encode(self)

    SerializePartialToString = SerializeToString

    def ByteSize(self):
        return len(self.SerializeToString())

    def MergeFromString(self, data):
        if isinstance(data, str):
            raise TypeError("expected bytes, str found")
        data = bytes(data)
        try:
            decode_into(self, data)
        except (wire.DecodeError, TypeError, ValueError, UnicodeDecodeError):
            raise DecodeError(f"Error parsing message with type '{self._FULL_NAME}': Wire format "
                              "was corrupt") from None
        self._modified()
        return len(data)

    def ParseFromString(self, data):
        self.Clear()
        return self.MergeFromString(data)

    @classmethod
    def FromString(cls, data):
        message = cls()
        message.MergeFromString(data)
        return message

    def __eq__(self, other):
        if not isinstance(other, Message) or other._FULL_NAME != self._FULL_NAME:
            return False
        return self.SerializeToString() == other.SerializeToString()

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __str__(self):
        return text(self)

    __repr__ = __str__

    def __reduce__(self):
        return type(self).FromString, (self.SerializeToString(),)

    def __deepcopy__(self, memo=None):
        return type(self).FromString(self.SerializeToString())


def _present(value):
    return len(value) > 0 if isinstance(value, (RepeatedScalars, RepeatedMessages,
                                                MessageMap)) else True
