"""Bytes and text of the messages in message.py (kept apart so each file
stays about one thing; this one knows the wire and text formats, message.py
the Python API).

    encode(Int64List(value=[1, -1]))   # b'\\n\\x0b\\x01\\xff...\\x01' (packed)
    text(Int64List(value=[1]))         # 'value: 1\\n'

Text format is protobuf's as TensorFlow's protobuf (upb) prints it: floats
with 6 significant digits unless that does not read back as the same
float32, then 9 ('1.1', '3.40282347e+38'); bytes in double quotes with
printable ASCII kept, \\n \\r \\t \\" \\' \\\\ escaped and every other byte
in three octal digits (a string map key keeps its non-ASCII characters);
map entries by descending key.
"""

import struct

import numpy as np

from runtime._src.core import protowire as wire

__all__ = ["decode_into", "encode", "escape_bytes", "escape_text", "float_text", "text"]


# --- bytes ----------------------------------------------------------------------------

def encode(msg):
    """The wire bytes of `msg`: fields in number order, packed numbers, maps
    in key order, unknown fields (read and kept) at the end."""
    out = []
    values = msg._values
    for f in msg.FIELDS:
        v = values.get(f.name)
        if v is None:
            continue
        if f.kind == "map":
            for k in sorted(v._items):
                entry = wire.length_field(1, k.encode("utf-8")) + \
                    wire.length_field(2, encode(v._items[k]))
                out.append(wire.length_field(f.number, entry))
        elif f.kind == "message":
            for m in (v._items if f.repeated else (v,)):
                out.append(wire.length_field(f.number, encode(m)))
        elif f.repeated:
            out.append(_repeated_scalars(f, v._items))
        else:
            out.append(_scalar(f, v))
    out.append(msg._unknown)
    return b"".join(out)


def _repeated_scalars(f, items):
    if not items:
        return b""
    if f.kind == "int64":
        return wire.length_field(f.number, b"".join(wire.varint(x) for x in items))
    if f.kind == "float":
        return wire.length_field(f.number, np.asarray(items, "<f4").tobytes())
    return b"".join(wire.length_field(f.number, x) for x in items)


def _scalar(f, v):
    if not v:                       # proto3: a default value is not written
        return b""
    if f.kind == "int64":
        return wire.varint_field(f.number, v)
    if f.kind == "float":
        return wire.key(f.number, 5) + struct.pack("<f", v)
    return wire.length_field(f.number, v)


def decode_into(msg, data):
    """Merge the wire bytes `data` into `msg` (protobuf's MergeFromString)."""
    for number, wt, value in wire.fields(data):
        f = msg._BY_NUMBER.get(number)
        if f is None:
            msg._unknown += _raw(number, wt, value)
        elif f.kind == "map":
            _need(wt, 2, f)
            _decode_map_entry(msg, f, value)
        elif f.kind == "message":
            _need(wt, 2, f)
            if f.repeated:
                child = msg._container(f).add()
            else:
                child = getattr(msg, f.name)
                msg._set_message(f, child)
            decode_into(child, value)
        elif f.repeated:
            msg._container(f)._items.extend(_decode_scalars(f, wt, value))
        else:
            msg._values[f.name] = _decode_scalars(f, wt, value)[-1]


def _need(wt, expected, f):
    if wt != expected:
        raise wire.DecodeError(f"field {f.name}: wire type {wt}, expected {expected}")
    return wt


def _decode_map_entry(msg, f, entry):
    key, value = "", b""
    for number, wt, v in wire.fields(entry):
        if number == 1:
            key = v.decode("utf-8")
        elif number == 2:
            value = v
    item = f.message()
    decode_into(item, value)
    item._parent = (msg, None)
    msg._container(f)._items[key] = item


def _decode_scalars(f, wt, value):
    """The values one field occurrence holds (a packed one holds several)."""
    if f.kind == "int64":
        if wt == 2:
            return [wire.signed64(v) for v in wire.packed_varints(value)]
        return [wire.signed64(_need_value(wt, 0, f, value))]
    if f.kind == "float":
        if wt == 2:
            return wire.packed_floats(value).tolist()
        return [struct.unpack("<f", struct.pack("<I", _need_value(wt, 5, f, value)))[0]]
    return [_need_value(wt, 2, f, value)]


def _need_value(wt, expected, f, value):
    _need(wt, expected, f)
    return value


def _raw(number, wt, value):
    """The bytes of a field read but not known, to write them back."""
    if wt == 0:
        return wire.varint_field(number, value)
    if wt == 2:
        return wire.length_field(number, value)
    return wire.key(number, wt) + value.to_bytes(8 if wt == 1 else 4, "little")


# --- text format --------------------------------------------------------------------------

def text(msg, indent=0):
    """Protobuf's text format of `msg`, each line indented by `indent`."""
    pad = " " * indent
    out = []
    for f in msg.FIELDS:
        v = msg._values.get(f.name)
        if v is None:
            continue
        if f.kind == "map":
            inner = pad + "  "
            for k in sorted(v._items, reverse=True):
                out.append(f'{pad}{f.name} {{\n{inner}key: "{escape_text(k)}"\n'
                           f"{inner}value {{\n{text(v._items[k], indent + 4)}{inner}}}\n"
                           f"{pad}}}\n")
        elif f.kind == "message":
            for m in (v._items if f.repeated else (v,)):
                out.append(f"{pad}{f.name} {{\n{text(m, indent + 2)}{pad}}}\n")
        else:
            for x in (v._items if f.repeated else (v,) if v else ()):
                out.append(f"{pad}{f.name}: {_scalar_text(f, x)}\n")
    return "".join(out)


def _scalar_text(f, x):
    if f.kind == "float":
        return float_text(x)
    if f.kind == "bytes":
        return f'"{escape_bytes(x)}"'
    return str(x)


def float_text(x):
    """A float32 as protobuf's text format writes it."""
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    short = "%.6g" % x
    return short if np.float32(float(short)) == np.float32(x) else "%.9g" % x


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}
_BYTE_TEXT = [_ESCAPES.get(b, chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}")
              for b in range(256)]


def escape_bytes(data):
    """`data` as text-format string contents (without the quotes)."""
    return "".join(_BYTE_TEXT[b] for b in data)


def escape_text(text):
    """A `string` field's text: as bytes, but non-ASCII characters kept as they are."""
    return "".join(c if ord(c) >= 0x80 else _BYTE_TEXT[ord(c)] for c in text)
