"""The `autograph` command line: transpile a Python file without running it.

    autograph convert model.py -o model_converted.py   # rewrite every function
    autograph convert model.py --function step --diff  # show what would change
    autograph check model.py -v                        # what converts, and how
    autograph graph model.py::step --signature "float32[None],int32[]"

`convert` and `check` only parse the file; they never import or execute it.
`graph` imports the file (it must trace the function) and needs `runtime`.

Every problem with the input (missing file, directory, syntax error, non-UTF-8
or empty file, unknown function, unwritable output) is one line on stderr and
exit status 2, with no traceback and no partially written output.
"""

import argparse
import difflib
import os
import sys

from . import __version__
from . import cli_convert
from .cli_source import (CliError, find_functions, parse_source, read_source,
                         replace_spans, insert_imports, select_functions,
                         split_lines, write_atomic, check_writable)

__all__ = ["main", "build_parser", "convert_text"]

_PROG = "autograph"

_MAIN_EPILOG = """\
examples:
  autograph convert model.py -o model_ag.py     write the converted module
  autograph convert - < model.py                read stdin, write stdout
  autograph check model.py -v                   per-function status and report
  autograph graph model.py::step --signature "float32[None],int32[]"

Run `autograph COMMAND --help` for each command's options.
"""

_CONVERT_EPILOG = """\
examples:
  autograph convert model.py                      print the converted module
  autograph convert model.py -o model_ag.py       write it to a file
  autograph convert model.py --function step --function Net.call
  autograph convert model.py --diff               unified diff against the input
  cat model.py | autograph convert -              read standard input

Every top-level function and every method of a top-level class (or only the
named ones) is replaced by its converted form; all other text is kept byte for
byte. The output imports what it needs from `autograph` and runs on its own.
The input file is parsed, never imported or executed.
"""

_CHECK_EPILOG = """\
examples:
  autograph check model.py          one line per function
  autograph check model.py -v       plus the per-statement conversion report

Each function is "converted", "unchanged (no control flow)" or
"not convertible: REASON (file:line)". Exit status: 0 when every function
converts, 1 when one does not, 2 on bad input.
"""

_GRAPH_EPILOG = """\
examples:
  autograph graph model.py::step --signature "float32[None],int32[]"
  autograph graph model.py::step --signature "float32[2,3]" --format dot
  autograph graph model.py::step --signature "int32[]" --format svg -o step.svg

A signature is a comma-separated list of DTYPE[DIMS]: `int32[]` is a scalar,
`float32[None,3]` a matrix with an unknown first dimension, `float32[...]` a
tensor of unknown rank. FUNC is a top-level function, or Class.name for a
staticmethod or classmethod (a plain method needs an instance: trace a
function that makes one). Unlike `convert` and `check`, `graph` imports
FILE.py (tracing runs the function), so module-level code in it runs.
"""


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def build_parser():
    """The argparse parser for `autograph` and its three subcommands."""
    parser = argparse.ArgumentParser(
        prog=_PROG, formatter_class=_formatter, epilog=_MAIN_EPILOG,
        description="Transpile Python control flow into autograph's functional form.")
    parser.add_argument("--version", action="version", version=f"{_PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    convert = sub.add_parser("convert", formatter_class=_formatter, epilog=_CONVERT_EPILOG,
                             help="write FILE.py with its functions converted",
                             description="Write FILE.py with its functions converted.")
    convert.add_argument("file", metavar="FILE.py", help="the module to convert ('-' for stdin)")
    convert.add_argument("-o", "--output", metavar="OUT.py",
                         help="write here (atomically) instead of standard output")
    convert.add_argument("--function", action="append", metavar="NAME", default=[],
                         help="convert only NAME (`f`, `Class.method` or `Class`); repeatable")
    convert.add_argument("--diff", action="store_true",
                         help="print a unified diff against the input instead of the module")
    convert.set_defaults(handler=run_convert)

    check = sub.add_parser("check", formatter_class=_formatter, epilog=_CHECK_EPILOG,
                           help="report which functions convert, and why not",
                           description="Report which functions of FILE.py convert.")
    check.add_argument("file", metavar="FILE.py", help="the module to check ('-' for stdin)")
    check.add_argument("--function", action="append", metavar="NAME", default=[],
                       help="check only NAME; repeatable")
    check.add_argument("-v", "--verbose", action="store_true",
                       help="add the per-statement conversion report")
    check.set_defaults(handler=run_check)

    graph = sub.add_parser("graph", formatter_class=_formatter, epilog=_GRAPH_EPILOG,
                           help="trace FILE.py::FUNC and print its graph",
                           description="Trace FILE.py::FUNC with input specs; print the graph.")
    graph.add_argument("target", metavar="FILE.py::FUNC", help="the file and function to trace")
    graph.add_argument("--signature", required=True, metavar="SPECS",
                       help='input specs, e.g. "float32[None],int32[]"')
    graph.add_argument("--format", choices=("text", "dot", "svg"), default="text",
                       help="text (default), Graphviz dot, or svg (needs `dot`)")
    graph.add_argument("-o", "--output", metavar="OUT",
                       help="write here (atomically) instead of standard output")
    graph.set_defaults(handler=run_graph)
    return parser


