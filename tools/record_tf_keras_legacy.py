"""Record TF 2.21's tf.keras (Keras 3.15) legacy values that
tests/keras/legacy/ checks: tf.keras.layers.RandomHeight / RandomWidth /
ThresholdedReLU, tf.keras.preprocessing.text, .sequence and .image (the
legacy ImageDataGenerator, its iterators and transforms).

    $BENCH_TF_PYTHON tools/record_tf_keras_legacy.py   # writes tests/data/tf_keras_legacy.json
"""

import json
import os
import random
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tf_keras_legacy.json")
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "cat, dog; CAT? mat",
         "", "Hello-world: the END\tof\nlines"]


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the recorded message is the point)
        return [type(e).__name__, str(e)]
    return None


def _layers(k):
    x = np.arange(2 * 4 * 5 * 1, dtype="float32").reshape(2, 4, 5, 1)
    out = {"x_shape": list(x.shape)}
    for name in ("RandomHeight", "RandomWidth"):
        cls = getattr(k.layers, name)
        rec = {}
        for interp in ("bilinear", "nearest", "bicubic", "area"):
            for f in ((0.5, 0.5), (-0.5, -0.5), (1.0, 1.0)):
                y = np.asarray(cls(f, interpolation=interp)(x))
                rec[f"{interp}_{f[0]}"] = y.tolist()
        rec["config"] = {key: v for key, v in cls(0.5, seed=1).get_config().items()
                         if key in ("factor", "interpolation", "seed")}
        rec["config_tuple"] = cls((-0.2, 0.3)).get_config()["factor"]
        rec["errors"] = [_error(lambda f=f: cls(f)) for f in ((0.5, 0.1), -1.5, (-1.5, 0))]
        rec["output_shape"] = list(cls(0.5).compute_output_shape((None, 4, 5, 3)))
        out[name] = rec
    t = k.layers.ThresholdedReLU(theta=1.5)
    v = np.array([-1, 0, 1, 1.5, 1.6, 3], dtype="float32")
    out["ThresholdedReLU"] = {
        "x": v.tolist(), "y": np.asarray(t(v)).tolist(),
        "y0": np.asarray(k.layers.ThresholdedReLU(theta=0)(v)).tolist(),
        "ydef": np.asarray(k.layers.ThresholdedReLU()(v)).tolist(),
        "theta": t.get_config()["theta"],
        "errors": [_error(lambda th=th: k.layers.ThresholdedReLU(theta=th))
                   for th in (None, -1)]}
    return out


def _text(k):
    T = k.preprocessing.text
    out = {"words": [T.text_to_word_sequence(t) for t in TEXTS],
           "words_raw": [T.text_to_word_sequence(t, filters=".", lower=False, split=",")
                         for t in TEXTS],
           "md5": [T.hashing_trick(t, 20, hash_function="md5") for t in TEXTS]}
    cases = {}
    for name, kw in (("plain", {}), ("num4", {"num_words": 4}),
                     ("oov", {"oov_token": "<OOV>", "num_words": 5}),
                     ("char", {"char_level": True}), ("nolower", {"lower": False})):
        tok = T.Tokenizer(**kw)
        tok.fit_on_texts(TEXTS[:3] + TEXTS[4:])
        new = ["the cat and the bird", "mat mat mat dog", ""]
        case = {"word_index": tok.word_index, "word_counts": dict(tok.word_counts),
                "index_docs": {str(i): c for i, c in tok.index_docs.items()},
                "seqs": tok.texts_to_sequences(new + TEXTS),
                "texts": tok.sequences_to_texts([[1, 2, 3], [5, 99, 2], []]),
                "document_count": tok.document_count}
        for mode in ("binary", "count", "freq", "tfidf"):
            case[mode] = tok.texts_to_matrix(new, mode=mode).tolist()
        back = T.tokenizer_from_json(tok.to_json())
        case["json_seqs"] = back.texts_to_sequences(new)
        case["config_keys"] = sorted(tok.get_config())
        cases[name] = case
    out["tokenizer"] = cases
    tok = T.Tokenizer()
    out["errors"] = [_error(lambda: tok.texts_to_matrix(["a"])),
                     _error(lambda: T.Tokenizer(num_words=3).sequences_to_matrix([[1]], "tfidf")),
                     _error(lambda: T.Tokenizer(foo=1))]
    tok.fit_on_sequences([[1, 2, 2], [3]])
    out["fit_on_sequences"] = [tok.document_count, {str(i): c for i, c in tok.index_docs.items()},
                               T.Tokenizer(num_words=4).sequences_to_matrix(
                                   [[1, 1, 5], []], "freq").tolist()]
    return out


