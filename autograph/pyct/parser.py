"""Parsing functions into gast trees, with the user's line numbers.

    node, info = parse_function(f)
    node.name        # 'f' (a gast.FunctionDef; lambdas become one too)
    info.filename    # the user's file
    node.body[0].lineno   # a line number in that file

Lambdas: the source line may hold several; the one whose code object matches
(same line, argument names and column) is chosen. Decorators are dropped: the
converted function is the undecorated one.
"""

import ast
import inspect
import linecache
import operator
import re
import types
import weakref

import gast

from . import anno, ast_util


class SourceInfo:
    """Where a parsed function came from."""

    __slots__ = ("filename", "first_line", "lines")

    def __init__(self, filename, first_line, lines):
        self.filename = filename
        self.first_line = first_line
        self.lines = lines        # the user's file, as a list of lines

    def line_text(self, lineno):
        if 1 <= lineno <= len(self.lines):
            return self.lines[lineno - 1].strip()
        return ""


class NoSourceError(ValueError):
    """The function's source is not available (builtins, C code, some REPLs)."""


def get_source(fn):
    """(source, SourceInfo) of `fn`, or NoSourceError. The source keeps its
    indentation: dedenting text would also change the text of multi-line
    strings (see `_parse_indented`)."""
    found = _def_source(fn)
    if found is not None:
        return found
    # The code object, not the function: inspect would follow __wrapped__
    # (functools.wraps) to another function's source.
    target = getattr(fn, "__code__", fn)
    try:
        lines, first = inspect.getsourcelines(target)
        filename = inspect.getsourcefile(target) or inspect.getfile(target)
    except (OSError, TypeError) as e:
        raise NoSourceError(f"no source code for {getattr(fn, '__qualname__', fn)!r}: {e}") from None
    first = max(first, 1)
    all_lines = linecache.getlines(filename) or lines
    if getattr(target, "co_name", None) == "<lambda>":
        # inspect stops a lambda at the end of its first line's logical block,
        # which for `lambda x: x\n * 2` inside brackets drops `* 2`: take the
        # lines up to the last one its code spans.
        last = _last_line(target)
        if last > first + len(lines) - 1 and len(all_lines) >= last:
            lines = all_lines[first - 1:last]
    return "".join(lines), SourceInfo(filename, first, all_lines)


_DEF_LINE = re.compile(r"\s*(@|def\s|async\s+def\s)")


