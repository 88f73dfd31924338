"""`autograph` / `python -m autograph`: the entry point, wiring the commands.

    autograph convert model.py -o model_converted.py   # rewrite every function
    autograph convert model.py --function step --diff  # show what would change
    autograph check model.py -v                        # what converts, and how
    autograph graph model.py::step --signature "float32[None],int32[]"
    autograph export model.py::step --signature "float32[None,3]" -o step.onnx

`convert` and `check` only parse the file; they never import or execute it.
`graph` and `export` import the file (they trace the function) and need
`runtime` (`export` also the onnx extra).

Every problem with the input (missing file, directory, syntax error, non-UTF-8
or empty file, unknown function, unwritable output) is one line on stderr and
exit status 2, with no traceback and no partially written output.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .args import PROG, build_parser as _build_parser
from .check import run_check
from .convert import run_convert
from .export import run_export
from .graph import run_graph
from .source import CliError

__all__ = ["main", "build_parser"]

HANDLERS = {"convert": run_convert, "check": run_check, "graph": run_graph,
            "export": run_export}


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for `autograph`, each command wired to its handler."""
    return _build_parser(HANDLERS)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `autograph` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except CliError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except Exception as e:  # never a traceback; AUTOGRAPH_CLI_TRACEBACK=1 shows it
        if os.environ.get("AUTOGRAPH_CLI_TRACEBACK"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e} "
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