def _sequence(k):
    S = k.preprocessing.sequence
    out = {"table": S.make_sampling_table(12).tolist(),
           "table_f": S.make_sampling_table(5, sampling_factor=0.1).tolist()}
    skips = []
    for kw in ({"shuffle": False, "negative_samples": 0.0},
               {"shuffle": False, "negative_samples": 0.0, "window_size": 1,
                "categorical": True},
               {"seed": 3}, {"seed": 3, "categorical": True, "negative_samples": 0.5},
               {"shuffle": False, "sampling_table": [0, 1, 0.0, 1, 1, 1]}):
        random.seed(0)
        skips.append(S.skipgrams([1, 2, 0, 3, 4, 2, 5], 6, **kw))
    out["skipgrams"] = skips
    data = np.arange(20, dtype="float32").reshape(10, 2)
    gens = []
    for kw in ({"length": 3, "batch_size": 2}, {"length": 4, "sampling_rate": 2, "stride": 2,
                                                "batch_size": 3, "reverse": True},
               {"length": 2, "start_index": 1, "end_index": 7, "batch_size": 4},
               {"length": 3, "batch_size": 2, "shuffle": True}):
        np.random.seed(5)
        g = S.TimeseriesGenerator(data, np.arange(10) * 10, **kw)
        gens.append([len(g), [[np.asarray(a).tolist() for a in g[i]] for i in range(len(g))]])
    out["timeseries"] = gens
    out["ts_errors"] = [_error(lambda: S.TimeseriesGenerator(data, np.arange(9), 3)),
                        _error(lambda: S.TimeseriesGenerator(data, np.arange(10), 10)),
                        _error(lambda: S.TimeseriesGenerator(data, np.arange(10), 3).to_json())]
    return out


IMG = (np.arange(5 * 6 * 3, dtype="float32").reshape(5, 6, 3) * 1.7) % 23
AFFINE = [{"theta": 30}, {"tx": 1.5, "ty": -2}, {"shear": 20}, {"zx": 0.7, "zy": 1.3},
          {"theta": -45, "tx": 0.5, "shear": 10, "zx": 1.2, "zy": 0.9}]


def _affine(I):
    out = []
    for params in AFFINE:
        for mode, order in (("nearest", 1), ("constant", 1), ("reflect", 0), ("wrap", 1),
                            ("reflect", 1), ("nearest", 0)):
            out.append(I.apply_affine_transform(IMG, row_axis=0, col_axis=1, channel_axis=2,
                                                fill_mode=mode, cval=-1.0, order=order,
                                                **params).tolist())
        first = np.moveaxis(IMG, 2, 0)
        out.append(I.apply_affine_transform(first, **params).tolist())
        out.append(I.apply_affine_transform(np.moveaxis(IMG, 2, 0).transpose(0, 2, 1),
                                            row_axis=2, col_axis=1, **params).tolist())
    return out


def _random_fns(I):
    out = []
    for i, fn in enumerate((lambda: I.random_rotation(IMG, 40, 0, 1, 2),
                            lambda: I.random_shift(IMG, 0.2, 0.3, 0, 1, 2),
                            lambda: I.random_shear(IMG, 30, 0, 1, 2, fill_mode="wrap"),
                            lambda: I.random_zoom(IMG, (0.5, 1.5), 0, 1, 2),
                            lambda: I.random_zoom(IMG, (1, 1), 0, 1, 2),
                            lambda: I.random_channel_shift(IMG, 5.0, 2),
                            lambda: I.random_brightness(IMG, (0.5, 1.5)))):
        np.random.seed(10 + i)
        out.append(np.asarray(fn()).tolist())
    return out


