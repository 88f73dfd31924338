"""Record TensorFlow 2.21's values for tests/data/ctc_beam_search_tf221.npz.

    $BENCH_TF_PYTHON tools/record_ctc_beam_search.py

`cases(tf, wrap)` is written once for both libraries: tf.nn.ctc_beam_search_decoder
on fixed logits (random, peaked, a repeated label, sequence lengths shorter
than max_time and 0, beam widths 1 to 10, top_paths up to the beam width) and
returns each path's indices, values and dense_shape and the log probabilities.
tests/runtime/sparse/test_ctc_beam_search.py replays them eagerly and traced.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "ctc_beam_search_tf221.npz"


def _logits(shape, seed, scale=2.0):
    return np.random.default_rng(seed).normal(0.0, scale, shape).astype(np.float32)


def _case_table():
    """name -> (logits, sequence lengths, beam_width, top_paths)."""
    peaked = np.log(np.array([[[0.1, 0.6, 0.3], [0.3, 0.3, 0.4]],
                              [[0.5, 0.2, 0.3], [0.2, 0.2, 0.6]],
                              [[0.2, 0.7, 0.1], [0.7, 0.2, 0.1]],
                              [[0.2, 0.7, 0.1], [0.7, 0.1, 0.2]],
                              [[0.6, 0.3, 0.1], [0.1, 0.1, 0.8]]], np.float32))
    return {
        "peaked_top3": (peaked, [5, 5], 3, 3),
        "peaked_short": (peaked, [3, 0], 4, 1),
        "peaked_greedy": (peaked, [5, 4], 1, 1),
        "random_default": (_logits([8, 3, 5], 1), [8, 6, 1], 100, 1),
        "random_top4": (_logits([10, 2, 6], 2), [10, 7], 10, 4),
        "random_narrow": (_logits([12, 2, 4], 3, 1.0), [12, 12], 2, 2),
        "flat_repeats": (_logits([6, 1, 3], 4, 0.3), [6], 5, 5),
        "many_classes": (_logits([5, 2, 20], 5, 3.0), [5, 3], 8, 3),
    }


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [indices, values, dense_shape for each path..., log_probability]."""
    out = {}
    for name, (logits, lengths, beam, top) in _case_table().items():
        if names is not None and name not in names:
            continue

        def run(x, n, beam=beam, top=top):
            decoded, log_prob = tf.nn.ctc_beam_search_decoder(x, n, beam_width=beam,
                                                              top_paths=top)
            return [t for d in decoded for t in (d.indices, d.values, d.dense_shape)] + \
                [log_prob]
        results = wrap(run)(tf.constant(logits), tf.constant(lengths, tf.int32))
        out[name] = [np.asarray(t.numpy()) for t in results]
    return out


def main():
    import tensorflow as tf
    flat = {f"{name}/{i}": v for name, values in cases(tf).items()
            for i, v in enumerate(values)}
    np.savez(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
