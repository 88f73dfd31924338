"""Export graphs to ONNX, with tf2onnx's names: `from_function`,
`from_keras` (each returns `(model_proto, None)`), plus `verify`, which runs
an exported model in ONNX Runtime and compares it with our executor.

Needs the optional extra: `pip install -e '.[onnx]'` (onnx, onnxruntime).
"""

from runtime._src.onnx.export import (DEFAULT_OPSET, OPSETS, ExportError, from_function,
                                      from_keras, random_inputs, save, verify)

__all__ = ["DEFAULT_OPSET", "OPSETS", "ExportError", "from_function", "from_keras",
           "random_inputs", "save", "verify"]