def _generator_cases(I):
    x = np.stack([IMG, IMG[::-1] * 0.5, IMG[:, ::-1] + 3, IMG * 2]).astype("float32")
    full = I.ImageDataGenerator(rotation_range=20, width_shift_range=0.2,
                                height_shift_range=[1, 2], shear_range=10, zoom_range=0.2,
                                channel_shift_range=3.0, horizontal_flip=True,
                                vertical_flip=True, fill_mode="reflect",
                                brightness_range=(0.8, 1.2))
    out = {"params": [{key: (None if v is None else float(v)) for key, v in
                       full.get_random_transform(IMG.shape, seed=s).items()} for s in (1, 2)],
           "random_transform": full.random_transform(IMG, seed=4).tolist()}
    it = full.flow(x, np.arange(4), batch_size=3, seed=7)
    out["flow_aug"] = [[np.asarray(a).tolist() for a in it[i]] for i in range(len(it))]
    plain = I.ImageDataGenerator(rescale=1 / 4.0, samplewise_center=True)
    it = plain.flow((x, np.arange(8).reshape(4, 2)), np.arange(4) * 2, batch_size=3,
                    shuffle=False, sample_weight=np.ones(4) * 0.5)
    out["flow_plain"] = [[np.asarray(a).tolist() if not isinstance(a, list)
                          else [np.asarray(b).tolist() for b in a] for a in it[i]]
                         for i in range(len(it))]
    np.random.seed(0)
    it = I.ImageDataGenerator().flow(x, batch_size=2, shuffle=True)
    out["flow_next"] = [np.asarray(next(it)).tolist() for _ in range(3)]
    stats = {}
    for name, kw in (("featurewise", {"featurewise_center": True,
                                      "featurewise_std_normalization": True}),
                     ("zca", {"zca_whitening": True}),
                     ("samplewise", {"samplewise_std_normalization": True, "rescale": 0.1}),
                     ("augfit", {"featurewise_center": True, "rotation_range": 30})):
        g = I.ImageDataGenerator(**kw)
        g.fit(x, augment=name == "augfit", rounds=2, seed=3)
        stats[name] = {"mean": None if g.mean is None else g.mean.tolist(),
                       "std": None if g.std is None else g.std.tolist(),
                       "out": g.standardize(np.copy(x[1])).tolist()}
    out["stats"] = stats
    split = I.ImageDataGenerator(validation_split=0.5)
    out["subset"] = [np.asarray(split.flow(x, np.array([0, 1, 0, 1]), subset=s,
                                           shuffle=False)[0][1]).tolist()
                     for s in ("training", "validation")]
    out["errors"] = [_error(lambda: I.ImageDataGenerator(zoom_range=(1, 2, 3))),
                     _error(lambda: I.ImageDataGenerator(data_format="nchw")),
                     _error(lambda: I.ImageDataGenerator(validation_split=1.5)),
                     _error(lambda: I.ImageDataGenerator(brightness_range=0.5)),
                     _error(lambda: I.ImageDataGenerator().fit(x[0])),
                     _error(lambda: I.ImageDataGenerator().flow(x, np.arange(3))),
                     _error(lambda: I.ImageDataGenerator().flow(x[0])),
                     _error(lambda: I.ImageDataGenerator().flow(x, batch_size=3)[2]),
                     _error(lambda: split.flow(x, np.array([0, 0, 1, 1]), subset="training")),
                     _error(lambda: I.apply_affine_transform(IMG, row_axis=0, col_axis=0)),
                     _error(lambda: I.apply_affine_transform(IMG[0])),
                     _error(lambda: I.random_zoom(IMG, (1, 2, 3)))]
    return out


