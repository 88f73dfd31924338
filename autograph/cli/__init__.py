"""The `autograph` command line: transpile a Python file without running it.

    autograph convert model.py -o model_converted.py   # rewrite every function
    autograph check model.py -v                        # what converts, and how
    autograph graph model.py::step --signature "float32[None],int32[]"

One module per concern, top to bottom: `main` (entry point, error handling)
uses `args` (the argparse parser) and one module per command (`convert`,
`check`, `graph`); those use `source` (read, parse, find and replace function
spans, write atomically) and `transpiler` (the bridge to
`autograph.convert_source`). `graph` is the only command that imports
`runtime`, and only when it runs.
"""

from .convert import convert_text
from .main import build_parser, main

__all__ = ["main", "build_parser", "convert_text"]
