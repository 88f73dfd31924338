"""What conversion did with each statement of a function given as source
(`autograph check -v`, `autograph.convert_source(..., report=True)`).

Built from the function's source (before) and the converted tree (after), so it
needs no live function. One line per statement that conversion touched:

    line 6    if flag:          if_stmt: staged as cond when the test is a tensor, else ...
    line 8    for x in xs:      for_stmt: staged as while_loop over a tensor (...), else ...
    line 9    break             becomes the flag break_ (checked by the loop test)
    line 12   y = helper(x)     call helper: converted when it is user code (decided at run time)
    line 13   z = np.sum(x)     call np.sum: runs as is (library, builtin or class)

Whether a statement is staged or runs as Python is decided by the values that
arrive (tensors or not), which is why each line gives both outcomes.
"""

import ast

import gast

from ..pyct import anno

__all__ = ["statement_report"]

_STATEMENTS = {
    "If": "if_stmt: staged as cond when the test is a tensor, else runs as Python",
    "While": "while_stmt: staged as while_loop when the test is a tensor, else runs as Python",
    "For": "for_stmt: staged as while_loop over a tensor (or range of a tensor), "
           "else unrolled in Python",
    "Break": "becomes the flag break_ (checked by the loop test)",
    "Continue": "becomes the flag continue_ (guards the rest of the body)",
    "Assert": "assert_stmt: a graph Assert when the test is a tensor, else a Python assert",
}
_EXPRESSIONS = {
    "IfExp": "if_exp: staged as cond when the test is a tensor, else Python",
    "BoolOp": "and_/or_: logical ops on tensors, short-circuit Python otherwise",
    "Not": "not_: logical_not on tensors, Python not otherwise",
}


def _line_text(lines, lineno):
    return lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""


def _source_items(func):
    """(line, what) for the statements and expressions conversion rewrites."""
    items = []
    last = func.body[-1] if func.body else None
    for node in ast.walk(func):
        kind = type(node).__name__
        if kind in _STATEMENTS:
            items.append((node.lineno, _STATEMENTS[kind]))
        elif kind in ("IfExp", "BoolOp"):
            items.append((node.lineno, _EXPRESSIONS[kind]))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            items.append((node.lineno, _EXPRESSIONS["Not"]))
        elif isinstance(node, ast.Return) and node is not last:
            items.append((node.lineno, "early return: becomes retval_ (and a guard on the "
                                       "statements after it)"))
    return items


def _walk_with_lines(node, line=None):
    """(node, nearest user line) for `node` and its descendants."""
    line = anno.getanno(node, anno.USER_LINE, line)
    yield node, line
    for child in gast.iter_child_nodes(node):
        yield from _walk_with_lines(child, line)


def _call_items(converted):
    """(line, what) for each call in the converted tree."""
    items = []
    for node, line in _walk_with_lines(converted):
        if not isinstance(node, gast.Call) or line is None:
            continue
        callee = ast.unparse(gast.gast_to_ast(node.func))
        if callee == "ag__.call" and node.args:
            name = ast.unparse(gast.gast_to_ast(node.args[0]))
            items.append((line, f"call {name}: converted when it is user code "
                                "(decided at run time)"))
        elif callee.startswith("ag__.") and callee[5:] in _OVERLOADS:
            items.append((line, f"call {callee[5:]}: builtin overload (tensor-aware)"))
        elif not callee.startswith("ag__."):
            items.append((line, f"call {callee}: runs as is (library, builtin or class)"))
    return items


_OVERLOADS = ("len", "range", "int", "float", "abs", "min", "max", "enumerate", "zip")


def statement_report(func, converted, filename, lines):
    """Report lines for `func` (an `ast` FunctionDef with file line numbers) and
    its converted gast tree (carrying USER_LINE annotations)."""
    items = list(dict.fromkeys(_source_items(func) + _call_items(converted)))
    items.sort(key=lambda i: i[0])  # stable: per line, the statement before its calls
    if not items:
        return [f"line {func.lineno:<4} nothing to convert; runs as written"]
    width = max(len(_line_text(lines, line)) for line, _ in items)
    width = min(width, 40)
    out = []
    for line, what in items:
        text = _line_text(lines, line)
        if len(text) > width:
            text = text[:width - 3] + "..."
        out.append(f"line {line:<4} {text:<{width}}  {what}")
    return out