def _directory(I, root):
    from PIL import Image
    for c, cls in enumerate(("cats", "dogs")):
        os.makedirs(os.path.join(root, cls, "sub"), exist_ok=True)
        for i in range(3):
            pixels = ((np.arange(4 * 5 * 3).reshape(4, 5, 3) * (7 + i + 3 * c)) % 256)
            folder = os.path.join(root, cls, "sub" if i == 2 else "")
            Image.fromarray(pixels.astype("uint8")).save(os.path.join(folder, f"im{i}.png"))
        open(os.path.join(root, cls, "notes.txt"), "w").close()
    out = {}
    for mode in ("categorical", "binary", "sparse", "input", None):
        it = I.ImageDataGenerator(rescale=1 / 255.0).flow_from_directory(
            root, target_size=(3, 4), class_mode=mode, batch_size=4, shuffle=False)
        first = it[0]
        out[str(mode)] = [np.asarray(a).tolist() for a in first] \
            if isinstance(first, tuple) else np.asarray(first).tolist()
    it = I.ImageDataGenerator(validation_split=0.4).flow_from_directory(
        root, target_size=(4, 5), color_mode="grayscale", subset="validation", seed=2,
        batch_size=2)
    out["meta"] = [it.class_indices, [f.replace(os.sep, "/") for f in it.filenames],
                   it.classes.tolist(), it.image_shape, len(it),
                   np.asarray(it[0][0]).tolist()]
    try:
        out["dataframe"] = _dataframe(I, root)
    except ImportError:         # no pandas: flow_from_dataframe's cases are left out
        pass
    out["errors"] = [_error(lambda: I.DirectoryIterator(root, None, color_mode="cmyk")),
                     # the allowed modes are a set: their order varies; the head is kept
                     _error(lambda: I.DirectoryIterator(root, None, class_mode="raw"))[1]
                     .split(";")[0]]
    return out


def _dataframe(I, root):
    import pandas as pd
    import warnings
    df = pd.DataFrame({"filename": ["cats/im0.png", "dogs/im1.png", "cats/sub/im2.png",
                                    "dogs/missing.png", "cats/notes.txt", "dogs/im0.png"],
                       "class": ["cat", "dog", "cat", "dog", "cat", "bird"],
                       "tags": [["a"], ["b", "a"], ["b"], ["a"], ["a"], ["c"]],
                       "w": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "v": [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]})
    gen = I.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.5)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, kw in (("categorical", {}), ("sparse", {"classes": ["dog", "cat"]}),
                         ("binary", {"classes": ["cat", "dog"]}),
                         ("multi", {"y_col": "tags"}),
                         ("raw", {"class_mode": "raw", "y_col": ["w", "v"]}),
                         ("multi_output", {"class_mode": "multi_output", "y_col": ["w", "v"]}),
                         ("weights", {"weight_col": "w", "class_mode": "sparse"}),
                         ("input", {"class_mode": "input", "subset": "training"}),
                         ("none", {"class_mode": None, "validate_filenames": False,
                                   "subset": "validation"})):
            if name in ("sparse", "binary"):
                kw["class_mode"] = name
            it = gen.flow_from_dataframe(df, root, target_size=(2, 3), batch_size=3,
                                         shuffle=False, **kw)
            batch = it[0]
            parts = list(batch) if isinstance(batch, tuple) else [batch]
            out[name] = [it.filenames, getattr(it, "class_indices", None),
                         [[np.asarray(q).tolist() for q in p] if isinstance(p, list)
                          else np.asarray(p).tolist() for p in parts]]
    out["errors"] = [_error(lambda: gen.flow_from_dataframe(df, root, class_mode="bad")),
                     _error(lambda: gen.flow_from_dataframe(df, root, class_mode="binary")),
                     _error(lambda: gen.flow_from_dataframe(df, root, class_mode="multi_output")),
                     _error(lambda: gen.flow_from_dataframe(df, root, y_col="w")),
                     _error(lambda: gen.flow_from_dataframe(df, root, weight_col="tags"))]
    out["errors"][0][1] = out["errors"][0][1].split(";")[0]
    return out


def _image(k):
    import tempfile
    I = k.preprocessing.image
    out = {"affine": _affine(I),
           "channel_shift": [I.apply_channel_shift(IMG, v, 2).tolist() for v in (4.0, -30.0)],
           "brightness": [np.asarray(I.apply_brightness_shift(a, b, s)).tolist()
                          for a, b, s in ((IMG * 10, 1.3, True), (IMG * 10, 0.6, False),
                                          (IMG * 20 - 100, 1.2, False),
                                          (IMG / 23, 0.5, True))],
           "random": _random_fns(I), "generator": _generator_cases(I)}
    with tempfile.TemporaryDirectory() as root:
        out["directory"] = _directory(I, root)
    return out


