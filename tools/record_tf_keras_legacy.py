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
    out["errors"] = [_error(lambda: I.DirectoryIterator(root, None, color_mode="cmyk")),
                     # the allowed modes are a set: their order varies; the head is kept
                     _error(lambda: I.DirectoryIterator(root, None, class_mode="raw"))[1]
                     .split(";")[0]]
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


def main():
    from keras._tf_keras import keras as k
    import keras
    record = {"keras": keras.__version__, "layers": _layers(k), "text": _text(k),
              "sequence": _sequence(k), "image": _image(k)}
    with open(OUT, "w") as f:
        json.dump(record, f, indent=None, sort_keys=True)
        f.write("\n")
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