def _def_source(fn):
    """The fast path of `get_source` for a `def` in a .py file: the lines from
    the code's first line to the last line its code (or nested code) covers,
    plus any further lines indented deeper than the `def` (statements that
    compile to nothing, such as a trailing `pass`). None when unsure: the
    caller then asks inspect, which tokenizes the file."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_name == "<lambda>" or not code.co_filename.endswith(".py"):
        return None
    filename = code.co_filename
    linecache.checkcache(filename)          # an edited file is read again, as inspect does
    lines = linecache.getlines(filename, getattr(fn, "__globals__", None))
    first = code.co_firstlineno
    if not lines or first > len(lines) or not _DEF_LINE.match(lines[first - 1]):
        return None
    head = lines[first - 1]
    indent = len(head) - len(head.lstrip())
    end = max(first, _code_last_line(code))
    while end < len(lines):
        text = lines[end]
        stripped = text.strip()
        if stripped and not stripped.startswith("#") and len(text) - len(text.lstrip()) <= indent:
            break
        end += 1
    while end > first and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return "".join(lines[first - 1:end]), SourceInfo(filename, first, lines)


_END_LINE = operator.itemgetter(1)


_last_code = (lambda: None, 0)     # (weak reference to a code object, its last line)


def _code_last_line(code):
    """_last_line(code), remembered for the last code object asked: the
    source check and the conversion read a function's source in turn, and
    reading the positions of every instruction is most of what that costs."""
    global _last_code
    ref, last = _last_code
    if ref() is not code:
        last = _last_line(code)
        _last_code = (weakref.ref(code), last)
    return last


def _last_line(code):
    """The last source line any instruction of `code` or its nested code spans."""
    # One position per instruction: read in C (map, filter, max), not in a loop.
    last = max(filter(None, map(_END_LINE, code.co_positions())), default=0)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def parse_function(fn):
    """A gast.FunctionDef for `fn` (lambdas are wrapped into one) and SourceInfo."""
    source, info = get_source(fn)
    if fn.__code__.co_name == "<lambda>":
        module, indent = _parse_fragment(source, fn)
        _shift_lines(module, info.first_line - 1)
        node = _lambda_as_function(_find_lambda(module, fn, info, indent), fn)
    else:
        node = _find_def(_parse_at(source, fn, info.first_line), fn)
    node.decorator_list = []
    key, user_line = anno.ANNOTATIONS, anno.USER_LINE
    if node.__dict__.get(key, {}).get(user_line, _NO_LINE) == node.lineno:
        return node, info     # _to_gast annotated the tree, and no line moved since
    for n in ast_util.walk(node):     # anno.setanno(..., replace=True), in line
        values = n.__dict__
        line = values.get("lineno", _NO_LINE)
        if line is not _NO_LINE:
            annos = values.get(key)
            if annos is None:
                values[key] = {user_line: line}
            else:
                annos[user_line] = line
    return node, info


_NO_LINE = object()


def _parse_at(source, fn, first_line):
    """The module parsed from `source`, numbered from `first_line` (blank
    lines in front cost less than renumbering the tree afterwards)."""
    try:
        return _parse_indented(source, first_line)
    except SyntaxError:
        module, _ = _parse_fragment(source, fn)
        _shift_lines(module, first_line - 1)
        return module


def _parse(text):
    """gast.parse(text), converted by `_to_gast`."""
    return _to_gast(parse_ast(text))


_last_parse = (None, None)        # (text, its ast.Module)


def parse_ast(text):
    """ast.parse(text). The last text's tree is remembered (and never
    edited): the check that a function's source is still its code
    (inspect_utils.source_changed) and its conversion read the same text,
    which is then parsed once."""
    global _last_parse
    last_text, tree = _last_parse
    if last_text != text:
        tree = ast.parse(text)
        _last_parse = (text, tree)
    return tree


def _parse_indented(source, first_line=1):
    """`source` parsed as it stands in its file, indentation and all: an
    indented block (a method, a nested def) is parsed as the body of an
    `if 1:` written on the line above, so columns and the text of
    multi-line strings stay the file's own."""
    if source[:1] not in (" ", "\t"):
        return _parse("\n" * (first_line - 1) + source)
    module = _parse("\n" * max(first_line - 2, 0) + "if 1:\n" + source)
    module.body = module.body[0].body
    if first_line < 2:
        _shift_lines(module, first_line - 2)
    return module


def _parse_fragment(source, fn):
    """(module, column of its text in the file) for the source lines of a
    lambda, which may be part of a larger statement."""
    try:
        return _parse_indented(source), 0
    except SyntaxError:
        pass
    # A lambda inside a statement that does not parse on its own (a `for`
    # header, a multi-line call): take the text from a `lambda` of the first
    # line on, across lines, trimming trailing text until it parses. The
    # longest piece that parses holds the whole lambda: the text after it in
    # the statement only closes or continues what encloses it. (Cutting to
    # the first line alone would turn `lambda: f(a,\n b)` into `lambda: f`.)
    first = source.splitlines()[0] if source.strip() else source
    for start in _lambda_starts(first, fn):
        piece = source[start:].rstrip()
        for end in range(len(piece), 0, -1):
            if piece[end - 1] in " \t\n\\":
                continue
            try:
                return _parse(f"({piece[:end]})"), start - 1
            except SyntaxError:
                continue
    raise NoSourceError(f"cannot parse the source of {fn.__qualname__!r}")


