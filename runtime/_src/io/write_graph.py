"""`tf.io.write_graph`: a graph's GraphDef written to a file, as protobuf text
(`as_text=True`) or binary; the folder is made; returns the path.

    tf.io.write_graph(concrete.graph, "logs", "graph.pbtxt")   # 'logs/graph.pbtxt'
"""

import os

__all__ = ["write_graph"]


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Write `graph_or_graph_def` (a Graph or a GraphDef) to `logdir/name`."""
    graph_def = graph_or_graph_def
    if hasattr(graph_def, "as_graph_def"):
        graph_def = graph_def.as_graph_def()
    if not hasattr(graph_def, "SerializeToString"):
        raise TypeError(f"write_graph: expected a Graph or a GraphDef, got "
                        f"{type(graph_or_graph_def).__name__}")
    logdir = os.fspath(logdir)
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, os.fspath(name))
    data = str(graph_def).encode("utf-8") if as_text else graph_def.SerializeToString()
    with open(path, "wb") as f:
        f.write(data)
    return path
