"""Deciding what is user code.

User functions are converted; builtins, classes, and functions of libraries
(the standard library, installed packages, numpy, runtime, autograph itself)
are called as they are.

    is_user_function(my_helper)    # True
    is_user_function(np.sum)       # False

And whether the source found for a function is still the code it runs: after
the file is edited on disk, `inspect` finds the new text, which is not what
the imported function does.

    source_changed(f)              # None, or "source changed on disk since import"
"""

import __future__
import ast
import builtins
import dis
import os
import sys
import sysconfig
import types
import weakref

_LIBRARY_ROOTS = ("numpy", "runtime", "autograph", "gast", "pytest", "_pytest")
_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep

DO_NOT_CONVERT = "__autograph_do_not_convert__"


def is_library_module(name):
    """True for modules of the standard library, installed packages, and the
    project's own packages."""
    if not name:
        return False
    root = name.split(".")[0]
    if root in _LIBRARY_ROOTS or root in sys.builtin_module_names:
        return True
    filename = getattr(sys.modules.get(name), "__file__", None)
    if filename is None:
        return False          # __main__ in a REPL, exec'd code: user code
    real = os.path.realpath(filename)
    if "site-packages" in real or "dist-packages" in real:
        return True
    return real.startswith(_STDLIB)


def unwrap_callable(fn):
    """The plain function behind a bound method (and the bound self), or None."""
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return fn.__func__, fn.__self__
    if isinstance(fn, types.FunctionType):
        return fn, None
    return None, None


def is_user_function(fn):
    """True when `fn` (a function or bound method) should be converted."""
    if getattr(fn, DO_NOT_CONVERT, False):
        return False
    func, _ = unwrap_callable(fn)
    if func is None or getattr(func, DO_NOT_CONVERT, False):
        return False
    if func.__code__.co_filename.startswith("<autograph"):
        return False          # already converted
    return not is_library_module(func.__module__)


def is_builtin(fn):
    return isinstance(fn, (types.BuiltinFunctionType, types.BuiltinMethodType)) or \
        (getattr(builtins, getattr(fn, "__name__", ""), None) is fn)


def describe(fn):
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


SOURCE_CHANGED = "source changed on disk since import"
_CHECKED = weakref.WeakKeyDictionary()    # code -> {its file: None or SOURCE_CHANGED}
# Instructions that differ between a def compiled in its module and the same
# text compiled alone (cells, closures, the NULL of a call), or carry no meaning.
_IGNORED_OPS = frozenset({"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "MAKE_CELL",
                          "COPY_FREE_VARS", "PUSH_NULL", "PRECALL"})
# pytest rewrites the asserts of test modules before compiling them; such a
# module has this global.
_REWRITTEN_MARK = "@py_builtins"
_JUMPS = frozenset(dis.opname[op] for op in dis.hasjrel + dis.hasjabs)
_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


def source_changed(fn, get_source, parse=ast.parse):
    """SOURCE_CHANGED when the source `get_source(fn)` finds (its file edited
    since import) no longer compiles to `fn`'s code; else None (also when
    that cannot be told, e.g. a lambda inside a larger expression).
    `parse(text)`: ast.parse, or one that shares its tree with the
    conversion that follows (parser.parse_ast: the text is parsed once).

    The comparison ignores what compiling the def alone changes (closure
    cells become globals) and line numbers; it sees any change of names,
    constants, operators or statements. Memoized per code object.
    """
    code = fn.__code__
    verdicts = _CHECKED.setdefault(code, {})     # code compares by content only
    if code.co_filename not in verdicts:
        verdicts[code.co_filename] = _compare(fn, code, get_source, parse)
    return verdicts[code.co_filename]


def _compare(fn, code, get_source, parse):
    if _REWRITTEN_MARK in getattr(fn, "__globals__", {}):
        return None          # compiled from a rewritten tree: no source compiles to it
    try:
        source, info = get_source(fn)
        found = _compile_alone(_as_written(source, info), info.first_line, fn, code, parse)
    except Exception:  # noqa: BLE001 - no verdict; conversion reports source problems
        return None
    candidates = [c for c in _code_objects(found) if c.co_name == code.co_name]
    if not candidates:
        return None
    if any(c == code for c in candidates):
        return None          # the same code, line for line (the common case, and fast)
    mine = _fingerprint(code)
    return None if any(_fingerprint(c) == mine for c in candidates) else SOURCE_CHANGED


def _as_written(source, info):
    """The lines of `source` as they are in the file, with their indentation
    (dedenting would change multi-line strings)."""
    count = len(source.splitlines())
    lines = info.lines[info.first_line - 1:info.first_line - 1 + count]
    return "".join(lines) if len(lines) == count else source


