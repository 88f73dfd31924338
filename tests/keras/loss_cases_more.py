"""Loss and activation cases shared by tests/keras/test_losses_activations_more.py
and tools/record_keras_losses_more.py (which records Keras 3.15's values)."""

import numpy as np

_R = np.random.RandomState(3)
MASKS = (_R.rand(2, 4, 3) > 0.5).astype("float32")
PROBS = _R.rand(2, 4, 3).astype("float32")
SOFT = _R.dirichlet(np.ones(4), size=5).astype("float32")
LABELS = np.array([0, 3, 1, 1, 2], "int32")
_EMB = _R.randn(6, 4)
EMB = (_EMB / np.linalg.norm(_EMB, axis=1, keepdims=True)).astype("float32")
EMB_LABELS = np.array([0, 1, 0, 2, 1, 0], "int32")

CTC_LABELS = np.array([[1, 2, 2, 0], [3, 0, 0, 0], [2, 1, 3, 1]], "int32")
CTC_LOGITS = np.sin(np.arange(3 * 9 * 4) * 0.7).reshape(3, 9, 4).astype("float32") * 2

# name -> (class name, constructor kwargs, y_true, y_pred, sample_weight)
LOSSES = {
    "dice": ("Dice", {}, MASKS, PROBS, None),
    "dice_axis": ("Dice", {"axis": (1, 2)}, MASKS, PROBS, None),
    "tversky": ("Tversky", {"alpha": 0.3, "beta": 0.7}, MASKS, PROBS, None),
    "tversky_axis_sum": ("Tversky", {"axis": (1, 2), "reduction": "sum"}, MASKS, PROBS,
                         None),
    "gce": ("CategoricalGeneralizedCrossEntropy", {"q": 0.7}, LABELS, SOFT, None),
    "gce_weighted": ("CategoricalGeneralizedCrossEntropy", {},
                     LABELS, SOFT, np.arange(5.0).astype("float32")),
    "circle": ("Circle", {}, EMB_LABELS, EMB, None),
    "ctc": ("CTC", {"reduction": "none"}, CTC_LABELS, CTC_LOGITS, None),
    "ctc_mean": ("CTC", {}, CTC_LABELS[:2], CTC_LOGITS[:2, :5], None),
    "circle_keep_diagonal": ("Circle", {"gamma": 10.0, "margin": 0.25,
                                        "remove_diagonal": False}, EMB_LABELS, EMB, None),
}

X = np.array([-3.0, -1.5, -1.0, -0.5, -0.2, 0.0, 0.3, 0.5, 1.0, 2.5], "float32")
X2 = np.sin(np.arange(12.0) * 1.3).reshape(3, 4).astype("float32")
# name -> (function name, kwargs, input)
ACTIVATIONS = {
    "celu": ("celu", {"alpha": 0.7}, X),
    "glu": ("glu", {}, X2),
    "hard_shrink": ("hard_shrink", {"threshold": 0.4}, X),
    "hard_tanh": ("hard_tanh", {}, X),
    "log_sigmoid": ("log_sigmoid", {}, X),
    "soft_shrink": ("soft_shrink", {}, X),
    "sparse_plus": ("sparse_plus", {}, X),
    "sparse_sigmoid": ("sparse_sigmoid", {}, X),
    "sparsemax": ("sparsemax", {}, X2),
    "squareplus": ("squareplus", {"b": 2}, X),
    "tanh_shrink": ("tanh_shrink", {}, X),
    "threshold": ("threshold", {"threshold": 0.3, "default_value": -1.0}, X),
}


def loss_value(keras, name):
    cls, kwargs, y_true, y_pred, weight = LOSSES[name]
    loss = getattr(keras.losses, cls)(**kwargs)
    return np.asarray(loss(y_true, y_pred, sample_weight=weight), dtype=np.float64)


def activation_value_and_grad(keras, tape_module, name):
    """(f(x), d sum(f(x) * w) / dx) with a fixed weighting w."""
    fn, kwargs, x = ACTIVATIONS[name]
    x = tape_module.Variable(x)
    with tape_module.GradientTape() as tape:
        y = getattr(keras.activations, fn)(x, **kwargs)
        w = np.linspace(0.5, 1.5, int(np.prod(y.shape))).reshape(y.shape).astype("float32")
        total = tape_module.reduce_sum(y * w)
    return np.asarray(y, np.float64), np.asarray(tape.gradient(total, x), np.float64)


def ctc_gradient(keras, tape_module):
    """d sum(ctc(CTC_LABELS, logits)) / d logits."""
    x = tape_module.constant(CTC_LOGITS)
    with tape_module.GradientTape() as tape:
        tape.watch(x)
        total = tape_module.reduce_sum(keras.losses.ctc(CTC_LABELS, x))
    return np.asarray(tape.gradient(total, x), np.float64)
