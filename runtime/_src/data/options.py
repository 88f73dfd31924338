"""`tf.data.Options` and its parts (`AutotuneOptions`, `DistributeOptions`,
`OptimizationOptions`, `ThreadingOptions`), with TF's fields and defaults.

    options = tf.data.Options()
    options.threading.private_threadpool_size = 4
    options.experimental_distribute.auto_shard_policy = AutoShardPolicy.DATA
    ds = ds.with_options(options)

The values are kept and read back; the pipeline runs the same way whatever
they say (one host, elements in order). Setting a field TF does not have is
an AttributeError, as in TF.
"""

import enum

__all__ = ["Options", "AutotuneOptions", "DistributeOptions", "OptimizationOptions",
           "ThreadingOptions", "AutoShardPolicy", "AutotuneAlgorithm", "ExternalStatePolicy"]


class AutoShardPolicy(enum.IntEnum):
    """How a distributed dataset is split across workers."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class AutotuneAlgorithm(enum.Enum):
    """The algorithm tf.data's autotuning uses."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class ExternalStatePolicy(enum.Enum):
    """What saving a dataset does with state outside it."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsBase:
    """Fields with defaults (`_FIELDS`); unknown names cannot be set."""

    _FIELDS = {}

    def __init__(self):
        for name, default in self._FIELDS.items():
            object.__setattr__(self, name, default() if callable(default) else default)

    def __setattr__(self, name, value):
        if name not in self._FIELDS:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        object.__setattr__(self, name, value)

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __hash__(self):
        return id(self)

    def _merged(self, other):
        """A copy with the fields `other` set (not None) taking its values."""
        out = type(self)()
        for name in self._FIELDS:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, _OptionsBase):
                value = mine._merged(theirs)
            else:
                value = theirs if theirs is not None and theirs != self._FIELDS[name] \
                    else mine
            object.__setattr__(out, name, value)
        return out


class AutotuneOptions(_OptionsBase):
    _FIELDS = dict.fromkeys(("autotune_algorithm", "cpu_budget", "enabled",
                             "initial_parallelism", "min_parallelism", "ram_budget"))


class DistributeOptions(_OptionsBase):
    _FIELDS = {"auto_shard_policy": AutoShardPolicy.AUTO, "num_devices": None}


class OptimizationOptions(_OptionsBase):
    _FIELDS = dict.fromkeys((
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
        "map_parallelization", "noop_elimination", "parallel_batch", "seq_interleave_prefetch",
        "shuffle_and_repeat_fusion"))


class ThreadingOptions(_OptionsBase):
    _FIELDS = dict.fromkeys(("max_intra_op_parallelism", "private_threadpool_size"))


class Options(_OptionsBase):
    """`tf.data.Options()`: what `Dataset.with_options` attaches."""

    _FIELDS = {"autotune": AutotuneOptions, "dataset_name": None, "deterministic": None,
               "experimental_deterministic": None,
               "experimental_distribute": DistributeOptions,
               "experimental_external_state_policy": None,
               "experimental_optimization": OptimizationOptions,
               "experimental_slack": None, "experimental_symbolic_checkpoint": None,
               "experimental_warm_start": None, "framework_type": None,
               "threading": ThreadingOptions}

    @property
    def experimental_threading(self):
        return self.threading

    def merge(self, options):
        """These options with those set in `options` taking precedence."""
        return self._merged(options)
