"""`keras.utils.Progbar`: Keras 3's progress bar, character for character.

    bar = Progbar(target=5)
    for step in range(1, 6):
        bar.update(step, values=[("loss", loss)])
    # 5/5 ━━━━━━━━━━━━━━━━━━━━ 2s 500ms/step - loss: 0.2000

With `verbose=1` each shown update rewrites the line (backspaces over the
previous one, then a carriage return), with ANSI bold around the count and
time and green/white bar segments, as Keras prints on a POSIX terminal;
updates closer than `interval` seconds to the last shown one are skipped
unless final. `verbose=2` prints one plain line when the target is reached.
A metric is averaged over the steps it was reported for, unless it is
stateful (`stateful_metrics`, or not in `stateless_metrics`). The output goes
through `io_utils.print_msg` (Python logging when interactive logging is off).
"""

import math
import time

import numpy as np

from runtime._src.keras.utils import io_utils

__all__ = ["Progbar"]

_BOLD, _GREEN, _WHITE, _RESET = "\x1b[1m", "\x1b[32m", "\x1b[37m", "\x1b[0m"
_BAR = "\u2501"


def _duration(seconds):
    """An ETA: h:mm:ss past an hour, m:ss past a minute, else whole seconds."""
    if seconds > 3600:
        return "%d:%02d:%02d" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)
    if seconds > 60:
        return "%d:%02d" % (seconds // 60, seconds % 60)
    return "%ds" % seconds


def _per_unit(seconds, unit):
    """" 2s/step", " 30ms/step" or " 8us/step"."""
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit}"
    return f" {seconds * 1e6:.0f}us/{unit}"


def _number(value, signed=True):
    """4 decimals, or scientific notation close to 0 (verbose=2 compares the
    value itself, not its size, as Keras does)."""
    return f" {value:.4f}" if (abs(value) if signed else value) > 1e-3 else f" {value:.4e}"


class Progbar:
    """`keras.utils.Progbar(target, width=20, verbose=1, interval=0.05,
    stateful_metrics=None, stateless_metrics=None, unit_name="step")`."""

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 stateless_metrics=None, unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError("Only one of `stateful_metrics` or `stateless_metrics` can be "
                             "provided. `stateful_metrics` is used to make metrics stateless "
                             "by default (with an exclusion list), while `stateless_metrics` "
                             "is used to make metrics stateful by default (with an exclusion "
                             "list).")
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = set(stateful_metrics or ()) if stateless_metrics is None \
            else None
        self.stateless_metrics = None if stateless_metrics is None else set(stateless_metrics)
        self._seen_so_far = 0
        self._values = {}           # name -> [sum of value * steps, steps]
        self._start = time.time()
        self._last_update = 0
        self._time_after_first_step = None
        self._prev_total_width = 0

    def _averaged(self, name):
        if self.stateful_metrics is not None:
            return name not in self.stateful_metrics
        return name in self.stateless_metrics

    def _record(self, current, values, finalize):
        for name, value in values or ():
            if self._averaged(name) and not finalize:
                steps = max(current - self._seen_so_far, 1)
                if name in self._values:
                    self._values[name][0] += value * steps
                    self._values[name][1] += steps
                else:
                    self._values[name] = [value * steps, steps]
            else:
                self._values[name] = [value, 1]

    def _mean(self, name):
        total, count = self._values[name]
        if not isinstance(total, float):
            total = np.mean(total)
        return total / max(1, count)

    def _step_time(self, current, now):
        """Seconds per step, leaving the first step out once there are more."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per = (now - self._time_after_first_step) / (current - 1)
        else:
            per = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per

    def update(self, current, values=None, finalize=None):
        """Move to step `current`; `values`: [(name, value of the last step)]."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._record(current, values, finalize)
        self._seen_so_far = current
        now = time.time()
        per_step = self._step_time(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._show(current, now, per_step, finalize)
        elif self.verbose == 2 and finalize and self.target:
            self._show_line(current, now, per_step)
        self._last_update = now

    def _show(self, current, now, per_step, finalize):
        known = self.target is not None and self.target > 0
        if known:
            digits = int(math.log10(self.target)) + 1
            count = f"%{digits}d/%d" % (current, self.target)
            done = int(self.width * float(current) / self.target)
            bar = f"{_BOLD}{count}{_RESET} "
            hidden = 8 + 9
            if done > 0:
                bar += f"{_GREEN}{_BAR * done}{_RESET}"
                hidden += 9
            bar += f"{_WHITE}{_BAR * (self.width - done)}{_RESET}"
        else:
            bar, hidden = "%7d/Unknown" % current, 0
        clock = _duration(per_step * (self.target - current)) if known and not finalize \
            else f"{now - self._start:.0f}s"
        info = f" {_BOLD}{clock}{_RESET}" + _per_unit(per_step, self.unit_name)
        hidden += 8
        for name in self._values:
            info += f" - {name}:" + _number(self._mean(name))
        width = len(bar) + len(info) - hidden
        message = "\b" * self._prev_total_width + "\r" + bar + info
        message += " " * max(self._prev_total_width - width, 0)
        if finalize:
            message += "\n"
        io_utils.print_msg(message, line_break=False)
        self._prev_total_width = width

    def _show_line(self, current, now, per_step):
        digits = int(math.log10(self.target)) + 1
        line = f"%{digits}d/%d - {now - self._start:.0f}s -" % (current, self.target)
        line += _per_unit(per_step, self.unit_name)
        for name in self._values:
            line += f" - {name}:" + _number(self._mean(name), signed=False)
        io_utils.print_msg(line + "\n", line_break=False)

    def add(self, n, values=None):
        """`update(steps so far + n, values)`."""
        self.update(self._seen_so_far + n, values)
