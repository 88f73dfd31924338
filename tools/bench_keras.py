"""Benchmark row: `fit` on the README's classifier, per epoch, vs TensorFlow's Keras.

The goal: `model.fit` on the README's first model (Dense(16, relu) ->
Dense(2), Adam, sparse cross-entropy from logits, accuracy; 512 samples,
batch 64, so 8 steps an epoch) is no slower per epoch than TensorFlow's Keras
on this machine. Each side runs in its own process: a warm-up `fit` (which
traces the step), then best-of-N of `fit(epochs=5)` divided by 5. TensorFlow
runs from the interpreter in $TF_PYTHON (default /work/tfvenv/bin/python);
without it the row says n/a.

    python tools/bench.py --only "fit per epoch"
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TF_PYTHON = os.environ.get("TF_PYTHON", "/work/tfvenv/bin/python")

_SCRIPT = r'''
import os, sys, time, json
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
if sys.argv[1] == "ours":
    import runtime as tf
    keras = tf.keras
else:
    import keras
x = np.random.default_rng(0).normal(size=(512, 2)).astype(np.float32)
y = (x[:, 0] * x[:, 1] > 0).astype(np.int32)
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dense(2)])
model.compile(optimizer="adam",
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
model.fit(x, y, batch_size=64, epochs=2, verbose=0)
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    model.fit(x, y, batch_size=64, epochs=5, verbose=0)
    times.append((time.perf_counter() - start) / 5)
print(json.dumps(min(times)))
'''


def _seconds_per_epoch(python, which, repeat):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([python, "-c", _SCRIPT, which, str(repeat)], capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{which}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_keras_fit(unavailable, repeat):
    """A bench.py row: graph = our fit per epoch, numpy column = TF Keras's."""
    if not os.path.exists(TF_PYTHON):
        raise unavailable(f"TensorFlow's Keras not found at {TF_PYTHON} (set TF_PYTHON)")
    ours = _seconds_per_epoch(sys.executable, "ours", repeat)
    theirs = _seconds_per_epoch(TF_PYTHON, "tf", repeat)
    note = (f"ours {ours * 1e3:.2f} ms/epoch vs TF Keras {theirs * 1e3:.2f} ms/epoch "
            "(the numpy column is TF Keras)")
    return dict(graph=ours, numpy=theirs, ratio_target=1.0, note=note)
