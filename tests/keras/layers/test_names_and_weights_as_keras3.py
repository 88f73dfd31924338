"""Names, weights and regularizers as Keras 3.15 on TF 2.21 makes them (recorded from
keras.io's guides and Keras 3.15)."""

import numpy as np

import runtime as tf
import runtime.keras as keras


def test_initializer_is_called_with_dtype_as_keyword():
    # TF's basics guide: Dense(kernel_initializer=tf.random.normal) builds
    model = keras.Sequential([keras.layers.Dense(units=1, kernel_initializer=tf.random.normal)])
    assert model(tf.ones([2, 2])).shape == (2, 1)
    assert keras.Variable(initializer=tf.random.normal, shape=(2,)).shape == (2,)


def test_unnamed_weights_are_variable_variable_1():
    class Custom(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=[input_shape[-1], 3], initializer="zeros")
            self.b = self.add_weight(shape=[3], initializer="zeros")

        def call(self, x):
            return x @ self.w + self.b

    layer = Custom()
    layer(tf.ones([1, 3]))
    first, second = (v.path.split("/")[-1] for v in layer.weights)
    # Keras 3: "variable", then "variable_1" (one counter for the process)
    assert second == (("variable_1" if first == "variable" else
                       f"variable_{int(first.rsplit('_', 1)[1]) + 1}"))


def test_regularizer_configs_keep_keras3_numbers():
    # Keras 3.15: L2 and L1L2 keep Python floats, L1 and Orthogonal float32 tensors
    assert keras.regularizers.L1L2(1e-5, 1e-4).get_config() == {"l1": 1e-05, "l2": 0.0001}
    assert keras.regularizers.L1L2(0.3).get_config() == {"l1": 0.3, "l2": 0.0}
    assert keras.regularizers.L2(0.3).get_config() == {"l2": 0.3}
    assert keras.regularizers.L1(0.3).get_config() == {"l1": 0.30000001192092896}
    assert keras.regularizers.OrthogonalRegularizer(0.3).get_config() == \
        {"factor": 0.30000001192092896, "mode": "rows"}


def _number(name):
    return int(name.rsplit("_", 1)[1]) if name[-1].isdigit() else 0


def _functional_number():
    x = keras.Input(shape=(1,))
    return _number(keras.Model(x, keras.layers.Dense(1)(x)).name)


def test_a_sequential_built_by_data_takes_keras3_names():
    # Keras 3.15 builds a Functional on an InputLayer: keras.io's migrating guide
    # shows keras_tensor_5 / functional_1 after such a model (TF takes one
    # input_layer, 1 + len(layers) keras_tensor and one functional name)
    tensors, functionals = _number(keras.Input(shape=(1,)).name), _functional_number()
    model = keras.Sequential([keras.layers.Dense(2), keras.layers.Dense(1)])
    model(tf.ones([3, 5]))
    assert _functional_number() == functionals + 2
    # TF 2.21: 8 (2 for each Model above, 3 for the Sequential, this Input)
    assert _number(keras.Input(shape=(1,)).name) == tensors + 2 + 3 + 2 + 1


def test_dense_takes_a_sparse_input_as_keras3():
    # TF's sparse_tensor guide: a Dense layer on Input(sparse=True) multiplies the
    # SparseTensor (Keras 3 on TF: tf.sparse.sparse_dense_matmul)
    x = keras.Input(shape=(4,), sparse=True)
    model = keras.Model(x, keras.layers.Dense(2, kernel_initializer="ones")(x))
    sparse = tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (2, 3)],
                                    values=[1.0, 2.0, 3.0, 4.0], dense_shape=(3, 4))
    assert model(sparse).numpy().tolist() == [[6.0, 6.0], [0.0, 0.0], [4.0, 4.0]]
    got = model.predict(sparse, batch_size=2, verbose=0)      # row batches, as Keras 3 on TF
    assert got.tolist() == [[6.0, 6.0], [0.0, 0.0], [4.0, 4.0]] and got.dtype == np.float32
