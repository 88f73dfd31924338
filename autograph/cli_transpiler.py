"""The CLI's bridge to the transpiler: convert a function given as SOURCE text.

`autograph.to_code` takes a live function; the CLI has only the file's text
(it must not import the user's module). `transpile` runs the transpiler's
pipeline on the source of one `def` and returns readable converted code.

    text, report = transpile("def f(x):\\n    if x:\\n        x = -x\\n    return x\\n",
                             "m.py", first_line=1, name="f")
"""

__all__ = ["NotConvertible", "transpile", "import_lines"]


class NotConvertible(Exception):
    """The transpiler refused the function; the message ends with (file:line)."""


def import_lines():
    """The import lines the converted code needs."""
    return ["import autograph"]


def transpile(source, filename, first_line, name, want_report=False):
    """(converted def text, report lines) for one function's source."""
    raise NotConvertible(f"the transpiler is not available yet ({filename}:{first_line})")
