"""Keras 3's weights files (`model.weights.h5` in a `.keras` file, or a
`.weights.h5` file), read and written without h5py.

    assign_keras_weights(model, data, where)   # data: the bytes of the HDF5 file
    keras_weights_bytes(model)                 # the bytes Keras 3 would write

Keras 3 stores each layer's own variables (trainable ones first) as datasets
"<path>/vars/0", "<path>/vars/1", ... where <path> is where its saving walk
first meets the layer: the model's `layers` list first for Sequential and
functional models, then every attribute and property, public names before
private ones, in string order; a layer in a
list is named after its class ("dense", then "dense_1", ...), a layer in an
attribute after the attribute ("alpha", "blocks/dense"). `keras_weight_paths`
repeats that walk over our model; each weight gets the dataset at its path.
Every layer met gets its "vars" group, empty when it has no weights, as in
Keras's files. The optimizer's state is "optimizer/vars/<i>", its variables
in Keras 3's order (optimizers/optimizer.py `_slot_groups`), written once it has run
and read into a compiled model, so training resumes where it stopped.
"""

import warnings

import numpy as np

from runtime._src.keras.saving import hdf5, hdf5_writer
from runtime._src.keras.layers.layer import _UNTRACKED, Layer
from runtime._src.keras.utils.naming import to_snake_case

__all__ = ["keras_weight_paths", "keras_layer_paths", "assign_keras_weights",
           "keras_weights_bytes"]

_INTERNAL = frozenset({"_layers", "_input_layer", "_operations", "_inputs_struct",
                       "_outputs_struct"})


def _join(path, name):
    return f"{path}/{name}" if path else name


def _holds_layers(value):
    if isinstance(value, Layer):
        return True
    if isinstance(value, (list, tuple)):
        return any(isinstance(v, Layer) for v in value)
    if isinstance(value, dict):
        return any(isinstance(v, Layer) for v in value.values())
    return False


def _children(layer):
    """(name, layer or container) in the order Keras 3's saving walk visits
    them: `layers` first for Sequential and Functional, then the attributes
    and properties (`dir`), public names before private ones, each group in
    string order."""
    found = []
    is_model = hasattr(layer, "_keras_state")
    if getattr(layer, "_layers_saved_first", False):      # Sequential, Functional
        found.append(("layers", layer.layers))
    attrs = {k: v for k, v in vars(layer).items()
             if k not in _UNTRACKED and k not in _INTERNAL and _holds_layers(v)}
    attrs.update(_layer_properties(layer, attrs))
    if is_model:
        attrs["layers"] = layer.layers
    found.extend((k, attrs[k]) for k in sorted(attrs, key=_name_key))
    return found


def _name_key(name):
    return f"~{name}" if name.startswith("_") else name


_LAYER_BASES = frozenset(Layer.__mro__)
_MODEL_MODULES = ("runtime._src.keras.models.", "runtime._src.keras.trainers.")


def _layer_properties(layer, seen):
    """{name: value} of the layer's class properties that give a layer (a
    Keras MultiHeadAttention's `query_dense`), as Keras's `dir` walk meets them."""
    found = {}
    for cls in type(layer).__mro__:
        if cls in _LAYER_BASES or cls.__module__.startswith(_MODEL_MODULES):
            continue                # the base classes' properties give no sublayer
        for name, attr in vars(cls).items():
            if not isinstance(attr, property) or name in seen or name in found \
                    or name in _INTERNAL or name == "layers":
                continue
            try:
                value = attr.__get__(layer)
            except Exception:  # noqa: BLE001 - Keras's walk skips what fails too
                continue
            if isinstance(value, Layer):
                found[name] = value
    return found


def _walk(obj, path, found, visited, layers=None):
    if id(obj) in visited:
        return
    visited.add(id(obj))
    if layers is not None:
        layers.append((obj, path))
    found.append((None, _join(path, "vars")))        # Keras makes the group of every layer
    own = obj._saved_own_weights()      # a quantized or LoRA layer's in Keras's order
    found.extend((v, _join(path, f"vars/{i}")) for i, v in enumerate(own))
    for name, child in _children(obj):
        child_path = _join(path, name)
        if isinstance(child, Layer):
            _walk(child, child_path, found, visited, layers)
            continue
        items = child.values() if isinstance(child, dict) else child
        used = {}
        for item in items:
            if not isinstance(item, Layer):
                continue
            key = to_snake_case(type(item).__name__)
            if key in used:
                used[key] += 1
                key = f"{key}_{used[key]}"
            else:
                used[key] = 0
            _walk(item, _join(child_path, key), found, visited, layers)


