"""Record Keras 3.15's ContrastLimitedAdaptiveHistogramEqualization (exact
outputs), and AugMix and RandomElasticTransform (configs, identities and the
mean absolute change over repeated random calls) on TF 2.21.

    $BENCH_TF_PYTHON tools/record_keras_image_more.py
    # writes tests/data/keras_image_more.npz

`CLAHE_CASES`, `RANDOM_CASES`, `image`, `run_clahe`, `run_random` and
`configs` are shared with the test, which runs them here.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_image_more.npz"
CLAHE_CASES = {
    "default": (dict(), (2, 13, 10, 3)),
    "grid_3x2": (dict(tile_grid_size=(3, 2)), (2, 13, 10, 3)),
    "no_clip": (dict(tile_grid_size=(4, 4), clip_limit=0), (2, 13, 10, 3)),
    "unit_range": (dict(tile_grid_size=(2, 3), clip_limit=1.5, value_range=(0, 1)),
                   (2, 13, 10, 3)),
    "channels_first": (dict(tile_grid_size=(2, 2), data_format="channels_first"),
                       (1, 2, 9, 12)),
    "one_image": (dict(tile_grid_size=(2, 2)), (8, 8, 1)),
}
RANDOM_CASES = {
    "aug_mix": ("AugMix", dict()),
    "aug_mix_few_ops": ("AugMix", dict(all_ops=False, factor=0.6, num_chains=2)),
    "elastic": ("RandomElasticTransform", dict(factor=(1.0, 1.0))),
    "elastic_nearest_wrap": ("RandomElasticTransform", dict(factor=(1.0, 1.0), scale=0.5,
                                                            interpolation="nearest",
                                                            fill_mode="wrap")),
}
IDENTITIES = {
    "aug_mix_depth0": ("AugMix", dict(chain_depth=0)),
    "elastic_factor0": ("RandomElasticTransform", dict(factor=0.0)),
    "elastic_scale0": ("RandomElasticTransform", dict(scale=0.0)),
}
CALLS = 16


def image(shape, seed=0):
    x = np.random.default_rng(seed).uniform(0, 255, shape).astype(np.float32)
    x[..., :shape[-3] // 3, :, :] *= 0.3 if len(shape) == 4 else 1.0
    return x


def smooth(shape=(2, 24, 24, 3)):
    yy, xx = np.meshgrid(np.arange(shape[1]), np.arange(shape[2]), indexing="ij")
    one = (127.5 + 100 * np.sin(yy / 3.0) * np.cos(xx / 4.0)).astype(np.float32)
    return np.broadcast_to(one[None, :, :, None], shape).copy()


def run_clahe(keras, name, wrap=lambda f: f):
    kwargs, shape = CLAHE_CASES[name]
    x = image(shape)
    if kwargs.get("value_range") == (0, 1):
        x = x / 255.0
    layer = keras.layers.ContrastLimitedAdaptiveHistogramEqualization(**kwargs)
    return np.asarray(wrap(layer)(x))


def run_random(keras, tf, name, wrap=lambda f: f, calls=CALLS):
    """The mean over `calls` calls of the mean |output - input| on a smooth
    image, and the outputs' range."""
    kind, kwargs = {**RANDOM_CASES, **IDENTITIES}[name]
    layer = getattr(keras.layers, kind)(seed=7, **kwargs)
    x = smooth()
    call = wrap(lambda v: layer(v, training=True))
    outs = [np.asarray(call(tf.constant(x))) for _ in range(calls if name in RANDOM_CASES
                                                             else 1)]
    changes = [np.abs(o - x).mean() for o in outs]
    return {"change": np.float32(np.mean(changes)), "changed_share": np.float32(np.mean(
        [c > 1e-3 for c in changes])), "low": np.float32(min(o.min() for o in outs)),
        "high": np.float32(max(o.max() for o in outs)), "shape": np.asarray(outs[0].shape)}


def configs(keras):
    out = {}
    for name, (kind, kwargs) in {**RANDOM_CASES, **IDENTITIES}.items():
        config = getattr(keras.layers, kind)(**kwargs).get_config()
        out[name] = repr(sorted((k, v) for k, v in config.items() if k != "name"))
    for name, (kwargs, _) in CLAHE_CASES.items():
        config = keras.layers.ContrastLimitedAdaptiveHistogramEqualization(**kwargs).get_config()
        out[f"clahe_{name}"] = repr(sorted((k, v) for k, v in config.items() if k != "name"))
    return out


def run(keras, tf):
    out = {f"clahe/{name}": run_clahe(keras, name) for name in CLAHE_CASES}
    for name in {**RANDOM_CASES, **IDENTITIES}:
        out.update({f"random/{name}/{k}": v for k, v in run_random(keras, tf, name).items()})
    out.update({f"config/{k}": np.asarray(v) for k, v in configs(keras).items()})
    return out


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
