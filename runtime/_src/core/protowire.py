"""Protocol buffer wire format, by hand: the one encoder and decoder that the
TensorProto bytes (`tf.io.serialize_tensor`), TensorFlow's checkpoint index
and the `tf.train.Example` messages share. No protobuf package.

A message is a sequence of fields; each starts with a varint key
`number << 3 | wire type`:

    wire 0  varint            ints, bools, enums (negative ints: 10 bytes)
    wire 1  8 bytes, little   fixed64, double
    wire 2  varint length     bytes, strings, sub-messages, packed repeated
    wire 5  4 bytes, little   fixed32, float

    varint(300)                        # b'\\xac\\x02'
    length_field(1, b'hi')             # b'\\n\\x02hi'
    list(fields(b'\\x08\\x96\\x01'))       # [(1, 0, 150)]
    packed_varints(b'\\x01\\xff\\x01')     # [1, 255]
"""

import numpy as np

__all__ = [
    "DecodeError",
    "fields",
    "key",
    "length_field",
    "packed_floats",
    "packed_varints",
    "read_varint",
    "signed64",
    "varint",
    "varint_field",
]


class DecodeError(ValueError):
    """Bytes that are not a well-formed protocol buffer message."""


def varint(n):
    """The varint bytes of a non-negative int; a negative one is written as
    its 64-bit two's complement (10 bytes), as protobuf does for int64."""
    if n < 0:
        n += 1 << 64
    if n < 0x80:
        return bytes((n,))
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def key(number, wire):
    return varint(number << 3 | wire)


def length_field(number, payload):
    """A length-delimited (wire type 2) field."""
    return key(number, 2) + varint(len(payload)) + payload


def varint_field(number, n):
    return key(number, 0) + varint(n)


def read_varint(data, pos):
    """(value, next position) of the varint at `pos`."""
    result = shift = 0
    while True:
        if pos >= len(data):
            raise DecodeError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint longer than 10 bytes")


def signed64(n):
    """A decoded varint read as int64."""
    n &= (1 << 64) - 1
    return n - (1 << 64) if n >= 1 << 63 else n


def fields(data):
    """(field number, wire type, value) of each field of a message: an int for
    wire types 0, 1 and 5 (the raw little-endian bits), bytes for wire 2."""
    pos, end = 0, len(data)
    while pos < end:
        tag, pos = read_varint(data, pos)
        number, wire = tag >> 3, tag & 7
        if number == 0:
            raise DecodeError("field number 0")
        if wire == 0:
            value, pos = read_varint(data, pos)
        elif wire == 2:
            size, pos = read_varint(data, pos)
            if pos + size > end:
                raise DecodeError("truncated length-delimited field")
            value, pos = bytes(data[pos:pos + size]), pos + size
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            if pos + width > end:
                raise DecodeError("truncated fixed-width field")
            value = int.from_bytes(data[pos:pos + width], "little")
            pos += width
        else:
            raise DecodeError(f"unsupported wire type {wire}")
        yield number, wire, value


def packed_varints(data):
    """The ints of a packed repeated varint field's payload (unsigned)."""
    out, pos = [], 0
    while pos < len(data):
        value, pos = read_varint(data, pos)
        out.append(value)
    return out


def packed_floats(data):
    """The float32 values of a packed repeated float field's payload."""
    if len(data) % 4:
        raise DecodeError("packed float field of a length not a multiple of 4")
    return np.frombuffer(data, "<f4").astype(np.float32)
