"""Keras numbers that differed from TensorFlow 2.21 (found by comparing
training runs): the first step
of a zero-initialized logistic regression, Keras 3's logits recovery, the
exclusive relu threshold, the clipped sparse cross-entropy, losses in floatx,
`losses.get` giving functions (and compile training with them), and the new
names (MSLE, MAPE, hard_sigmoid, hard_silu, mish). Every expected number is
TF 2.21's (Keras 3.15), recorded on the same inputs."""

import numpy as np
import pytest

import runtime as tf

K = tf.keras

X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -1.5], [2.0, 1.0], [0.0, -0.5], [-2.0, 1.0],
              [1.5, 0.0], [-0.5, -1.0]], np.float32)
Y = np.array([[1.0], [0.0], [0.0], [1.0], [1.0], [0.0], [1.0], [1.0]], np.float32)


def _zero_model(label_smoothing):
    model = K.Sequential([K.Input((2,)), K.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=K.optimizers.SGD(learning_rate=0.5),
                  loss=K.losses.BinaryCrossentropy(from_logits=True,
                                                   label_smoothing=label_smoothing))
    return model


@pytest.mark.parametrize("label_smoothing,kernel,bias", [
    (0.0, [0.203125, 0.046875], [0.0625]),
    (0.1, [0.18281249701976776, 0.04218750074505806], [0.05624999850988388])])
def test_zero_initialized_logistic_regression_first_fit_step(label_smoothing, kernel, bias):
    model = _zero_model(label_smoothing)
    history = model.fit(X, Y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [0.6931471824645996], rtol=1e-6)
    k, b = model.get_weights()
    np.testing.assert_allclose(k.ravel(), kernel, rtol=1e-6)
    np.testing.assert_allclose(b, bias, rtol=1e-6)


@pytest.mark.parametrize("traced", [False, True])
def test_zero_initialized_logistic_regression_tape_step(traced):
    w = tf.Variable(tf.zeros((2, 1)))
    b = tf.Variable(tf.zeros((1,)))

    def step():
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.constant(X), w) + b
            loss = tf.reduce_mean(K.losses.binary_crossentropy(Y, logits, from_logits=True))
        return (loss,) + tuple(tape.gradient(loss, [w, b]))

    loss, gw, gb = (tf.function(step) if traced else step)()
    assert float(loss) == pytest.approx(0.6931471824645996, rel=1e-6)
    np.testing.assert_allclose(gw.numpy().ravel(), [-0.40625, -0.09375], rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), [-0.12499997764825821], rtol=1e-6)


@pytest.mark.parametrize("traced", [False, True])
def test_cross_entropy_of_a_keras_sigmoid_uses_its_logits(traced):
    z = tf.Variable([[40.0], [-60.0]])
    y = np.array([[0.0], [1.0]], np.float32)

    def step(act):
        with tf.GradientTape() as tape:
            loss = K.losses.BinaryCrossentropy()(y, act(z))
        return loss, tape.gradient(loss, z)

    run = tf.function(step) if traced else step
    loss, grad = run(K.activations.sigmoid)
    # TF 2.21: 50.0 and [0.5, -0.5] (the logits' numbers), eagerly and traced
    assert float(loss) == pytest.approx(50.0)
    np.testing.assert_allclose(grad.numpy().ravel(), [0.5, -0.5], rtol=1e-6)
    if not traced:
        # an eager tf.sigmoid output carries no logits: clipped probabilities
        loss, grad = step(tf.sigmoid)
        assert float(loss) == pytest.approx(16.03023910522461, rel=1e-6)
        np.testing.assert_allclose(grad.numpy().ravel(), [0.0, 0.0])


