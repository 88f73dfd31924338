"""`tf.train.CheckpointManager`: numbered saves in a directory, old ones deleted.

    manager = tf.train.CheckpointManager(ckpt, "ckpts", max_to_keep=3)
    ckpt.restore(manager.latest_checkpoint)    # None on a fresh start
    ...
    manager.save()                             # ckpts/ckpt-<n>

`max_to_keep` newest checkpoints are kept (None: all); with
`keep_checkpoint_every_n_hours`, one checkpoint per that many hours is kept
besides. The directory's `checkpoint` file (state_file.py) lists the kept
ones; it is rewritten after each new checkpoint is complete, so a crash while
saving never makes `latest_checkpoint` name a partial one.
"""

import glob
import os
import time

from runtime._src.train import state_file

__all__ = ["CheckpointManager"]


class CheckpointManager:
    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if max_to_keep is not None and (not isinstance(max_to_keep, int) or max_to_keep <= 0):
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                             "not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_hours = keep_checkpoint_every_n_hours
        self._name = checkpoint_name
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._interval = checkpoint_interval
        self._last_step = None
        self._init_fn = init_fn
        state = state_file.read(self._directory)
        if state is not None:
            self._kept = [(p, t) for p, t in zip(
                state.all_model_checkpoint_paths,
                _stamps(state.all_model_checkpoint_timestamps,
                        len(state.all_model_checkpoint_paths)))]
            self._last_preserved = state.last_preserved_timestamp or time.time()
        else:
            self._kept, self._last_preserved = [], time.time()

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoints(self):
        """The kept checkpoints' prefixes, oldest first."""
        return [p for p, _ in self._kept]

    @property
    def latest_checkpoint(self):
        """The newest kept checkpoint's prefix, or None."""
        return self._kept[-1][0] if self._kept else None

    @property
    def checkpoint_interval(self):
        return self._interval

    def restore_or_initialize(self):
        """Restore the latest checkpoint; without one, call `init_fn` (if given)."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Write a new checkpoint and delete the ones no longer kept; returns its
        prefix (None when `checkpoint_interval` says it is not time yet)."""
        if self._interval is not None and check_interval:
            step = int(_numpy(self._step_counter))
            if self._last_step is not None and step < self._last_step + self._interval:
                return None
            self._last_step = step
        counter = self._checkpoint.save_counter
        if checkpoint_number is None:
            checkpoint_number = int(_numpy(counter)) + 1
        else:
            checkpoint_number = int(_numpy(checkpoint_number))
        counter.assign_add(1)
        path = self._checkpoint.write(f"{self._prefix}-{checkpoint_number}", options=options)
        now = time.time()
        self._kept = [(p, t) for p, t in self._kept if p != path] + [(path, now)]
        self._sweep()
        state_file.write(self._directory, state_file.CheckpointState(
            path, [p for p, _ in self._kept], [t for _, t in self._kept],
            self._last_preserved))
        return path

    def _sweep(self):
        if self._max_to_keep is None:
            return
        while len(self._kept) > self._max_to_keep:
            path, stamp = self._kept.pop(0)
            if self._keep_hours is not None and \
                    stamp - self._last_preserved >= self._keep_hours * 3600.0:
                self._last_preserved = stamp
                continue                  # preserved for good: no longer managed
            _delete(path)


def _stamps(stamps, n):
    return list(stamps) if len(stamps) == n else [time.time()] * n


def _numpy(value):
    return value.numpy() if hasattr(value, "numpy") else value


def _delete(prefix):
    for path in glob.glob(glob.escape(prefix) + ".index") + \
            glob.glob(glob.escape(prefix) + ".data-*"):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
