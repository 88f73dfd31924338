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
    """Traces both branches of an if in `order`, then asks for their
    outputs (the contract of Backend.cond), and picks by the value."""

    def __init__(self, order=(True, False)):
        self.calls = []
        self.order = order

    def is_tensor(self, value):
        return isinstance(value, Fake)

    def cond(self, pred, branches, names):
        self.calls.append(("cond", names))
        for which in self.order:
            branches.trace(which)
        out = {which: branches.outputs(which) for which in self.order}
        return out[bool(pred.value)]

    def while_loop(self, cond_fn, body_fn, loop_vars, names):
        self.calls.append(("while_loop", names))
        while cond_fn(*loop_vars).value:
            loop_vars = body_fn(*loop_vars)
        return loop_vars

    def logical_not(self, x):
        return Fake(not x.value)


@pytest.fixture(params=[(True, False), (False, True)], ids=["if-first", "else-first"])
def fake(request):
    b = FakeBackend(request.param)
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


def traced_once(x, log):
    if x > 0:
        print("if branch")
        y = x + 1
    else:
        print("else branch")
        y = x
    return y


def test_each_branch_runs_once_in_the_backends_order(fake, capsys):
    result = autograph.to_graph(traced_once)(Fake(2), [])
    assert result.value == 3
    printed = capsys.readouterr().out.split("\n")[:2]
    assert printed == [("if branch" if w else "else branch") for w in fake.order]


def early_return(x):
    if x > 0:
        return x + 1
    y = x + 5
    return y


@pytest.mark.parametrize("value, expected", [(2, 3), (-2, 3)])
def test_a_return_in_one_branch_gets_a_placeholder_in_the_other(fake, value, expected):
    assert autograph.to_graph(early_return)(Fake(value)).value == expected


class Holder:
    pass


def keeps_or_changes(x, h):
    if x > 0:
        h = Holder()
    return h


def test_an_object_one_branch_replaces_is_an_output_in_either_order(fake):
    """One branch keeps `h`, the other binds a new object: both are outputs
    (the backend decides whether it can choose between them; the fake can)."""
    h = Holder()
    assert autograph.to_graph(keeps_or_changes)(Fake(-1), h) is h
    new = autograph.to_graph(keeps_or_changes)(Fake(1), h)
    assert isinstance(new, Holder) and new is not h


def test_static_truth_runs_one_branch_as_python(fake, capsys, monkeypatch):
    monkeypatch.setattr(FakeBackend, "static_truth", lambda self, pred: bool(pred.value),
                        raising=False)
    assert autograph.to_graph(traced_once)(Fake(-1), []).value == -1
    assert capsys.readouterr().out == "else branch\n"
    assert fake.calls == []
