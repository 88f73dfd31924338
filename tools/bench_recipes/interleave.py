"""Timing two sides in interleaved rounds, one of them in another process.

TensorFlow runs in the interpreter named by $BENCH_TF_PYTHON, so its side of
a "vs TF" row is a worker process: it builds its workload, then times a batch
of calls each time it is asked (a line on its stdin) and answers with the
seconds per call. `interleaved` alternates the sides in short rounds and
keeps each side's best round: a load that comes and goes on a shared machine
falls on both, and the best round is one it spared (timing one side after
the other, a busy minute could fall on either and move the ratio by 2x).
While one side runs, the other waits on a pipe and uses no CPU.

The worker's script is `setup` (Python source that defines `run()`, one
call of the workload) followed by `_SERVE`: it answers "calibrate SECONDS"
with the number of calls a batch of at least SECONDS needs, "time N" with the
seconds per call of a batch of N calls (wall, then the process's CPU time,
all its threads), and stops at end of input.
"""

import os
import subprocess
import tempfile
import time

_SERVE = r'''
import gc as _gc, sys as _sys, time as _time


def _batch(number):
    _gc.disable()
    try:
        start, cpu = _time.perf_counter(), _time.process_time()
        for _ in range(number):
            run()
        return _time.perf_counter() - start, _time.process_time() - cpu
    finally:
        _gc.enable()


print("ready", flush=True)
for _line in _sys.stdin:
    _cmd, _arg = _line.split()
    if _cmd == "calibrate":
        _number = 1
        while _number < 1 << 20 and _batch(_number)[0] < float(_arg):
            _number *= 2
        print(_number, flush=True)
    else:
        _wall, _cpu = _batch(int(_arg))
        print(_wall / int(_arg), _cpu / int(_arg), flush=True)
'''


class Worker:
    """A workload timed in another interpreter (`python`): `setup` is Python
    source that defines `run()` (its sys.argv[1:] are `args`). Use as a context manager; `calibrate` and
    `time` talk to the process."""

    def __init__(self, python, setup, args=(), env=None):
        self.stderr = tempfile.TemporaryFile("w+")   # a pipe left unread could fill
        self.proc = subprocess.Popen(
            [python, "-c", setup + "\n" + _SERVE, *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.stderr, text=True,
            env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", **(env or {})))
        self._expect("ready")

    def _ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self._expect(None)

    def _expect(self, want):
        got = self.proc.stdout.readline().strip()
        if not got or (want is not None and got != want):
            self.proc.kill()
            self.proc.wait()
            self.stderr.seek(0)
            err = self.stderr.read().strip().splitlines()
            raise RuntimeError(f"bench worker failed: {err[-1:] or got!r}")
        return got

    def calibrate(self, min_batch):
        """The number of calls a batch of at least `min_batch` seconds needs."""
        return int(self._ask(f"calibrate {min_batch}"))

    def time(self, number):
        """(wall, CPU) seconds per call over a batch of `number` calls; the CPU
        time is the worker process's, all its threads."""
        wall, cpu = self._ask(f"time {number}").split()
        return float(wall), float(cpu)

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Local:
    """A workload timed in this process, with a Worker's interface."""

    def __init__(self, fn):
        self.fn = fn

    def _batch(self, number):
        import gc
        gc_was = gc.isenabled()
        gc.disable()
        try:
            start, cpu = time.perf_counter(), time.process_time()
            for _ in range(number):
                self.fn()
            return time.perf_counter() - start, time.process_time() - cpu
        finally:
            if gc_was:
                gc.enable()

    def calibrate(self, min_batch):
        number = 1
        while number < 1 << 20 and self._batch(number)[0] < min_batch:
            number *= 2
        return number

    def time(self, number):
        """(wall, CPU) seconds per call; the CPU time is this process's."""
        wall, cpu = self._batch(number)
        return wall / number, cpu / number


def interleaved(sides, rounds, min_batch=0.02):
    """[(wall, CPU)]: the best seconds per call of each side (Worker or Local),
    in wall time and in its process's CPU time (each the best of its own),
    over `rounds` rounds in which the sides take turns, each timing a batch
    of at least `min_batch` seconds."""
    numbers = [side.calibrate(min_batch) for side in sides]
    best = [(float("inf"), float("inf"))] * len(sides)
    for _ in range(rounds):
        for i, side in enumerate(sides):
            wall, cpu = side.time(numbers[i])
            best[i] = (min(best[i][0], wall), min(best[i][1], cpu))
    return best