def _lambda_starts(line, fn):
    """Columns of `lambda` in `line`, the one `fn` was compiled from first
    (the last before its body's column: several lambdas may share a line)."""
    starts, at = [], line.find("lambda")
    while at >= 0:
        starts.append(at)
        at = line.find("lambda", at + 1)
    code = getattr(fn, "__code__", None)
    col = _body_column(code) if code is not None else None
    if col is not None:
        before = [s for s in starts if s < col]
        if before:
            starts.remove(before[-1])
            starts.insert(0, before[-1])
    return starts


def _shift_lines(tree, delta):
    for n in gast.walk(tree):
        if hasattr(n, "lineno") and n.lineno is not None:
            n.lineno += delta
            if getattr(n, "end_lineno", None) is not None:
                n.end_lineno += delta


def _find_def(module, fn):
    code = fn.__code__
    top = module.body[0] if module.body else None
    if isinstance(top, (gast.FunctionDef, gast.AsyncFunctionDef)) and top.name == code.co_name \
            and (top.lineno == code.co_firstlineno
                 or any(getattr(x, "lineno", -1) == code.co_firstlineno
                        for x in top.decorator_list)):
        return top
    defs = [n for n in gast.walk(module)
            if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef)) and n.name == code.co_name]
    if not defs:
        raise NoSourceError(f"cannot find the definition of {fn.__qualname__!r} in its source")
    for d in defs:
        if d.lineno == code.co_firstlineno or any(getattr(x, "lineno", -1) == code.co_firstlineno
                                                   for x in d.decorator_list):
            return d
    return defs[0]


def _find_lambda(module, fn, info, indent):
    code = fn.__code__
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [n for n in gast.walk(module) if isinstance(n, gast.Lambda)
             and [a.id for a in n.args.args + n.args.kwonlyargs] == names]
    on_line = [n for n in found if n.lineno == code.co_firstlineno] or found
    if not on_line:
        raise NoSourceError(f"cannot find the source of lambda at {info.filename}:{code.co_firstlineno}")
    if len(on_line) > 1:
        col = _body_column(code)
        for n in on_line:
            if col is not None and n.body.col_offset + indent == col:
                return n
        for n in on_line:          # the lambda whose text holds the code's first column
            end = n.end_col_offset if n.end_lineno == n.lineno else None
            if col is not None and n.col_offset + indent <= col and \
                    (end is None or col < end + indent):
                return n
    return on_line[0]


def _body_column(code):
    """Column where a lambda's body starts (in the file), from its code positions."""
    try:
        cols = [pos[2] for pos in code.co_positions()
                if pos[0] == code.co_firstlineno and pos[2] is not None and pos[3] != pos[2]]
    except AttributeError:
        return None
    return min(cols) if cols else None


