"""Export to ONNX (runtime.onnx): our graphs lowered to ONNX models that
ONNX Runtime runs without Python (builder.py: names and nodes; convert.py:
the graph walk and control flow; rules_*.py: one rule per op; export.py: the
public functions). Needs the optional `onnx` package (and `onnxruntime` to
verify)."""
