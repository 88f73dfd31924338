"""Which objects a checkpoint saves: the object graph, as TensorFlow tracks it.

Starting from the `Checkpoint`, each object has named children:

    Checkpoint          its keyword arguments by name (and `save_counter`)
    Variable            none: it holds a value
    keras Layer/Model   its weights, by their short name (`kernel`, `bias`), then
                        the layers, Variables, optimizers, lists and dicts in its
                        attributes, in the order they were set (a leading `_` of
                        an attribute name dropped: `Sequential._layers` is `layers`)
    Module              the same kinds of values in its attributes, in the order
                        they were set
    keras Optimizer     `iter` (its iterations Variable), `learning_rate` (when a
                        Variable); its slot variables hang off the variables they
                        belong to (see `slot_variables`)
    list, tuple         "0", "1", ...
    dict                its keys (a list or dict set on a Module or Checkpoint
                        is a ListWrapper or DictWrapper: tracked even empty)
    anything else       `obj._checkpoint_children()` if it defines it, a list of
                        (name, child) pairs; such an object with
                        `_serialize_to_tensors()` (a lookup table) saves its
                        tensors under `path/.ATTRIBUTES/<its _checkpoint_attribute>`
                        plus each tensor's suffix, as TensorFlow

A value is tracked when it is one of these kinds (a list or dict only when it
holds something tracked). The graph is walked breadth first; an object
reached twice is one node, named by its first (shortest) path, which makes
a value's key in the checkpoint: `model/layers/0/kernel/.ATTRIBUTES/VARIABLE_VALUE`,
as TensorFlow names them.
"""

import sys

from runtime._src.function.module import DictWrapper, ListWrapper, Module
from runtime._src.function.variables import Variable

__all__ = ["children", "is_trackable", "walk", "slot_variables", "short_name", "TrackableView",
           "is_keras_layer", "is_keras_optimizer", "ATTRIBUTES", "VALUE_SUFFIX",
           "SLOT_MARKER"]

ATTRIBUTES = "/.ATTRIBUTES/"
VALUE_SUFFIX = ATTRIBUTES + "VARIABLE_VALUE"
SLOT_MARKER = "/.OPTIMIZER_SLOT/"

_LAYER_MODULE = "runtime._src.keras.layers.layer"
_OPTIMIZER_MODULE = "runtime._src.keras.optimizers.optimizer"


def _keras_isinstance(obj, module, name):
    """isinstance(obj, <Keras class>), without importing Keras: until its module
    is loaded (`tf.keras` first touched) no object can be one."""
    loaded = sys.modules.get(module)
    cls = getattr(loaded, name, None)
    return cls is not None and isinstance(obj, cls)


def is_keras_layer(obj):
    return _keras_isinstance(obj, _LAYER_MODULE, "Layer")


def is_keras_optimizer(obj):
    return _keras_isinstance(obj, _OPTIMIZER_MODULE, "Optimizer")


def is_trackable(value):
    if isinstance(value, (Variable, Module, ListWrapper, DictWrapper)) or \
            is_keras_optimizer(value) or hasattr(value, "_checkpoint_children"):
        return True
    if isinstance(value, (list, tuple)):
        return any(is_trackable(v) for v in value)
    if isinstance(value, dict):
        return any(is_trackable(v) for v in value.values())
    return False


def short_name(variable):
    """`dense/kernel:0` -> `kernel`."""
    name = variable.name[:-2] if variable.name.endswith(":0") else variable.name
    return name.rsplit("/", 1)[-1]


def children(obj):
    """(name, child) pairs of a tracked object, in a fixed order."""
    if isinstance(obj, Variable):
        return []
    custom = getattr(obj, "_checkpoint_children", None)
    if custom is not None:
        return list(custom())
    if is_keras_layer(obj):
        return _layer_children(obj)
    if isinstance(obj, Module):
        return [(k, v) for k, v in vars(obj).items() if k != "_name" and is_trackable(v)]
    if is_keras_optimizer(obj):
        found = [("iter", obj.iterations)]
        if isinstance(obj.learning_rate, Variable):
            found.append(("learning_rate", obj.learning_rate))
        return found
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if is_trackable(v)]
    if isinstance(obj, dict):
        return [(str(k), v) for k, v in obj.items() if is_trackable(v)]
    return []


def _layer_children(layer):
    untracked = sys.modules[_LAYER_MODULE]._UNTRACKED
    found, names, own = [], set(), set()
    for weight in layer.__dict__.get("_own_weights", ()):
        name = _unique(short_name(weight), names)
        found.append((name, weight))
        own.add(id(weight))
    for key, value in vars(layer).items():
        if key in untracked or callable(value) and not is_trackable(value):
            continue
        if id(value) in own or not is_trackable(value):
            continue
        found.append((_unique(key.lstrip("_") or key, names), value))
    return found


def _unique(name, used):
    found, n = name, 0
    while found in used:
        n += 1
        found = f"{name}_{n}"
    used.add(found)
    return found


def slot_variables(optimizer):
    """(variable, slot name, slot Variable) of every slot `optimizer` made."""
    out = []
    for variable, slots in getattr(optimizer, "_slots", {}).values():
        for name, slot in slots.items():
            out.append((variable, name, slot))
    return out


def walk(root):
    """The object graph from `root`, breadth first: (objects, paths, edges):
    objects[i] is node i (root is 0), paths[i] its "a/b/c" path, edges[i] its
    [(child name, child node id)]."""
    objects, paths, edges = [root], [""], [[]]
    index = {id(root): 0}
    i = 0
    while i < len(objects):
        for name, child in children(objects[i]):
            j = index.get(id(child))
            if j is None:
                j = index[id(child)] = len(objects)
                objects.append(child)
                paths.append(f"{paths[i]}/{name}" if paths[i] else name)
                edges.append([])
            edges[i].append((name, j))
        i += 1
    return objects, paths, edges


class TrackableView:
    """`tf.train.TrackableView(root)`: the object graph a checkpoint of `root`
    saves: `children(obj)` (a dict, name -> child) and `descendants()` (every
    object reached from the root, breadth first, the root first)."""

    def __init__(self, root):
        self._root = root

    @property
    def root(self):
        return self._root

    @classmethod
    def children(cls, obj, save_type="checkpoint", **kwargs):
        return dict(children(obj))

    def descendants(self):
        return walk(self._root)[0]
