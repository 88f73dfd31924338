"""Device configuration of `tf.config` beyond listing devices (devices.py):
logical (virtual) device configurations, the device policy, synchronous
execution, TensorFloat-32, op determinism, the MLIR bridge, memory statistics
and cluster device filters.

Everything runs on one CPU, in order, so most of these store what the user
set and report it back as TF does; op determinism is the switch that changes
how ops run (runtime/_src/core/determinism.py). Splitting the CPU into
several logical devices is recorded, and
`list_logical_devices` lists them (/device:CPU:0, /device:CPU:1, ...), as TF.
The split is also JAX's count of CPU devices (`jax_num_cpu_devices`), which
tf.distribute runs its replicas on (runtime/_src/distribute): set on JAX
when it is first loaded (`configure_jax`), or at once if it is loaded and
has not started; JAX fixes the count when it starts, so a later, different
split is TF's RuntimeError.

    set_logical_device_configuration(cpu, [LogicalDeviceConfiguration()] * 2)
    list_logical_devices("CPU")     # two LogicalDevices
"""

import sys
import threading

from runtime._src.core import blas, determinism, devices

__all__ = ["LogicalDeviceConfiguration", "get_logical_device_configuration",
           "set_logical_device_configuration", "set_device_policy",
           "get_device_policy", "set_synchronous_execution", "get_synchronous_execution",
           "enable_tensor_float_32_execution", "tensor_float_32_execution_enabled",
           "enable_op_determinism", "enable_mlir_bridge", "disable_mlir_bridge",
           "get_device_details", "get_memory_info", "get_memory_usage", "reset_memory_stats",
           "ClusterDeviceFilters", "cpu_device_count", "configure_jax"]

_lock = threading.Lock()
_state = {"logical": {}, "policy": "silent", "synchronous": True, "tf32": True,
          "mlir_bridge": None}


class LogicalDeviceConfiguration:
    """`tf.config.LogicalDeviceConfiguration` (also
    `tf.config.experimental.VirtualDeviceConfiguration`): one logical device to
    make of a physical one."""

    __slots__ = ("memory_limit", "experimental_priority", "experimental_device_ordinal")

    def __init__(self, memory_limit=None, experimental_priority=None,
                 experimental_device_ordinal=None):
        self.memory_limit = memory_limit
        self.experimental_priority = experimental_priority
        self.experimental_device_ordinal = experimental_device_ordinal

    def _fields(self):
        return (self.memory_limit, self.experimental_priority, self.experimental_device_ordinal)

    def __eq__(self, other):
        return isinstance(other, LogicalDeviceConfiguration) and self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self):
        return (f"LogicalDeviceConfiguration(memory_limit={self.memory_limit}, "
                f"experimental_priority={self.experimental_priority}, "
                f"experimental_device_ordinal={self.experimental_device_ordinal})")


def _physical(device, what):
    if not isinstance(device, devices.PhysicalDevice) or \
            device not in devices.list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    return device


def get_logical_device_configuration(device):
    """The configurations set for a physical device, or None."""
    with _lock:
        found = _state["logical"].get(_physical(device, "get_logical_device_configuration"))
        return None if found is None else list(found)


def set_logical_device_configuration(device, logical_devices):
    """Split a physical device into the given logical devices (once, as TF:
    a second change raises RuntimeError)."""
    device = _physical(device, "set_logical_device_configuration")
    if logical_devices is not None and not all(
            isinstance(c, LogicalDeviceConfiguration) for c in logical_devices):
        raise ValueError("set_logical_device_configuration: expected a list of "
                         "LogicalDeviceConfiguration")
    with _lock:
        if device in _state["logical"]:
            raise RuntimeError("Virtual devices cannot be modified after being initialized")
        count = max(len(logical_devices or []), 1)
        if device.device_type == "CPU" and "jax" in sys.modules:
            configure_jax(sys.modules["jax"], count)
        _state["logical"][device] = list(logical_devices or [])
        devices._settings["logical_counts"][device] = count


def cpu_device_count():
    """How many logical devices the CPU is split into (1 unless split)."""
    return devices._settings["logical_counts"].get(devices.list_physical_devices("CPU")[0], 1)


def configure_jax(jax, count=None):
    """Give JAX `count` (default: the split's) CPU devices, before it starts.
    Once it has started with another count: TF's RuntimeError for a split
    made after the runtime started."""
    count = cpu_device_count() if count is None else count
    from jax._src import xla_bridge
    if not xla_bridge.backends_are_initialized():
        if count > 1 or jax.config.jax_num_cpu_devices > 1:
            jax.config.update("jax_num_cpu_devices", count)
        return
    have = len(jax.devices("cpu"))
    if count > 1 and have < count:
        raise RuntimeError(f"Virtual devices cannot be modified after being initialized: JAX "
                           f"started with {have} CPU device(s) before the split into {count} "
                           "reached it (split the CPU before JAX's first use)")


_POLICIES = (None, "explicit", "warn", "silent", "silent_for_int32")


def set_device_policy(device_policy):
    """How ops place inputs on other devices ('silent' for None, as TF)."""
    if device_policy not in _POLICIES:
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Please refer "
                         "to https://www.tensorflow.org/api_docs/python/tf/config/experimental/"
                         "set_device_policy for valid `device_policy` arguments.")
    _state["policy"] = device_policy or "silent"


def get_device_policy():
    return _state["policy"]


def set_synchronous_execution(enable):
    """Ops always finish before returning here; the switch is recorded."""
    _state["synchronous"] = bool(enable)


def get_synchronous_execution():
    return _state["synchronous"]


def enable_tensor_float_32_execution(enabled):
    """TensorFloat-32 is a GPU format; recorded, nothing changes on the CPU."""
    _state["tf32"] = bool(enabled)


def tensor_float_32_execution_enabled():
    return _state["tf32"]


def enable_op_determinism():
    """`tf.config.experimental.enable_op_determinism()`: every op, and every
    call of a tf.function, gives the same bits for the same inputs on the
    same machine; random ops without a seed raise TensorFlow's RuntimeError
    (runtime/_src/core/determinism.py says what changes)."""
    determinism.enable()
    blas.use(blas.threads_for(None))      # the fixed count, for eager products too


def enable_mlir_bridge():
    _state["mlir_bridge"] = True


def disable_mlir_bridge():
    _state["mlir_bridge"] = False


def _device_name(device):
    name = device.name if isinstance(device, devices.PhysicalDevice) else str(device)
    if not name.upper().replace("/DEVICE:", "").replace("/PHYSICAL_DEVICE:", "").startswith(
            "CPU"):
        raise ValueError(f"No matching devices found for {name!r}")
    return name


def get_device_details(device):
    """Details of a physical device: none for a CPU (an empty dict, as TF)."""
    _physical(device, "get_device_details")
    return {}


def get_memory_info(device):
    """{'current': 0, 'peak': 0} for the CPU (TF does not count CPU memory
    either); a GPU is 'No matching devices'."""
    _device_name(device)
    return {"current": 0, "peak": 0}


def get_memory_usage(device):
    return get_memory_info(device)["current"]


def reset_memory_stats(device):
    _device_name(device)


class ClusterDeviceFilters:
    """`tf.config.experimental.ClusterDeviceFilters`: which devices each task
    of a cluster sees (kept for a cluster; we run none)."""

    def __init__(self):
        self._filters = {}

    def set_device_filters(self, job_name, task_index, device_filters):
        self._filters[(str(job_name), int(task_index))] = [str(f) for f in device_filters]
