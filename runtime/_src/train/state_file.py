"""The `checkpoint` state file of a checkpoint directory, TensorFlow's text form:

    model_checkpoint_path: "ckpt-3"
    all_model_checkpoint_paths: "ckpt-2"
    all_model_checkpoint_paths: "ckpt-3"
    all_model_checkpoint_timestamps: 1700000000.5
    all_model_checkpoint_timestamps: 1700000100.25
    last_preserved_timestamp: 1699999990.0

Paths are relative to the directory when they are inside it. It is written
atomically (temporary file, then rename) after the checkpoint's own files, so
`latest_checkpoint` only ever names a complete checkpoint. TensorFlow writes
and reads the same file, so each reads the other's directories.
"""

import os
import re

from runtime._src.train.checkpoint_io import atomic_write

__all__ = ["CheckpointState", "read", "write", "record", "latest_checkpoint"]

_LINE = re.compile(r'^\s*(\w+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|([-+0-9.eE]+))\s*$')


class CheckpointState:
    """What the state file says (`tf.train.get_checkpoint_state`'s result)."""

    def __init__(self, model_checkpoint_path=None, all_model_checkpoint_paths=(),
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp


def _path(directory, filename):
    return os.path.join(directory, filename or "checkpoint")


def read(directory, filename=None):
    """The CheckpointState of `directory`, or None when it has no state file."""
    try:
        with open(_path(directory, filename), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (FileNotFoundError, NotADirectoryError):
        return None
    state = CheckpointState()
    for line in lines:
        m = _LINE.match(line)
        if not m:
            continue
        key, text, number = m.groups()
        if text is not None:
            text = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
            text = text if os.path.isabs(text) else os.path.join(directory, text)
        if key == "model_checkpoint_path":
            state.model_checkpoint_path = text
        elif key == "all_model_checkpoint_paths":
            state.all_model_checkpoint_paths.append(text)
        elif key == "all_model_checkpoint_timestamps":
            state.all_model_checkpoint_timestamps.append(float(number))
        elif key == "last_preserved_timestamp":
            state.last_preserved_timestamp = float(number)
    return state


def _relative(directory, path):
    rel = os.path.relpath(path, directory)
    return path if rel.startswith("..") else rel


def write(directory, state, filename=None):
    def quoted(path):
        return '"' + _relative(directory, path).replace("\\", "\\\\").replace('"', '\\"') + '"'
    lines = [f"model_checkpoint_path: {quoted(state.model_checkpoint_path)}"]
    lines += [f"all_model_checkpoint_paths: {quoted(p)}"
              for p in state.all_model_checkpoint_paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}"
              for t in state.all_model_checkpoint_timestamps]
    lines.append(f"last_preserved_timestamp: {state.last_preserved_timestamp!r}")
    os.makedirs(directory, exist_ok=True)
    atomic_write(_path(directory, filename), ("\n".join(lines) + "\n").encode("utf-8"))


def record(directory, path, timestamp=None):
    """Add `path` as the newest checkpoint of `directory` (what `Checkpoint.save` does)."""
    import time
    state = read(directory) or CheckpointState(last_preserved_timestamp=time.time())
    paths = [p for p in state.all_model_checkpoint_paths if p != path]
    stamps = list(state.all_model_checkpoint_timestamps)[-len(paths):] if paths else []
    if len(stamps) != len(paths):
        stamps = [time.time()] * len(paths)
    state.all_model_checkpoint_paths = paths + [path]
    state.all_model_checkpoint_timestamps = stamps + [time.time() if timestamp is None
                                                      else timestamp]
    state.model_checkpoint_path = path
    write(directory, state)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest complete checkpoint's prefix in `checkpoint_dir`, or None."""
    state = read(os.fspath(checkpoint_dir), latest_filename)
    if state is None or not state.model_checkpoint_path:
        return None
    path = state.model_checkpoint_path
    if os.path.exists(f"{path}.index") or os.path.exists(path):
        return path
    return None
