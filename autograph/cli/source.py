"""Source handling for the `autograph` CLI: read, parse, find spans, edit, write.

The CLI never reformats a file. It finds the spans of the functions it
converts (top-level functions and methods of top-level classes), replaces only
those lines, and keeps every other byte: comments, docstrings, blank lines,
line endings. Example:

    >>> src = "# hi\\ndef f(x):\\n    return x\\n"
    >>> spans = find_functions(parse_source(src, "m.py"), split_lines(src))
    >>> [(s.qualname, s.start, s.end) for s in spans]
    [('f', 2, 3)]
    >>> "".join(replace_spans(split_lines(src), [(spans[0], "def f(x):\\n    return -x\\n")]))
    '# hi\\ndef f(x):\\n    return -x\\n'

Bad input never raises a Python traceback: every problem becomes a
`CliError` whose message is one line (`file:line:col: ...` for syntax errors).
"""

import ast
import os
import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass

__all__ = ["CliError", "FunctionSpan", "read_source", "parse_source", "split_lines",
           "find_functions", "select_functions", "replace_spans", "insert_imports",
           "write_atomic", "check_writable", "display_name", "load", "emit"]

_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class CliError(Exception):
    """A user-facing problem: printed as one line on stderr, exit status `code`."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


@dataclass
class FunctionSpan:
    """Where one convertible function lives in the file (1-based, inclusive lines).

    `start` is the first decorator's line, `def_line` the `def` keyword's line.
    """
    qualname: str
    node: ast.AST
    start: int
    def_line: int
    end: int
    indent: str


def read_source(path, stdin=None):
    """The text of `path` (`-` reads stdin), or a one-line `CliError`."""
    if path == "-":
        data = (stdin or sys.stdin.buffer).read()
        display = "<stdin>"
    else:
        display = path
        if os.path.isdir(path):
            raise CliError(f"{path}: is a directory; expected a Python file (FILE.py)")
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise CliError(f"{path}: no such file") from None
        except OSError as e:
            raise CliError(f"{path}: cannot read: {e.strerror or e}") from None
    return decode_source(data, display)


def decode_source(data, display):
    """Decode UTF-8 (a BOM is allowed); reject other encodings and empty files."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise CliError(f"{display}:{line}: not valid UTF-8 (byte 0x{data[e.start]:02x} "
                       f"at offset {e.start}); save the file as UTF-8") from None
    if not text.strip():
        raise CliError(f"{display}: file is empty; nothing to convert")
    return text


def parse_source(text, display):
    """`ast.parse`, with syntax errors reported as `file:line:col: message`."""
    try:
        return ast.parse(text, filename=display)
    except SyntaxError as e:
        line, col = e.lineno, e.offset
        if line is None and "\0" in text:    # Python gives no position for a null byte
            before = text[:text.index("\0")]
            line, col = before.count("\n") + 1, len(before) - before.rfind("\n")
        where = f"{display}:{line or 1}:{col or 1}"
        raise CliError(f"{where}: {type(e).__name__}: {e.msg}") from None
    except ValueError as e:  # e.g. "source code string cannot contain null bytes"
        raise CliError(f"{display}: cannot parse: {e}") from None
    except (RecursionError, MemoryError) as e:  # Python cannot compile it either
        raise CliError(f"{display}: cannot parse: an expression or block is nested too "
                       f"deeply for Python's parser ({type(e).__name__}: {e})") from None


def split_lines(text):
    """Lines with their endings, counted as `ast` counts them (\\n, \\r\\n, \\r)."""
    return _LINE_RE.findall(text)


def _span(node, qualname, lines):
    start = min([node.lineno] + [d.lineno for d in node.decorator_list])
    def_line = node.lineno
    # With decorators, `node.lineno` is the `def` line on Python >= 3.8.
    first = lines[def_line - 1]
    indent = first[:len(first) - len(first.lstrip())]
    return FunctionSpan(qualname, node, start, def_line, node.end_lineno, indent)


_FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)


def find_functions(tree, lines):
    """Top-level functions and methods of top-level classes, in file order."""
    spans = []
    for node in tree.body:
        if isinstance(node, _FUNCTION_TYPES):
            spans.append(_span(node, node.name, lines))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, _FUNCTION_TYPES):
                    spans.append(_span(item, f"{node.name}.{item.name}", lines))
    return spans