def test_relu_threshold_is_exclusive_and_relu_takes_keras_arguments():
    x = tf.constant([0.0, 1.0, 2.0])
    np.testing.assert_allclose(K.layers.ReLU(threshold=1.0)(x).numpy(), [0.0, 0.0, 2.0])
    out = K.activations.relu(tf.constant([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]), negative_slope=0.1,
                             max_value=2.5, threshold=1.0)
    np.testing.assert_allclose(out.numpy(), [-0.3, -0.2, -0.1, 0.0, 2.0, 2.5], rtol=1e-6)
    v = tf.Variable([0.0, 3.0, 6.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(K.layers.ReLU(max_value=3.0)(v))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [0.0, 1.0, 0.0])


def test_sparse_categorical_crossentropy_clips_a_zero_probability():
    p = tf.Variable([[0.0, 1.0], [0.3, 0.7]])
    with tf.GradientTape() as tape:
        loss = K.losses.SparseCategoricalCrossentropy()(np.array([0, 1]), p)
    assert float(loss) == pytest.approx(8.237384796142578, rel=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, p).numpy(),
                               [[0.0, 0.0], [0.4999999701976776, -0.2142857313156128]],
                               rtol=1e-6)


def test_loss_objects_compute_in_floatx_functions_keep_the_dtype():
    t, p = tf.constant([1.0, 2.0], tf.float64), tf.constant([1.5, 2.0], tf.float64)
    assert K.losses.MeanSquaredError()(t, p).dtype == tf.float32
    assert K.losses.BinaryCrossentropy()(t / 2, p / 2).dtype == tf.float32
    assert K.losses.mse(t, p).dtype == tf.float64


def test_get_gives_the_per_sample_function_and_compile_trains_with_it():
    assert K.losses.get("mean_absolute_error") is K.losses.mae
    assert K.losses.get("MAE") is K.losses.mean_absolute_error
    assert K.losses.get("msle") is K.losses.mean_squared_logarithmic_error
    assert K.losses.get("mape") is K.losses.mean_absolute_percentage_error
    assert K.losses.get("kld") is K.losses.kl_divergence
    assert isinstance(K.losses.get("MeanAbsoluteError"), K.losses.MeanAbsoluteError)
    np.testing.assert_allclose(K.losses.get("mae")([[1.0, 2.0]], [[2.0, 4.0]]).numpy(), [1.5])
    for name in ("logcosh", "huber_loss"):
        with pytest.raises(ValueError, match=f"Could not interpret loss identifier: {name}"):
            K.losses.get(name)


@pytest.mark.parametrize("loss,value,weights", [
    ("mae", 1.25, [[0.9125000238418579, 0.8999999761581421], [0.0]]),
    ("msle", 0.18190397322177887, [[0.9841436147689819, 0.9790753126144409],
                                   [-0.012260365299880505]]),
    ("huber", 0.78125, [[0.925000011920929, 0.893750011920929], [-0.012500000186264515]]),
    ("mse", 1.875, [[0.8125, 0.6499999761581421], [-0.05000000074505806]])])
def test_compile_with_a_loss_name_takes_tf_step(loss, value, weights):
    x = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -1.5], [2.0, 1.0]], np.float32)
    y = np.array([[1.0], [0.0], [0.5], [2.0]], np.float32)
    model = K.Sequential([K.Input((2,)), K.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=K.optimizers.SGD(learning_rate=0.1), loss=loss)
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [value], rtol=1e-6)
    for got, want in zip(model.get_weights(), weights):
        np.testing.assert_allclose(got.ravel(), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,values,grads", [
    ("hard_sigmoid", [0.0, 0.0, 0.3333333432674408, 0.5, 0.6666666865348816, 1.0, 1.0],
     [0.0, 0.0, 0.1666666716337204, 0.1666666716337204, 0.1666666716337204, 0.0, 0.0]),
    ("hard_silu", [-0.0, -0.0, -0.3333333432674408, 0.0, 0.6666666865348816, 3.0, 4.0],
     [0.0, 0.0, 0.1666666716337204, 0.5, 0.8333333730697632, 1.0, 1.0]),
    ("mish", [-0.07259173691272736, -0.14564746618270874, -0.30340149998664856, 0.0,
              0.8650984168052673, 2.98653507232666, 3.9974124431610107],
     [-0.05377320572733879, -0.09339311718940735, 0.059216782450675964, 0.5999999642372131,
      1.0490362644195557, 1.0211069583892822, 1.004433512687683])])
