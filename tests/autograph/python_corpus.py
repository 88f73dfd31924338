"""A corpus of 300+ small programs on plain Python values, each using
if/elif/else, while and for (break, continue, else clauses, early returns)
together with closures, containers, objects, classes, `del`,
try/except/finally, `with`, comprehensions, walrus, `global` reads,
`locals()`/`eval()`, printing and raised exceptions. Converting any of them
must change nothing: results, printed output, exception types and the
arguments afterwards (test_python_corpus.py checks this).

The programs live in tests/autograph/corpus/, one file per construct:

    closures.py  containers.py  objects.py  dels.py  exceptions.py
    withs.py  comprehensions.py  misc.py  mixed.py

`PROGRAMS` lists (function, input tuples, xfail) in file order.
"""

from tests.autograph.corpus import (  # noqa: F401 - imported to register
    closures,
    comprehensions,
    containers,
    dels,
    exceptions,
    misc,
    mixed,
    objects,
    withs,
)
from tests.autograph.corpus.registry import CORPUS

PROGRAMS = list(CORPUS)
