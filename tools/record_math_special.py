"""Record TensorFlow 2.21's special functions for tests/data/math_special.npz.

Run under a Python with TensorFlow 2.21 (the oracle):

    $BENCH_TF_PYTHON tools/record_math_special.py

For each case (a name of `tf.math` or `tf.math.special` and its float64
inputs, special points included: 0, poles, the domain's edges, +-inf, NaN,
and each side of the ranges where our kernels change method) it records, in
float32 and float64, the values and the gradient of sum(output) with respect
to each input. The inputs are float32 numbers, so both dtypes see the same points. Keys: `<case>/in<i>`,
`<case>/<dtype>/value`, `<case>/<dtype>/grad<i>` and `<case>/<dtype>/nograd<i>`
(a flag: TF returns None there). tests/runtime/ops/math/test_math_special.py replays them.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "math_special.npz"

inf, nan = np.inf, np.nan
X = [0.0, 1e-8, 0.3, 0.7, 1.0, 1.5, 1.99, 2.0, 2.01, 3.3, 7.5, 11.0, 14.9, 15.5, 16.5,
     24.5, 25.5, 39.0, 41.0, 100.0, 700.0, inf, -inf, nan, -0.5, -2.0, -20.0]
P = [0.0, 1e-30, 1e-8, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1 - 1e-6, 1.0, 1.5, -0.3, nan]
E = [0.0, 1e-6, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-6, 1.0, -0.3, -0.9, -1.0, 1.5, nan]
rng = np.random.default_rng(32)
A2 = np.concatenate([rng.uniform(0.05, 5, 12), rng.uniform(5, 60, 6),
                     [0.0, 0.0, 1.0, -1.0, 1.0, inf, 1.0, nan, 3.0, 2.0]])
X2 = np.concatenate([rng.uniform(0.05, 5, 12), rng.uniform(5, 60, 6),
                     [0.0, 1.0, 0.0, 1.0, -1.0, 1.0, inf, 1.0, 3.1, 2.0]])
B3 = np.concatenate([rng.uniform(0.05, 5, 12), rng.uniform(5, 60, 6),
                     [1.0, 0.0, 2.0, 2.0, 1.0, 3.0, inf, 2.0, 2.0, 2.0]])
U3 = np.concatenate([rng.uniform(0.02, 0.98, 18), [0.5, 0.5, 0.0, 1.0, -0.1, 0.5, 0.5, 0.3,
                                                   0.9, 0.6]])
ZX = np.concatenate([rng.uniform(1.1, 8, 10), [1.0, 0.5, 2.0, 2.0, 2.0, 2.5, 3.0, inf, 2.0]])
ZQ = np.concatenate([rng.uniform(0.1, 20, 10), [1.0, 1.0, 0.0, -1.0, -1.5, -1.5, -2.5, 2.0,
                                                inf]])
PA = [0.0, 1.0, 2.0, 3.0, 1.5, -1.0, 1.0, 2.0, 3.0, 4.0, 0.0]
PX = [2.0, 0.0, 2.0, -1.5, 2.0, 2.0, 0.3, 7.0, 30.0, 0.5, -2.5]

UNARY_MATH = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"]
UNARY_SPECIAL = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e",
                 "bessel_k1", "bessel_k1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
                 "spence"]

CASES = {name: (name, [X]) for name in UNARY_MATH}
CASES.update({"special." + name: ("special." + name, [X]) for name in UNARY_SPECIAL})
CASES.update({
    "erfinv": ("erfinv", [E]),
    "ndtri": ("ndtri", [P]),
    "erfcinv": ("erfcinv", [[2 * p if p == p else p for p in P] + [2.0, 1.9]]),
    "igamma": ("igamma", [A2, X2]),
    "igammac": ("igammac", [A2, X2]),
    "betainc": ("betainc", [A2, B3, U3]),
    "zeta": ("zeta", [ZX, ZQ]),
    "polygamma": ("polygamma", [PA, PX]),
})


def _function(tf, name):
    target = tf.math
    for part in name.split("."):
        target = getattr(target, part)
    return target


def record_case(tf, key, name, inputs, out):
    inputs = [np.asarray(v, np.float32).astype(np.float64) for v in inputs]  # exact in both
    for i, values in enumerate(inputs):
        out[f"{key}/in{i}"] = values
    for dtype in ("float32", "float64"):
        args = [tf.constant(np.asarray(v, dtype)) for v in inputs]
        with tf.GradientTape() as tape:
            tape.watch(args)
            y = _function(tf, name)(*args)
        out[f"{key}/{dtype}/value"] = y.numpy()
        for i, g in enumerate(tape.gradient(y, args)):
            if g is None:
                out[f"{key}/{dtype}/nograd{i}"] = np.array(True)
            else:
                out[f"{key}/{dtype}/grad{i}"] = g.numpy()


def main():
    import tensorflow as tf
    out = {}
    for key, (name, inputs) in CASES.items():
        record_case(tf, key, name, inputs, out)
    np.savez_compressed(OUT, **out)
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
