"""`keras.utils.Config`: a dict whose keys are also attributes, that can be
frozen.

    config = Config(learning_rate=0.1, layers=[64, 64])
    config.learning_rate, config["layers"]        # 0.1, [64, 64]
    config.freeze(); config.learning_rate = 1     # ValueError: ... frozen.
"""

import copy
import json

__all__ = ["Config"]

_OWN = ("_config", "_frozen")


class Config:
    """`keras.utils.Config(**kwargs)`."""

    def __init__(self, **kwargs):
        object.__setattr__(self, "_config", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self):
        """True after `freeze()`: no attribute or key may change."""
        return self._frozen

    def freeze(self):
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self):
        object.__setattr__(self, "_frozen", False)

    def _check_mutable(self):
        if self._frozen:
            raise ValueError("Cannot mutate attribute(s) because the config is frozen.")

    def __setattr__(self, name, value):
        self._check_mutable()
        if name in _OWN:
            raise AttributeError(f"Cannot set reserved attribute: {name!r}")
        self._config[name] = value

    def __getattr__(self, name):
        if name in _OWN or name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._config[name]
        except KeyError:
            raise AttributeError(f"Unknown attribute: '{name}'.") from None

    def __delattr__(self, name):
        self._check_mutable()
        del self._config[name]

    def __setitem__(self, key, value):
        self._check_mutable()
        self._config[key] = value

    def __getitem__(self, key):
        return self._config[key]

    def __delitem__(self, key):
        self._check_mutable()
        del self._config[key]

    def __contains__(self, key):
        return key in self._config

    def __iter__(self):
        return iter(self._config)

    def __len__(self):
        return len(self._config)

    def __repr__(self):
        return f"<Config {self._config}>"

    def __copy__(self):
        return Config(**self._config)

    def __deepcopy__(self, memo):
        return Config(**copy.deepcopy(self._config, memo))

    def keys(self):
        return self._config.keys()

    def values(self):
        return self._config.values()

    def items(self):
        return self._config.items()

    def get(self, key, default=None):
        return self._config.get(key, default)

    def pop(self, *args):
        self._check_mutable()
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        self._check_mutable()
        self._config.update(*args, **kwargs)

    def as_dict(self):
        """A shallow copy of the contents as a plain dict."""
        return copy.copy(self._config)

    def to_json(self):
        """The contents as JSON text."""
        return json.dumps(self._config)
