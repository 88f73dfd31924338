"""More of Keras 3's losses, checked against Keras 3: each loss on fixed data, without
and with per-sample weights, eagerly and traced by tf.function. The expected
values were recorded from TensorFlow 2.21 with Keras 3 on the same data."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.losses
rng = np.random.RandomState(2)
yb = (rng.rand(6, 3) > 0.5).astype("float32")
pb = rng.rand(6, 3).astype("float32")
lb = (rng.randn(6, 3) * 2).astype("float32")
yc = np.eye(4, dtype="float32")[rng.randint(0, 4, 6)]
pc = rng.rand(6, 4).astype("float32")
lc = (rng.randn(6, 4) * 2).astype("float32")
yr = rng.randn(6, 3).astype("float32")
pr = (yr + rng.randn(6, 3)).astype("float32")
w = rng.rand(6).astype("float32")
ypos = rng.rand(6, 3).astype("float32") * 3
yh = np.sign(rng.randn(6, 3)).astype("float32")

CASES = {
    "huber": (lambda: L.Huber(), yr, pr),
    "huber_d": (lambda: L.Huber(delta=0.5), yr, pr),
    "kld": (lambda: L.KLDivergence(), pc / pc.sum(1, keepdims=True), yc * 0.9 + 0.025),
    "logcosh": (lambda: L.LogCosh(), yr, pr),
    "poisson": (lambda: L.Poisson(), ypos, pb + 0.1),
    "cosine": (lambda: L.CosineSimilarity(), yr, pr),
    "cosine_ax0": (lambda: L.CosineSimilarity(axis=0), yr.T, pr.T),
    "hinge01": (lambda: L.Hinge(), yb, lb),
    "hinge_pm": (lambda: L.Hinge(), yh, lb),
    "sqhinge": (lambda: L.SquaredHinge(), yb, lb),
    "bfocal": (lambda: L.BinaryFocalCrossentropy(), yb, pb),
    "bfocal_bal": (lambda: L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3,
                                                     gamma=1.5), yb, pb),
    "bfocal_logits_ls": (lambda: L.BinaryFocalCrossentropy(from_logits=True,
                                                           label_smoothing=0.2), yb, lb),
    "cfocal": (lambda: L.CategoricalFocalCrossentropy(), yc, pc),
    "cfocal_logits_ls": (lambda: L.CategoricalFocalCrossentropy(
        from_logits=True, label_smoothing=0.1, alpha=0.5, gamma=1.0), yc, lc),
    "bce_ls": (lambda: L.BinaryCrossentropy(label_smoothing=0.1), yb, pb),
    "bce_logits": (lambda: L.BinaryCrossentropy(from_logits=True), yb, lb),
    "cce_ls_logits": (lambda: L.CategoricalCrossentropy(from_logits=True,
                                                        label_smoothing=0.2), yc, lc),
    "scce_logits": (lambda: L.SparseCategoricalCrossentropy(from_logits=True),
                    yc.argmax(1), lc),
}

# Keras 3 (TF 2.21): (loss, loss with sample_weight=w, loss.name)
EXPECTED = {
    "huber": (0.357053, 0.170695, "huber_loss"),
    "huber_d": (0.253955, 0.123632, "huber_loss"),
    "kld": (1.39882, 0.750278, "kl_divergence"),
    "logcosh": (0.312967, 0.149644, "log_cosh"),
    "poisson": (1.81942, 0.967628, "poisson"),
    "cosine": (-0.786059, -0.367424, "cosine_similarity"),
    "cosine_ax0": (-0.786059, -0.367424, "cosine_similarity"),
    "hinge01": (1.068929, 0.517112, "hinge"),
    "hinge_pm": (1.488525, 0.820189, "hinge"),
    "sqhinge": (2.863838, 1.348841, "squared_hinge"),
    "bfocal": (0.282839, 0.111354, "binary_focal_crossentropy"),
    "bfocal_bal": (0.157569, 0.057327, "binary_focal_crossentropy"),
    "bfocal_logits_ls": (0.394152, 0.185093, "binary_focal_crossentropy"),
    "cfocal": (0.193166, 0.118346, "categorical_focal_crossentropy"),
    "cfocal_logits_ls": (0.883777, 0.364673, "categorical_focal_crossentropy"),
    "bce_ls": (0.695707, 0.312816, "binary_crossentropy"),
    "bce_logits": (0.84221, 0.405717, "binary_crossentropy"),
    "cce_ls_logits": (2.052392, 0.891186, "categorical_crossentropy"),
    "scce_logits": (1.961125, 0.827552, "sparse_categorical_crossentropy"),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_loss_matches_keras(name, traced):
    make, y_true, y_pred = CASES[name]
    loss = make()
    plain, weighted, loss_name = EXPECTED[name]

    def both(t, p, sw):
        return loss(t, p), loss(t, p, sample_weight=sw)
    run = tf.function(both) if traced else both
    got, got_weighted = run(tf.constant(y_true), tf.constant(y_pred), tf.constant(w))
    assert float(got) == pytest.approx(plain, abs=2e-6, rel=2e-6)
    assert float(got_weighted) == pytest.approx(weighted, abs=2e-6, rel=2e-6)
    assert loss.name == loss_name
    clone = type(loss).from_config(loss.get_config())
    assert float(clone(y_true, y_pred)) == pytest.approx(plain, abs=2e-6, rel=2e-6)


def test_losses_by_name_and_in_compile():
    for name, cls in (("huber", "Huber"), ("kld", "KLDivergence"), ("log_cosh", "LogCosh"),
                      ("poisson", "Poisson"), ("cosine_similarity", "CosineSimilarity"),
                      ("hinge", "Hinge"), ("squared_hinge", "SquaredHinge"),
                      ("binary_focal_crossentropy", "BinaryFocalCrossentropy"),
                      ("categorical_focal_crossentropy", "CategoricalFocalCrossentropy")):
        # Keras 3 (TF 2.21): the name gives the per-sample function, the class name
        # an instance
        assert L.get(name) is getattr(L, "kl_divergence" if name == "kld" else name)
        assert type(L.get(cls)).__name__ == cls
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(3)])
    model.compile(optimizer="sgd", loss="huber")
    model.set_weights([np.eye(3, dtype="float32"), np.zeros(3, "float32")])
    # the model is the identity: the loss is Huber(yr, pr) with pr the input
    assert model.evaluate(pr, yr, verbose=0) == pytest.approx(EXPECTED["huber"][0], abs=2e-6)
    with pytest.raises(ValueError, match="Could not interpret loss identifier: hubber"):
        L.get("hubber")
