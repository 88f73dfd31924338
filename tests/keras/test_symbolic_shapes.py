"""Static shapes of layers called on KerasTensors, against Keras 3 (TF 2.21).

Keras 3 takes a layer's output shape from its `compute_output_shape` when the
layer defines one, not from the shapes the traced call infers: `Concatenate`
of (None, 3) and (4, 3) is (None, 6), `Reshape((-1, 1))` of (None, None) is
(None, None, 1). The expected shapes below were read off Keras by hand."""

import pytest

import runtime as tf

layers = tf.keras.layers

CASES = [
    # (layer factory, input batch shapes, Keras's output shape)
    (lambda: layers.Concatenate(), [(None, 3), (4, 3)], (None, 6)),
    (lambda: layers.Concatenate(), [(4, 3), (None, 3)], (4, 6)),
    (lambda: layers.Concatenate(axis=0), [(None, 3), (4, 3)], (None, 3)),
    (lambda: layers.Concatenate(), [(None, None), (None, 3)], (None, None)),
    (lambda: layers.Concatenate(), [(2, None, 3), (2, 5, 4)], (2, None, 7)),
    (lambda: layers.Reshape((-1, 1)), [(None, None)], (None, None, 1)),
    (lambda: layers.Reshape((-1, 1)), [(None, 6)], (None, 6, 1)),
    (lambda: layers.Reshape((2, -1)), [(None, None, 3)], (None, 2, None)),
    (lambda: layers.Reshape((3, 2)), [(None, None)], (None, 3, 2)),
    (lambda: layers.Reshape((-1,)), [(None, 2, None)], (None, None)),
    (lambda: layers.Add(), [(None, 3), (4, 3)], (4, 3)),
    (lambda: layers.Add(), [(4, 3), (None, 3)], (4, 3)),
    (lambda: layers.Add(), [(None, 1), (None, 3)], (None, 3)),
    (lambda: layers.Add(), [(None, None), (None, 1)], (None, None)),
    (lambda: layers.Add(), [(None, 1, 3), (None, 3)], (None, 1, 3)),
    (lambda: layers.Add(), [(None, 2, 1), (None, 1, 3)], (None, 2, 3)),
    (lambda: layers.Multiply(), [(None, 3), (4, 1)], (4, 3)),
    (lambda: layers.Maximum(), [(None, None, 3), (None, 5, 1)], (None, None, 3)),
    (lambda: layers.Dense(5), [(None, None, 3)], (None, None, 5)),
    (lambda: layers.Flatten(), [(None, None, 3)], (None, None)),
    (lambda: layers.Flatten(), [(4, 2, 3)], (4, 6)),
    (lambda: layers.Flatten(), [(None, 2, None)], (None, None)),
    (lambda: layers.Embedding(10, 4), [(None, None)], (None, None, 4)),
    (lambda: layers.Conv2D(4, 3), [(None, None, None, 3)], (None, None, None, 4)),
    (lambda: layers.Conv2D(4, 3, padding="same"), [(None, 8, None, 3)], (None, 8, None, 4)),
    (lambda: layers.MaxPooling2D(), [(None, None, None, 3)], (None, None, None, 3)),
    (lambda: layers.Dropout(0.5), [(None, None)], (None, None)),
    (lambda: layers.BatchNormalization(), [(None, None, 3)], (None, None, 3)),
]


@pytest.mark.parametrize("make, shapes, expected", CASES)
def test_output_shape_matches_keras(make, shapes, expected):
    inputs = [tf.keras.Input(batch_shape=s) for s in shapes]
    out = make()(inputs if len(inputs) > 1 else inputs[0])
    assert out.shape == expected


@pytest.mark.parametrize("make", [layers.Add, layers.Average])
def test_merging_different_batch_sizes_is_an_error(make):
    a, b = tf.keras.Input(batch_shape=(2, 3)), tf.keras.Input(batch_shape=(4, 3))
    with pytest.raises(ValueError, match=r"Cannot merge tensors with different batch sizes. "
                       r"Received tensors with shapes \[\(2, 3\), \(4, 3\)\]"):
        make()([a, b])


def test_model_output_shape_uses_the_declared_shape():
    a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(batch_shape=(4, 3))
    model = tf.keras.Model([a, b], layers.Concatenate()([a, b]))
    assert model.output.shape == (None, 6)
    out = model([tf.ones([4, 3]), tf.ones([4, 3])])
    assert out.shape == (4, 6)


def test_a_user_layer_compute_output_shape_is_used():
    class Pad(layers.Layer):
        def call(self, x):
            return tf.concat([x, x], axis=-1)

        def compute_output_shape(self, input_shape):
            return (input_shape[0], None)

    out = Pad()(tf.keras.Input(shape=(3,)))
    assert out.shape == (None, None)
