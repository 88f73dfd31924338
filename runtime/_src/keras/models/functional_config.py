"""A functional model's config (Keras 3's layout) and the model rebuilt from it.

    config = model.get_config()
    # {"name": ..., "trainable": ..., "layers": [
    #     {"module": "keras.layers", "class_name": "Dense", "config": {...},
    #      "name": "dense", "inbound_nodes": [
    #          {"args": [{"class_name": "__keras_tensor__", "config": {
    #              "shape": [None, 3], "dtype": "float32",
    #              "keras_history": ["input_layer", 0, 0]}}], "kwargs": {}}]}, ...],
    #  "input_layers": ["input_layer", 0, 0], "output_layers": ["dense", 0, 0]}
    Functional.from_config(config)     # the same graph of new layers

`keras_history` is [layer name, node index, output index]; node indices count
only the calls that belong to this model, in the order they were made.
`rebuild` creates each layer from its config, then replays the calls in
order, each as soon as the tensors it needs exist. A `keras.ops` call (or an
operator: `x + 1`, `x[:, 0]`) is an entry of Keras's op class
(saving/op_config.py).
"""

from runtime._src.core import nest
from runtime._src.keras.saving import op_config
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.backend.keras_tensor import KerasTensor, Operation

__all__ = ["functional_config", "rebuild"]

_TENSOR = "__keras_tensor__"


def _node_indices(model):
    """{id(node): its index among the model's calls of its layer}."""
    indices, counts = {}, {}
    model_nodes = {id(n) for n in model._nodes}
    for layer in model._operations:
        for node in layer._inbound_nodes:
            if id(node) in model_nodes:
                indices[id(node)] = counts.get(id(layer), 0)
                counts[id(layer)] = indices[id(node)] + 1
    return indices


def _history(tensor, indices):
    layer, raw, i = tensor._keras_history
    return [layer.name, indices[id(layer._inbound_nodes[raw])], i]


def _tensor_config(value, indices):
    if isinstance(value, KerasTensor):
        return {"class_name": _TENSOR, "config": {
            "shape": list(value.shape), "dtype": value.dtype,
            "keras_history": _history(value, indices)}}
    if isinstance(value, (list, tuple)):
        return [_tensor_config(v, indices) for v in value]
    if isinstance(value, dict):
        return {k: _tensor_config(v, indices) for k, v in value.items()}
    return serialization.serialize_keras_object(value)


def _structure(struct, indices):
    """Keras 3's input_layers / output_layers: one history, or a list / dict of them."""
    if isinstance(struct, KerasTensor):
        return _history(struct, indices)
    if isinstance(struct, dict):
        return {k: _history(v, indices) for k, v in struct.items()}
    return [_history(t, indices) for t in struct]


def functional_config(model):
    """The config dict of a functional model."""
    indices = _node_indices(model)
    layers = []
    model_nodes = {id(n) for n in model._nodes}
    for layer in model._operations:
        nodes = [node for node in layer._inbound_nodes
                 if id(node) in model_nodes and not node.is_input]
        if isinstance(layer, Operation):          # a keras.ops call: Keras's op class
            entry, inbound = None, []
            for node in nodes:
                entry, args = op_config.op_entry(layer, node.call_args, node.call_kwargs)
                inbound.append({"args": _tensor_config(args, indices), "kwargs": {}})
            entry = entry or op_config.op_entry(layer, (), {})[0]
        else:
            entry = serialization.serialize_keras_object(layer)
            inbound = [{"args": _tensor_config(list(node.call_args), indices),
                        "kwargs": _tensor_config(dict(node.call_kwargs), indices)}
                       for node in nodes]
        entry["name"] = layer.name
        entry["inbound_nodes"] = inbound
        layers.append(entry)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": _structure(model._inputs_struct, indices),
            "output_layers": _structure(model._outputs_struct, indices)}


def _resolve(value, made):
    """Arguments with each tensor config replaced by the KerasTensor it names
    (a KeyError when that call has not been replayed yet)."""
    if isinstance(value, dict) and value.get("class_name") == _TENSOR:
        name, node, index = value["config"]["keras_history"]
        return nest.flatten(made[(name, node)])[index]
    if isinstance(value, list):
        return [_resolve(v, made) for v in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _resolve(v, made) for k, v in value.items()}
    if isinstance(value, dict):
        return serialization.deserialize_keras_object(value)
    return value


def _outputs_of(struct, made):
    if isinstance(struct, dict):
        return {k: _outputs_of(v, made) for k, v in struct.items()}
    if struct and isinstance(struct[0], str):
        name, node, index = struct
        return nest.flatten(made[(name, node)])[index]
    return [_outputs_of(s, made) for s in struct]


def rebuild(config, custom_objects=None):
    """(inputs, outputs, name, trainable) of a functional model from its config."""
    layers, pending, made = {}, [], {}
    for entry in config["layers"]:
        layer_config = {k: v for k, v in entry.items()
                        if k not in ("inbound_nodes", "name", "build_config")}
        if op_config.is_op_entry(entry):               # a keras.ops call
            layer = op_config.op_caller(entry)
        else:
            layer = serialization.deserialize_keras_object(layer_config, custom_objects,
                                                           module="keras.layers")
        layers[entry["name"]] = layer
        if not entry["inbound_nodes"]:
            made[(entry["name"], 0)] = layer.output
        for i, node in enumerate(entry["inbound_nodes"]):
            pending.append((entry["name"], i, node))
    while pending:
        progress = []
        for item in pending:
            name, i, node = item
            try:
                args = _resolve(node["args"], made)
                kwargs = _resolve(node["kwargs"], made)
                kwargs.pop("training", None)     # the model call's value decides
            except KeyError:
                continue
            if any(key[0] == name and key[1] < i and key not in made
                   for key in [(name, j) for j in range(i)]):
                continue
            made[(name, i)] = layers[name](*args, **kwargs)
            progress.append(item)
        if not progress:
            raise ValueError("Functional model config: the calls of layers "
                             f"{sorted({p[0] for p in pending})} need tensors no other "
                             "layer makes")
        pending = [p for p in pending if p not in progress]
    inputs = _outputs_of(config["input_layers"], made)
    outputs = _outputs_of(config["output_layers"], made)
    return inputs, outputs, config.get("name"), config.get("trainable", True)
