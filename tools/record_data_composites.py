"""Record TF 2.21's tf.data pipelines over RaggedTensors and SparseTensors.

    $BENCH_TF_PYTHON tools/record_data_composites.py   # writes tests/data/data_composites.json

Each case is a Python expression (with `tf` bound) giving a dataset; the
record keeps its element_spec's repr and each element's repr, and what
`as_numpy_iterator` yields (repr). The test runs the same expressions here.
"""

import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "data_composites.json"
RT = "tf.ragged.constant([[1, 2], [3], [4, 5, 6]])"
RT3 = "tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6], [], [7]]])"
ST = "tf.sparse.SparseTensor(indices=[[0, 0], [1, 2], [2, 1], [2, 3]], values=[1., 2., 3., 4.], " \
     "dense_shape=[3, 4])"
CASES = {
    "ragged_slices": f"tf.data.Dataset.from_tensor_slices({RT})",
    "ragged_batch": f"tf.data.Dataset.from_tensor_slices({RT}).batch(2)",
    "ragged_batch_drop": f"tf.data.Dataset.from_tensor_slices({RT}).batch(2, drop_remainder=True)",
    "ragged_unbatch": f"tf.data.Dataset.from_tensor_slices({RT}).batch(2).unbatch()",
    "ragged_map_double": f"tf.data.Dataset.from_tensor_slices({RT}).map(lambda x: x * 2)",
    "ragged_map_sum": f"tf.data.Dataset.from_tensor_slices({RT}).map(tf.reduce_sum)",
    "ragged_filter": f"tf.data.Dataset.from_tensor_slices({RT}).filter(lambda x: tf.size(x) > 1)",
    "ragged3_slices": f"tf.data.Dataset.from_tensor_slices({RT3})",
    "ragged3_batch": f"tf.data.Dataset.from_tensor_slices({RT3}).map(lambda x: x + 1).batch(2)",
    "ragged_from_tensors": f"tf.data.Dataset.from_tensors({RT})",
    "ragged_in_dict": f"tf.data.Dataset.from_tensor_slices({{'a': {RT}, 'b': [1, 2, 3]}}).batch(2)",
    "ragged_zip": f"tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices({RT}), "
                  f"tf.data.Dataset.range(3)))",
    "ragged_batch_op": "tf.data.Dataset.range(5).map(lambda x: tf.range(x)).ragged_batch(2)",
    "ragged_batch_op_2d": "tf.data.Dataset.range(4).map(lambda x: tf.fill([x, 2], x))"
                          ".ragged_batch(3, drop_remainder=True)",
    "map_to_ragged": "tf.data.Dataset.range(4).map(lambda x: tf.RaggedTensor.from_row_lengths("
                     "tf.range(x), [x]))",
    "sparse_slices": f"tf.data.Dataset.from_tensor_slices({ST})",
    "sparse_batch": f"tf.data.Dataset.from_tensor_slices({ST}).batch(2)",
    "sparse_unbatch": f"tf.data.Dataset.from_tensor_slices({ST}).batch(2).unbatch()",
    "sparse_map": f"tf.data.Dataset.from_tensor_slices({ST}).map(lambda x: x * 2)",
    "sparse_to_dense": f"tf.data.Dataset.from_tensor_slices({ST}).map(tf.sparse.to_dense)",
    "sparse_from_tensors": f"tf.data.Dataset.from_tensors({ST})",
    "sparse_batch_op": "tf.data.Dataset.from_tensor_slices([1, 5, 3, 2, 8]).map(tf.range)"
                       ".sparse_batch(2, [10])",
    "dense_to_ragged_batch": "tf.data.Dataset.from_tensor_slices([1, 5, 3, 2, 8])"
                             ".map(tf.range).apply(tf.data.experimental.dense_to_ragged_batch(2))",
    "dense_to_sparse_batch": "tf.data.Dataset.range(3).map(lambda x: tf.fill([x, x], x))"
                             ".apply(tf.data.experimental.dense_to_sparse_batch(2, [3, 3]))",
}


def run(tf):
    out = {}
    for name, expr in CASES.items():
        ds = eval(expr, {"tf": tf})  # noqa: S307 - the recorded case's own expression
        out[name] = {"spec": repr(ds.element_spec), "elements": [repr(e) for e in ds],
                     "numpy": repr(list(ds.as_numpy_iterator()))}
    return out


def main():
    import tensorflow as tf
    OUT.write_text(json.dumps(run(tf), indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