def _compile_alone(source, first_line, fn, code, parse=ast.parse):
    """`source` compiled as a module, at its line in the file; an indented def
    under a header (its class for a method, so private names are mangled as
    they were). A def at the left margin is compiled from `parse`'s tree of
    the text the parser reads too (see parser.parse_ast)."""
    header = ""
    if source[:1] in (" ", "\t"):
        parts = getattr(fn, "__qualname__", "").split(".")
        if len(parts) >= 2 and parts[-2] != "<locals>" and parts[-2].isidentifier():
            header = f"class {parts[-2]}:\n"
        else:
            header = "if True:\n"
    padding = "\n" * max(first_line - 1 - (1 if header else 0), 0)
    imported = _imported_modules(fn, code)
    flags = code.co_flags & _FUTURE_FLAGS
    if not header and not flags & _PARSE_FLAGS:
        tree = parse(padding + source)
        if padding and imported:
            tree = ast.Module(body=[_import_line(imported)] + tree.body, type_ignores=[])
        return compile(tree, code.co_filename, "exec", flags=flags, dont_inherit=True)
    if padding and imported:
        # Python compiles `module.f(x)` differently when `module` was imported
        # in the same file; declare those names (never run) to compile alike.
        padding = f"import {', '.join(imported)}" + padding
    return compile(padding + header + source, code.co_filename, "exec",
                   flags=flags, dont_inherit=True)


# Future features that change how text parses (not only how it compiles).
_PARSE_FLAGS = __future__.barry_as_FLUFL.compiler_flag


def _import_line(modules):
    """`import a, b` on line 1 (where the padding leaves room for it)."""
    node = ast.Import(names=[ast.alias(name=m) for m in modules])
    return ast.fix_missing_locations(ast.copy_location(node, ast.Pass(
        lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)))


def _imported_modules(fn, code):
    """Names `code` (or its nested code) uses that are modules in its globals."""
    names = set(code.co_names)
    for inner in _code_objects(code):
        names.update(inner.co_names)
    space = getattr(fn, "__globals__", {})
    return sorted(n for n in names if isinstance(space.get(n), types.ModuleType))


def _code_objects(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _code_objects(const)


def _fingerprint(code):
    """The instructions of `code` (and its nested code), without line numbers,
    jump offsets, or the difference between local, cell, free and global names."""
    out = []
    closures = False
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op in _IGNORED_OPS:
            continue
        if op == "LOAD_CLOSURE":            # the closure tuple of a nested def
            closures = True
            continue
        if op == "BUILD_TUPLE" and closures:
            closures = False
            continue
        closures = False
        if op == "STORE_NAME" and ins.argval == "__qualname__" and out:
            out[-1] = ("QUALNAME",)         # a class body's dotted name depends on scope
        if op.startswith(("LOAD_", "STORE_", "DELETE_")) and isinstance(ins.argval, str) \
                and op.split("_")[1] in ("FAST", "DEREF", "GLOBAL", "NAME", "CLASSDEREF"):
            out.append((op.split("_")[0], ins.argval))
        elif op == "LOAD_METHOD":           # LOAD_ATTR when the module imports the name
            out.append(("LOAD_ATTR", ins.argval))
        elif op in _JUMPS:
            out.append((op,))
        elif op in ("MAKE_FUNCTION", "SET_FUNCTION_ATTRIBUTE"):   # 3.13: flags set apart
            out.append((op, (ins.arg or 0) & ~0x08))
        elif isinstance(ins.argval, types.CodeType):
            out.append(("CODE", ins.argval.co_name, _fingerprint(ins.argval)))
        elif op == "LOAD_CONST" or op == "KW_NAMES":
            out.append((op, _constant(ins.argval)))
        else:
            out.append((op, ins.argval))
    return (code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount,
            code.co_flags & 0x2ac, tuple(out))


def _constant(value):
    """A comparable form of a constant: by type and repr (so 1, 1.0, True and
    nan compare as written), sets in sorted order (their repr depends on the
    process's hash seed)."""
    if isinstance(value, (tuple, frozenset)):
        items = [_constant(v) for v in value]
        return (type(value).__name__, tuple(sorted(items) if isinstance(value, frozenset)
                                            else items))
    return (type(value).__name__, repr(value))


__all__ = ["is_user_function", "is_library_module", "unwrap_callable", "is_builtin",
           "describe", "DO_NOT_CONVERT", "source_changed", "SOURCE_CHANGED"]
