"""Export to ONNX: each exported model passes onnx.checker (full check, in
`from_function`) and ONNX Runtime gives what our executor gives.

The cases where tf2onnx (1.17, TensorFlow 2.21) fails are here by name:
loops with break/continue, nested loops writing a TensorArray, reading an
earlier TensorArray element, writes in reverse order, integer division of
negatives, tf.scan, Keras models; and two of our loops TensorFlow cannot
trace at all (a loop variable that changes shape, a return inside a loop).
"""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx is not installed (pip install -e '.[onnx]')")
ort = pytest.importorskip("onnxruntime",
                          reason="onnxruntime is not installed (pip install -e '.[onnx]')")

import runtime as tf  # after the skips: runtime.onnx needs onnx
from runtime import onnx as tf_onnx


def run_onnx(model, *inputs):
    options = ort.SessionOptions()              # one thread: a pool costs more than the run
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    feeds = {i.name: np.asarray(v) for i, v in zip(session.get_inputs(), inputs)}
    return session.run(None, feeds)


def export_and_compare(fn, signature, *input_sets):
    """Export `fn` once with `signature`; for each input tuple, ONNX Runtime's
    outputs equal our executor's (ints exactly, floats to 1e-5)."""
    model, storage = tf_onnx.from_function(fn, input_signature=signature)
    assert storage is None
    for inputs in input_sets:
        tf_onnx.verify(model, fn, *inputs)
    return model


I32, F32 = tf.int32, tf.float32


def spec(shape, dtype=F32, name=None):
    return tf.TensorSpec(shape, dtype, name=name)


# --- control flow TensorFlow's exporter gets wrong ---------------------------------

@tf.function
def break_continue(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if total > 20:
            break
        total += i
    return total, i


def test_loop_with_break_and_continue():
    export_and_compare(break_continue, [spec([], I32)],
                       *[(np.int32(n),) for n in (0, 1, 5, 9, 40)])


@tf.function
def nested_tensor_arrays(n, m):
    outer = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        inner = tf.TensorArray(tf.int32, size=m)
        for j in tf.range(m):
            inner = inner.write(j, i * 10 + j)
        outer = outer.write(i, inner.stack())
    return outer.stack()


def test_nested_loops_writing_tensor_arrays():
    export_and_compare(nested_tensor_arrays, [spec([], I32), spec([], I32)],
                       (np.int32(3), np.int32(4)), (np.int32(1), np.int32(2)))


@tf.function
def fibonacci(n):
    ta = tf.TensorArray(tf.int64, size=n)
    ta = ta.write(0, tf.constant(0, tf.int64))
    ta = ta.write(1, tf.constant(1, tf.int64))
    for i in tf.range(2, n):
        ta = ta.write(i, ta.read(i - 1) + ta.read(i - 2))   # reads earlier elements
    return ta.stack()


def test_reading_earlier_tensor_array_elements():
    model = export_and_compare(fibonacci, [spec([], I32)], (np.int32(2),), (np.int32(12),))
    assert run_onnx(model, np.int32(10))[0].tolist() == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]


@tf.function
def reversed_writes(x):
    n = tf.shape(x)[0]
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(n - 1 - i, x[i] * 2.0)
    return ta.stack()


def test_tensor_array_written_in_reverse_order():
    model = export_and_compare(reversed_writes, [spec([None])],
                               (np.arange(5, dtype=np.float32),))
    assert run_onnx(model, np.array([1, 2, 3], np.float32))[0].tolist() == [6.0, 4.0, 2.0]


@tf.function
def integer_division(a, b):
    return a // b, a % b, tf.math.floordiv(a, b)


def test_negative_integer_division_rounds_down_as_tensorflow():
    a = np.array([-7, 7, -7, 7, -1, 0], np.int32)
    b = np.array([2, -2, -2, 2, 3, -5], np.int32)
    model = export_and_compare(integer_division, [spec([None], I32), spec([None], I32)], (a, b))
    q, r, _ = run_onnx(model, a, b)
    assert q.tolist() == [-4, -4, 3, 3, -1, 0]
    assert r.tolist() == [1, -1, -1, 1, 2, 0]


@tf.function
def running_sums(x):
    return tf.scan(lambda acc, v: acc + v, x)


def test_scan():
    export_and_compare(running_sums, [spec([None, 3])],
                       (np.arange(12, dtype=np.float32).reshape(4, 3),))


@tf.function
def map_squares(x):
    return tf.map_fn(lambda row: tf.reduce_sum(row * row), x)


def test_map_fn():
    export_and_compare(map_squares, [spec([None, 3])],
                       (np.arange(12, dtype=np.float32).reshape(4, 3),))


# --- loops TensorFlow cannot trace ---------------------------------------------------

@tf.function
def growing(n):
    x = tf.zeros([1])
    for _ in tf.range(n):
        x = tf.concat([x, x + 1.0], axis=0)     # the loop variable changes shape
    return x


def test_loop_variable_that_changes_shape():
    model = export_and_compare(growing, [spec([], I32)], (np.int32(0),), (np.int32(3),))
    assert run_onnx(model, np.int32(2))[0].tolist() == [0.0, 1.0, 1.0, 2.0]