def _backend_cases(K):
    a = np.array([[-1.5, 0.0, 2.0], [3.0, -0.25, 1.0]], dtype="float32")
    b = np.array([[0.5, 1.0], [2.0, -1.0], [0.0, 3.0]], dtype="float32")
    p = np.array([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]], dtype="float32")
    t = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], dtype="float32")
    c = K.constant(a)
    x3 = np.arange(24, dtype="float32").reshape(2, 3, 4) / 7
    return {
        "abs": K.abs(c), "all": K.all(c, axis=1), "any": K.any(K.constant([[0, 0], [0, 2]])),
        "argmax": K.argmax(c), "argmin": K.argmin(c, axis=0), "arange": K.arange(5),
        "arange_f": K.arange(1, 7, 2, dtype="float32"), "arange_neg": K.arange(-3),
        "clip": K.clip(c, 1.0, 0.5), "clip_none": K.clip(c, None, 1.0),
        "sum": K.sum(c, axis=0), "mean": K.mean(K.constant([[True, False]], dtype="bool")),
        "std": K.std(c, axis=1, keepdims=True), "var": K.var(c), "max": K.max(c, 1),
        "min": K.min(c), "prod": K.prod(c, 0), "cumsum": K.cumsum(c, 1),
        "cumprod": K.cumprod(c), "equal": K.equal(c, 0.0), "less": K.less_equal(c, 1.0),
        "maximum": K.maximum(c, 0.5), "pow": K.pow(c, 2), "round": K.round(K.constant(
            [0.5, 1.5, 2.5, -0.5])), "sign": K.sign(c), "sqrt": K.sqrt(c),
        "square": K.square(c), "exp": K.exp(c), "log": K.log(K.abs(c) + 1), "sin": K.sin(c),
        "cos": K.cos(c), "tanh": K.tanh(c), "reshape": K.reshape(c, (3, 2)),
        "flatten": K.flatten(c), "batch_flatten": K.batch_flatten(K.constant(x3)),
        "expand_dims": K.int_shape(K.expand_dims(c)), "squeeze": K.squeeze(K.constant(
            [[1.0], [2.0]]), 1), "transpose": K.transpose(c),
        "permute": K.permute_dimensions(K.constant(x3), (2, 0, 1)),
        "concatenate": K.concatenate([c, c], axis=-1), "stack": K.stack([c, c], axis=1),
        "tile": K.tile(c, (2, 1)), "repeat": K.repeat(c, 2),
        "repeat_elements": K.repeat_elements(c, 2, axis=1), "reverse": K.reverse(c, 1),
        "gather": K.gather(c, [1, 0, 1]), "one_hot": K.one_hot(K.constant([0, 2], "int32"), 3),
        "switch": K.switch(K.constant([[True], [False]], "bool"), c, -c),
        "switch_scalar": K.switch(K.constant(False), lambda: c, lambda: -c),
        "relu": K.relu(c), "relu_full": K.relu(c, alpha=0.1, max_value=1.5, threshold=0.5),
        "relu6": K.relu(c * 4, max_value=6), "elu": K.elu(c, alpha=0.5),
        "sigmoid": K.sigmoid(c), "hard_sigmoid": K.hard_sigmoid(c * 2),
        "softmax": K.softmax(c), "softmax_axes": K.softmax(c, axis=(0, 1)),
        "softplus": K.softplus(c), "softsign": K.softsign(c),
        "l2_normalize": K.l2_normalize(c, axis=1),
        "bias_add": K.bias_add(K.constant(x3), K.constant([1.0, 2.0, 3.0, 4.0])),
        "bias_add_cf": K.bias_add(K.constant(x3), K.constant([1.0, 2.0, 3.0]),
                                  data_format="channels_first"),
        "dot": K.dot(c, K.constant(b)), "dot3": K.dot(K.constant(x3), K.constant(
            np.arange(20, dtype="float32").reshape(5, 4, 1)[:, :, 0].T)),
        "bce": K.binary_crossentropy(K.constant(t), K.constant(p)),
        "bce_logits": K.binary_crossentropy(K.constant(t), c, from_logits=True),
        "cce": K.categorical_crossentropy(K.constant(t), K.constant(p)),
        "cce_logits": K.categorical_crossentropy(K.constant(t), c, from_logits=True),
        "scce": K.sparse_categorical_crossentropy(K.constant([1, 0], "int32"), K.constant(p)),
        "scce_logits": K.sparse_categorical_crossentropy(
            K.constant([[1], [2]], "int32"), c, from_logits=True),
        "in_top_k": K.in_top_k(K.constant(p), K.constant([1, 1], "int32"), 2),
        "cast_to_floatx": K.cast_to_floatx([1, 2]), "cast": K.cast(c, "int32"),
        "ones_like": K.ones_like(c), "zeros_like": K.zeros_like(c, dtype="int32"),
        "batch_dot": K.batch_dot(c, K.constant(a * 2)), "batch_dot_1": K.batch_dot(
            c, K.constant(a), axes=1), "batch_dot_3": K.batch_dot(K.constant(x3), K.constant(
                x3), axes=(1, 1)), "batch_dot_32": K.batch_dot(K.constant(x3), K.constant(
                    np.arange(8, dtype="float32").reshape(2, 4))),
        "batch_dot_4": K.batch_dot(K.constant(x3.reshape(2, 3, 2, 2)), K.constant(
            x3.reshape(2, 2, 3, 2)), axes=(2, 1)),
        "batch_norm": K.batch_normalization(c, K.constant([0.5, 0.0, 1.0]), K.constant(
            [2.0, 1.0, 0.5]), K.constant([0.1, 0.2, 0.3]), K.constant([1.0, 2.0, 3.0])),
        "bfce": K.binary_focal_crossentropy(K.constant(t), K.constant(p)),
        "bfce_bal": K.binary_focal_crossentropy(K.constant(t), c, apply_class_balancing=True,
                                                from_logits=True, gamma=1.5),
        "cfce": K.categorical_focal_crossentropy(K.constant(t), K.constant(p)),
        "cfce_logits": K.categorical_focal_crossentropy(K.constant(t), c, from_logits=True,
                                                        alpha=0.5),
        "temporal_padding": K.temporal_padding(K.constant(x3), (0, 2)),
        "spatial_2d": K.spatial_2d_padding(K.constant(x3[..., None]), ((1, 0), (0, 1))),
        "spatial_2d_cf": K.spatial_2d_padding(K.constant(x3[:, None]), data_format=
                                              "channels_first"),
        "spatial_3d": K.int_shape(K.spatial_3d_padding(K.constant(np.ones((1, 2, 2, 2, 1))))),
    }


