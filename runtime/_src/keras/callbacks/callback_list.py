"""`keras.callbacks.CallbackList`: the callbacks of one `fit`, `evaluate` or
`predict`, called hook by hook (runtime/_src/keras/callbacks/callback.py defines the
hooks).

    hooks = CallbackList([EarlyStopping()], add_history=True, model=model, epochs=3)
    hooks.on_epoch_end(0, {"loss": 0.5})
"""

import numpy as np

from runtime._src.keras.callbacks.callback import Callback, History
from runtime._src.keras.callbacks.logging_callbacks import ProgbarLogger

__all__ = ["CallbackList"]

_HOOKS = [name for name in vars(Callback) if name.startswith("on_")]


class CallbackList(Callback):
    """`keras.callbacks.CallbackList(callbacks=None, add_history=False,
    add_progbar=False, model=None, **params)`: a Callback that calls each hook
    on every callback in order (then a History and a ProgbarLogger when
    asked for), and gives them the model and `params`. Numbers in the logs
    reach the callbacks as Python floats."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        for cb in self.callbacks:
            if not isinstance(cb, Callback):
                raise TypeError("callbacks must be tf.keras.callbacks.Callback instances; "
                                f"got {cb!r} of type {type(cb).__name__}")
        if add_history and not any(isinstance(cb, History) for cb in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(cb, ProgbarLogger) for cb in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model):
        super().set_model(model)
        for cb in self.callbacks:
            cb.set_model(model)

    def set_params(self, params):
        super().set_params(params)
        for cb in self.callbacks:
            cb.set_params(params)

    def call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)

    def overrides(self, *hooks):
        """Whether some callback defines one of `hooks` itself (batch logs, which
        cost a conversion per batch, are made only then)."""
        return any(getattr(type(cb), h) is not getattr(Callback, h) or h in vars(cb)
                   for cb in self.callbacks for h in hooks)


def _pythonify(logs):
    """Logs with numbers (and one-element arrays or tensors) as Python floats."""
    if isinstance(logs, dict):
        return {k: _pythonify(v) for k, v in logs.items()}
    if isinstance(logs, bool) or not hasattr(logs, "__float__"):
        return logs
    if getattr(logs, "shape", ()) not in ((), (1,)) and np.size(logs) != 1:
        return logs
    return float(np.asarray(logs).reshape(()))


def _forward(hook):
    def method(self, *args, logs=None):
        if args and isinstance(args[-1], dict) or (args and args[-1] is None):
            *args, logs = args
        for cb in self.callbacks:
            getattr(cb, hook)(*args, _pythonify(logs))
    method.__name__ = hook
    method.__doc__ = f"Call `{hook}` on every callback."
    return method


for _hook in _HOOKS:
    setattr(CallbackList, _hook, _forward(_hook))
