"""`tf.train.CheckpointView`: the object graph a checkpoint holds, by node id,
read from our checkpoints and TensorFlow's alike, and matched against live
objects.

    view = tf.train.CheckpointView(path)
    view.children(0)        # {"model": 1, "save_counter": 2}: the root's children
    view.descendants()      # [0, 1, 2, ...]: breadth first from the root
    view.match(ckpt)        # {node id: the live object at the same path}
"""

import collections
import logging

from runtime._src.train.checkpoint import load_saved
from runtime._src.train.tracking import TrackableView, is_trackable

__all__ = ["CheckpointView"]


class CheckpointView:
    """The saved object graph of the checkpoint at `save_path`."""

    def __init__(self, save_path):
        try:
            self._nodes, _ = load_saved(save_path, values=False)
        except ValueError:
            raise ValueError(
                f"The specified checkpoint \"{save_path}\" does not appear to be object-based "
                "(saved with TF2) since it is missing the key "
                "\"_CHECKPOINTABLE_OBJECT_GRAPH\". Likely it was created with the TF1 "
                "name-based saver and does not contain an object dependency graph.") from None

    def children(self, node_id):
        """{local name: node id} of the children of node `node_id`."""
        return {name: child for name, child in self._nodes[node_id]["children"]}

    def descendants(self):
        """The node ids reachable from the root (0), breadth first, the root first."""
        found, queue = {0: None}, collections.deque([0])
        while queue:
            for _, child in self._nodes[queue.popleft()]["children"]:
                if child not in found:
                    found[child] = None
                    queue.append(child)
        return list(found)

    def match(self, obj):
        """{node id: live object} of the objects under `obj` at the same path
        (child names from the root down) as a saved node."""
        if not is_trackable(obj):
            raise ValueError(f"Expected a Trackable, got {obj} of type {type(obj)}.")
        matched, queue, visited = {0: obj}, collections.deque([(0, obj)]), set()
        while queue:
            node_id, live = queue.popleft()
            live_children = TrackableView.children(live)
            for name, child_id in self.children(node_id).items():
                if child_id in visited or child_id == 0 or name not in live_children:
                    continue
                child = live_children[name]
                if child_id not in matched:
                    matched[child_id] = child
                    queue.append((child_id, child))
                elif matched[child_id] is not child:
                    logging.warning("Inconsistent references when matching the checkpoint "
                                    "into this object graph. The referenced objects are: "
                                    f"({matched[child_id]} and {child}).")
            visited.add(node_id)
        return matched

    def diff(self, obj):
        """(matched {node id: object}, node ids only in the checkpoint, objects
        only under `obj`)."""
        matched = self.match(obj)
        only_saved = [i for i in self.descendants() if i not in matched]
        seen = {id(o) for o in matched.values()}
        only_live = [o for o in TrackableView(obj).descendants() if id(o) not in seen]
        return matched, only_saved, only_live