def _layout(model):
    """[(variable or None, path)]: each weight's dataset path, and (None, path)
    for each group Keras 3 makes, in the order of its saving walk."""
    found = []
    _walk(model, "", found, set())
    return found


def keras_layer_paths(model):
    """[(layer, path)] of every layer Keras 3's saving walk meets (its
    weights are "<path>/vars/<i>", its assets "assets/<path>/...")."""
    layers = []
    _walk(model, "", [], set(), layers)
    return layers


def keras_weight_paths(model):
    """[(variable, dataset path)] for every weight of `model`, Keras 3's paths."""
    return [(v, path) for v, path in _layout(model) if v is not None]


def _optimizer_variables(model):
    """The optimizer's variables in Keras 3's order when it has state for every
    trainable weight (it has run), else None."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or not getattr(optimizer, "built", False):
        return None
    if any(id(v) not in optimizer._slots for v in model.trainable_variables):
        return None
    return optimizer.variables


def keras_weights_bytes(model):
    """The model's weights (and its optimizer's state, once it has run) as
    Keras 3's `model.weights.h5` (HDF5 bytes)."""
    layout = _layout(model)
    datasets = {path: np.asarray(v.numpy()) for v, path in layout if v is not None}
    groups = [path for v, path in layout if v is None]
    state = _optimizer_variables(model)
    if state is not None:
        groups.append("optimizer/vars")
        datasets.update({f"optimizer/vars/{i}": np.asarray(v.numpy())
                         for i, v in enumerate(state)})
    return hdf5_writer.write_datasets(datasets, groups)


def assign_keras_weights(model, data, where):
    """Assign the datasets of the HDF5 file `data` to the model's weights, and
    the optimizer's state when the model is compiled and the file has it."""
    datasets = hdf5.read_datasets(data)
    pairs = keras_weight_paths(model)
    covered = {id(c) for v, _ in pairs for c in getattr(v, "covers", (v,))}
    missing = [getattr(v, "path", v.name) for v in model.weights if id(v) not in covered]
    if missing:
        raise ValueError(f"{where}: cannot tell where Keras stored the weights {missing}")
    for variable, path in pairs:
        if path not in datasets:
            raise ValueError(f"{where}: the Keras weights file has no dataset {path!r} for "
                             f"weight {getattr(variable, 'path', variable.name)!r} (it has "
                             f"{sorted(k for k in datasets if not k.startswith('optimizer'))})")
        value = datasets[path]
        if tuple(variable.shape.dims) != value.shape:
            raise ValueError(f"{where}: dataset {path!r} has shape {value.shape} but weight "
                             f"{getattr(variable, 'path', variable.name)!r} has shape "
                             f"{tuple(variable.shape.dims)}")
        variable.assign(value.astype(variable.dtype.as_numpy_dtype))
    _assign_optimizer_state(model, datasets)


def _assign_optimizer_state(model, datasets):
    """The saved optimizer variables, by position, as Keras 3 loads them (a
    warning and nothing loaded when their number differs)."""
    saved = sorted((k for k in datasets if k.startswith("optimizer/vars/")),
                   key=lambda k: int(k.rsplit("/", 1)[1]))
    optimizer = getattr(model, "optimizer", None)
    if not saved or optimizer is None:
        return
    for variable in model.trainable_variables:
        optimizer._slots_of(variable)          # Keras builds them on load too
    variables = optimizer.variables
    shapes_match = len(saved) == len(variables) and all(
        tuple(v.shape.dims) == datasets[k].shape for v, k in zip(variables, saved))
    if not shapes_match:
        warnings.warn(f"Skipping variable loading for optimizer '{optimizer.name}', because "
                      f"it has {len(variables)} variables whereas the saved optimizer has "
                      f"{len(saved)} variables.", UserWarning, stacklevel=3)
        return
    for variable, key in zip(variables, saved):
        variable.assign(datasets[key].astype(variable.dtype.as_numpy_dtype))
    optimizer.built = True
