"""The Keras section of the special points (tools/tf_special.py): every
Keras loss, activation and weighted layer at 0 and +-1, bounds of clips and
thresholds, saturation, probabilities 0 and 1, zero vectors, zero variance,
ties and repeated ids.

    $BENCH_TF_PYTHON tools/tf_diff.py --special --section keras [--record]

`--record` writes TF 2.21's (Keras 3) values and gradients to
tests/data/tf_special_points/keras.json (format 1), which
tests/runtime/test_tf_special_points.py replays. Each case is a `build` case
of tf_special: `build(tf)` makes the loss, activation or layer (built, its
weights set by constant initializers) and returns `(fn, variables)`; the
gradients are those of the inputs, then of the layer's trainable weights,
eagerly, inside `tf.function`, and taped around a traced call (as a
hand-written training loop calls a traced model).
A case runs in the one float dtype of its inputs (float64 variants are
cases of their own). `EXEMPT` gives the reason for each public loss,
activation and layer name that no case exercises (the replay test checks
that every name has one or the other).
"""

import numpy as np

import tf_special

F32 = "float32"
LOGITS0 = ([[0.0], [0.0], [0.0], [0.0]], F32)
LABELS01 = ([[0.0], [1.0], [1.0], [0.0]], F32)
POINTS = ([-50.0, -6.0, -3.0, -1.0, -0.0, 0.0, 1.0, 3.0, 6.0, 50.0], F32)
PROBS = ([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [1e-9, 1.0]], F32)
ONE_HOT = ([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]], F32)
ZERO_VECS = ([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0], [0.0, 0.0, 0.0]], F32)
VECS = ([[1.0, 0.0, -1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], F32)
SAT = ([[30.0, -30.0], [-60.0, 60.0]], F32)


def _loss(make, *inputs):
    def build(tf):
        return make(tf.keras.losses), []
    return build, list(inputs)


def _fn(name, **kwargs):
    return lambda L: (lambda t, p: getattr(L, name)(t, p, **kwargs))


def _obj(name, **kwargs):
    return lambda L: getattr(L, name)(**kwargs)


def loss_cases():
    c = {}
    # sigmoid cross-entropy at logit 0 (a zero-initialized output layer's first step)
    c["BinaryCrossentropy(from_logits)@0"] = _loss(_obj("BinaryCrossentropy", from_logits=True),
                                                   LABELS01, LOGITS0)
    c["BinaryCrossentropy(from_logits,ls=0.1)@0"] = _loss(
        _obj("BinaryCrossentropy", from_logits=True, label_smoothing=0.1), LABELS01, LOGITS0)
    c["binary_crossentropy(from_logits)@0"] = _loss(
        _fn("binary_crossentropy", from_logits=True), LABELS01, LOGITS0)
    c["BinaryCrossentropy@probs01"] = _loss(_obj("BinaryCrossentropy"),
                                            ([[0.0, 1.0, 1.0, 0.0]], F32),
                                            ([[0.0, 1.0, 0.0, 1.0]], F32))
    c["binary_crossentropy(ls=0.2)@probs01"] = _loss(
        _fn("binary_crossentropy", label_smoothing=0.2), ([[0.0, 1.0, 1.0, 0.0]], F32),
        ([[0.0, 1.0, 0.0, 1.0]], F32))
    c["CategoricalCrossentropy@probs01"] = _loss(_obj("CategoricalCrossentropy"), ONE_HOT, PROBS)
    c["CategoricalCrossentropy(from_logits)@sat"] = _loss(
        _obj("CategoricalCrossentropy", from_logits=True), ([[1.0, 0.0], [1.0, 0.0]], F32), SAT)
    c["categorical_crossentropy(ls=0.1)@probs01"] = _loss(
        _fn("categorical_crossentropy", label_smoothing=0.1), ONE_HOT, PROBS)
    c["SparseCategoricalCrossentropy@probs01"] = _loss(
        _obj("SparseCategoricalCrossentropy"), ([0, 0, 1, 0], "int32"), PROBS)
    c["SparseCategoricalCrossentropy(from_logits)@sat"] = _loss(
        _obj("SparseCategoricalCrossentropy", from_logits=True), ([0, 1], "int32"), SAT)
    c["MeanSquaredError@tie"] = _loss(_obj("MeanSquaredError"), VECS, ZERO_VECS)
    c["MeanAbsoluteError@tie"] = _loss(_obj("MeanAbsoluteError"), VECS, VECS)
    c["mae@tie"] = _loss(_fn("mae"), VECS, VECS)
    c["MeanAbsolutePercentageError@0"] = _loss(_obj("MeanAbsolutePercentageError"),
                                               VECS, ZERO_VECS)
    c["MeanSquaredLogarithmicError@0"] = _loss(_obj("MeanSquaredLogarithmicError"),
                                               ZERO_VECS, ([[0.0, -1.0, -2.0], [1.0, 0.0, 3.0],
                                                            [0.0, 0.0, 0.0]], F32))
    c["Huber@delta"] = _loss(_obj("Huber"), ([[0.0, 0.0, 0.0, 0.0]], F32),
                             ([[1.0, -1.0, 0.0, 2.0]], F32))
    c["LogCosh@0"] = _loss(_obj("LogCosh"), VECS, VECS)
    c["KLDivergence@probs01"] = _loss(_obj("KLDivergence"), ONE_HOT, PROBS)
    c["Poisson@0"] = _loss(_obj("Poisson"), VECS, ZERO_VECS)
    c["CosineSimilarity@zero"] = _loss(_obj("CosineSimilarity"), VECS, ZERO_VECS)
    c["cosine_similarity@zero"] = _loss(_fn("cosine_similarity"), ZERO_VECS, VECS)
    c["Dice@probs01"] = _loss(_obj("Dice"), ONE_HOT, PROBS)
    c["dice(axis=1)@zero"] = _loss(_fn("dice", axis=1), ZERO_VECS, ZERO_VECS)
    c["Tversky@probs01"] = _loss(_obj("Tversky", alpha=0.3, beta=0.7), ONE_HOT, PROBS)
    c["tversky@zero"] = _loss(_fn("tversky"), ZERO_VECS, VECS)
    c["CategoricalGeneralizedCrossEntropy@probs"] = _loss(
        _obj("CategoricalGeneralizedCrossEntropy", q=0.7), ([0, 0, 1, 1], "int32"),
        ([[0.25, 0.75], [1.0, 0.0], [0.5, 0.5], [1e-3, 0.999]], F32))
    c["categorical_generalized_cross_entropy@probs"] = _loss(
        _fn("categorical_generalized_cross_entropy", q=0.3), ([1, 0, 1, 0], "int32"),
        ([[0.25, 0.75], [0.9, 0.1], [0.5, 0.5], [0.999, 1e-3]], F32))

    def metric(tf):
        m = tf.keras.metrics.CosineSimilarity()

        def fn(t, p):
            m.reset_state()
            m.update_state(t, p)
            return m.result()
        return fn, []
    c["metrics.CosineSimilarity@zero"] = (metric, [([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0],
                                                      [1.0, 0.0, 0.0]], F32), VECS])
    c["Hinge@margin"] = _loss(_obj("Hinge"), ([[0.0, 1.0, 1.0, 0.0]], F32),
                              ([[-1.0, 1.0, 0.0, 0.0]], F32))
    c["SquaredHinge@margin"] = _loss(_obj("SquaredHinge"), ([[0.0, 1.0, 1.0, 0.0]], F32),
                                     ([[-1.0, 1.0, 0.0, 0.0]], F32))
    c["CategoricalHinge@tie"] = _loss(_obj("CategoricalHinge"), ONE_HOT,
                                      ([[0.0, 0.0], [1.0, 0.0], [0.5, 0.5], [0.0, 1.0]], F32))
    c["BinaryFocalCrossentropy@probs01"] = _loss(_obj("BinaryFocalCrossentropy"),
                                                 ([[0.0, 1.0, 1.0, 0.0]], F32),
                                                 ([[0.0, 1.0, 0.0, 1.0]], F32))
    c["BinaryFocalCrossentropy(from_logits)@0"] = _loss(
        _obj("BinaryFocalCrossentropy", from_logits=True), LABELS01, LOGITS0)
    c["BinaryFocalCrossentropy(balanced,from_logits)@sat"] = _loss(
        _obj("BinaryFocalCrossentropy", apply_class_balancing=True, from_logits=True),
        ([[1.0, 0.0], [0.0, 1.0]], F32), SAT)
    c["CategoricalFocalCrossentropy@probs01"] = _loss(_obj("CategoricalFocalCrossentropy"),
                                                      ONE_HOT, PROBS)
    c["CategoricalFocalCrossentropy(from_logits)@sat"] = _loss(
        _obj("CategoricalFocalCrossentropy", from_logits=True),
        ([[1.0, 0.0], [1.0, 0.0]], F32), SAT)
    # float64 inputs: Keras computes in floatx (float32)
    for name in ("MeanSquaredError", "MeanAbsoluteError", "BinaryCrossentropy",
                 "CategoricalCrossentropy", "Huber", "LogCosh", "KLDivergence", "Poisson",
                 "CosineSimilarity", "Hinge", "SquaredHinge", "CategoricalHinge",
                 "MeanSquaredLogarithmicError", "MeanAbsolutePercentageError",
                 "BinaryFocalCrossentropy", "CategoricalFocalCrossentropy"):
        c[f"{name}@float64"] = _loss(_obj(name), (ONE_HOT[0], "float64"),
                                     ([[0.2, 0.8], [1.0, 0.0], [0.5, 0.5], [1e-9, 1.0]],
                                      "float64"))
    # the per-sample functions (tf.keras's names) keep their inputs' dtype
    for name in ("mse", "mae", "mape", "msle", "kld", "logcosh", "huber", "poisson", "hinge",
                 "squared_hinge", "categorical_hinge", "binary_crossentropy",
                 "categorical_crossentropy", "binary_focal_crossentropy",
                 "categorical_focal_crossentropy", "cosine_similarity"):
        for dtype in ("float32", "float64"):
            c[f"{name}@probs01,{dtype}"] = _loss(_fn(name), (ONE_HOT[0], dtype),
                                                 (PROBS[0], dtype))
    c["sparse_categorical_crossentropy@probs01,float64"] = _loss(
        _fn("sparse_categorical_crossentropy"), ([0, 0, 1, 0], "int32"),
        (PROBS[0], "float64"))
    c["SparseCategoricalCrossentropy@float64"] = _loss(
        _obj("SparseCategoricalCrossentropy"), ([0, 0, 1, 0], "int32"), (PROBS[0], "float64"))
    return c


