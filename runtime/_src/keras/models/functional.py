"""The graph of a functional model: which layer calls lie between inputs and outputs.

    inputs = Input(shape=(3,))
    h = Dense(4)(inputs)
    outputs = Add()([h, Dense(4)(inputs)])
    model = Model(inputs, outputs)     # map_graph(inputs, outputs) finds the 3 calls

`map_graph` walks back from the outputs through each KerasTensor's
`_keras_history` and orders the nodes (layer calls) by depth, deepest (the
inputs) first, as Keras does; `run_graph` calls the layers in that order on
real tensors.
"""

import collections

from runtime._src.core import nest
from runtime._src.keras.backend import masking
from runtime._src.keras.backend.keras_tensor import KerasTensor

__all__ = ["map_graph", "run_graph"]


def _node_of(tensor):
    layer, index, _ = tensor._keras_history
    return layer._inbound_nodes[index]


def _build_map(inputs, outputs):
    """(nodes, deepest last in reverse, layer -> first-seen index)."""
    finished, in_progress, ordered, indices = set(), set(), [], {}
    input_ids = {id(t) for t in inputs}

    def visit(tensor):
        if not isinstance(tensor, KerasTensor) or tensor._keras_history is None:
            raise ValueError(f"Model outputs must come from layer calls on the model's "
                             f"inputs; got {tensor!r}")
        layer = tensor._keras_history[0]
        node = _node_of(tensor)
        if id(node) in finished:
            return
        if id(node) in in_progress:
            raise ValueError(f"The graph has a cycle at layer {layer.name!r}")
        indices.setdefault(layer, len(indices))
        in_progress.add(id(node))
        if not node.is_input and id(tensor) not in input_ids:
            for t in node.input_tensors:
                visit(t)
        elif node.is_input and id(tensor) not in input_ids:
            raise ValueError(f"Graph disconnected: cannot find the value of tensor "
                             f"{tensor!r} at layer {layer.name!r}: it is not one of the "
                             "model's inputs")
        finished.add(id(node))
        in_progress.discard(id(node))
        ordered.append(node)

    for t in outputs:
        visit(t)
    return ordered, indices


def map_graph(inputs, outputs):
    """(layers in Keras's order, nodes in the order they run, {node: depth});
    a node's depth is its longest distance from an output."""
    ordered, indices = _build_map(inputs, outputs)
    node_depth, layer_depth = {}, {}
    for node in reversed(ordered):
        depth = max(node_depth.setdefault(node, 0), layer_depth.get(node.operation, 0))
        layer_depth[node.operation] = depth
        node_depth[node] = depth
        for parent in node.parent_nodes:
            node_depth[parent] = max(depth + 1, node_depth.get(parent, 0))
    for t in inputs:
        layer = t._keras_history[0]
        if layer not in layer_depth:
            layer_depth[layer] = 0
            indices[layer] = -1
            node_depth[_node_of(t)] = 0
    by_depth = collections.defaultdict(list)
    for layer, depth in layer_depth.items():
        by_depth[depth].append(layer)
    layers = []
    for depth in sorted(by_depth, reverse=True):
        layers.extend(sorted(by_depth[depth], key=lambda lay: indices[lay]))
    nodes = sorted(node_depth, key=lambda n: -node_depth[n])
    return layers, nodes, node_depth


def run_graph(nodes, inputs, values, outputs):
    """The outputs' values when `inputs` (KerasTensors) take `values`."""
    known = {id(t): v for t, v in zip(inputs, values)}

    def value_of(v):
        return known[id(v)] if isinstance(v, KerasTensor) else v

    masks = {}                    # id(KerasTensor) -> its mask (backend/masking.py)
    for node in nodes:
        if node.is_input:
            continue
        args = nest.map_structure(value_of, list(node.call_args))
        kwargs = nest.map_structure(value_of, node.call_kwargs)
        mask = masking.input_mask(node.call_args[0], lambda t: masks.get(id(t))) \
            if node.call_args else None
        if "mask" in kwargs:                      # an explicit mask (Keras files record one)
            given = kwargs.pop("mask")
            mask = given if given is not None else mask
        if len(args) == 1:
            result, out_mask = masking.call_masked(node.operation, *args, mask, **kwargs)
        else:
            kwargs.update(masking.argument_masks(node.operation, node.call_args,
                                                 node.call_kwargs, lambda t: masks.get(id(t))))
            result = node.operation(*args, **kwargs)
            out_mask = masking.output_mask(node.operation, args[0], mask)
        outs = nest.flatten(node.outputs)
        out_masks = out_mask if isinstance(out_mask, list) else [out_mask]
        for t, m in zip(outs, out_masks):
            if m is not None:
                masks[id(t)] = m
        for t, v in zip(outs, nest.flatten(result)):
            known[id(t)] = v
    return [known[id(t)] for t in outputs]
