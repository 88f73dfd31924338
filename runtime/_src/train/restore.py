"""Restoring a checkpoint into live objects, now or when they are created.

The saved object graph is matched against the live one from the root down,
child by child, by name (tracking.py). A matched Variable gets its saved
value. A saved child the live object does not have yet is deferred, as in
TensorFlow: a Keras layer that is not built has no `kernel` until `build`
runs, an optimizer has no slot variables until its first step. For those the
restoration wraps the object's `build` (a layer) or `build_slots` (an
optimizer) on that instance only; when the method has made the variables,
the saved values are assigned and the wrapper removes itself. A Module, a
Checkpoint or a tracked list or dict tries again whenever it gets a new child
(`ckpt.listed = []` then `ckpt.listed.append(v)` restores `v`).

    status = Restoration(nodes, values, path).start(root)
    status.assert_existing_objects_matched()
"""

import functools

import numpy as np

from runtime._src.core.context import init_scope
from runtime._src.function.module import forget_new_child, on_new_child
from runtime._src.function.variables import Variable
from runtime._src.train.tracking import (children, is_keras_layer, is_keras_optimizer,
                                          slot_variables, walk)

__all__ = ["Restoration"]


class Restoration:
    """One `restore()`: what matched, what was assigned, what waits."""

    def __init__(self, nodes, values, save_path):
        self.nodes = nodes            # [{"children": [[name, id]], "key"?: str, "slots"?: [...]}]
        self.values = values          # {key: numpy value}
        self.save_path = save_path
        self.matched = {}             # saved id -> live object
        self.live_to_saved = {}       # id(live object) -> saved id
        self.assigned = set()         # keys whose values were assigned
        self.waiting = {}             # id(live object) -> [(child name, saved id)]
        self.slot_waiting = {}        # saved variable id -> [(saved optimizer id, slot, saved id)]
        self.root = None

    def start(self, root):
        self.root = root
        self._match(0, root)
        return self

    # --- matching -----------------------------------------------------------

    def _match(self, saved_id, live):
        stack = [(saved_id, live)]
        while stack:
            sid, obj = stack.pop()
            if sid in self.matched:
                continue
            self.matched[sid] = obj
            self.live_to_saved[id(obj)] = sid
            node = self.nodes[sid]
            if node.get("key") is not None and isinstance(obj, Variable):
                self._assign(obj, node["key"])
            if node.get("tensors") and hasattr(obj, "_restore_from_tensors"):
                self._restore_tensors(obj, node["tensors"])
            for pid, slot, slot_id in node.get("slots", ()):
                self.slot_waiting.setdefault(pid, []).append((sid, slot, slot_id))
            stack.extend(self._children_of(obj, node["children"]))
        self._restore_slots()

    def _children_of(self, obj, saved_children):
        live = dict(children(obj))
        found, missing = [], []
        for name, cid in saved_children:
            child = live.get(name)
            if child is None:
                missing.append((name, cid))
            else:
                found.append((cid, child))
        if missing:
            self._defer(obj, missing)
        return found

    def _assign(self, variable, key):
        value = self.values.get(key)
        if value is None:
            return
        value = np.asarray(value)
        if not variable.shape.is_compatible_with(value.shape):
            raise ValueError(f"Received incompatible tensor with shape {value.shape} when "
                             f"attempting to restore variable with shape {variable.shape} "
                             f"and name {variable.name} (key {key} in checkpoint {self.save_path}).")
        if variable.dtype.name != "string" and value.dtype != variable.dtype.np_dtype:
            raise ValueError(f"Checkpoint {self.save_path}: {key} holds {value.dtype.name} "
                             f"values; the variable {variable.name} is "
                             f"{variable.dtype.name}")
        with init_scope():
            variable.assign(value)
        self.assigned.add(key)

    def _restore_tensors(self, obj, attributes):
        """A lookup table's saved tensors into the table: its attribute's
        checkpoint key is a prefix, each tensor's key that prefix plus a suffix
        (`table-keys`, `table-values`)."""
        for prefix in attributes.values():
            found = {k[len(prefix):]: v for k, v in self.values.items() if k.startswith(prefix)}
            if not found:
                continue
            with init_scope():
                obj._restore_from_tensors(found)
            self.assigned.add(prefix)

    # --- deferred restoration -------------------------------------------------

    def _defer(self, obj, missing):
        first = id(obj) not in self.waiting
        self.waiting.setdefault(id(obj), []).extend(missing)
        if is_keras_layer(obj):
            if not _wrapped_by(obj, "build", self):
                _wrap(obj, "build", lambda result: self._retry(obj), self)
        elif first and hasattr(obj, "__dict__"):
            # a Module, Checkpoint or ListWrapper/DictWrapper: tried again each
            # time it gets a new child (function/module.py's child_added)
            on_new_child(obj, self._retry)

    def _retry(self, obj):
        missing = self.waiting.pop(id(obj), [])
        for cid, child in self._children_of(obj, missing):
            self._match(cid, child)
        if id(obj) not in self.waiting:
            _unwrap(obj, "build")
            if hasattr(obj, "__dict__"):
                forget_new_child(obj, self._retry)

    def _restore_slots(self):
        for pid, entries in list(self.slot_waiting.items()):
            variable = self.matched.get(pid)
            if variable is None:
                continue
            for entry in list(entries):
                opt_id, slot, slot_id = entry
                optimizer = self.matched.get(opt_id)
                if optimizer is None:
                    continue
                made = {name: s for v, name, s in slot_variables(optimizer) if v is variable}
                if slot in made:
                    self._take_slot(made[slot], slot_id)
                    entries.remove(entry)
                else:
                    self._wait_for_slots(optimizer)
            if not entries:
                del self.slot_waiting[pid]

    def _take_slot(self, slot_variable, slot_id):
        self.matched[slot_id] = slot_variable
        self.live_to_saved[id(slot_variable)] = slot_id
        key = self.nodes[slot_id].get("key")
        if key is not None:
            self._assign(slot_variable, key)

    def _wait_for_slots(self, optimizer):
        if _wrapped_by(optimizer, "build_slots", self):
            return

        def built(result, variable):
            pid = self.live_to_saved.get(id(variable))
            opt_id = self.live_to_saved.get(id(optimizer))
            for entry in list(self.slot_waiting.get(pid, ())):
                if entry[0] == opt_id and entry[1] in result:
                    self._take_slot(result[entry[1]], entry[2])
                    self.slot_waiting[pid].remove(entry)
            if not any(e[0] == opt_id for es in self.slot_waiting.values() for e in es):
                _unwrap(optimizer, "build_slots")
        _wrap(optimizer, "build_slots", built, self, pass_args=True)

    # --- the status API --------------------------------------------------------

    def unmatched_saved(self):
        """Paths of saved objects with no live counterpart (yet)."""
        return [i for i in range(len(self.nodes)) if i not in self.matched]

    def unmatched_live(self):
        """Live values (Variables, optimizer slots) that got nothing from the
        checkpoint; objects without values of their own are not counted, as in
        TensorFlow."""
        objects, paths, _ = walk(self.root)
        missing = [p for o, p in zip(objects, paths)
                   if (isinstance(o, Variable) or hasattr(o, "_restore_from_tensors"))
                   and id(o) not in self.live_to_saved]
        for obj in objects:
            if is_keras_optimizer(obj):
                for var, name, slot in slot_variables(obj):
                    if id(slot) not in self.live_to_saved and id(var) in self.live_to_saved:
                        missing.append(f"slot {name!r} of {var.name}")
        return missing

    def unassigned_values(self):
        """Keys of matched saved variables whose value was not assigned."""
        return [self.nodes[i]["key"] for i in self.matched
                if self.nodes[i].get("key") and self.nodes[i]["key"] not in self.assigned]


def _wrap(obj, method, after, owner=None, pass_args=False):
    original = getattr(obj, method)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        result = original(*args, **kwargs)
        if pass_args:
            after(result, args[0])
        else:
            after(result)
        return result
    wrapper._restoration = owner
    wrapper._wrapped = original
    obj.__dict__[method] = wrapper


def _wrapped_by(obj, method, owner):
    return getattr(obj.__dict__.get(method), "_restoration", None) is owner


def _unwrap(obj, method):
    wrapper = obj.__dict__.get(method)
    if wrapper is None or not hasattr(wrapper, "_wrapped"):
        return
    original = wrapper._wrapped
    if getattr(original, "__self__", None) is obj and getattr(original, "__func__", None) \
            is getattr(type(obj), method, None):
        del obj.__dict__[method]      # back to the class's method
    else:
        obj.__dict__[method] = original
