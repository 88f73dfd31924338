"""Constructs the transpiler refuses, found before any rewrite.

    check(fn_node, info)   # raises ConversionError naming construct, file, line

Refused: generators (`yield`) and `async` code.
"""

import gast

from ..pyct import ast_util


class ConversionError(Exception):
    """A function cannot be converted; the message says what, where and why."""

    def __init__(self, message, reason=None):
        super().__init__(message)
        self.reason = reason or message


class UnsupportedLanguageElementError(ConversionError, NotImplementedError):
    """A construct the transpiler does not convert (generators, async code);
    also a NotImplementedError, as TensorFlow's error of the same name."""


GENERATORS = "generators are not supported"    # TensorFlow's phrase, first in the reason


_CONTROL = (gast.If, gast.While, gast.For)


def _where(info, node):
    line = ast_util.user_line(node) or getattr(node, "lineno", 0)
    return f"{info.filename}:{line}: {info.line_text(line)}"


def _fail(info, fn_node, node, reason, fix):
    raise UnsupportedLanguageElementError(
        f"cannot convert function '{fn_node.name}': {reason} ({_where(info, node)}). {fix}",
        reason=f"{reason} ({_where(info, node)})")


def check(fn_node, info):
    own = list(ast_util.walk_scope(fn_node.body))
    for n in own:
        if isinstance(n, (gast.Yield, gast.YieldFrom)):
            _fail(info, fn_node, n, f"{GENERATORS} (a function with yield)",
                  "Return a list or tensor instead, or call it from unconverted code.")
        if isinstance(n, (gast.Await, gast.AsyncFor, gast.AsyncWith)):
            _fail(info, fn_node, n, "async code is not supported",
                  "Convert a synchronous function.")
    if isinstance(fn_node, gast.AsyncFunctionDef):
        _fail(info, fn_node, fn_node, "async code is not supported",
              "Convert a synchronous function.")
    for n in ast_util.walk(fn_node):
        if isinstance(n, gast.FunctionDef) and n is not fn_node:
            check(n, info)