def _act(name, x=POINTS, **kwargs):
    def build(tf):
        fn = getattr(tf.keras.activations, name)
        return (lambda t: fn(t, **kwargs)), []
    return build, [x]


def activation_cases():
    c = {}
    for name in ("relu", "sigmoid", "tanh", "elu", "selu", "gelu", "softplus", "softsign",
                 "relu6", "leaky_relu", "silu", "swish", "linear", "hard_sigmoid",
                 "hard_silu", "mish"):
        c[f"activations.{name}"] = _act(name)
        c[f"activations.{name},float64"] = _act(name, (POINTS[0], "float64"))
    c["activations.exponential"] = _act("exponential", ([-1.0, 0.0, 1.0, 3.0], F32))
    c["activations.softmax@sat"] = _act("softmax", SAT)
    c["activations.log_softmax@sat"] = _act("log_softmax", SAT)
    c["activations.relu(params)"] = _act("relu", negative_slope=0.1, max_value=3.0,
                                         threshold=1.0)
    c["activations.relu(max_value=6)"] = _act("relu", max_value=6.0)
    c["activations.relu(threshold=1)"] = _act("relu", threshold=1.0)
    c["activations.relu(negative_slope=0.2)"] = _act("relu", negative_slope=0.2)
    c["activations.relu(max_value=3)"] = _act("relu", max_value=3.0)
    for name in ("celu", "hard_shrink", "hard_tanh", "log_sigmoid", "soft_shrink",
                 "sparse_plus", "sparse_sigmoid", "squareplus", "tanh_shrink"):
        c[f"activations.{name}"] = _act(name)
    c["activations.celu(alpha=2)"] = _act("celu", alpha=2.0)
    c["activations.hard_shrink(threshold=1)"] = _act("hard_shrink", threshold=1.0)
    c["activations.soft_shrink(threshold=1)"] = _act("soft_shrink", threshold=1.0)
    c["activations.threshold"] = _act("threshold", threshold=1.0, default_value=-2.0)
    c["activations.glu@sat"] = _act("glu", ([[30.0, -30.0, 1.0, -1.0], [0.0, 0.0, -60.0,
                                                                         60.0]], F32))
    c["activations.sparsemax@sat"] = _act("sparsemax", SAT)
    c["activations.sparsemax@tie"] = _act("sparsemax", ([[1.0, 1.0, 0.0], [0.0, 0.0, 0.0],
                                                         [2.0, -1.0, 2.0]], F32))
    return c


