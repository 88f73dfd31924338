"""`tf.train.Checkpoint`: save and restore the state of objects.

    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer, step=step)
    path = ckpt.save("ckpts/ckpt")          # "ckpts/ckpt-1"; updates ckpts/checkpoint
    ...
    status = ckpt.restore(tf.train.latest_checkpoint("ckpts"))
    status.assert_existing_objects_matched()

`write(prefix)` / `read(prefix)` do the same without the save counter and
the `checkpoint` state file. What is saved is the object graph of
tracking.py; values whose objects do not exist yet are restored when they
are created (restore.py). Files: checkpoint_io.py (ours), tf_bundle.py
(TensorFlow's, which `restore` reads too).
"""

import os
import warnings

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.errors import NotFoundError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.function.module import child_added, track_containers
from runtime._src.function.variables import Variable
from runtime._src.core.device_spec import DeviceSpec
from runtime._src.train import checkpoint_io, sharding, state_file, tf_bundle
from runtime._src.train.restore import Restoration
from runtime._src.train.tracking import (ATTRIBUTES, SLOT_MARKER, VALUE_SUFFIX,
                                         is_keras_optimizer, is_trackable, slot_variables,
                                         walk)

__all__ = ["Checkpoint", "CheckpointLoadStatus", "InitializationOnlyStatus",
           "load_saved", "CheckpointOptions"]


class CheckpointOptions:
    """`tf.train.CheckpointOptions`: TF's options, kept as attributes. Only
    `experimental_sharding_callback` (a `tf.train.experimental.ShardingCallback`)
    changes what is written here: the data files it splits the values into
    (checkpoints are written synchronously, on the CPU)."""

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        if experimental_sharding_callback is not None and not isinstance(
                experimental_sharding_callback, sharding.ShardingCallback):
            raise ValueError("The experimental_sharding_callback checkpoint option"
                             "must be of type ShardingCallback. The option provided"
                             f"was of type {type(experimental_sharding_callback)}.")
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = bool(enable_async or experimental_enable_async_checkpoint)
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback


class Checkpoint:
    """Groups trackable objects (keyword arguments) for saving and restoring."""

    def __init__(self, root=None, **kwargs):
        if root is not None:
            kwargs = {"root": root, **kwargs}
        for name, value in kwargs.items():
            if not is_trackable(value):
                raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object "
                                 "(an object derived from `Trackable`), got "
                                 f"{value!r}. If you believe this object should be trackable "
                                 "(i.e. it is part of the TensorFlow Python API and manages "
                                 "state), please open an issue. Pass Variables, Modules, Keras models, layers "
                                 "or optimizers, or lists and dicts of them.")
        self._objects = dict(sorted(kwargs.items()))     # TF tracks them by name
        self._save_counter = None
        for name, value in kwargs.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        """`ckpt.step = tf.Variable(0)` adds a dependency, as in TensorFlow; a
        list or dict is wrapped to stay tracked as it grows, and a checkpoint
        restored earlier gives the new child its saved value."""
        if not name.startswith("_") and "_objects" in self.__dict__:
            value = track_containers(value)
            if is_trackable(value):
                self._objects[name] = value
        object.__setattr__(self, name, value)
        child_added(self)

    def _checkpoint_children(self):
        found = list(self._objects.items())
        if self._save_counter is not None:
            found.append(("save_counter", self._save_counter))
        return found

    @property
    def save_counter(self):
        """How many times `save` ran (an int64 Variable, made on first use)."""
        if self._save_counter is None:
            with init_scope():
                self._save_counter = Variable(convert_to_tensor(0, dtypes.int64),
                                              trainable=False, name="save_counter")
        return self._save_counter

    # --- saving ---------------------------------------------------------------

    def write(self, file_prefix, options=None):
        """Write a checkpoint at exactly `file_prefix`; returns it."""
        prefix = os.fspath(file_prefix)
        owners = {}
        nodes, values = serialize(self, owners)
        callback = getattr(options, "experimental_sharding_callback", None)
        with init_scope():                   # the callback slices eager tensors
            shards = None if callback is None else _shards(callback, nodes, values, owners)
        checkpoint_io.write(prefix, values, nodes, shards, _full_names(owners))
        return prefix

    def save(self, file_prefix, options=None):
        """Write `<file_prefix>-<n>` (n: the save counter, plus one) and record
        it in the directory's `checkpoint` file; returns the path."""
        with init_scope():
            number = int(self.save_counter.assign_add(1).numpy())
        path = self.write(f"{os.fspath(file_prefix)}-{number}", options)
        state_file.record(os.path.dirname(path) or ".", path)
        return path

    # --- restoring --------------------------------------------------------------

    def read(self, save_path, options=None):
        """Restore from `save_path` (written by `write` or `save`); returns a status."""
        return self._restored(save_path, options)

    def restore(self, save_path, options=None):
        """Restore from `save_path` (ours, or a checkpoint TensorFlow wrote).
        `None` restores nothing (a fresh start), as in TensorFlow."""
        return self._restored(save_path, options)

    def _restored(self, save_path, options):
        if save_path is None:
            return InitializationOnlyStatus()
        save_path = os.fspath(save_path)
        if os.path.isdir(save_path):
            raise ValueError(f"Checkpoint.restore: {save_path!r} is a directory; pass a "
                             "checkpoint prefix, e.g. tf.train.latest_checkpoint("
                             f"{save_path!r})")
        if self._save_counter is None and _saves_counter(save_path):
            self.save_counter          # created so that it is restored
        try:
            nodes, values = load_saved(save_path)
        except NotFoundError as e:
            raise NotFoundError(f"Error when restoring from checkpoint or SavedModel at "
                                f"{save_path}: {e}") from None
        restoration = Restoration(nodes, values, save_path).start(self)
        _warn_if_tf_keras_layout(nodes, restoration, save_path)
        return CheckpointLoadStatus(restoration)


