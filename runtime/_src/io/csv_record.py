"""Splitting one CSV record into fields, by TensorFlow's DecodeCSV rules.

    split_record(b'1,"a,""b",', b",", True)     # [b'1', b'a,"b', b'']

A quoted field (with `use_quote_delim`) runs to a closing quote that must
be followed by the delimiter or the end; `""` inside it is one quote. An
unquoted field may hold no quote (with `use_quote_delim`) and no CR or LF.
An empty record has no fields. `csv_lines` cuts a CSV file into records at
line ends outside quoted fields (`\n` or `\r\n`).
"""

from runtime._src.core.errors import InvalidArgumentError

__all__ = ["csv_lines", "split_record"]

_QUOTE = ord('"')


def _quoted(record, pos, delim):
    """(field, position after it) of the quoted field whose quote is at `pos`."""
    out, i, n = bytearray(), pos + 1, len(record)
    while True:
        if i >= n:
            raise InvalidArgumentError("Quoted field has to end with quote followed by delim "
                                       "or end")
        c = record[i]
        if c == _QUOTE:
            if i + 1 < n and record[i + 1] == _QUOTE:
                out.append(c)
                i += 2
                continue
            i += 1
            break
        out.append(c)
        i += 1
    if i < n and record[i] != delim[0]:
        raise InvalidArgumentError("Quoted field has to end with quote followed by delim or end")
    return bytes(out), i


def split_record(record, delim, use_quote_delim):
    """The fields (bytes) of one record."""
    fields, pos, n = [], 0, len(record)
    while pos < n:
        if use_quote_delim and record[pos] == _QUOTE:
            field, end = _quoted(record, pos, delim)
        else:
            end = record.find(delim, pos)
            end = n if end < 0 else end
            field = record[pos:end]
            if (use_quote_delim and b'"' in field) or b"\n" in field or b"\r" in field:
                raise InvalidArgumentError("Unquoted fields cannot have quotes/CRLFs inside")
        fields.append(field)
        if end >= n:
            break
        pos = end + 1
        if pos == n:
            fields.append(b"")
    return fields


def csv_lines(data, use_quote_delim):
    """The records of a CSV file's bytes: lines, except that a newline inside a
    quoted field (with `use_quote_delim`) belongs to the record."""
    if not use_quote_delim or b'"' not in data:
        lines = data.split(b"\n")
    else:
        lines, start, quoted = [], 0, False
        for i, c in enumerate(data):
            if c == _QUOTE:
                quoted = not quoted
            elif c == 10 and not quoted:
                lines.append(data[start:i])
                start = i + 1
        lines.append(data[start:])
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]