def _named(tf, name):
    return tf.keras.activations.get(name)


def recovery_cases():
    """A cross-entropy of a sigmoid/softmax output uses the logits behind it."""
    def act_then(loss, act, **kw):
        def build(tf):
            L = getattr(tf.keras.losses, loss)(**kw)
            a = getattr(tf.keras.activations, act)
            return (lambda t, z: L(t, a(z))), []
        return build

    def layer_then(loss, make_layer, **kw):
        def build(tf):
            L = getattr(tf.keras.losses, loss)(**kw)
            layer = make_layer(tf)
            layer(np.zeros((2, 2), np.float32))
            return (lambda t, z: L(t, layer(z))), list(layer.trainable_variables)
        return build

    def dense(act):
        return lambda tf: tf.keras.layers.Dense(
            2, activation=act, kernel_initializer=tf.keras.initializers.Constant(3.0),
            bias_initializer=tf.keras.initializers.Constant(1.0))

    def plain(loss, wrap):
        return lambda tf: ((lambda t, z: getattr(tf.keras.losses, loss)()(t, wrap(tf, z))), [])

    softmax_layer = layer_then("SparseCategoricalCrossentropy",
                               lambda tf: tf.keras.layers.Activation("softmax"))
    both = {     # at saturation, with the labels right (@sat) and wrong (@sat-wrong)
        "BinaryCrossentropy(activations.sigmoid)": act_then("BinaryCrossentropy", "sigmoid"),
        "CategoricalCrossentropy(activations.softmax)": act_then("CategoricalCrossentropy",
                                                                 "softmax"),
        "BinaryCrossentropy(Dense(sigmoid))": layer_then("BinaryCrossentropy", dense("sigmoid")),
        "BinaryFocalCrossentropy(activations.sigmoid)": act_then("BinaryFocalCrossentropy",
                                                                 "sigmoid"),
        "BinaryCrossentropy(tf.sigmoid)": plain("BinaryCrossentropy",
                                                lambda tf, z: tf.sigmoid(z)),
    }
    right_only = {
        "CategoricalCrossentropy(Dense(softmax))": layer_then("CategoricalCrossentropy",
                                                              dense("softmax")),
        "BinaryCrossentropy(Activation(sigmoid))": layer_then(
            "BinaryCrossentropy", lambda tf: tf.keras.layers.Activation("sigmoid")),
    }
    wrong_only = {
        "BinaryCrossentropy(from_logits,activations.sigmoid)": act_then(
            "BinaryCrossentropy", "sigmoid", from_logits=True),
        "BinaryFocalCrossentropy(from_logits)": lambda tf: (
            (lambda t, z: tf.keras.losses.BinaryFocalCrossentropy(from_logits=True)(t, z)), []),
        "CategoricalCrossentropy(layers.Softmax)": layer_then(
            "CategoricalCrossentropy", lambda tf: tf.keras.layers.Softmax()),
        "CategoricalCrossentropy(tf.nn.softmax(axis=0))": plain(
            "CategoricalCrossentropy", lambda tf, z: tf.nn.softmax(z, axis=0)),
    }
    right, wrong = ([[1.0, 0.0], [0.0, 1.0]], F32), ([[0.0, 1.0], [1.0, 0.0]], F32)
    c = {}
    for point, labels, only in (("sat", right, right_only), ("sat-wrong", wrong, wrong_only)):
        c.update({f"{name}@{point}": (build, [labels, SAT])
                  for name, build in {**both, **only}.items()})
    c["SparseCategoricalCrossentropy(Activation(softmax))@sat"] = (
        softmax_layer, [([0, 1], "int32"), SAT])
    c["SparseCategoricalCrossentropy(Activation(softmax))@sat-wrong"] = (
        softmax_layer, [([1, 0], "int32"), SAT])
    return c