# Children that only TensorFlow's Keras 3 writes: a Sequential's inner
# Functional, its operations, the optimizer's variable lists.
_TF_KERAS_CHILDREN = {"_functional", "_operations", "_trainable_variables", "_variables"}


def _warn_if_tf_keras_layout(nodes, restoration, save_path):
    """A checkpoint TensorFlow's Keras wrote keeps a model's weights under
    its own object layout, which our Keras objects do not have: say so when
    live values got nothing from it, rather than restore silently in part."""
    if not any(name in _TF_KERAS_CHILDREN for node in nodes
               for name, _ in node.get("children", ())):
        return
    missing = restoration.unmatched_live()
    if missing:
        warnings.warn(
            f"Checkpoint {save_path} was written by TensorFlow's Keras, whose object layout "
            "(model/_functional/_operations/..., optimizer/_variables/...) runtime.keras "
            f"objects do not have: {len(missing)} of their values got nothing from it "
            f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}). Move Keras "
            "weights between the two with model.save_weights / model.load_weights "
            "('.weights.h5').", UserWarning, stacklevel=4)


def _saves_counter(save_path):
    try:
        nodes, _ = load_saved(save_path, values=False)
    except Exception:  # noqa: BLE001 - unreadable means not this format
        return False
    return any(name == "save_counter" for name, _ in nodes[0]["children"])


def _shards(callback, nodes, values, owners):
    """The sharding callback's shards of the values, as {key: {spec: numpy value}}:
    it gets a ShardableTensor per value (variables first, then other saved
    state, then the serialized object graph, as TensorFlow orders them)."""
    found = [_shardable(key, values[key], owners.get(key)) for key in _save_order(nodes, values)]
    graph = checkpoint_io.object_graph_bytes(nodes, _full_names(owners))
    found.append(_shardable(sharding.OBJECT_GRAPH_KEY, graph, None))
    shards = callback(found)
    if not isinstance(shards, (list, tuple)) or not all(isinstance(s, dict) for s in shards):
        raise TypeError(f"The sharding callback {callback.description!r} must return a list "
                        "of shards, each a dict {checkpoint key: {slice spec: tensor}}; got "
                        f"{type(shards).__name__}")
    return [{key: {spec: np.asarray(getattr(t, "numpy", lambda t=t: t)())
                   for spec, t in pieces.items()}
             for key, pieces in shard.items()}
            for shard in shards]


def _full_names(owners):
    """{key: the variable's name without ":0"} (TF's `full_name` of a value)."""
    names = {}
    for key, owner in owners.items():
        if isinstance(owner, Variable):
            name = owner.name
            names[key] = name[:-2] if name.endswith(":0") else name
    return names


def _save_order(nodes, values):
    """The keys of `values`: the save counter and the variables in node order,
    then each other object's tensors (lookup tables, PythonState) in node
    order (TensorFlow's order)."""
    keys = [node["key"] for node in nodes if node.get("key") in values]
    keys.sort(key=lambda k: k != "save_counter" + VALUE_SUFFIX)
    for node in nodes:
        for prefix in node.get("tensors", {}).values():
            keys.extend(sorted(k for k in values if k.startswith(prefix)))
    return keys


def _shardable(key, value, owner):
    tensor = convert_to_tensor(value)
    return sharding.ShardableTensor(
        _tensor_save_spec=None, tensor=tensor, dtype=tensor.dtype,
        device=DeviceSpec.from_string(tensor.device), name=key, shape=tensor.shape,
        slice_spec="", checkpoint_key=key, trackable=owner)


