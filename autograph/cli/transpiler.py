"""The CLI's bridge to the transpiler: `autograph.convert_source`, the public
entry point for converting a function given as text (the CLI never imports the
user's module, so it has no live function for `to_code`).

    text, report = transpile("def f(x):\\n    if x:\\n        x = -x\\n    return x\\n",
                             "m.py", first_line=1, name="f")

This module only adapts argument names and turns ConversionError into
NotConvertible; what conversion does is documented in autograph/impl/api.py.
"""

import autograph

__all__ = ["NotConvertible", "transpile", "import_lines", "MARKER"]

# Converted functions carry this decorator (added by `convert_source`), so that
# `runtime.function` and `ag__.call` run them as written.
MARKER = "@autograph.do_not_convert"


class NotConvertible(Exception):
    """The transpiler refused the function; the message ends with (file:line)."""


def import_lines():
    """The import lines converted code needs at the top of its module."""
    return list(autograph.SourceConversion.imports)


def transpile(source, filename, first_line, name, want_report=False, module=None,
              is_method=False):
    """(converted def text, report lines) for one function's source.

    `source` is the `def` (no decorators) of `name` starting at `first_line`
    of `filename`; `module` is the whole file's text (for which names it binds
    and for messages); `is_method` when the def is in a class body.
    """
    try:
        result = autograph.convert_source(source, filename, first_line, module=module,
                                          method=is_method, report=want_report)
    except autograph.ConversionError as e:
        raise NotConvertible(e.reason) from None
    return result.text, result.report