def _layer(make, x, call_kwargs=None):
    def build(tf):
        layer = make(tf)
        kw = call_kwargs or {}
        layer(np.asarray(x[0], dtype=x[1]), **kw)
        return (lambda t: layer(t, **kw)), list(layer.trainable_variables)
    return build, [x]


def _const(tf, v):
    return tf.keras.initializers.Constant(v)


def layer_cases():
    L = "layers"
    x2 = ([[0.0, 1.0, -1.0], [0.0, 0.0, 0.0]], F32)
    img = (np.zeros((1, 3, 3, 2)).tolist(), F32)
    seq = (np.zeros((1, 3, 2)).tolist(), F32)
    ties = ([[[[1.0], [1.0]], [[1.0], [0.0]]]], F32)
    const_rows = ([[2.0, 2.0, 2.0, 2.0], [0.0, 0.0, 0.0, 0.0]], F32)

    def mk(cls, **kw):
        return lambda tf: getattr(getattr(tf.keras, L), cls)(**{
            k: (_const(tf, v) if k.endswith("_initializer") and isinstance(v, float) else v)
            for k, v in kw.items()})

    c = {
        "Dense(zeros)": _layer(mk("Dense", units=2, kernel_initializer="zeros"), x2),
        "Dense(relu)@0": _layer(mk("Dense", units=2, activation="relu",
                                   kernel_initializer="zeros"), x2),
        "Dense(relu,const)": _layer(mk("Dense", units=2, activation="relu",
                                       kernel_initializer=0.5), x2),
        "Conv1D@0": _layer(mk("Conv1D", filters=2, kernel_size=2, kernel_initializer=0.5,
                              activation="relu"), seq),
        "Conv2D@0": _layer(mk("Conv2D", filters=2, kernel_size=2, kernel_initializer=0.5,
                              activation="relu"), img),
        "Conv2DTranspose@0": _layer(mk("Conv2DTranspose", filters=2, kernel_size=2,
                                       kernel_initializer=0.5), img),
        "Conv1DTranspose@0": _layer(mk("Conv1DTranspose", filters=2, kernel_size=2,
                                       kernel_initializer=0.5), seq),
        "DepthwiseConv2D@0": _layer(mk("DepthwiseConv2D", kernel_size=2,
                                       depthwise_initializer=0.5), img),
        "SeparableConv2D@0": _layer(mk("SeparableConv2D", filters=2, kernel_size=2,
                                       depthwise_initializer=0.5, pointwise_initializer=0.5),
                                    img),
        "BatchNormalization(training)@const": _layer(mk("BatchNormalization"),
                                                     ([[2.0, 1.0], [2.0, 1.0]], F32),
                                                     {"training": True}),
        "BatchNormalization(inference)@const": _layer(mk("BatchNormalization"),
                                                      ([[2.0, 1.0], [2.0, 1.0]], F32)),
        "LayerNormalization@const": _layer(mk("LayerNormalization"), const_rows),
        "GroupNormalization@const": _layer(mk("GroupNormalization", groups=2), const_rows),
        "UnitNormalization@zero": _layer(mk("UnitNormalization"), ZERO_VECS),
        "PReLU@0": _layer(mk("PReLU", alpha_initializer=0.25), POINTS),
        "ReLU": _layer(mk("ReLU"), POINTS),
        "ReLU(threshold=1)": _layer(mk("ReLU", threshold=1.0), ([0.0, 1.0, 2.0], F32)),
        "ReLU(max_value=3)": _layer(mk("ReLU", max_value=3.0), POINTS),
        "ReLU(all)": _layer(mk("ReLU", max_value=3.0, negative_slope=0.1, threshold=1.0),
                            POINTS),
        "LeakyReLU@0": _layer(mk("LeakyReLU"), POINTS),
        "ELU(alpha=0.5)@0": _layer(mk("ELU", alpha=0.5), POINTS),
        "Softmax@sat": _layer(mk("Softmax"), SAT),
        "Activation(hard_sigmoid)": _layer(mk("Activation", activation="hard_sigmoid"), POINTS),
        "MaxPooling2D@ties": _layer(mk("MaxPooling2D", pool_size=2), ties),
        "AveragePooling2D": _layer(mk("AveragePooling2D", pool_size=2), ties),
        "GlobalMaxPooling2D@ties": _layer(mk("GlobalMaxPooling2D"), ties),
        "MaxPooling1D@ties": _layer(mk("MaxPooling1D", pool_size=2),
                                    ([[[1.0], [1.0], [0.0], [0.0]]], F32)),
        "SimpleRNN@0": _layer(mk("SimpleRNN", units=2, kernel_initializer=0.5,
                                 recurrent_initializer=0.5), seq),
        "LSTM@0": _layer(mk("LSTM", units=2, kernel_initializer=0.5,
                            recurrent_initializer=0.5), seq),
        "GRU@0": _layer(mk("GRU", units=2, kernel_initializer=0.5,
                           recurrent_initializer=0.5), seq),
    }

    def embedding(tf):
        layer = tf.keras.layers.Embedding(4, 2, embeddings_initializer=_const(tf, 0.5))
        layer(np.array([0, 0, 3], np.int32))
        return (lambda ids: layer(ids)), list(layer.trainable_variables)
    c["Embedding@repeated"] = (embedding, [([0, 0, 3, 0], "int32")])

    def dot(tf):
        layer = tf.keras.layers.Dot(axes=1, normalize=True)
        return (lambda a, b: layer([a, b])), []
    c["Dot(normalize)@zero"] = (dot, [ZERO_VECS, VECS])
    c.update(_more_layer_cases(mk, seq, img, ties))
    return c