def _backend_nn_cases(K):
    rng = np.random.default_rng(0)
    x4 = K.constant(rng.normal(size=(2, 5, 6, 3)).astype("float32"))
    k2 = K.constant(rng.normal(size=(3, 2, 3, 4)).astype("float32"))
    x3 = K.constant(rng.normal(size=(2, 7, 3)).astype("float32"))
    k1 = K.constant(rng.normal(size=(3, 3, 2)).astype("float32"))
    x5 = K.constant(rng.normal(size=(1, 4, 4, 5, 2)).astype("float32"))
    k3 = K.constant(rng.normal(size=(2, 2, 3, 2, 3)).astype("float32"))
    dw = K.constant(rng.normal(size=(3, 3, 3, 2)).astype("float32"))
    pw = K.constant(rng.normal(size=(1, 1, 6, 4)).astype("float32"))
    kt = K.constant(rng.normal(size=(3, 3, 2, 3)).astype("float32"))
    cf = K.permute_dimensions(x4, (0, 3, 1, 2))
    return {
        "conv1d": K.conv1d(x3, k1), "conv1d_causal": K.conv1d(x3, k1, padding="causal",
                                                               dilation_rate=2),
        "conv1d_same": K.conv1d(x3, k1, strides=2, padding="same"),
        "conv2d": K.conv2d(x4, k2), "conv2d_same": K.conv2d(x4, k2, (2, 2), "same"),
        "conv2d_dil": K.conv2d(x4, k2, dilation_rate=(1, 2)),
        "conv2d_cf": K.conv2d(cf, k2, data_format="channels_first"),
        "conv3d": K.conv3d(x5, k3, padding="same"),
        "conv2d_t": K.conv2d_transpose(x4, kt, (2, 11, 13, 2), (2, 2), "valid"),
        "conv2d_t_same": K.conv2d_transpose(x4, kt, (None, 10, 12, 2), (2, 2), "same"),
        "conv2d_t_dil": K.conv2d_transpose(x4, kt, (2, 5, 6, 2), padding="same",
                                           dilation_rate=(2, 2)),
        "depthwise": K.depthwise_conv2d(x4, dw, padding="same"),
        "separable": K.separable_conv2d(x4, dw, pw, (2, 2)),
        "pool_max": K.pool2d(x4, (2, 2), (2, 2)),
        "pool_avg": K.pool2d(x4, (3, 2), (1, 2), "same", pool_mode="avg"),
        "pool_cf": K.pool2d(cf, (2, 2), (2, 2), data_format="channels_first"),
        "pool3d": K.pool3d(x5, (2, 2, 2), (2, 2, 2)),
        "pool3d_avg": K.pool3d(x5, (2, 2, 2), (1, 1, 2), "same", pool_mode="avg"),
        "resize": K.resize_images(x4, 2, 3, "channels_last"),
        "resize_bilinear": K.resize_images(x4, 2, 2, "channels_last", "bilinear"),
        "resize_cf": K.resize_images(cf, 1, 2, "channels_first"),
        "resize_volumes": K.resize_volumes(x5, 2, 1, 2, "channels_last"),
        "map_fn": K.map_fn(lambda v: v * 2.0, K.constant([[1.0, 2.0], [3.0, 4.0]])),
        "foldl": K.foldl(lambda acc, v: acc * 2 + v, K.constant([1.0, 2.0, 3.0])),
        "foldr": K.foldr(lambda acc, v: acc * 2 + v, K.constant([1.0, 2.0, 3.0]),
                         initializer=K.constant(0.5)),
        **_ctc_cases(K), **_rnn_cases(K),
    }


