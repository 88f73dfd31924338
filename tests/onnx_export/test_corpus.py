"""The autograph corpus's tensor programs (tests/autograph/corpus/) through ONNX:
every function that traces on tensors exports, passes onnx.checker, and ONNX
Runtime agrees with our executor on each of its inputs (ints exactly, floats
to 1e-5). The ones that cannot export, and the few inputs on which a function
does not trace (as in TensorFlow), are listed here with their reason; any
other tracing error fails its case."""

import re
import warnings

import pytest

pytest.importorskip("onnx", reason="onnx is not installed (pip install -e '.[onnx]')")
pytest.importorskip("onnxruntime",
                    reason="onnxruntime is not installed (pip install -e '.[onnx]')")

import runtime as tf  # after the skips
from runtime import onnx as tf_onnx
from tests.autograph.corpus import tensor_cases

# function name -> why it cannot leave Python (the exporter's words)
CANNOT_EXPORT = {
    "walrus_in_branch": "ONNX has no assertion",
}

# case id -> why it does not trace on tensors: a float32 tensor meets the
# function's Python int (an int32 loop variable or product). TensorFlow 2.21
# refuses the same traces (TypeError for the first two; for the last two an
# OperatorNotAllowedInGraphError, enumerate/zip over a tensor, where we reach
# the dtype clash).
DOES_NOT_TRACE = {
    "for_list_sum-1": "'s' has dtype int32 before the loop",
    "for_max-1": "'best' has dtype int32 before the loop",
    "for_enumerate-1": "Mul: inputs must have the same dtype",
    "for_zip-1": "'s' has dtype int32 before the loop",
}


def _cases():
    for program in tensor_cases():
        for k, args in enumerate(program.inputs):
            case = f"{program.fn.__name__}-{k}"
            yield pytest.param(case, program.fn, args, id=case)


def _traced(fn, args):
    tensors = tuple(tf.constant(a) if isinstance(a, (bool, int, float, list)) else a
                    for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        concrete = tf.function(fn).get_concrete_function(*tensors)
    return concrete, tensors


@pytest.mark.parametrize("case, fn, args", list(_cases()))
def test_corpus_function_exports(case, fn, args):
    if case in DOES_NOT_TRACE:
        with pytest.raises(TypeError, match=re.escape(DOES_NOT_TRACE[case])):
            _traced(fn, args)
        return
    concrete, tensors = _traced(fn, args)
    if fn.__name__ in CANNOT_EXPORT:
        with pytest.raises(tf_onnx.ExportError, match=CANNOT_EXPORT[fn.__name__]):
            tf_onnx.from_function(concrete)
        return
    model, _ = tf_onnx.from_function(concrete)
    feeds = [t.numpy() for t in tensors if isinstance(t, tf.Tensor)]
    tf_onnx.verify(model, lambda *_: [t for t in tf.nest.flatten(concrete(*tensors))
                                      if isinstance(t, tf.Tensor)], *feeds)
