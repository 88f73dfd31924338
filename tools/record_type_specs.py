"""Record TensorFlow's results for the TypeSpec cases of
tests/runtime/core/test_type_spec.py (tf.TypeSpec, TensorSpec's TypeSpec
methods, NoneTensorSpec, IndexedSlices and IndexedSlicesSpec).

    $BENCH_TF_PYTHON tools/record_type_specs.py   # writes tests/data/type_specs_tf221.json

Each case is an expression over `tf`, `x` (an IndexedSlices with a dense
shape) and `y` (one without); the file holds `str()` of its value, or the
exception's type name and message.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "type_specs_tf221.json")

CASES = [
    "isinstance(tf.TensorSpec([2]), tf.TypeSpec)",
    "isinstance(tf.RaggedTensorSpec([2, None]), tf.TypeSpec)",
    "isinstance(tf.IndexedSlicesSpec(), tf.TypeSpec)",
    "tf.TypeSpec()",
    "tf.TensorSpec([2], name='x').value_type is tf.Tensor",
    "tf.TensorSpec([2], name='x')._serialize()",
    "tf.TensorSpec([2], name='x').flatten()",
    "tf.TensorSpec([2]).most_specific_common_supertype([tf.TensorSpec([3])])",
    "tf.TensorSpec([2], name='x').most_specific_common_supertype([tf.TensorSpec([3], name='y')])",
    "tf.TensorSpec([2]).most_specific_common_supertype([tf.TensorSpec([3], tf.int32)])",
    "tf.TensorSpec([2], name='x').most_specific_common_supertype([tf.TensorSpec(None, name='x')])",
    "tf.TensorSpec([2]).is_subtype_of(tf.TensorSpec([None]))",
    "tf.TensorSpec([None]).is_subtype_of(tf.TensorSpec([2]))",
    "tf.TensorSpec([2], name='x').is_subtype_of(tf.TensorSpec([None]))",
    "tf.TensorSpec([2]).is_subtype_of(tf.RaggedTensorSpec([2]))",
    "tf.TensorSpec([2]).most_specific_compatible_type(tf.TensorSpec([3]))",
    "tf.TensorSpec([2]).most_specific_compatible_type(tf.TensorSpec([3], tf.int32))",
    "tf.TensorSpec([2]).to_tensors(tf.constant([1.0, 2.0]))",
    "tf.TensorSpec([2]).from_tensors(iter([tf.constant([1.0, 2.0])]))",
    "tf.TensorSpec.from_spec(tf.TensorSpec([2], tf.int32, 'a'))",
    "tf.TensorSpec.from_spec(tf.TensorSpec([2], tf.int32, 'a'), name='b')",
    "tf.RaggedTensorSpec([2, None], tf.int32).flatten()",
    "tf.RaggedTensorSpec([2, None], tf.int32).most_specific_compatible_type("
    "tf.RaggedTensorSpec([3, None], tf.int32))",
    "tf.RaggedTensorSpec([2, None], tf.int32).is_subtype_of("
    "tf.RaggedTensorSpec([None, None], tf.int32))",
    "tf.RaggedTensorSpec([2, None], tf.int32).to_tensors(tf.ragged.constant([[1], [2, 3]]))",
    "(lambda s: s.from_tensors(iter(s.to_tensors(tf.ragged.constant([[1], [2, 3]])))))("
    "tf.RaggedTensorSpec([2, None], tf.int32))",
    "tf.SparseTensorSpec([2, 3]).flatten()",
    "tf.NoneTensorSpec()",
    "tf.NoneTensorSpec().value_type.__name__",
    "tf.NoneTensorSpec()._component_specs",
    "tf.NoneTensorSpec().flatten()",
    "tf.NoneTensorSpec().to_tensors(None)",
    "tf.NoneTensorSpec().from_tensors(iter([]))",
    "tf.NoneTensorSpec().is_compatible_with(None)",
    "tf.NoneTensorSpec().is_compatible_with(tf.NoneTensorSpec())",
    "tf.NoneTensorSpec().is_compatible_with(tf.TensorSpec([]))",
    "tf.NoneTensorSpec() == tf.NoneTensorSpec()",
    "hash(tf.NoneTensorSpec()) == hash(tf.NoneTensorSpec())",
    "tf.NoneTensorSpec().most_specific_common_supertype([tf.NoneTensorSpec()])",
    "tf.type_spec_from_value(None)",
    "tf.IndexedSlicesSpec()",
    "tf.IndexedSlicesSpec()._component_specs",
    "tf.IndexedSlicesSpec([5, 3], tf.int32, tf.int32, tf.int64, [2])",
    "tf.IndexedSlicesSpec([5, 3], tf.int32, tf.int32, tf.int64, [2])._component_specs",
    "tf.IndexedSlicesSpec([None, 2], tf.float32)._component_specs",
    "tf.IndexedSlicesSpec(shape=[3, 2], dtype='float64')",
    "tf.IndexedSlicesSpec().value_type is tf.IndexedSlices",
    "x._type_spec",
    "y._type_spec",
    "tf.type_spec_from_value(x)",
    "x.shape",
    "y.shape",
    "x.dtype",
    "x",
    "y",
    "-x",
    "tf.convert_to_tensor(x)",
    "tf.add(x, 1.0)",
    "tf.convert_to_tensor(y)",
    "tf.convert_to_tensor(tf.IndexedSlices(tf.zeros([0, 2]), tf.constant([], tf.int32), "
    "tf.constant([3, 2])))",
    "tf.IndexedSlices(tf.zeros([0, 2]), tf.constant([], tf.int64))._type_spec",
    "tf.nest.flatten(x, expand_composites=True)",
    "x._type_spec.to_tensors(x)",
    "tf.IndexedSlicesSpec([3, 2], tf.float32, tf.int32, tf.int32, [2]) == x._type_spec",
    "tf.IndexedSlicesSpec([3, 2], tf.float32, tf.int32, tf.int32, [1]).is_compatible_with(x)",
    "tf.IndexedSlicesSpec([None, 2], tf.float32, tf.int32, tf.int32, [None])"
    ".is_compatible_with(x)",
    "tf.IndexedSlicesSpec(shape=[None, 2]).is_compatible_with(x._type_spec)",
    "tf.IndexedSlicesSpec(dtype=tf.float32, dense_shape_dtype=tf.int32, shape=[3, 2])"
    ".most_specific_common_supertype([x._type_spec])",
    "tf.IndexedSlicesSpec([3, 2], tf.float32, tf.int32, tf.int32, [2])"
    ".most_specific_common_supertype([tf.IndexedSlicesSpec([4, 2], tf.float32, tf.int32, "
    "tf.int32, [2])])",
    "tf.function(lambda s: s)(x)",
    "tf.function(lambda s: s)(y)",
    "tf.function(lambda s: tf.convert_to_tensor(s) * 2)(x)",
    "tf.function(lambda s: s.values * 2)(x)",
    "tf.function(lambda s: -s)(x).values",
]


def bindings(tf):
    x = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([2, 2]),
                         tf.constant([3, 2]))
    y = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([0]))
    return {"tf": tf, "x": x, "y": y}


def run_case(expr, env):
    """str() of the expression's value, or 'ExceptionType: message'."""
    try:
        return str(eval(expr, dict(env)))   # noqa: S307 - the cases above, our own text
    except Exception as e:  # noqa: BLE001 - the exception is the recorded result
        return f"{type(e).__name__}: {e}"


def main():
    import tensorflow as tf
    env = bindings(tf)
    results = {expr: run_case(expr, env) for expr in CASES}
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": results}, f, indent=1)
    print(f"wrote {len(results)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