def _rnn_cases(K):
    x = K.constant(np.random.default_rng(1).normal(size=(2, 4, 3)).astype("float32"))
    w = K.constant(np.random.default_rng(2).normal(size=(3, 2)).astype("float32"))
    mask = K.constant([[True, True, False, True], [True, False, False, False]], "bool")

    def step(inp, states):
        out = K.tanh(K.dot(inp, w) + states[0] * 0.5)
        return out, [out + states[1], states[1] * 2.0]

    init = [K.zeros_like(K.constant(np.zeros((2, 2), "float32"))),
            K.constant(np.ones((2, 2), "float32"))]
    out = {}
    for name, kw in (("plain", {}), ("back", {"go_backwards": True}),
                     ("mask", {"mask": mask}), ("mask_zero", {"mask": mask,
                                                              "zero_output_for_mask": True}),
                     ("unroll_mask", {"mask": mask, "unroll": True}),
                     ("unroll_zero", {"mask": mask, "unroll": True,
                                      "zero_output_for_mask": True}),
                     ("back_mask", {"mask": mask, "go_backwards": True}),
                     ("length", {"input_length": K.constant([4, 2], "int32")}),
                     ("last", {"return_all_outputs": False})):
        last, outputs, states = K.rnn(step, x, init, **kw)
        out["rnn_" + name] = K.concatenate([K.flatten(last), K.flatten(outputs)] +
                                           [K.flatten(s) for s in states], axis=0)
    return out


def _ctc_cases(K):
    y = K.constant(np.random.default_rng(0).dirichlet(np.ones(4), size=(2, 5)).astype(
        "float32"))
    sparse = K.ctc_label_dense_to_sparse(K.constant([[1, 2, 0], [2, 0, 0]], "int32"),
                                         K.constant([2, 1], "int32"))
    greedy, greedy_lp = K.ctc_decode(y, K.constant([5, 4], "int32"))
    beam, beam_lp = K.ctc_decode(y, K.constant([5, 4], "int32"), greedy=False, beam_width=3,
                                 top_paths=2)
    return {"ctc_sparse": K.concatenate([K.cast(sparse.indices, "int32"),
                                         K.expand_dims(sparse.values)]),
            "ctc_cost": K.ctc_batch_cost(K.constant([[1, 2], [2, 0]], "int32"), y,
                                         K.constant([[5], [4]], "int32"),
                                         K.constant([[2], [1]], "int32")),
            "ctc_greedy": greedy[0], "ctc_greedy_lp": greedy_lp,
            "ctc_beam_0": beam[0], "ctc_beam_1": beam[1], "ctc_beam_lp": beam_lp}


