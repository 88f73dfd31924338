"""tools/tape_diff.py's tape programs, one module per family (base.py: the
registry, `program` and `gradient_of`). Importing the package registers every
program in `PROGRAMS`, in this order."""

from tape_diff_programs import (  # noqa: F401 - imported to register, in this order
    watching,
    recording,
    variables,
    control_flow,
    api_corners,
    custom_gradients,
)
from tape_diff_programs.base import PROGRAMS

__all__ = ["PROGRAMS"]
