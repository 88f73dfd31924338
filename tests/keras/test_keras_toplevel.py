"""Keras 3's top-level names on `runtime.keras`: the aliases of the classes
in the submodules, `keras.Variable`, `InputSpec`, `DTypePolicy`,
`name_scope`, `device` and `version`. Reprs, paths, dtypes and messages are
TF 2.21's Keras 3.15 recorded values; with `runtime` aliased to TF (and
`tf.keras` to Keras 3.15) every test here passes but
`test_mixed_policies_are_refused`, a deliberate difference."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras


def test_aliases_are_the_submodules_classes():
    assert keras.Layer is keras.layers.Layer
    assert keras.InputSpec is keras.layers.InputSpec
    assert keras.Initializer is keras.initializers.Initializer
    assert keras.Loss is keras.losses.Loss
    assert keras.Metric is keras.metrics.Metric
    assert keras.Optimizer is keras.optimizers.Optimizer
    assert keras.Regularizer is keras.regularizers.Regularizer
    assert keras.Model is keras.models.Model and keras.Sequential is keras.models.Sequential
    assert isinstance(keras.layers.Dense(1), keras.Layer)
    assert isinstance(keras.losses.MeanSquaredError(), keras.Loss)
    assert isinstance(keras.optimizers.SGD(), keras.Optimizer)


def test_version():
    assert keras.version() == "3.15.1" and keras.__version__ == "3.15.1"


def test_variable_from_values():
    keras.backend.clear_session()
    v = keras.Variable(initializer=np.ones((2, 3)), name="w")
    assert repr(v) == ("<Variable path=w, shape=(2, 3), dtype=float64, value=[[1. 1. 1.]\n"
                       " [1. 1. 1.]]>")
    assert (v.name, v.path, v.dtype, v.shape, v.ndim, v.trainable) == \
        ("w", "w", tf.float64, (2, 3), 2, True)
    np.testing.assert_array_equal(v.value.numpy(), np.ones((2, 3)))   # a property
    v.assign(np.zeros((2, 3)))
    v.assign_add(np.ones((2, 3)))
    assert v.numpy().sum() == 6.0
    # TF 2.21's Keras 3: dtypes inferred as below, names "variable", "variable_1", ...
    cases = [(3, "int32", ()), (3.0, "float32", ()), ([1, 2], "int32", (2,)),
             ([1.0, 2.0], "float32", (2,)), (np.ones(2, "float32"), "float32", (2,)),
             (np.ones(2, "int64"), "int64", (2,)), (True, "bool", ())]
    made = [keras.Variable(value) for value, _, _ in cases]
    for var, (_, dtype, shape) in zip(made, cases):
        assert (tf.as_dtype(var.dtype), tuple(var.shape)) == (tf.as_dtype(dtype), shape)
    assert [var.name for var in made[:3]] == ["variable", "variable_1", "variable_2"]
    cast = keras.Variable(np.ones(2), dtype="int32")
    assert cast.dtype == tf.int32 and cast.numpy().tolist() == [1, 1]
    assert (v + 1).numpy().sum() == 12.0 and float(keras.Variable(3.0) * 2) == 6.0


def test_variable_from_initializers():
    v = keras.Variable("ones", shape=(2,), dtype="int32", name="ones")
    assert repr(v) == "<Variable path=ones, shape=(2,), dtype=int32, value=[1 1]>"
    assert keras.Variable(keras.initializers.RandomNormal(seed=1), shape=(2,)).dtype == \
        tf.float32
    frozen = keras.Variable(keras.initializers.Ones(), shape=(2,), dtype="float16",
                            trainable=False)
    assert frozen.dtype == tf.float16 and frozen.trainable is False
    frozen.trainable = True
    assert frozen.trainable is True
    assert (frozen.aggregation, frozen.synchronization) == ("none", "auto")
    with pytest.raises(ValueError, match="When creating a Variable from an initializer, the "
                                         "`shape` argument should be specified"):
        keras.Variable(keras.initializers.Ones())


def test_variable_errors_as_keras():
    with pytest.raises(ValueError, match="Argument `name` must be a string and cannot contain "
                                         "character `/`. Received: name=a/b"):
        keras.Variable(1.0, name="a/b")
    with pytest.raises(ValueError, match="Argument `name` must be a string"):
        keras.Variable(1.0, name=3)
    with pytest.raises(ValueError, match="Invalid value for argument `aggregation`. Expected "
                                         "one of `None`, `'none'`, `'mean'`, `'sum'`, "
                                         "`'only_first_replica'`. Received: aggregation=bad"):
        keras.Variable(1.0, aggregation="bad")
    with pytest.raises(ValueError, match="Invalid value for argument `synchronization`"):
        keras.Variable(1.0, synchronization="bad")


def test_variable_in_functions_and_tapes():
    v = keras.Variable(np.array([1.0, 2.0], "float32"), name="x")

    @tf.function
    def step():
        v.assign(v.value * 2)
        return v.value + 1

    assert step().numpy().tolist() == [3.0, 5.0] and v.numpy().tolist() == [2.0, 4.0]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v)
    assert tape.gradient(loss, v).numpy().tolist() == [4.0, 8.0]


def test_layer_weights_are_keras_variables():
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    assert isinstance(layer.kernel, keras.Variable)
    assert not isinstance(tf.Variable(1.0), keras.Variable)


def test_name_scope_paths():
    keras.backend.clear_session()
    with keras.name_scope("blk") as scope:
        assert scope.name == "blk"
        dense = keras.layers.Dense(2)
        dense.build((None, 3))
        with keras.name_scope("inner"):
            inner = keras.Variable(1.0, name="x")
    # TF 2.21's Keras 3: "blk/dense/kernel" and "blk/inner/x"
    assert dense.kernel.path == "blk/dense/kernel" and inner.path == "blk/inner/x"
    assert keras.Variable(1.0, name="y").path == "y"
    with keras.name_scope("outer"):
        with keras.name_scope("abs", override_parent="root/sub"):
            assert keras.Variable(1.0, name="z").path == "root/sub/abs/z"
    owner = object()
    with keras.name_scope("same", caller=owner):
        with keras.name_scope("same", caller=owner):          # deduplicated
            assert keras.Variable(1.0, name="d").path == "same/d"
    with pytest.raises(ValueError, match="Argument `name` must be a string and cannot contain "
                                         "character `/`. Received: name=a/b"):
        keras.name_scope("a/b")


def test_name_scope_names_graph_ops():
    @tf.function
    def f(x):
        with keras.name_scope("blk"):
            return x + 1

    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    assert any(op.name.startswith("blk/") for op in graph.get_operations())


def test_device_scope():
    with keras.device("cpu:0"):
        x = tf.constant(1.0) + 1
    with keras.device("gpu:0"):                   # soft placement, as TF without a GPU
        y = tf.constant(2.0) * 2
    assert float(x) == 2.0 and float(y) == 4.0


def test_input_spec_as_keras():
    # TF 2.21's Keras 3 reprs and config
    assert repr(keras.InputSpec(ndim=2)) == "InputSpec(ndim=2)"
    assert repr(keras.InputSpec(shape=(None, 3))) == "InputSpec(shape=(None, 3), ndim=2)"
    assert repr(keras.InputSpec(min_ndim=2, axes={-1: 4})) == "InputSpec(min_ndim=2, axes={-1: 4})"
    spec = keras.InputSpec(dtype="float32", ndim=3, max_ndim=4, name="x",
                           allow_last_axis_squeeze=True)
    assert repr(spec) == "InputSpec(dtype=float32, ndim=3, max_ndim=4)"
    spec = keras.InputSpec(shape=(None, 3))
    assert spec.get_config() == {"dtype": None, "shape": (None, 3), "ndim": 2,
                                 "max_ndim": None, "min_ndim": None, "axes": {},
                                 "optional": False}
    assert repr(keras.InputSpec.from_config(spec.get_config())) == \
        "InputSpec(shape=(None, 3), ndim=2)"
    with pytest.raises(ValueError, match="Axis 2 is greater than the maximum allowed value: 1"):
        keras.InputSpec(ndim=2, axes={2: 3})
    with pytest.raises(TypeError, match="Argument `axes` must be a dict with integer keys"):
        keras.InputSpec(axes={"a": 3})


def test_input_spec_checks_dtype_and_squeezes():
    class Typed(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.input_spec = keras.InputSpec(dtype="int32", name="ids")

        def call(self, x):
            return x

    with pytest.raises(ValueError, match="Input 0 with name 'ids' of layer 'typed' is "
                                         "incompatible with the layer: expected "
                                         "dtype=int32, found dtype=float32"):
        Typed(name="typed")(np.ones((2, 3), "float32"))
    assert Typed()(np.ones((2, 3), "int32")).dtype == tf.int32

    class Squeezing(keras.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.input_spec = keras.InputSpec(shape=(None, 3), allow_last_axis_squeeze=True)

        def call(self, x):
            return x

    assert Squeezing()(np.ones((2, 3, 1), "float32")).shape == (2, 3, 1)


def test_dtype_policy_as_keras():
    P = keras.DTypePolicy
    p = P("float32")
    # TF 2.21's Keras 3
    assert repr(p) == '<DTypePolicy "float32">' and str(p) == '<DTypePolicy "float32">'
    assert (p.name, p.compute_dtype, p.variable_dtype, p.quantization_mode) == \
        ("float32", "float32", "float32", None)
    assert p.get_config() == {"name": "float32"}
    mixed = P("mixed_float16")
    assert (mixed.compute_dtype, mixed.variable_dtype) == ("float16", "float32")
    assert (P("mixed_bfloat16").compute_dtype, P("int32").compute_dtype) == ("bfloat16", "int32")
    assert repr(P()) == '<DTypePolicy "float32">'
    assert P("float32") == P("float32") and P("float32") != P("float64")
    assert repr(P.from_config({"name": "float16"})) == '<DTypePolicy "float16">'
    floaty = keras.FloatDTypePolicy("float64")
    assert isinstance(floaty, P) and repr(floaty) == '<DTypePolicy "float64">'
    assert floaty == P("float64")
    with pytest.raises(TypeError, match="'name' must be a string, such as 'mixed_float16'. "
                                        "Received: name=3"):
        P(3)
    with pytest.raises(ValueError, match="Cannot convert 'foo' to a mixed precision "
                                         "DTypePolicy"):
        P("foo")
    with pytest.raises(AttributeError):
        p.name = "x"


def test_layers_take_dtype_policies():
    layer = keras.layers.Dense(2, dtype=keras.DTypePolicy("float64"))
    out = layer(np.ones((1, 3)))
    # TF 2.21's Keras 3: float64 everywhere, and the policy in the config
    assert (layer.dtype, layer.compute_dtype, layer.variable_dtype) == ("float64",) * 3
    assert repr(layer.dtype_policy) == '<DTypePolicy "float64">'
    assert layer.kernel.dtype == tf.float64 and out.dtype == tf.float64
    assert layer.get_config()["dtype"] == {"module": "keras", "class_name": "DTypePolicy",
                                           "config": {"name": "float64"},
                                           "registered_name": None}
    assert repr(keras.layers.Dense(2).dtype_policy) == '<DTypePolicy "float32">'
    assert keras.layers.Dense(2, dtype="float16").dtype_policy == keras.DTypePolicy("float16")


def test_mixed_policy_layer():
    # Keras 3.15: float32 weights, float16 compute (tests/keras/test_keras_breadth_misc.py
    # compares a training run; tests/runtime/core/test_bfloat16.py "mixed_bfloat16")
    layer = keras.layers.Dense(2, dtype=keras.DTypePolicy("mixed_float16"))
    assert (layer.dtype, layer.compute_dtype) == ("float32", "float16")
    layer = keras.layers.Dense(2, dtype="mixed_bfloat16")
    assert (layer.dtype, layer.compute_dtype) == ("float32", "bfloat16")


def test_bfloat16_dense_layers_compute_as_keras_on_tf():
    # Keras 3.15 on TF 2.21: a sigmoid Dense under "mixed_bfloat16" (float32 kernel)
    # and under "bfloat16"; the outputs bit for bit, the kernel after two SGD
    # steps to 1e-4 (TF's graph fuses MatMul+BiasAdd+Sigmoid, rounding once).
    x = np.random.default_rng(0).uniform(-1, 1, (3, 4)).astype(np.float32)
    want = [0.55859375, 0.46484375, 0.375, 0.57421875, 0.66796875, 0.74609375, 0.484375,
            0.51171875, 0.5390625]
    trained = {"mixed_bfloat16": [-0.99533689, -0.81404364, -0.63281137, -0.44802690],
               "bfloat16": [-0.9921875, -0.80859375, -0.63671875, -0.447265625]}
    for policy, kernel in trained.items():
        layer = keras.layers.Dense(3, dtype=policy, activation="sigmoid",
                                   kernel_initializer=keras.initializers.Constant(
                                       np.linspace(-1, 1, 12).reshape(4, 3)),
                                   bias_initializer="ones")
        y = layer(x)
        assert y.dtype == tf.bfloat16
        assert layer.kernel.dtype == ("float32" if policy.startswith("mixed") else "bfloat16")
        assert np.asarray(y).astype(np.float32).ravel().tolist() == want
        model = keras.Sequential([keras.Input((4,)), layer])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        model.fit(x, np.ones((3, 3), np.float32), epochs=2, verbose=0)
        np.testing.assert_allclose(np.asarray(layer.kernel).astype(np.float32).ravel()[:4],
                                   kernel, atol=1e-4)


def _two_input_graph():
    x, y = keras.Input((3,), name="x"), keras.Input((3,), name="y")
    h = keras.layers.Dense(2, kernel_initializer="ones")(x)
    out = keras.layers.Add()([h, keras.layers.Dense(2, kernel_initializer="ones")(y)])
    return x, y, out


def test_function_runs_its_graph():
    keras.backend.clear_session()
    x, y, out = _two_input_graph()
    f = keras.Function([x, y], out, name="fn")
    # TF 2.21's Keras 3: repr, operations in this order, 6.0 everywhere
    assert repr(f) == "<Operation name=fn>" and f.name == "fn"
    assert [op.name for op in f.operations] == ["x", "y", "dense", "dense_1", "add"]
    assert f.inputs == [x, y] and f.outputs == [out]
    ones = np.ones((1, 3), "float32")
    assert f([ones, ones]).numpy().tolist() == [[6.0, 6.0]]
    traced = tf.function(lambda a, b: f([a, b]))
    assert traced(tf.constant(ones), tf.constant(ones)).numpy().tolist() == [[6.0, 6.0]]
    named = keras.Function({"a": x, "b": y}, {"o": out})
    assert named({"a": ones, "b": ones})["o"].numpy().tolist() == [[6.0, 6.0]]
    g = keras.Function(x, keras.layers.Dense(2, kernel_initializer="ones")(x) * 2 + 1)
    assert [op.name for op in g.operations] == ["x", "dense_2", "multiply", "add_1"]
    assert g(np.ones((2, 3), "float32")).numpy().tolist() == [[7.0, 7.0], [7.0, 7.0]]


def test_function_shapes_and_symbolic_calls():
    x, y, out = _two_input_graph()
    f = keras.Function([x, y], out)
    spec = f.compute_output_spec([keras.KerasTensor((None, 3)), keras.KerasTensor((None, 3))])
    assert isinstance(spec, keras.KerasTensor) and spec.shape == (None, 2)
    assert f.compute_output_shape([(None, 3), (None, 3)]) == (None, 2)
    a, b = keras.Input((3,)), keras.Input((3,))
    model = keras.Model([a, b], f([a, b]))
    ones = np.ones((1, 3), "float32")
    assert model([ones, ones]).numpy().tolist() == [[6.0, 6.0]]


def test_function_errors_as_keras():
    x, y, out = _two_input_graph()
    f = keras.Function([x, y], out)
    ones = np.ones((1, 3))
    with pytest.raises(ValueError, match="Function was called with an invalid input "
                                         "structure. Expected input structure: "):
        f((ones, ones))
    with pytest.raises(ValueError, match=r"Function was passed incompatible inputs. For input "
                                         r"'x', expected shape \(None, 3\), but received "
                                         r"instead a tensor with shape \(1, 4\)."):
        f([np.ones((1, 4)), ones])
    with pytest.raises(ValueError, match="`inputs` argument cannot be empty"):
        keras.Function([], out)