def _display(path):
    return "<stdin>" if path == "-" else path


def _load(path, names):
    """Read and parse `path`; return (text, tree, lines, selected spans)."""
    text = read_source(path)
    display = _display(path)
    tree = parse_source(text, display)
    lines = split_lines(text)
    spans = select_functions(find_functions(tree, lines), names, display)
    return text, tree, lines, spans


def convert_text(text, tree, lines, spans, display, warn=None):
    """The converted module text and the per-span results.

    Functions that cannot be converted are kept verbatim; `warn(message)` is
    called once for each.
    """
    module = text
    results = [(span, cli_convert.convert_span(span, lines, display, module=module))
               for span in spans]
    replacements = [(span, r.text) for span, r in results if r.status == "converted"]
    for span, r in results:
        if r.status == "error" and warn is not None:
            warn(f"{display}:{span.def_line}: {span.qualname} kept as is: {r.message}")
    new_lines = replace_spans(lines, replacements)
    if replacements:
        new_lines = insert_imports(new_lines, tree, cli_convert.import_lines())
    return "".join(new_lines), results


def run_convert(args):
    _, tree, lines, spans = _load(args.file, args.function)
    if args.output:
        check_writable(args.output)
    display = _display(args.file)
    warnings = []
    new_text, results = convert_text("".join(lines), tree, lines, spans, display,
                                     warn=warnings.append)
    if args.function:
        failed = [(s, r) for s, r in results if r.status == "error"]
        if failed:
            span, r = failed[0]
            raise CliError(f"{display}:{span.def_line}: {span.qualname}: not convertible: "
                           f"{r.message}", code=1)
    if args.diff:
        new_text = "".join(difflib.unified_diff(
            lines, split_lines(new_text), fromfile=display, tofile=f"{display} (converted)"))
    _emit(new_text, args.output)
    for w in warnings:
        print(f"{_PROG}: warning: {w}", file=sys.stderr)
    return 0


def _emit(text, output):
    if output:
        write_atomic(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def run_check(args):
    _, tree, lines, spans = _load(args.file, args.function)
    display = _display(args.file)
    module = "".join(lines)
    status = 0
    for span in spans:
        r = cli_convert.convert_span(span, lines, display, want_report=args.verbose,
                                     module=module)
        print(f"{display}:{span.def_line}: {span.qualname}: {r.describe()}")
        if r.status == "error":
            status = 1
        if args.verbose:
            for line in r.report:
                print(f"    {line}")
    if not spans:
        print(f"{display}: no top-level functions or methods to convert")
    return status


def run_graph(args):
    from . import cli_graph  # imports runtime lazily; convert/check never need it
    if args.output:
        check_writable(args.output)
    text = cli_graph.render(args.target, args.signature, args.format)
    _emit(text, args.output)
    return 0


def main(argv=None):
    """Entry point of the `autograph` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except CliError as e:
        print(f"{_PROG}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"{_PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except Exception as e:  # never a traceback; AUTOGRAPH_CLI_TRACEBACK=1 shows it
        if os.environ.get("AUTOGRAPH_CLI_TRACEBACK"):
            raise
        print(f"{_PROG}: internal error: {type(e).__name__}: {e} "
              f"(set AUTOGRAPH_CLI_TRACEBACK=1 for details)", file=sys.stderr)
        return 2


def _silence_stdout():
    """After a closed pipe (`autograph convert x.py | head`), exit quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
