"""Module: variable and submodule tracking like tf.Module."""

import pytest

import runtime
from runtime._src.function.module import Module


def _variable(name, trainable=True):
    return runtime.Variable(1.0, name=name, trainable=trainable)


class Dense(Module):
    def __init__(self, tag, name=None):
        super().__init__(name=name)
        self.w = _variable(f"{tag}_w")
        self.b = _variable(f"{tag}_b", trainable=False)


class Net(Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense("l0"), Dense("l1")]
        self.head = {"out": Dense("out")}
        self.scale = _variable("scale")
        self.config = {"units": 3}
        self.alias = self.scale                              # counted once


def names(variables):
    return [v.name.split(":")[0] for v in variables]


def test_variables_are_found_recursively_in_sorted_attribute_order():
    net = Net()
    # "alias" sorts first and is the same object as "scale": found there, once.
    assert names(net.variables) == ["scale", "out_b", "out_w", "l0_b", "l0_w", "l1_b", "l1_w"]


def test_trainable_and_non_trainable():
    net = Net()
    assert names(net.trainable_variables) == ["scale", "out_w", "l0_w", "l1_w"]
    assert names(net.non_trainable_variables) == ["out_b", "l0_b", "l1_b"]


def test_submodules_and_names():
    net = Net()
    subs = net.submodules
    assert [type(m).__name__ for m in subs] == ["Dense", "Dense", "Dense"]
    assert subs[0] is net.head["out"] and subs[1] is net.layers[0]
    assert net.name == "net" and Dense("x", name="first").name == "first"
    # TensorFlow 2.21: tf.Module keeps object's repr, "<__main__.Net object at 0x...>"
    assert repr(net) == f"<{__name__}.Net object at {hex(id(net))}>"


def test_paths_of_tracked_objects():
    paths = [p for p, _ in Net()._flatten(lambda o: isinstance(o, Module), with_path=True)]
    assert paths == ["head['out']", "layers[0]", "layers[1]"]


def test_cycles_and_shared_submodules_are_visited_once():
    a = Dense("a")
    net = Module()
    net.first = a
    net.second = [a, {"again": a}]
    a.parent = net                                           # cycle back to the root
    assert net.submodules == (a,)
    assert len(net.variables) == 2


def test_invalid_name_is_a_clear_error():
    with pytest.raises(ValueError, match="'bad name' is not a valid module name"):
        Module(name="bad name")
