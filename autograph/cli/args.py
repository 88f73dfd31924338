"""Argument parsing for the `autograph` command line: the parser, its three
subcommands (`convert`, `check`, `graph`) and their help texts.

    parser = build_parser({"convert": run_convert, "check": run_check, "graph": run_graph})
    args = parser.parse_args(["check", "model.py", "-v"])
    args.handler(args)

The handlers are passed in (see `autograph.cli.main`), so this module knows
the command line's shape and nothing of what the commands do.
"""

import argparse

from .. import __version__

__all__ = ["PROG", "build_parser"]

PROG = "autograph"

_MAIN_EPILOG = """\
examples:
  autograph convert model.py -o model_ag.py     write the converted module
  autograph convert - < model.py                read stdin, write stdout
  autograph check model.py -v                   per-function status and report
  autograph graph model.py::step --signature "float32[None],int32[]"
  autograph export model.py::step --signature "float32[None,3]" -o step.onnx

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
  autograph graph model.py::step --signature "int32[]" --format html -o step.html

A signature is a comma-separated list of DTYPE[DIMS]: `int32[]` is a scalar,
`float32[None,3]` a matrix with an unknown first dimension, `float32[...]` a
tensor of unknown rank. FUNC is a top-level function, or Class.name for a
staticmethod or classmethod (a plain method needs an instance: trace a
function that makes one). Unlike `convert` and `check`, `graph` imports
FILE.py (tracing runs the function), so module-level code in it runs; what
it prints goes to standard error, so standard output holds the graph alone.
"""


_EXPORT_EPILOG = """\
examples:
  autograph export model.py::predict --signature "float32[None,3]" -o model.onnx
  autograph export model.py::step --signature "int32[]" --opset 13 --verify -o step.onnx

The SPECS are those of `graph`. Needs the onnx extra (pip install -e '.[onnx]');
--verify also needs onnxruntime. An op that cannot leave Python (py_function,
print, asserts, variable writes) is an error naming it and the line that made it.
"""


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def build_parser(handlers):
    """The argparse parser for `autograph` and its subcommands; `handlers`
    maps each command name to the function that runs it."""
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=_formatter, epilog=_MAIN_EPILOG,
        description="Transpile Python control flow into autograph's functional form.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
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
    convert.set_defaults(handler=handlers["convert"])

    check = sub.add_parser("check", formatter_class=_formatter, epilog=_CHECK_EPILOG,
                           help="report which functions convert, and why not",
                           description="Report which functions of FILE.py convert.")
    check.add_argument("file", metavar="FILE.py", help="the module to check ('-' for stdin)")
    check.add_argument("--function", action="append", metavar="NAME", default=[],
                       help="check only NAME; repeatable")
    check.add_argument("-v", "--verbose", action="store_true",
                       help="add the per-statement conversion report")
    check.set_defaults(handler=handlers["check"])

    graph = sub.add_parser("graph", formatter_class=_formatter, epilog=_GRAPH_EPILOG,
                           help="trace FILE.py::FUNC and print its graph",
                           description="Trace FILE.py::FUNC with input specs; print the graph.")
    graph.add_argument("target", metavar="FILE.py::FUNC", help="the file and function to trace")
    graph.add_argument("--signature", required=True, metavar="SPECS",
                       help='input specs, e.g. "float32[None],int32[]"')
    graph.add_argument("--format", choices=("text", "dot", "svg", "html"), default="text",
                       help="text (default), Graphviz dot, svg (needs Graphviz's `dot`), "
                            "or html (a self-contained page)")
    graph.add_argument("-o", "--output", metavar="OUT",
                       help="write here (atomically) instead of standard output")
    graph.set_defaults(handler=handlers["graph"])

    export = sub.add_parser("export", formatter_class=_formatter, epilog=_EXPORT_EPILOG,
                            help="trace FILE.py::FUNC and write it as an ONNX model",
                            description="Trace FILE.py::FUNC with input specs; write an "
                                        "ONNX model.")
    export.add_argument("target", metavar="FILE.py::FUNC", help="the file and function to export")
    export.add_argument("--signature", required=True, metavar="SPECS",
                        help='input specs, e.g. "float32[None,3]" (None stays symbolic)')
    export.add_argument("--opset", type=int, metavar="N",
                        help="the ONNX opset (13..21, default 17)")
    export.add_argument("--verify", action="store_true",
                        help="run the model in ONNX Runtime on random inputs and compare "
                             "with our executor before writing it")
    export.add_argument("-o", "--output", required=True, metavar="OUT.onnx",
                        help="where to write the model (atomically)")
    export.set_defaults(handler=handlers["export"])
    return parser
