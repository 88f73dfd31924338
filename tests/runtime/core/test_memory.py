"""The executor's memory: after its first runs a training step takes no new
pages from the kernel (glibc returned numpy's large temporaries
after every step, and the page faults that followed doubled the step time).
"""

import os
import resource
import sys

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import memory

glibc = pytest.mark.skipif(memory._glibc() is None, reason="the settings are glibc's")
chosen = (os.environ.get("RUNTIME_MALLOPT", "1").strip() == "0"
          or any(name in os.environ for name in memory._USER_SETTINGS))
defaults = pytest.mark.skipif(chosen, reason="this environment chose the allocator's settings")


def _faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@glibc
@defaults
def test_import_sets_the_thresholds():
    assert memory.keep_freed_memory() is True


@pytest.mark.parametrize("env", [{"RUNTIME_MALLOPT": "0"}, {"MALLOC_TRIM_THRESHOLD_": "1"},
                                 {"MALLOC_MMAP_THRESHOLD_": "65536"}])
def test_opt_out_and_user_settings_skip_it(monkeypatch, env):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert memory._apply() is False


@glibc
@defaults
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_minflt is Linux's")
def test_a_training_step_takes_no_new_pages_after_its_first_runs():
    # 784-256-256-10 MLP, batch 128, Adam: its activations and gradients are
    # 128 KiB to 800 KiB each, above glibc's default mmap threshold (without
    # the settings: about 2,200 page faults a step).
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((128, 784)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, 128).astype(np.int32))
    model = tf.keras.Sequential([tf.keras.layers.Dense(256, activation="relu"),
                                 tf.keras.layers.Dense(256, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    opt = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        return loss

    losses = [float(step(x, y)) for _ in range(3)]
    before = _faults()
    for _ in range(5):
        losses.append(float(step(x, y)))
    assert (_faults() - before) / 5 < 100
    assert losses[-1] < losses[0]
