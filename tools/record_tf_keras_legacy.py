"""Record TF 2.21's tf.keras (Keras 3.15) legacy values that
tests/keras/legacy/ checks: tf.keras.layers.RandomHeight / RandomWidth /
ThresholdedReLU, tf.keras.preprocessing.text and .sequence.

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


def main():
    from keras._tf_keras import keras as k
    import keras
    record = {"keras": keras.__version__, "layers": _layers(k), "text": _text(k),
              "sequence": _sequence(k)}
    with open(OUT, "w") as f:
        json.dump(record, f, indent=None, sort_keys=True)
        f.write("\n")
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