def select_functions(spans, names, display):
    """The spans named by `--function` (`f`, `Class.method` or `Class`)."""
    if not names:
        return spans
    chosen = []
    for name in names:
        hits = [s for s in spans if s.qualname == name or s.qualname.startswith(name + ".")]
        if not hits:
            known = ", ".join(s.qualname for s in spans) or "none"
            raise CliError(f"{display}: no function named '{name}' "
                           f"(top-level functions and methods found: {known})")
        chosen.extend(h for h in hits if h not in chosen)
    return sorted(chosen, key=lambda s: s.start)


def _newline_of(lines):
    for line in lines:
        for ending in ("\r\n", "\r", "\n"):
            if line.endswith(ending):
                return ending
    return "\n"


def _reindent(text, indent, newline):
    """`text` (a dedented def) indented by `indent`, with the file's line endings."""
    body = textwrap.dedent(text).strip("\n")
    out = []
    for line in body.split("\n"):
        out.append((indent + line if line.strip() else "") + newline)
    return out


def replace_spans(lines, replacements):
    """Replace each span's `def` ... last line by new text; keep decorators and
    every other line verbatim. `replacements` is [(FunctionSpan, text)]."""
    newline = _newline_of(lines)
    out = list(lines)
    # Work bottom-up so earlier line numbers stay valid.
    for span, text in sorted(replacements, key=lambda r: -r[0].start):
        new = _reindent(text, span.indent, newline)
        last = out[span.end - 1]
        if not last.endswith(("\n", "\r")):  # the file had no final newline
            new[-1] = new[-1].rstrip("\r\n")
        out[span.def_line - 1:span.end] = new
    return out


def _import_line_index(tree):
    """0-based line index where new imports go: after the module docstring and
    `from __future__` imports, else before the first statement."""
    after = None
    for i, node in enumerate(tree.body):
        is_doc = (i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                  and isinstance(node.value.value, str))
        is_future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
        if not (is_doc or is_future):
            break
        after = node.end_lineno
    if after is not None:
        return after
    first = tree.body[0]
    starts = [first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])]
    return min(starts) - 1


def insert_imports(lines, tree, import_lines):
    """`lines` with `import_lines` added near the top (skipping ones present)."""
    present = {line.strip() for line in lines}
    missing = [imp for imp in import_lines if imp not in present]
    if not missing or not tree.body:
        return list(lines)
    newline = _newline_of(lines)
    at = _import_line_index(tree)
    out = list(lines)
    if at > 0 and not out[at - 1].endswith(("\n", "\r")):
        out[at - 1] += newline
    out[at:at] = [imp + newline for imp in missing]
    return out


def check_writable(path):
    """Fail early (before any work) when `path` cannot be written."""
    if os.path.isdir(path):
        raise CliError(f"{path}: is a directory; expected an output file path")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise CliError(f"{path}: cannot write: directory {directory} does not exist")
    if not os.access(directory, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CliError(f"{path}: cannot write: permission denied")


def write_atomic(path, text):
    """Write via a temporary file in the target directory, then rename, so a
    failure never leaves a partial output file."""
    check_writable(path)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".autograph-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise CliError(f"{path}: cannot write: cannot create a file in {directory}: "
                       f"{e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as e:
        _remove_quietly(tmp)
        raise CliError(f"{path}: cannot write: {e.strerror or e}") from None
    except BaseException:
        _remove_quietly(tmp)
        raise


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove_quietly(path):
    try:
        os.remove(path)
    except OSError:
        pass


def display_name(path):
    """How messages name `path` (`-` is standard input)."""
    return "<stdin>" if path == "-" else path


def load(path, names):
    """Read and parse `path`; return (text, tree, lines, selected spans)."""
    text = read_source(path)
    display = display_name(path)
    tree = parse_source(text, display)
    lines = split_lines(text)
    spans = select_functions(find_functions(tree, lines), names, display)
    return text, tree, lines, spans


def emit(text, output):
    """Write `text` to the file `output` (atomically), or to standard output."""
    if output:
        write_atomic(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