def _two(make):
    """A case of a layer (without weights) called on a list of two inputs."""
    def build(tf):
        layer = make(tf)
        return (lambda a, b: layer([a, b])), list(layer.trainable_variables)
    return build


def _more_layer_cases(mk, seq, img, ties):
    seq1 = ([[[1.0, -1.0], [0.0, 0.0], [2.0, 2.0]]], F32)
    tie_pair = [([[1.0, 0.0, -1.0], [0.0, 0.0, 0.0]], F32),
                ([[1.0, 0.0, 1.0], [0.0, -0.0, 2.0]], F32)]
    c = {
        "Bidirectional(LSTM)@0": _layer(lambda tf: tf.keras.layers.Bidirectional(
            tf.keras.layers.LSTM(2, kernel_initializer=_const(tf, 0.5),
                                 recurrent_initializer=_const(tf, 0.5))), seq1),
        "TimeDistributed(Dense)@0": _layer(lambda tf: tf.keras.layers.TimeDistributed(
            tf.keras.layers.Dense(2, kernel_initializer=_const(tf, 0.5), activation="relu")),
            seq1),
        "LSTM(return_sequences)@0": _layer(mk("LSTM", units=2, kernel_initializer=0.5,
                                              recurrent_initializer=-0.5,
                                              return_sequences=True), seq1),
        "GRU(reset_after=False)@0": _layer(mk("GRU", units=2, kernel_initializer=0.5,
                                              recurrent_initializer=-0.5,
                                              reset_after=False), seq1),
        "SimpleRNN(relu)@0": _layer(mk("SimpleRNN", units=2, kernel_initializer=0.5,
                                       recurrent_initializer=-0.5, activation="relu"), seq1),
        "Conv2D(same,bias)@0": _layer(mk("Conv2D", filters=1, kernel_size=3, padding="same",
                                         kernel_initializer=0.5, bias_initializer=-1.0,
                                         activation="relu"), ties),
        "Normalization(variance=0)": _layer(mk("Normalization", mean=1.0, variance=0.0),
                                            ([[1.0, 2.0], [0.0, 1.0]], F32)),
        "LayerNormalization(no center/scale)@const": _layer(
            mk("LayerNormalization", center=False, scale=False),
            ([[3.0, 3.0, 3.0], [1.0, 2.0, 3.0]], F32)),
        "BatchNormalization(axis=1,training)@const": _layer(
            mk("BatchNormalization", axis=1), (np.ones((2, 2, 2)).tolist(), F32),
            {"training": True}),
        "GlobalAveragePooling1D": _layer(mk("GlobalAveragePooling1D"), seq1),
        "GlobalMaxPooling1D@ties": _layer(mk("GlobalMaxPooling1D"),
                                          ([[[1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]], F32)),
        "AveragePooling1D": _layer(mk("AveragePooling1D", pool_size=2), seq1),
        "UpSampling2D": _layer(mk("UpSampling2D"), ties),
        "ZeroPadding2D": _layer(mk("ZeroPadding2D"), ties),
        "Cropping2D": _layer(mk("Cropping2D", cropping=((1, 0), (0, 1))), ties),
        "Flatten": _layer(mk("Flatten"), ties),
        "Reshape": _layer(mk("Reshape", target_shape=(4,)), ties),
        "Permute": _layer(mk("Permute", dims=(2, 1)), seq1),
        "RepeatVector": _layer(mk("RepeatVector", n=2), ([[1.0, 0.0]], F32)),
        "Rescaling": _layer(mk("Rescaling", scale=0.5, offset=-1.0), POINTS),
        "Masking@0": _layer(mk("Masking"), seq1),
        "Dropout(inference)": _layer(mk("Dropout", rate=0.5), POINTS),
        "GaussianNoise(inference)": _layer(mk("GaussianNoise", stddev=1.0), POINTS),
        "ActivityRegularization": _layer(mk("ActivityRegularization", l1=0.1), POINTS),
        "Maximum@ties": (_two(mk("Maximum")), tie_pair),
        "Minimum@ties": (_two(mk("Minimum")), tie_pair),
        "Multiply@0": (_two(mk("Multiply")), tie_pair),
        "Average": (_two(mk("Average")), tie_pair),
        "Subtract": (_two(mk("Subtract")), tie_pair),
        "Concatenate": (_two(mk("Concatenate")), tie_pair),
        "Attention@ties": (_two(mk("Attention")), [([[[1.0, 0.0], [0.0, 0.0]]], F32),
                                                     ([[[1.0, 1.0], [1.0, 1.0]]], F32)]),
        "MultiHeadAttention@const": (
            lambda tf: _mha(tf), [([[[1.0, 0.0], [0.0, 0.0]]], F32),
                                  ([[[1.0, 1.0], [1.0, 1.0]]], F32)]),
    }
    return c


def _mha(tf):
    layer = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=2,
                                               kernel_initializer=_const(tf, 0.5))
    zeros = np.zeros((1, 2, 2), np.float32)
    layer(zeros, zeros)
    return (lambda q, v: layer(q, v)), list(layer.trainable_variables)


