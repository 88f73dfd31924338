"""`tf.config`: process-wide switches (defined in runtime/_src/function/config.py;
devices in runtime/_src/core/devices.py, threads in runtime/_src/core/threads.py;
the equivalence check mode in runtime/_src/check/equivalence.py).

    >>> import runtime as tf
    >>> tf.config.run_functions_eagerly(True)     # debug in Python
    >>> tf.config.functions_run_eagerly()
    True
    >>> tf.config.run_functions_eagerly(False)
    >>> tf.config.list_physical_devices("GPU")
    []

`optimizer.set_experimental_options({"constant_folding": False})` turns graph
optimizer passes off; `experimental_check_equivalence(True)` runs every
`function` call eagerly and as a graph and raises on a difference.
"""

import types

from runtime._src.check.equivalence import experimental_check_equivalence
from runtime._src.core import threads as _threads
from runtime._src.core.devices import (LogicalDevice, PhysicalDevice,
                                       get_memory_growth, get_visible_devices,
                                       list_logical_devices, list_physical_devices,
                                       set_memory_growth, set_visible_devices)
from runtime._src.core import device_config as _device_config
from runtime._src.core.device_config import (LogicalDeviceConfiguration,
                                             get_logical_device_configuration,
                                             set_logical_device_configuration)
from runtime._src.function.config import (functions_run_eagerly, optimizer,
                                          run_functions_eagerly)


def experimental_run_functions_eagerly(run_eagerly):
    """`tf.config.experimental_run_functions_eagerly`: the old name of
    `run_functions_eagerly`."""
    return run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly():
    """`tf.config.experimental_functions_run_eagerly`: the old name of
    `functions_run_eagerly`."""
    return functions_run_eagerly()

_soft_placement = {"on": True}


def set_soft_device_placement(enabled):
    """`tf.config.set_soft_device_placement`: always on here (every op runs on
    the CPU); turning it off is accepted and changes nothing."""
    _soft_placement["on"] = bool(enabled)


def get_soft_device_placement():
    return _soft_placement["on"]


threading = types.SimpleNamespace(
    set_intra_op_parallelism_threads=_threads.set_intra_op_parallelism_threads,
    get_intra_op_parallelism_threads=_threads.get_intra_op_parallelism_threads,
    set_inter_op_parallelism_threads=_threads.set_inter_op_parallelism_threads,
    get_inter_op_parallelism_threads=_threads.get_inter_op_parallelism_threads,
)

_dc = _device_config
experimental = types.SimpleNamespace(
    set_memory_growth=set_memory_growth, get_memory_growth=get_memory_growth,
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    get_virtual_device_configuration=get_logical_device_configuration,
    set_virtual_device_configuration=set_logical_device_configuration,
    ClusterDeviceFilters=_dc.ClusterDeviceFilters,
    set_device_policy=_dc.set_device_policy, get_device_policy=_dc.get_device_policy,
    set_synchronous_execution=_dc.set_synchronous_execution,
    get_synchronous_execution=_dc.get_synchronous_execution,
    enable_tensor_float_32_execution=_dc.enable_tensor_float_32_execution,
    tensor_float_32_execution_enabled=_dc.tensor_float_32_execution_enabled,
    enable_op_determinism=_dc.enable_op_determinism,
    enable_mlir_bridge=_dc.enable_mlir_bridge, disable_mlir_bridge=_dc.disable_mlir_bridge,
    get_device_details=_dc.get_device_details, get_memory_info=_dc.get_memory_info,
    get_memory_usage=_dc.get_memory_usage, reset_memory_stats=_dc.reset_memory_stats,
)

__all__ = ["run_functions_eagerly", "functions_run_eagerly", "experimental_check_equivalence",
           "optimizer", "list_physical_devices", "list_logical_devices", "get_visible_devices",
           "set_visible_devices", "PhysicalDevice", "LogicalDevice", "experimental",
           "threading", "set_soft_device_placement", "get_soft_device_placement",
           "LogicalDeviceConfiguration", "get_logical_device_configuration",
           "set_logical_device_configuration", "experimental_run_functions_eagerly",
           "experimental_functions_run_eagerly"]
