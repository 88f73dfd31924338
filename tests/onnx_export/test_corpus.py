"""The equivalence corpus (tests/autograph/functions.py) through ONNX: every
function that traces on tensors exports, passes onnx.checker, and ONNX
Runtime agrees with our executor on each of its inputs (ints exactly, floats
to 1e-5). The ones that cannot export are listed here with their reason."""

import warnings

import pytest

pytest.importorskip("onnx", reason="onnx is not installed (pip install -e '.[onnx]')")
pytest.importorskip("onnxruntime",
                    reason="onnxruntime is not installed (pip install -e '.[onnx]')")

import runtime as tf  # after the skips
from runtime import onnx as tf_onnx
from tests.autograph.functions import CORPUS

# function name -> why it cannot leave Python (the exporter's words)
CANNOT_EXPORT = {
    "walrus_in_branch": "ONNX has no assertion",
}


def _cases():
    for fn, inputs, tensor in CORPUS:
        if tensor:
            for k, args in enumerate(inputs):
                yield pytest.param(fn, args, id=f"{fn.__name__}-{k}")


def _traced(fn, args):
    tensors = tuple(tf.constant(a) if isinstance(a, (bool, int, float, list)) else a
                    for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            concrete = tf.function(fn).get_concrete_function(*tensors)
        except (TypeError, ValueError):
            return None, tensors        # refused while tracing: not the exporter's concern
    return concrete, tensors


@pytest.mark.parametrize("fn, args", list(_cases()))
def test_corpus_function_exports(fn, args):
    concrete, tensors = _traced(fn, args)
    if concrete is None:
        pytest.skip(f"{fn.__name__} does not trace on tensors")
    if fn.__name__ in CANNOT_EXPORT:
        with pytest.raises(tf_onnx.ExportError, match=CANNOT_EXPORT[fn.__name__]):
            tf_onnx.from_function(concrete)
        return
    model, _ = tf_onnx.from_function(concrete)
    feeds = [t.numpy() for t in tensors if isinstance(t, tf.Tensor)]
    tf_onnx.verify(model, lambda *_: [t for t in tf.nest.flatten(concrete(*tensors))
                                      if isinstance(t, tf.Tensor)], *feeds)
