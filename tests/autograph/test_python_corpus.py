"""Converted code on plain Python values is exactly the original, for every
program of the corpus (tests/autograph/corpus/): same result, printed
output, exception type and arguments afterwards, for each of its inputs
(equivalence.check).

Programs the converter gets wrong today carry `xfail` in their registration
and run under a strict xfail: one that starts passing fails here until its
mark is removed."""

import pytest

from tests.autograph.equivalence import check
from tests.autograph.corpus import CORPUS


def _id(fn):
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"


def _params():
    params = []
    for fn, inputs, _, xfail, _ in CORPUS:
        marks = []
        if xfail:
            reason = xfail if isinstance(xfail, str) else "converter differs from Python"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        params.append(pytest.param(fn, inputs, marks=marks, id=_id(fn)))
    return params


def test_corpus_has_at_least_450_distinct_programs():
    names = {_id(case.fn) for case in CORPUS}
    assert len(names) == len(CORPUS) >= 450


@pytest.mark.parametrize("fn, inputs", _params())
def test_converted_equals_original_on_python_values(fn, inputs):
    for args in inputs:
        check(fn, args)