def _all_cases():
    out = {}
    for group in (loss_cases, activation_cases, recovery_cases, layer_cases):
        out.update(group())
    return out


CASES = {}      # key -> tf_special.Case
_case = tf_special.case_adder(CASES)
_LOSSES = set(loss_cases())
for _key, (_build, _inputs) in _all_cases().items():
    _floats = {d for _, d in _inputs if d.startswith("float")} or {F32}
    assert len(_floats) == 1, _key       # one float dtype per case
    # Keras's losses compute in floatx (float32) whatever their inputs' dtype
    _case(_key, _build, *[np.asarray(v, d) for v, d in _inputs], dtypes=tuple(_floats),
          build=True, tolerance=F32 if _key in _LOSSES else None)

# record id ("<key>|<dtype>") -> the line of docs/tf_differences.md that keeps the difference
KNOWN = {}

# public name -> why no case exercises it ("losses.X", "activations.X", "layers.X")
_CELL = "the weights of the {} case's layer (an RNN layer runs its cell at each step)"
_NO_WEIGHTS = "no weights and no gradient of its own: "
EXEMPT = {
    "losses.Loss": "the base class: each subclass has its cases",
    "losses.Reduction": "an enum of reduction names (tf.keras.losses.Reduction), no values",
    "losses.get": "looks a loss up by name (tests/keras/test_keras_tf_numbers.py)",
    "activations.get": "looks an activation up by name (tests/keras/test_keras_tf_numbers.py)",
    "activations.serialize": "an activation's name (tests/keras/test_keras_tf_numbers.py)",
    "activations.deserialize": "an activation from its name (tests/keras/test_keras_tf_numbers.py)",
    "layers.Layer": "the base class: each layer has its cases",
    "layers.InputLayer": "no weights: the model's input placeholder",
    "layers.TFSMLayer": "runs a reloaded SavedModel's endpoint: the values are the exported "
                        "model's (tests/keras/export/test_export_archive.py)",
    "layers.GRUCell": _CELL.format("GRU"),
    "layers.LSTMCell": _CELL.format("LSTM"),
    "layers.SimpleRNNCell": _CELL.format("SimpleRNN"),
    "layers.Add": _NO_WEIGHTS + "tf.add_n of its inputs (the merge cases: Average, Subtract)",
    "layers.Identity": _NO_WEIGHTS + "returns its input",
    "layers.Lambda": _NO_WEIGHTS + "runs the user's function (the ops section's cases)",
    "layers.GlobalAveragePooling2D": _NO_WEIGHTS + "a reduce_mean (GlobalAveragePooling1D's case)",
    "layers.SpatialDropout1D": _NO_WEIGHTS + "random in training, the identity in inference "
                                             "(Dropout(inference)'s case)",
    "layers.SpatialDropout2D": _NO_WEIGHTS + "random in training, the identity in inference "
                                             "(Dropout(inference)'s case)",
    "layers.RandomFlip": _NO_WEIGHTS + "random (tests/keras/layers/test_image_layers.py)",
    "layers.Resizing": _NO_WEIGHTS + "image resizing (tests/keras/layers/test_image_layers.py)",
    "layers.CenterCrop": _NO_WEIGHTS + "a slice (tests/keras/layers/test_image_layers.py)",
}
EXEMPT.update({f"layers.{name}": "preprocessing: no weights, integer or string outputs "
                                 "without a gradient (tests/keras/layers/test_keras3_preprocessing.py, "
                                 "test_bucketing_layers.py)"
               for name in ("CategoryEncoding", "Discretization", "Hashing", "IntegerLookup",
                            "StringLookup")})