def test_new_activations(name, values, grads):
    fn = K.activations.get(name)
    assert fn is getattr(K.activations, name)
    v = tf.Variable([-4.0, -3.0, -1.0, 0.0, 1.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        out = fn(v)
        total = tf.reduce_sum(out)
    np.testing.assert_allclose(out.numpy(), values, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(tape.gradient(total, v).numpy(), grads, rtol=1e-5, atol=1e-7)
    assert K.activations.serialize(fn) == name
    config = K.layers.Dense(2, activation=name).get_config()
    assert config["activation"] == name
    assert K.layers.Dense.from_config(config).activation is fn


def test_activation_aliases_serialize_as_keras():
    assert K.activations.get("hard_swish") is K.activations.hard_silu
    assert K.activations.serialize(K.activations.hard_swish) == "hard_silu"
    assert K.activations.serialize(K.activations.swish) == "silu"


def test_msle_and_mape():
    t, p = np.array([[0.0, 1.0, 3.0]]), np.array([[1.0, -1.0, 2.0]])
    assert float(K.losses.MeanSquaredLogarithmicError()(t, p)) == pytest.approx(
        0.34788891673088074, rel=1e-6)
    assert float(K.losses.MeanAbsolutePercentageError()(t, p)) == pytest.approx(
        333333408.0, rel=1e-6)
    assert K.losses.MeanSquaredLogarithmicError().get_config() == {
        "name": "mean_squared_logarithmic_error", "reduction": "sum_over_batch_size"}
    assert K.losses.MeanAbsolutePercentageError().get_config() == {
        "name": "mean_absolute_percentage_error", "reduction": "sum_over_batch_size"}


@pytest.mark.parametrize("loss", ["binary_crossentropy", "binary_focal_crossentropy", "bce"])
def test_fit_through_a_saturated_sigmoid_layer_uses_the_logits(loss):
    x = np.array([[3.0, 2.0], [-4.0, 1.0], [2.0, 2.0], [-3.0, -3.0]], np.float32)
    y = np.array([[0.0], [1.0], [1.0], [1.0]], np.float32)
    model = K.Sequential([K.Input((2,)), K.layers.Dense(
        1, activation="sigmoid", kernel_initializer=K.initializers.Constant(10.0))])
    model.compile(optimizer=K.optimizers.SGD(learning_rate=0.1),
                  loss=K.losses.BinaryCrossentropy() if loss == "bce" else loss)
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    # TF 2.21: the logits' loss and step (clipped probabilities would give ~8 and
    # no gradient through the saturated sigmoid)
    np.testing.assert_allclose(history.history["loss"], [35.0], rtol=1e-6)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel.ravel(), [9.75, 9.899999618530273], rtol=1e-6)
    np.testing.assert_allclose(bias, [0.02500000037252903], rtol=1e-6)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(34.26874923706055, rel=1e-6)


def test_fit_through_a_softmax_layer_with_sparse_labels():
    x = np.array([[3.0, 2.0], [-4.0, 1.0], [2.0, 2.0], [-3.0, -3.0]], np.float32)
    model = K.Sequential([K.Input((2,)), K.layers.Dense(
        3, kernel_initializer=K.initializers.Constant(10.0)), K.layers.Softmax()])
    model.compile(optimizer=K.optimizers.SGD(learning_rate=0.1),
                  loss="sparse_categorical_crossentropy")
    history = model.fit(x, np.array([0, 1, 2, 1]), batch_size=4, epochs=1, verbose=0,
                        shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [1.0986123085021973], rtol=2e-6)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel.ravel(), [10.091666221618652, 9.841666221618652,
                                                10.066666603088379, 10.033333778381348,
                                                9.933333396911621, 10.033333778381348],
                               rtol=1e-6)
    np.testing.assert_allclose(bias, [-0.008333335630595684, 0.01666666381061077,
                                      -0.008333335630595684], rtol=1e-5, atol=1e-8)


def test_cosine_similarity_metric():
    m = K.metrics.CosineSimilarity()
    m.update_state(np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]]),
                   np.array([[1.0, 0.0, 0.0], [2.0, 4.0, 4.0]]))
    assert float(m.result()) == pytest.approx(0.5)      # a zero vector counts as 0
    assert m.get_config() == {"name": "cosine_similarity", "dtype": "float32"}
    assert K.metrics.MeanSquaredLogarithmicError().get_config() == {
        "name": "mean_squared_logarithmic_error", "dtype": "float32"}
    assert isinstance(K.metrics.get("cosine_similarity"), K.metrics.CosineSimilarity)
