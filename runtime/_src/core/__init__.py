"""Layer 1, core: dtypes, shapes, errors, nested structures, the tensor
classes and the current-graph context. Imports nothing else from runtime; the
tensors' Python operators reach the ops through `tensor.dispatch`, a table
the ops layer fills in."""