def _lambda_as_function(lam, fn):
    """`lambda x: x + 1` -> `def <lambda>(x): return x + 1` (name kept for messages)."""
    ret = gast.Return(value=lam.body)
    gast.copy_location(ret, lam)
    node = gast.FunctionDef(name="lambda_", args=lam.args, body=[ret], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    gast.copy_location(node, lam)
    anno.setanno(node, "is_lambda", True)
    return node


# --- ast -> gast ----------------------------------------------------------------------
# gast's own converter is a generic NodeTransformer (a visit, a dict of
# fields and hasattr calls per node); `_to_gast` builds the same gast tree
# (same fields, same positions) with a table of classes and a few special
# cases, which are gast's for Python 3.8-3.11.

_GAST_CLASSES = {}
_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def _gast_class(cls):
    found = _GAST_CLASSES.get(cls)
    if found is None:
        found = _GAST_CLASSES[cls] = getattr(gast, cls.__name__, None)
    return found


def _copy_location(new, old):
    """ast.copy_location for a converted node (and its user line, see _to_gast)."""
    d = old.__dict__
    for attr in _POSITIONS:
        value = d.get(attr)
        if value is not None or (attr in d and attr.startswith("end_")):
            setattr(new, attr, value)
    values = new.__dict__
    if "lineno" in values:
        values[_ANNOTATIONS] = {_USER_LINE: values["lineno"]}
    return new


_ANNOTATIONS, _USER_LINE = anno.ANNOTATIONS, anno.USER_LINE
_CONTEXTS = ast_util.CONTEXTS


def _to_gast(node):
    """The gast tree of an ast tree (what gast.ast_to_gast returns), each
    node with a line annotated with it as its user line (anno.USER_LINE)."""
    if node.__class__ is list:
        out = []                     # a loop: one per list field of the tree
        for n in node:
            out.append(_to_gast(n) if isinstance(n, ast.AST) else n)
        return out
    cls = node.__class__
    if cls is ast.Name:              # the commonest node: made without gast's constructor
        ctx = _gast_class(node.ctx.__class__)
        new = gast.Name.__new__(gast.Name)
        # Its id and positions copied in C (see the general case below).
        new.__dict__ = d = node.__dict__.copy()
        d["ctx"] = _CONTEXTS[ctx]
        d["annotation"] = d["type_comment"] = None
        if "lineno" in d:
            d[_ANNOTATIONS] = {_USER_LINE: d["lineno"]}
        return new
    if cls is ast.arg:
        return _copy_location(_name(node.arg, _CONTEXTS[gast.Param], _convert(node.annotation),
                                    node.type_comment), node)
    if cls is ast.ExceptHandler and node.name:
        name = _name(node.name, _CONTEXTS[gast.Store], None, None)
        return _copy_location(gast.ExceptHandler(_convert(node.type), name, _to_gast(node.body)),
                              node)
    if cls is ast.FunctionDef or cls is ast.AsyncFunctionDef:
        new = _gast_class(cls)(node.name, _to_gast(node.args), _to_gast(node.body),
                               _to_gast(node.decorator_list), _convert(node.returns),
                               node.type_comment, [])
        return _copy_location(new, node)
    if cls is ast.ClassDef:
        new = gast.ClassDef(node.name, _to_gast(node.bases), _to_gast(node.keywords),
                            _to_gast(node.body), _to_gast(node.decorator_list), [])
        return _copy_location(new, node)
    target = _GAST_CLASSES.get(cls) or _gast_class(cls)
    if target is None:
        return None
    if target in _CONTEXTS:          # shared (see ast_util.CONTEXTS)
        return _CONTEXTS[target]
    new = target.__new__(target)
    # The fields and positions copied in C (a parsed node holds nothing
    # else), then the nodes among them converted (_convert, in line: this
    # runs for every field).
    d = node.__dict__.copy()
    fields = _NODE_FIELDS.get(cls)
    if fields is None:
        fields = _node_fields(cls, target)
    for field in fields:
        value = d.get(field)
        if value.__class__ is list or isinstance(value, ast.AST):
            d[field] = _to_gast(value)
    new.__dict__ = d
    if "lineno" in d:   # the user's line, as parse_function reads it (one walk fewer)
        d[_ANNOTATIONS] = {_USER_LINE: d["lineno"]}
    return new


# ast class -> its fields that may hold nodes or lists: the others hold a
# name, a number or a constant (by gast's field types), copied as they are.
_NODE_FIELDS = {}
_SCALAR_WORDS = frozenset(("str", "int", "object", "None", "bool"))


def _node_fields(cls, target):
    types = getattr(target, "_field_types", {})
    fields = []
    for field in cls._fields:
        kind = types.get(field)
        text = kind.__name__ if isinstance(kind, type) else repr(kind)
        if kind is None or "[" in text or not set(text.replace("|", " ").split()) <= _SCALAR_WORDS:
            fields.append(field)
    _NODE_FIELDS[cls] = fields = tuple(fields)
    return fields


def _name(id_, ctx, annotation, type_comment):
    """gast.Name(id_, ctx, annotation, type_comment), built as its fields."""
    new = gast.Name.__new__(gast.Name)
    new.__dict__ = {"id": id_, "ctx": ctx, "annotation": annotation,
                    "type_comment": type_comment}
    return new


def _convert(value):
    if isinstance(value, ast.AST) or value.__class__ is list:
        return _to_gast(value)
    return value
