"""The autograph corpus: 450+ small programs, one file per construct, in one
registry (registry.py says how a program is registered).

    constructs.py      every construct the transpiler handles, nested; most
                       also run on tensors (`tensor=True`)
    closures.py  containers.py  objects.py  dels.py  exceptions.py
    withs.py  comprehensions.py  misc.py  mixed.py
                       programs on plain Python values: if/elif/else, while
                       and for (break, continue, else clauses, early returns)
                       with closures, containers, objects, classes, `del`,
                       try/except/finally, `with`, comprehensions, walrus,
                       `global` reads, `locals()`/`eval()`, printing and
                       raised exceptions

Converting any of them must change nothing on Python values: results, printed
output, exception types and the arguments afterwards (test_python_corpus.py).
The `tensor=True` ones must also give the same values on tensors
(test_equivalence.py, and the ONNX, JAX and XLA corpus checks).

`CORPUS` lists every `Case(fn, inputs, tensor, xfail, module)` in file order;
`tensor_cases()` those also run on tensors, `cases_of(module)` those one
file registers.
"""

from tests.autograph.corpus import (  # noqa: F401 - imported to register
    constructs,
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
from tests.autograph.corpus.registry import CORPUS, Case

__all__ = ["CORPUS", "Case", "tensor_cases", "cases_of"]


def tensor_cases():
    """The programs registered with `tensor=True`, in file order."""
    return [c for c in CORPUS if c.tensor]


def cases_of(module):
    """The programs the corpus file `module` (one imported above) registers."""
    return [c for c in CORPUS if c.module == module.__name__]