def _backend(k):
    K = k.backend
    out = {}
    cases = {**_backend_cases(K), **_backend_nn_cases(K)}
    for key, value in cases.items():
        arr = np.asarray(value)
        out[key] = [arr.tolist(), str(arr.dtype)]
    v = K.variable([[1, 2], [3, 4]], name="v")
    meta = [K.int_shape(v), K.ndim(v), K.dtype(v), K.count_params(v),
            K.get_value(v).tolist(), K.eval(K.constant(2.0)).tolist(), K.get_value(3),
            K.int_shape(K.zeros((2, 0))), type(K.zeros((2, 3))).__name__.endswith("Variable"),
            K.dtype(K.ones((2,), dtype="int32")), K.eye(2).numpy().tolist()]
    K.set_value(v, [[5, 6], [7, 8]])
    K.batch_set_value([(v, np.full((2, 2), 0.5))])
    meta.append([a.tolist() for a in K.batch_get_value([v, K.constant([1.0])])])
    K.update_add(v, np.ones((2, 2), "float32"))
    K.update_sub(v, np.full((2, 2), 0.25, "float32"))
    meta.append(K.get_value(v).tolist())
    K.moving_average_update(v, np.zeros((2, 2), "float32"), 0.9)
    meta.append(K.get_value(v).tolist())
    K.update(v, np.zeros((2, 2), "float32"))
    meta.append(K.get_value(v).tolist())
    out["meta"] = meta
    out["errors"] = [_error(lambda: K.softmax(K.constant([1.0, 2.0]))),
                     _error(lambda: K.repeat(K.constant([1.0]), 2)),
                     _error(lambda: K.bias_add(K.constant([[1.0]]), K.constant([1.0]),
                                               data_format="nchw")),
                     _error(lambda: K.switch(K.constant([[True]]), K.constant([1.0]),
                                             K.constant([2.0]))),
                     _error(lambda: K.batch_dot(K.constant([1.0]), K.constant([[1.0]]))),
                     _error(lambda: K.batch_dot(K.constant(np.ones((2, 3))),
                                                K.constant(np.ones((3, 3))))),
                     _error(lambda: K.batch_dot(K.constant(np.ones((2, 3))),
                                                K.constant(np.ones((2, 3))), axes=0)),
                     _error(lambda: K.batch_dot(K.constant(np.ones((2, 3))),
                                                K.constant(np.ones((2, 4))))),
                     _error(lambda: K.batch_dot(K.constant(np.ones((2, 3))),
                                                K.constant(np.ones((2, 3))), axes=[[1], 1])),
                     _error(lambda: K.temporal_padding(K.constant(np.ones((1, 2, 1))), (1,))),
                     _error(lambda: K.spatial_2d_padding(K.constant(np.ones((1, 2, 2, 1))),
                                                         ((1, 1),))),
                     _error(lambda: K.spatial_3d_padding(K.constant(np.ones((1, 2, 2, 2, 1))),
                                                         data_format="x")),
                     _error(lambda: K.conv2d(np.ones((1, 3, 3, 1)), np.ones((1, 1, 1, 1)),
                                             padding="full")),
                     _error(lambda: K.conv2d(np.ones((1, 3, 3, 1)), np.ones((1, 1, 1, 1)),
                                             data_format="nhwc")),
                     _error(lambda: K.pool2d(np.ones((1, 2, 2, 1)), (2,))),
                     _error(lambda: K.pool2d(np.ones((1, 2, 2, 1)), (2, 2), pool_mode="min")),
                     _error(lambda: K.resize_images(np.ones((1, 2, 2, 1)), 2, 2, "nhwc")),
                     _error(lambda: K.resize_images(K.constant(np.ones((1, 2, 2, 1))), 2, 2,
                                                    "channels_last", "cubic")),
                     _error(lambda: K.resize_volumes(np.ones((1, 2, 2, 2, 1)), 1, 1, 1, "x"))]
    return out


def _rounded(value):
    """Floats to 8 significant digits (the tests compare to 1e-6 relative)."""
    if isinstance(value, float):
        return float(f"{value:.8g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def main():
    from keras._tf_keras import keras as k
    import keras
    record = {"keras": keras.__version__, "layers": _layers(k), "text": _text(k),
              "sequence": _sequence(k), "image": _image(k), "backend": _backend(k)}
    with open(OUT, "w") as f:
        json.dump(_rounded(record), f, indent=None, sort_keys=True)
        f.write("\n")
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