@tf.function
def first_above(x, limit):
    for v in x:
        if v > limit:
            return v                             # a return inside a tensor loop
    return -1.0


def test_return_inside_a_loop():
    export_and_compare(first_above, [spec([None]), spec([])],
                       (np.array([1, 5, 9], np.float32), np.float32(4)),
                       (np.array([1, 2], np.float32), np.float32(4)),
                       (np.zeros([0], np.float32), np.float32(0)))


# --- models, variables, signatures ---------------------------------------------------

def test_keras_model_from_keras():
    tf.random.set_seed(1)
    inputs = tf.keras.Input(shape=(8, 8, 3), name="image")
    h = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")(inputs)
    h = tf.keras.layers.MaxPooling2D(2)(h)
    h = tf.keras.layers.BatchNormalization()(h)
    h = tf.keras.layers.Flatten()(h)
    h = tf.keras.layers.Dropout(0.5)(h)
    outputs = tf.keras.layers.Dense(5, activation="softmax")(h)
    model = tf.keras.Model(inputs, outputs)
    proto, _ = tf_onnx.from_keras(model)
    x = np.random.default_rng(0).normal(size=(3, 8, 8, 3)).astype(np.float32)
    got = run_onnx(proto, x)[0]
    np.testing.assert_allclose(got, model(x, training=False).numpy(), rtol=1e-5, atol=1e-6)
    assert [i.name for i in proto.graph.input] == ["image"]
    first = proto.graph.input[0].type.tensor_type.shape.dim[0]
    assert first.dim_param and not first.HasField("dim_value")   # batch stays symbolic


def test_variables_are_frozen_into_initializers():
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")

    @tf.function(input_signature=[spec([None, 3])])
    def affine(x):
        return tf.matmul(x, w) + 1.0

    model, _ = tf_onnx.from_function(affine)
    assert [i.name for i in model.graph.initializer] == ["w"]
    x = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(run_onnx(model, x)[0], affine(x).numpy())


def test_input_names_and_symbolic_dimensions():
    @tf.function(input_signature=[spec([None, 4]), spec([], I32)])
    def f(features, k):
        return features[:, :k]

    model, _ = tf_onnx.from_function(f)
    assert [i.name for i in model.graph.input] == ["features", "k"]
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param == "features_dim0" and dims[1].dim_value == 4


def test_plain_function_with_signature_and_output_path(tmp_path):
    def double(x):
        return x * 2

    path = tmp_path / "double.onnx"
    model, _ = tf_onnx.from_function(double, input_signature=[spec([2], I32)],
                                     output_path=str(path))
    assert onnx.load(str(path)) == model
    assert run_onnx(model, np.array([3, 4], np.int32))[0].tolist() == [6, 8]


@pytest.mark.parametrize("opset", [13, 17, 21])
def test_opsets(opset):
    model, _ = tf_onnx.from_function(break_continue, input_signature=[spec([], I32)],
                                     opset=opset)
    assert model.opset_import[0].version == opset
    want = list(break_continue.python_function(9))      # plain Python: (27, 9)
    assert [int(v) for v in run_onnx(model, np.int32(9))] == want


# --- what cannot be exported ---------------------------------------------------------

def test_py_function_is_refused_naming_the_file_and_line():
    @tf.function(input_signature=[spec([])])
    def f(x):
        return tf.py_function(lambda v: v * 2, [x], tf.float32)

    with pytest.raises(tf_onnx.ExportError) as info:
        tf_onnx.from_function(f)
    message = str(info.value)
    assert "'EagerPyFunc'" in message and "cannot leave Python" in message
    assert "test_export.py:" in message


def test_bad_arguments():
    with pytest.raises(ValueError, match="opset 9 is not supported"):
        tf_onnx.from_function(break_continue, input_signature=[spec([], I32)], opset=9)
    with pytest.raises(ValueError, match="needs input_signature"):
        tf_onnx.from_function(lambda x: x)
    with pytest.raises(ValueError, match="has no input_signature"):
        tf_onnx.from_function(tf.function(lambda x: x))


def test_verify_names_the_first_differing_output():
    model, _ = tf_onnx.from_function(integer_division,
                                     input_signature=[spec([None], I32), spec([None], I32)])
    for node in model.graph.node:
        if node.op_type == "Mod":
            node.attribute[0].i = 1                      # fmod: C's truncating remainder
    with pytest.raises(AssertionError,
                       match=r"output 0 differs .* at \(0,\): ours -4, ONNX Runtime -3"):
        tf_onnx.verify(model, integer_division, np.array([-7], np.int32),
                       np.array([2], np.int32))


def test_recurrent_keras_model_exports_its_time_loop():
    tf.random.set_seed(0)
    inputs = tf.keras.Input(shape=(7, 3))
    h = tf.keras.layers.LSTM(5, return_sequences=True)(inputs)
    h = tf.keras.layers.GRU(4)(h)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(h))
    proto, _ = tf_onnx.from_keras(model)
    assert sum(n.op_type == "Loop" for n in proto.graph.node) == 2      # one per layer
    x = np.random.default_rng(0).normal(size=(3, 7, 3)).astype(np.float32)
    np.testing.assert_allclose(run_onnx(proto, x)[0], model(x).numpy(), rtol=1e-5, atol=1e-6)
