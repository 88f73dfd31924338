"""The Keras examples run as scripts and print what the seeds promise."""

import os
import re

from tests import fresh_process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_example(name, *args):
    env = dict(os.environ, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS="1")
    proc = fresh_process.run([os.path.join(ROOT, "examples", name), *args],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_seed001_model_uses_dropout_only_when_training():
    out = run_example("seed001_keras_model.py")
    assert out.splitlines() == [
        "weights: ['my_model/dense/kernel', 'my_model/dense/bias', 'my_model/dense_1/kernel', "
        "'my_model/dense_1/bias']",
        "graphs traced for call: 2",
        "training=True : 9 of 50 outputs dropped, the rest scaled by 1 / (1 - 0.2): True",
        "training=False: no dropout, same result every call: True",
    ]


def test_seed002_prints_eager_and_graph_times_after_one_trace():
    out = run_example("seed002_sequential_timing.py", "--number", "50")
    eager, graph, per_call = out.splitlines()
    assert re.fullmatch(r"Eager time: \d+\.\d+(e-\d+)? seconds", eager)
    assert re.fullmatch(r"Graph time: \d+\.\d+(e-\d+)? seconds", graph)
    assert re.fullmatch(r"per call: eager \d+\.\d{3} ms, graph \d+\.\d{3} ms \(50 calls each; "
                        r"the graph was traced 1 time\)", per_call)


def test_train_classifier_fits_spirals_above_90_percent_and_reloads():
    out = run_example("train_classifier.py", "--epochs", "15")
    lines = out.splitlines()
    assert lines[0] == "Epoch 1/15" and lines[28] == "Epoch 15/15"
    assert re.fullmatch(r"20/20 - \d+s - \d+(us|ms|s)/step - accuracy: \d\.\d{4} - "
                        r"loss: \d\.\d{4} - val_accuracy: \d\.\d{4} - val_loss: \d\.\d{4}",
                        lines[29]), lines[29]
    first, last = re.fullmatch(r"loss: first epoch (\d\.\d+), last epoch (\d\.\d+)",
                               lines[30]).groups()
    assert float(last) < float(first) / 4
    accuracy = float(re.fullmatch(r"final test accuracy: (\d\.\d+)", lines[31]).group(1))
    assert accuracy > 0.9
    assert lines[32] == "saved and reloaded: predictions match: True"


def test_seed003_custom_training_loop_learns_and_traces_each_step_once():
    out = run_example("seed003_custom_training.py", "--epochs", "3", "--samples", "6400")
    lines = out.splitlines()
    assert lines[:4] == ["", "Start of epoch 0", lines[2], "Seen so far: 64 samples"]
    assert re.fullmatch(r"Training loss \(for 1 batch\) at step 0: \d\.\d{4}", lines[2])
    train = [float(v) for v in re.findall(r"Training acc over epoch: (\d\.\d{4})", out)]
    val = [float(v) for v in re.findall(r"Validation acc: (\d\.\d{4})", out)]
    assert len(train) == len(val) == 3 and len(re.findall(r"Time taken: \d+\.\d\ds", out)) == 3
    assert val[0] < val[1] < val[2] and val[2] > 0.5
    # 6,400 samples in batches of 64: one graph per step function
    assert lines[-1] == ("train_step traced 1 time(s), test_step 1 time(s); "
                         "optimizer steps: 300")
