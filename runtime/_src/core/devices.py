"""Devices: `tf.config.list_physical_devices` and friends, and the
`tf.device(name)` scope.

This runtime computes with numpy on the CPU, so there is one device,
`/physical_device:CPU:0` (logical `/device:CPU:0`). As TensorFlow on a
machine without a GPU:

    list_physical_devices()       # [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    list_physical_devices("GPU")  # []
    with device("/GPU:0"): ...    # soft placement: runs on the CPU

Inside a traced function, `device` records its canonical spec on every node
made in its scope (`node.device`, e.g. '/device:GPU:0'; '' outside any
scope), as TensorFlow's graphs do, so a GraphDef writer can emit it; eagerly
it only checks the spec. `set_log_device_placement(True)` prints, for each op
run eagerly, "Executing op <op> in device /job:localhost/replica:0/task:0/device:CPU:0"
to stderr.
"""

import collections
import contextlib
import re
import sys

from runtime._src.core.context import state

__all__ = ["PhysicalDevice", "LogicalDevice", "list_physical_devices", "list_logical_devices",
           "get_visible_devices", "set_visible_devices", "set_memory_growth",
           "get_memory_growth", "device", "current_device", "canonical_device",
           "set_log_device_placement", "log_device_placement", "EAGER_DEVICE"]

EAGER_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
_DEVICE_TYPES = ("CPU", "GPU", "TPU")


class PhysicalDevice(collections.namedtuple("PhysicalDevice", ["name", "device_type"])):
    """`tf.config.PhysicalDevice`: a device the process can see (a named tuple, as TF's)."""

    __slots__ = ()


class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """`tf.config.LogicalDevice`: a device ops can be placed on (a named tuple, as TF's)."""

    __slots__ = ()


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_settings = {"visible": [_CPU], "logical_counts": {}}   # counts: set by device_config


def _check_type(device_type, what):
    if device_type is not None and not isinstance(device_type, str):
        raise TypeError(f"{what}: device_type must be a string such as 'CPU' or 'GPU', got "
                        f"{device_type!r}")


def list_physical_devices(device_type=None):
    """The physical devices of `device_type` ('CPU', 'GPU'; None: all)."""
    _check_type(device_type, "list_physical_devices")
    return [d for d in [_CPU] if device_type is None or d.device_type == device_type.upper()]


def list_logical_devices(device_type=None):
    """The logical devices of `device_type`: one per visible physical device,
    or as many as `set_logical_device_configuration` split it into."""
    _check_type(device_type, "list_logical_devices")
    out = []
    for d in get_visible_devices(device_type):
        for i in range(_settings["logical_counts"].get(d, 1)):
            out.append(LogicalDevice(f"/device:{d.device_type}:{i}", d.device_type))
    return out


def get_visible_devices(device_type=None):
    """The physical devices the runtime may use (all of them unless set)."""
    _check_type(device_type, "get_visible_devices")
    return [d for d in _settings["visible"]
            if device_type is None or d.device_type == device_type.upper()]


def set_visible_devices(devices, device_type=None):
    """Restrict the devices of `device_type` the runtime uses. The CPU cannot
    be hidden (RuntimeError, as TF once the runtime is initialized); hiding
    GPUs (`set_visible_devices([], 'GPU')`) is accepted: there are none."""
    _check_type(device_type, "set_visible_devices")
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    for d in devices:
        if d not in list_physical_devices():
            raise ValueError(f"Unrecognized device: {d!r}")
    kind = None if device_type is None else device_type.upper()
    if kind in (None, "CPU") and _CPU not in devices:
        raise RuntimeError("Visible devices cannot be modified after being initialized")


_memory_growth = {}


def set_memory_growth(device, enable):
    """`tf.config.experimental.set_memory_growth`: GPUs only, as TensorFlow
    (there are none here, so any device is refused with TF's ValueError)."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    _memory_growth[device] = bool(enable)


def get_memory_growth(device):
    """Memory growth of a GPU (KeyError for devices it was never set on, as TF)."""
    if device not in _memory_growth:
        raise KeyError(device)
    return _memory_growth[device]


# --- device specs and the scope -----------------------------------------------------------

_PART = re.compile(r"^(?:(job):([^/:]+)|(replica):(\d+)|(task):(\d+)|(device):([A-Za-z]+):(\d+|\*)"
                   r"|([A-Za-z]+):(\d+|\*)|([A-Za-z]+))$")


def canonical_device(spec):
    """TF's canonical form of a device spec: '/CPU:0', 'gpu:1' and
    '/device:GPU:0' become '/device:CPU:0', '/device:GPU:1', '/device:GPU:0';
    a job/replica/task prefix is kept. ValueError for what TF cannot parse."""
    if not isinstance(spec, str):
        raise TypeError(f"device: expected a device name string, got {spec!r}")
    if not spec:
        return ""
    out = []
    for part in spec.strip("/").split("/"):
        m = _PART.match(part)
        bad = m is None or (m.group(12) and m.group(12).lower() not in ("cpu", "gpu", "tpu"))
        kind = None if m is None else (m.group(8) or m.group(10) or m.group(12))
        if bad or (kind and kind.upper() not in _DEVICE_TYPES):
            name = part.split(":")[0] if m is None or not kind else kind
            raise ValueError(f"Unknown attribute {name!r} is encountered while parsing the "
                             f"device spec: {spec!r}.")
        if m.group(1) or m.group(3) or m.group(5):
            out.append(part)
        else:
            index = m.group(9) or m.group(11) or "0"
            out.append(f"device:{kind.upper()}:{index}")
    return "/" + "/".join(out)


@contextlib.contextmanager
def device(device_name):
    """`tf.device`: ops made inside record `device_name` (canonical) while
    tracing; every op runs on the CPU (soft placement). None clears the scope."""
    spec = "" if device_name is None else canonical_device(device_name)
    type(state).device_scoped = True
    before = state.device
    state.device = spec
    try:
        yield
    finally:
        state.device = before


def current_device():
    """The canonical device spec of the innermost `device` scope ('' if none)."""
    return state.device


def set_log_device_placement(enabled):
    """`tf.debugging.set_log_device_placement`: print each eager op's device."""
    # On the class, so every thread sees it; it also turns the eager fast
    # paths off (context.plain_eager), so every op passes op_registry.apply.
    type(state).log_placement = bool(enabled)


def log_device_placement():
    return type(state).log_placement


def log_placement(op_name):
    """Print the placement line of an eager op (op_registry calls this when on)."""
    print(f"Executing op {op_name} in device {EAGER_DEVICE}", file=sys.stderr)