# Keras 3.15 names checked against recorded Keras values in their own test files
_RECORDED = ("outputs and gradients for identical weights, eager and traced, against "
             "Keras 3.15's recorded values ({})")
EXEMPT.update({f"layers.{name}": _RECORDED.format("tests/keras/layers/test_keras3_layers_more.py")
               for name in (
                   "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D",
                   "AdaptiveAveragePooling3D", "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D",
                   "AdaptiveMaxPooling3D", "AdditiveAttention", "AveragePooling3D",
                   "AvgPool3D", "Conv3D", "Conv3DTranspose", "ConvLSTM1D", "ConvLSTM2D",
                   "ConvLSTM3D", "Convolution3D", "Convolution3DTranspose", "Cropping1D",
                   "Cropping3D", "DepthwiseConv1D", "EinsumDense", "GlobalAveragePooling3D",
                   "GlobalAvgPool3D", "GlobalMaxPool3D", "GroupQueryAttention", "GlobalMaxPooling3D", "MaxPool3D",
                   "MaxPooling3D", "RMSNormalization", "RNN", "ReversibleEmbedding",
                   "SeparableConv1D", "SeparableConvolution1D", "SpectralNormalization",
                   "StackedRNNCells", "UpSampling1D", "UpSampling3D", "Wrapper",
                   "ZeroPadding1D", "ZeroPadding3D")})
