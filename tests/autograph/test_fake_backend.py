"""The operators dispatch to whatever backend owns a value: a fake backend
records what converted code asks of it (without `runtime`)."""

import pytest

import autograph
from autograph import backend as ag_backend


class Fake:
    """A 'tensor' holding a Python value; comparisons give Fake booleans."""

    def __init__(self, value):
        self.value = value

    def __gt__(self, other):
        return Fake(self.value > getattr(other, "value", other))

    def __lt__(self, other):
        return Fake(self.value < getattr(other, "value", other))

    def __add__(self, other):
        return Fake(self.value + getattr(other, "value", other))

    __radd__ = __add__


class FakeBackend(ag_backend.Backend):
    def __init__(self):
        self.calls = []

    def is_tensor(self, value):
        return isinstance(value, Fake)

    def cond(self, pred, true_fn, false_fn, names):
        self.calls.append(("cond", names))
        t, f = true_fn(), false_fn()          # both branches are traced, true first
        return t if pred.value else f

    def while_loop(self, cond_fn, body_fn, loop_vars, names):
        self.calls.append(("while_loop", names))
        while cond_fn(*loop_vars).value:
            loop_vars = body_fn(*loop_vars)
        return loop_vars

    def logical_not(self, x):
        return Fake(not x.value)


@pytest.fixture
def fake():
    b = FakeBackend()
    ag_backend.register_backend(b)
    yield b
    ag_backend.unregister_backend(b)


def branch(x):
    if x > 0:
        y = x + 1
    else:
        y = 0
    return y


def loop(n):
    i = 0
    s = 0
    while i < n:
        s = s + i
        i = i + 1
    return s


def one_sided(x):
    if x > 0:
        z = 1
    return z


def test_if_dispatches_to_backend_cond_with_names(fake):
    result = autograph.to_graph(branch)(Fake(2))
    assert result.value == 3
    assert fake.calls == [("cond", ("y",))]


def test_while_dispatches_to_backend_while_loop_with_names(fake):
    result = autograph.to_graph(loop)(Fake(4))
    assert result == 6             # the fake loop runs Python on the Python-valued vars
    assert fake.calls[0] == ("while_loop", ("i", "s"))


def test_python_values_never_reach_the_backend(fake):
    assert autograph.to_graph(branch)(2) == 3 and autograph.to_graph(loop)(4) == 6
    assert fake.calls == []


def test_name_defined_in_one_branch_names_it_and_the_line(fake):
    with pytest.raises(ValueError, match=r"'z' must also be initialized in the else branch.*"
                                         r"test_fake_backend.py:\d+: if x > 0:"):
        autograph.to_graph(one_sided)(Fake(1))


def test_backend_of_ignores_python_values(fake):
    assert ag_backend.backend_of(1, "a", [Fake(1)]) is None
    assert ag_backend.backend_of(1, Fake(1)) is fake
    with pytest.raises(TypeError, match="expected an autograph.backend.Backend"):
        ag_backend.register_backend(object())
