"""The operators converted code calls, imported by generated code as `ag__`:

    from autograph import operators as ag__

Each runs plain Python semantics unless a value belongs to a registered
backend (see `autograph.backend`). Builtin overloads carry the builtin's name
(`ag__.len`, `ag__.range`, ...).
"""

from .calls import call
from .control_flow import for_stmt, if_stmt, match_subject, while_stmt
from .data_structures import list_append, list_extend
from .exceptions import assert_stmt
from .logical import and_, if_exp, not_, or_
from .staging import outer_writes
from .py_builtins import (abs_, enumerate_, float_, int_, len_, max_, min_, print_, range_,
                          sum_, zip_)
from .variables import Undefined, deleted, ld, peek, put_attr, put_item, user_locals

# Builtin overloads under the builtin's own name, as generated code uses them.
len = len_
range = range_
int = int_
float = float_
abs = abs_
min = min_
max = max_
sum = sum_
enumerate = enumerate_
zip = zip_
print = print_

__all__ = ["call", "if_stmt", "while_stmt", "for_stmt", "match_subject", "and_", "or_", "not_", "if_exp",
           "assert_stmt", "list_append", "list_extend", "outer_writes", "Undefined", "ld", "deleted", "peek", "put_item", "put_attr", "user_locals", "len", "range", "int", "float",
           "abs", "min", "max", "sum", "enumerate", "zip", "print"]