EXEMPT.update({f"layers.{name}": _NO_WEIGHTS + "image augmentation, random in training, the "
               "identity at inference; deterministic ranges against Keras 3.15's outputs "
               "(tests/keras/layers/test_image_augmentation.py)"
               for name in ("AutoContrast", "CutMix", "Equalization", "MaxNumBoundingBoxes",
                            "MixUp", "RandAugment", "Pipeline", "RandomBrightness",
                            "RandomColorDegeneration", "RandomColorJitter", "RandomContrast",
                            "RandomCrop",
                            "RandomErasing", "RandomGaussianBlur", "RandomPerspective",
                            "RandomShear",
                            "RandomGrayscale", "RandomHue", "RandomInvert",
                            "RandomPosterization", "RandomRotation", "RandomSaturation",
                            "RandomSharpness", "RandomTranslation", "RandomZoom",
                            "Solarization")})
EXEMPT.update({f"layers.{name}": _NO_WEIGHTS + "tf.keras's Keras 2 resize by a random factor "
               "in training, the identity at inference; fixed factors' values against Keras "
               "3.15's (tests/keras/legacy/test_tf_keras_legacy_layers.py)"
               for name in ("RandomHeight", "RandomWidth")})
EXEMPT["layers.ThresholdedReLU"] = (_NO_WEIGHTS + "tf.keras's Keras 2 x * (x > theta): values at "
                                    "theta, 0 and negatives and its gradient against Keras 3.15's "
                                    "(tests/keras/legacy/test_tf_keras_legacy_layers.py)")
EXEMPT.update({f"layers.{name}": _NO_WEIGHTS + "random in training, the identity in inference "
               "(tests/keras/layers/test_keras3_layers_more.py)"
               for name in ("AlphaDropout", "GaussianDropout", "SpatialDropout3D")})
EXEMPT.update({
    "layers.GlobalAvgPool2D": _NO_WEIGHTS + "GlobalAveragePooling2D under Keras's other name",
    "layers.TextVectorization": "preprocessing: string inputs, integer or count outputs without "
                                "a gradient (tests/keras/layers/test_text_vectorization.py)",
    "losses.Circle": "pairs of embeddings: values and gradients against Keras 3.15's "
                     "(tests/keras/test_losses_activations_more.py)",
    "losses.circle": "the function of Circle (tests/keras/test_losses_activations_more.py)",
    "losses.CTC": "a sequence loss: values and gradients against Keras 3.15's "
                  "(tests/keras/test_losses_activations_more.py)",
    "losses.ctc": "the function of CTC (tests/keras/test_losses_activations_more.py)",
    "losses.serialize": "a loss's config (tests/keras/test_losses_activations_more.py)",
    "losses.deserialize": "a loss from its config (tests/keras/test_losses_activations_more.py)",
})
EXEMPT.update({
    "layers.HashedCrossing": "preprocessing: integer or string features, int64 bins or one-hot "
                             "outputs without a gradient, exact against Keras 3.15's "
                             "(tests/keras/layers/test_hashed_crossing.py)",
    "layers.STFTSpectrogram": "outputs in every mode and its STFT kernels' gradients, eager and "
                              "traced, against Keras 3.15's recorded values "
                              "(tests/keras/layers/test_spectrogram.py)",
    "layers.MelSpectrogram": _NO_WEIGHTS + "audio to mel decibels, against Keras 3.15's "
                                           "recorded values (tests/keras/layers/test_spectrogram.py)",
    "layers.ContrastLimitedAdaptiveHistogramEqualization": _NO_WEIGHTS + "exact outputs "
        "against Keras 3.15's (tests/keras/layers/test_image_more.py)",
    "layers.AugMix": _NO_WEIGHTS + "image augmentation, random in training, the identity at "
                                   "inference (tests/keras/layers/test_image_more.py)",
    "layers.RandomElasticTransform": _NO_WEIGHTS + "image augmentation, random in training, the "
                                                   "identity at inference "
                                                   "(tests/keras/layers/test_image_more.py)",
})
