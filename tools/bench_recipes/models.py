"""Model workloads against TensorFlow's Keras: an LSTM, a CNN and an MLP
training step (and the CNN's inference) in one tf.function each. The
builders (`lstm_step`, `model_step`) take the library as `tf`, so the same
source runs in TensorFlow, in this process or in $BENCH_TF_PYTHON. Ours and TensorFlow's
take turns in short rounds (tools/bench_recipes/interleave.py), the best
round of each counting."""

import os

import runtime as tf
from tools.bench_recipes import base
from tools.bench_recipes.base import best_of
from tools.bench_recipes.interleave import Local, Worker, interleaved

ROUNDS = 5        # interleaved rounds per unit of the run's best-of-N


def lstm_step(tf):
    """A training step of LSTM(64) -> Dense(1) on batch 32 x 20 steps x 16
    features (mse, a tape and SGD in one tf.function), for `tf` = runtime or
    TensorFlow; returns (step, x, y)."""
    import numpy as np
    rng = np.random.default_rng(3)
    x = tf.constant(rng.standard_normal((32, 20, 16)).astype("float32"))
    y = tf.constant(rng.standard_normal((32, 1)).astype("float32"))
    model = tf.keras.Sequential([tf.keras.layers.LSTM(64), tf.keras.layers.Dense(1)])
    model(x)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        for v, g in zip(model.trainable_weights, tape.gradient(loss, model.trainable_weights)):
            v.assign_sub(0.01 * g)
        return loss
    step(x, y)
    return step, x, y


def tf_side(builder, *args):
    """TensorFlow's side of a row for the step `builder(tf, *args)` returns
    (step, x, y): a Local in this process when tensorflow imports, else a
    Worker with the interpreter in $BENCH_TF_PYTHON; None without."""
    try:
        import tensorflow as tf_real
    except ImportError:
        tf_real = None
    if tf_real is not None:
        step, x, y = builder(tf_real, *args)
        return Local(lambda: step(x, y))
    python = os.environ.get("BENCH_TF_PYTHON")
    if not python:
        return None
    import inspect
    setup = (f"import tensorflow as tf\n{inspect.getsource(builder)}\n"
             f"step, x, y = {builder.__name__}(tf, *{args!r})\n"
             "def run():\n    step(x, y)\n")
    return Worker(python, setup)


def versus_tf(ours, builder, *args):
    """((wall, CPU) seconds per call of ours, of TF's or None) for the step
    `ours` and TensorFlow's `builder(tf, *args)`, in ROUNDS x REPEAT
    interleaved rounds."""
    side = tf_side(builder, *args)
    if side is None:
        return (best_of(ours), None), None
    try:
        return tuple(interleaved([Local(ours), side], ROUNDS * base.REPEAT))
    finally:
        getattr(side, "close", lambda: None)()


def _tf_row(ours, theirs, target, goal=""):
    """A bench row: our wall time against TF's, the CPU times in the note."""
    return dict(graph=ours[0], numpy=theirs[0], ratio_target=target,
                extra={"cpu": ours[1], "tf_cpu": theirs[1]},
                note=f"baseline column: TensorFlow Keras, the same step in tf.function{goal}; "
                     f"best of {ROUNDS * base.REPEAT} interleaved rounds; CPU time per step "
                     f"(all threads) ours {ours[1] * 1e3:.2f} ms, TF {theirs[1] * 1e3:.2f} ms "
                     f"({ours[1] / theirs[1]:.2f}x)")


def bench_lstm_step():
    """An LSTM(64) training step (batch 32 x 20 steps x 16 features)
    vs TensorFlow's Keras in the baseline column (tensorflow importable here,
    or its interpreter in $BENCH_TF_PYTHON); the time loop is one While node."""
    step, x, y = lstm_step(tf)
    ours, theirs = versus_tf(lambda: step(x, y), lstm_step)
    if theirs is None:
        return dict(graph=ours[0], ok=None, note="n/a (TensorFlow is not importable here; set "
                    "BENCH_TF_PYTHON to a python with tensorflow for the baseline)")
    return _tf_row(ours, theirs, 1.0)


def model_step(tf, which):
    """The model workloads (cnn, mlp), for `tf` = runtime or TensorFlow, with the
    same initial weights (a seeded numpy draw) on both sides; returns
    (step, x, y). "cnn": Conv2D(32, 3, relu) - MaxPool 2 - Conv2D(64, 3,
    relu) - MaxPool 2 - Flatten - Dense(10), batch 32 of 28x28x1, a training
    step with SGD; "cnn_inference": the same model's call, batch 16; "mlp":
    Dense 784-256-256-10 (relu), batch 128, a training step with Adam. The
    losses are sparse categorical cross-entropy from logits."""
    import numpy as np
    rng = np.random.default_rng(34)
    layers = tf.keras.layers
    if which.startswith("cnn"):
        batch = 16 if which == "cnn_inference" else 32
        xv = rng.standard_normal((batch, 28, 28, 1)).astype("float32")
        model = tf.keras.Sequential([
            layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(2),
            layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(2),
            layers.Flatten(), layers.Dense(10)])
        optimizer = tf.keras.optimizers.SGD(0.01)
    else:
        batch = 128
        xv = rng.standard_normal((batch, 784)).astype("float32")
        model = tf.keras.Sequential([layers.Dense(256, activation="relu"),
                                     layers.Dense(256, activation="relu"), layers.Dense(10)])
        optimizer = tf.keras.optimizers.Adam(1e-3)
    x = tf.constant(xv)
    y = tf.constant(rng.integers(0, 10, batch).astype("int32"))
    model(x)
    model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.05
                       for w in model.get_weights()])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    if which == "cnn_inference":
        step = tf.function(lambda x, y: model(x, training=False))
    else:
        @tf.function
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_weights)
            optimizer.apply_gradients(zip(grads, model.trainable_weights))
            return loss
    step(x, y)
    return step, x, y


def tf_step_versus(kind, ours):
    """(ours, TensorFlow's) best seconds per step for bench_jit's workload
    `kind`, timed in interleaved rounds (TF's None: not reachable)."""
    builder = (lstm_step,) if kind == "lstm" else (model_step, kind)
    (mine, _), theirs = versus_tf(ours, *builder)
    return mine, (theirs[0] if theirs is not None else None)


def bench_model(which):
    """A bench row for `model_step(which)`: ours in the graph column,
    TensorFlow's Keras (when reachable) in the baseline column."""
    step, x, y = model_step(tf, which)
    ours, theirs = versus_tf(lambda: step(x, y), model_step, which)
    if theirs is None:
        return dict(graph=ours[0], ok=None, note="n/a (TensorFlow is not importable here; set "
                    "BENCH_TF_PYTHON to a python with tensorflow for the baseline)")
    return _tf_row(ours, theirs, 1.5, " (the goal: within 1.5x)")
