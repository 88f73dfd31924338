"""tools/bench_recipes/interleave.py: a workload in another interpreter timed
on request, in rounds interleaved with one in this process (the "vs TF"
rows run TensorFlow's side so)."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from tools.bench_recipes.interleave import Local, Worker, interleaved  # noqa: E402

SETUP = "import sys, time\nN = int(sys.argv[1])\ndef run():\n    time.sleep(N / 1000)\n"


def test_a_worker_and_a_local_side_take_turns():
    calls = []
    with Worker(sys.executable, SETUP, args=("2",)) as worker:
        # batches of at least 5 ms of calls that sleep 2 ms: 4 calls always suffice (a
        # loaded machine may stretch one sleep past 5 ms, so 1 is possible)
        assert worker.calibrate(0.005) in (1, 2, 4)
        local = Local(lambda: calls.append(1))
        (ours, ours_cpu), (theirs, theirs_cpu) = interleaved([local, worker], rounds=3,
                                                             min_batch=0)
    assert 0 < ours < 1e-3 and ours_cpu >= 0
    assert 2e-3 <= theirs < 0.5                    # one sleep of 2 ms per call
    assert 0 <= theirs_cpu < theirs                # asleep, not on the CPU
    assert len(calls) == 1 + 3                     # the calibration's call, one per round
    assert worker.proc.returncode == 0             # stopped at the end of its input


def test_a_failing_setup_names_its_error():
    with pytest.raises(RuntimeError, match="ValueError: no model"):
        Worker(sys.executable, "raise ValueError('no model')")
