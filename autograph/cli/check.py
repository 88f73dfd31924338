"""`autograph check`: one line per function saying whether it converts, and why not.

    autograph check model.py          model.py:10: clip: converted
    autograph check model.py -v       plus the per-statement conversion report

The exit status is 1 when a selected function is not convertible. A file that
is the output of `autograph convert` says so: its converted functions are
"already converted", and a last line tells that converting it again changes
nothing.
"""

from .args import PROG
from .convert import convert_span
from .source import display_name, load

__all__ = ["run_check"]


def run_check(args):
    """`autograph check FILE.py [--function NAME ...] [-v]`."""
    _, tree, lines, spans = load(args.file, args.function)
    display = display_name(args.file)
    module = "".join(lines)
    status = 0
    statuses = set()
    for span in spans:
        r = convert_span(span, lines, display, want_report=args.verbose, module=module)
        print(f"{display}:{span.def_line}: {span.qualname}: {r.describe()}")
        statuses.add(r.status)
        if r.status == "error":
            status = 1
        if args.verbose:
            for line in r.report:
                print(f"    {line}")
    if "already" in statuses and "converted" not in statuses:
        print(f"{display}: already converted by `{PROG} convert`; converting it again "
              "changes nothing")
    if not spans:
        print(f"{display}: no top-level functions or methods to convert")
    return status
