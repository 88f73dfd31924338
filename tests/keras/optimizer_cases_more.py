"""Optimizer cases shared by tests/keras/test_optimizers_more.py and
tools/record_keras_optimizers_more.py (Keras 3.15's trajectories): each case
applies STEPS to a matrix and a vector weight and gives the weights after each
step (with LossScaleOptimizer's scale, counter and iterations)."""

import numpy as np

W0 = np.array([[0.5, -1.0, 0.3], [2.0, 0.25, -0.7]], np.float32)
B0 = np.array([0.1, -0.2, 0.0], np.float32)
GRADS = [np.array([[0.1, -0.3, 0.2], [0.7, 0.0, -0.4]], np.float32) * (i + 1)
         for i in range(3)]
BIAS_GRADS = [np.array([0.3, -0.1, 0.05], np.float32) * (i - 1) for i in range(3)]

CASES = {
    "adafactor": lambda O: O.Adafactor(0.1),
    "adafactor_absolute_step": lambda O: O.Adafactor(0.05, relative_step=False,
                                                     clip_threshold=0.5),
    "adafactor_schedule": lambda O: O.Adafactor(O.schedules.ExponentialDecay(0.2, 1, 0.5)),
    "lamb": lambda O: O.Lamb(0.1),
    "lamb_weight_decay": lambda O: O.Lamb(0.05, weight_decay=0.1, beta_1=0.8),
    "schedule_free_adamw": lambda O: O.ScheduleFreeAdamW(0.1),
    "schedule_free_adamw_warmup": lambda O: O.ScheduleFreeAdamW(0.2, beta_1=0.8,
                                                                warmup_steps=2),
    "schedule_free_adamw_decay": lambda O: O.ScheduleFreeAdamW(0.1, weight_decay=0.05),
    "muon": lambda O: O.Muon(0.1),
    "muon_plain": lambda O: O.Muon(0.05, nesterov=False, rms_rate=None, ns_steps=3,
                                   weight_decay=None, adam_weight_decay=0.1,
                                   adam_lr_ratio=0.5),
}

# LossScaleOptimizer(SGD(0.1), initial_scale=8, dynamic_growth_steps=2): the
# gradients given (already scaled), one of them not finite
LSO_GRADS = [GRADS[0] * 8, GRADS[1] * 8, np.full_like(W0, np.inf), GRADS[2] * 4,
             GRADS[0] * 4, GRADS[1] * 8]


def run(keras, tf, name, step_fn=None):
    """[[w, b] after each step] of case `name`."""
    opt = CASES[name](keras.optimizers)
    if name.startswith("muon"):     # Muon reads the variables' Keras paths
        w, b = keras.Variable(W0, name="kernel"), keras.Variable(B0, name="bias")
    else:
        w, b = tf.Variable(W0), tf.Variable(B0)

    def step(g, bg):
        opt.apply_gradients([(g, w), (bg, b)])
    step = step_fn(step) if step_fn else step
    out = []
    for g, bg in zip(GRADS, BIAS_GRADS):
        step(tf.constant(g), tf.constant(bg))
        out.append([np.asarray(w, np.float64), np.asarray(b, np.float64)])
    return out


def run_loss_scale(keras, tf, step_fn=None):
    """[(w, scale, step_counter, iterations) after each step]."""
    O = keras.optimizers
    opt = O.LossScaleOptimizer(O.SGD(0.1), initial_scale=8.0, dynamic_growth_steps=2)
    w = tf.Variable(W0)

    def step(g):
        opt.apply_gradients([(g, w)])
    step = step_fn(step) if step_fn else step
    out = []
    for g in LSO_GRADS:
        step(tf.constant(g))
        out.append((np.asarray(w, np.float64), float(np.asarray(opt.dynamic_scale)),
                    int(np.asarray(opt.step_counter)), int(np.asarray(opt.iterations))))
    return out
