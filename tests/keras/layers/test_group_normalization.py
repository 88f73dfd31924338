"""GroupNormalization against TF 2.21's Keras 3: outputs for
the same inputs and weights, and the gradient of gamma and beta."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.layers
X = np.arange(24, dtype="float32").reshape(2, 3, 4) ** 1.5
W = np.arange(24, dtype="float32").reshape(2, 3, 4)

# TF 2.21: GroupNormalization(groups=2)(X)[0]
PLAIN = [[-1.1456350088119507, -1.0471669435501099, -1.2351900339126587, -1.045233964920044],
         [-0.3578929901123047, -0.044732000678777695, -0.2830120027065277, 0.023722000420093536],
         [1.0824350118637085, 1.5129929780960083, 1.074902057647705, 1.4648139476776123]]


@pytest.mark.parametrize("traced", [False, True])
def test_group_normalization_matches_keras(traced):
    layer = L.GroupNormalization(groups=2, axis=-1)
    run = tf.function(layer) if traced else layer
    np.testing.assert_allclose(run(tf.constant(X)).numpy()[0], PLAIN, rtol=1e-5, atol=1e-6)
    assert [w.name for w in layer.weights] == ["gamma", "beta"]        # TF 2.21's order
    out = L.GroupNormalization(groups=2, epsilon=0.1, center=False)(X).numpy()
    np.testing.assert_allclose(out[1, 0], [-1.3170289993286133, -1.053138017654419,
                                           -1.322111964225769, -1.053794026374817], rtol=1e-5)
    out = L.GroupNormalization(groups=-1, axis=1)(X).numpy()          # instance normalization
    np.testing.assert_allclose(out[1, 2], [-1.3311280012130737, -0.45766401290893555,
                                           0.43685299158096313, 1.3519370555877686], rtol=1e-5)


def test_group_normalization_weights_and_gradient():
    layer = L.GroupNormalization(groups=2, gamma_initializer=tf.keras.initializers.Constant(
        [1., 2., 0.5, -1.]), beta_initializer=tf.keras.initializers.Constant([.1, .2, .3, .4]))
    with tf.GradientTape() as tape:
        y = layer(tf.constant(X))
        loss = tf.reduce_sum(y * W)
    np.testing.assert_allclose(y.numpy()[0], [   # TF 2.21, same weights
        [-1.0456349849700928, -1.8943339586257935, -0.3175950050354004, 1.445233941078186],
        [-0.25789299607276917, 0.11053500324487686, 0.1584939956665039, 0.37627801299095154],
        [1.1824350357055664, 3.2259860038757324, 0.8374509811401367, -1.0648139715194702]],
        rtol=1e-5, atol=1e-6)
    grads = tape.gradient(loss, layer.trainable_weights)
    np.testing.assert_allclose(grads[0].numpy(), [9.517149925231934, 29.866790771484375,
                                                  7.976960182189941, 31.55978012084961],
                               rtol=1e-4)
    np.testing.assert_allclose(grads[1].numpy(), [60.0, 66.0, 72.0, 78.0])


def test_group_normalization_checks_and_config():
    with pytest.raises(ValueError, match=r"Number of groups \(3\) must be a multiple of the "
                                         r"number of channels \(4\)"):
        L.GroupNormalization(groups=3)(X)
    with pytest.raises(ValueError, match="cannot be more than"):
        L.GroupNormalization()(X)                          # 32 groups, 4 channels
    with pytest.raises(ValueError, match="invalid value for argument `groups`"):
        L.GroupNormalization(groups=0)
    layer = L.GroupNormalization(groups=2, epsilon=0.1, center=False)
    config = layer.get_config()
    assert {k: config[k] for k in ("groups", "axis", "epsilon", "center", "scale")} == {
        "groups": 2, "axis": -1, "epsilon": 0.1, "center": False, "scale": True}
    assert L.deserialize(L.serialize(layer)).get_config() == config
    assert tuple(L.GroupNormalization(groups=2)(tf.keras.Input((3, 4))).shape) == (None, 3, 4)