def serialize(root, owners=None):
    """(object graph nodes, {key: numpy value}) of everything `root` tracks;
    `owners`, when given, gets {key: the object whose value it is}."""
    objects, paths, edges = walk(root)
    nodes = [{"children": [[name, j] for name, j in edges[i]]} for i in range(len(objects))]
    index = {id(o): i for i, o in enumerate(objects)}
    values, owned = {}, {} if owners is None else owners
    with init_scope():
        for i, obj in enumerate(objects):
            if isinstance(obj, Variable):
                key = paths[i] + VALUE_SUFFIX
                nodes[i]["key"] = key
                values[key] = np.asarray(obj.numpy())
                owned[key] = obj
            elif hasattr(obj, "_serialize_to_tensors"):      # lookup tables, PythonState
                prefix = f"{paths[i]}{ATTRIBUTES}{obj._checkpoint_attribute}"
                nodes[i]["tensors"] = {obj._checkpoint_attribute: prefix}
                for suffix, value in obj._serialize_to_tensors().items():
                    values[prefix + suffix] = np.asarray(value)
                    owned[prefix + suffix] = obj
        for i, obj in enumerate(objects):
            if not is_keras_optimizer(obj):
                continue
            slots = []
            for variable, name, slot in slot_variables(obj):
                p = index.get(id(variable))
                if p is None:
                    continue             # a variable this checkpoint does not hold
                j = index.get(id(slot))
                if j is None:
                    j = index[id(slot)] = len(nodes)
                    key = f"{paths[p]}{SLOT_MARKER}{paths[i]}/{name}{VALUE_SUFFIX}"
                    nodes.append({"children": [], "key": key})
                    values[key] = np.asarray(slot.numpy())
                    owned[key] = slot
                slots.append([p, name, j])
            if slots:
                nodes[i]["slots"] = slots
    return nodes, values


def load_saved(save_path, values=True):
    """(object graph nodes, {key: numpy value}) of a checkpoint, ours or TensorFlow's."""
    data = checkpoint_io.index_bytes(save_path)
    if tf_bundle.is_tf_index(data):
        entries, shards = tf_bundle.read_index(data)
        graph = entries.get("_CHECKPOINTABLE_OBJECT_GRAPH")
        if graph is None:
            raise ValueError(f"{save_path} is a TensorFlow 1 (name-based) checkpoint; "
                             "only object-based ones (tf.train.Checkpoint) restore into "
                             "objects. Read its values with tf.train.load_checkpoint.")
        blob = tf_bundle.read_tensor(save_path, graph, shards).reshape(-1)[0]
        nodes = tf_bundle.object_graph(blob)
        loaded = {}
        if values:
            loaded = {k: tf_bundle.read_tensor(save_path, e, shards)
                      for k, e in entries.items() if k != "_CHECKPOINTABLE_OBJECT_GRAPH"}
        return nodes, loaded
    index = checkpoint_io.read_index(save_path, data)
    return index["objects"], checkpoint_io.read_values(save_path, index) if values else {}


# --- statuses ---------------------------------------------------------------------

class CheckpointLoadStatus:
    """What `restore` matched; its asserts raise AssertionError naming what is missing."""

    def __init__(self, restoration):
        self._r = restoration

    def assert_consumed(self):
        """Every saved object matched a live one and every live object got a value."""
        unresolved = self._r.unmatched_saved()
        if unresolved:
            names = ", ".join(_describe(self._r.nodes, i) for i in unresolved[:5])
            raise AssertionError(f"Unresolved object in checkpoint {self._r.save_path}: "
                                 f"{names}{' ...' if len(unresolved) > 5 else ''} (not created "
                                 "yet, or not in this object graph). Use "
                                 "assert_existing_objects_matched() before those objects "
                                 "exist.")
        self.assert_existing_objects_matched()
        return self

    def assert_existing_objects_matched(self):
        """Every live object matched a saved one (saved ones not created yet are fine)."""
        missing = self._r.unmatched_live()
        if missing:
            raise AssertionError(f"Object not assigned a value from checkpoint "
                                 f"{self._r.save_path}: {', '.join(missing[:5])}")
        unassigned = self._r.unassigned_values()
        if unassigned:
            raise AssertionError(f"Unrestored values in checkpoint {self._r.save_path}: "
                                 f"{', '.join(unassigned[:5])}")
        return self

    def assert_nontrivial_match(self):
        """Something besides the root matched."""
        if len(self._r.matched) <= 1:
            raise AssertionError(f"Nothing except the root object matched a checkpointed "
                                 f"value in {self._r.save_path}")
        return self

    def expect_partial(self):
        """Silence warnings about values left unused (there are none here)."""
        return self

    def run_restore_ops(self, session=None):
        """Nothing to run: values are assigned when matched."""

    def initialize_or_restore(self, session=None):
        """Nothing to run: values are assigned when matched."""


class InitializationOnlyStatus:
    """`restore(None)`: nothing restored; variables keep their initial values."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_existing_objects_matched(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_nontrivial_match(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        """Nothing to run."""

    def initialize_or_restore(self, session=None):
        """Nothing to run."""


def _describe(nodes, i):
    node = nodes[i]
    if node.get("key"):
        return node["key"].removesuffix(VALUE_SUFFIX)
    for j, other in enumerate(nodes):
        for name, cid in other["children"]:
            if cid == i:
                return f"{_describe(nodes, j)}/{name}" if j else name
    return f"object {i}"
