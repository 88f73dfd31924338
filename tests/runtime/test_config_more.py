"""tf.config's logical device configurations, tf.config.experimental's
switches and memory queries, optimizer.get_jit/set_jit and TF's default
optimizer options: TF 2.21's values (recorded by hand from TF)."""

import copy

import pytest

import runtime as tf
from runtime._src.core import device_config, devices


@pytest.fixture
def fresh_config():
    saved = (copy.deepcopy(device_config._state), copy.deepcopy(devices._settings))
    yield
    device_config._state.clear()
    device_config._state.update(saved[0])
    devices._settings.clear()
    devices._settings.update(saved[1])


def test_logical_device_configuration_as_tf(fresh_config):
    config = tf.config.LogicalDeviceConfiguration(memory_limit=1024)
    assert repr(config) == ("LogicalDeviceConfiguration(memory_limit=1024, "
                            "experimental_priority=None, experimental_device_ordinal=None)")
    assert tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert tf.config.get_logical_device_configuration(cpu) is None
    two = [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
    tf.config.set_logical_device_configuration(cpu, two)
    assert tf.config.get_logical_device_configuration(cpu) == two
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == ["/device:CPU:0",
                                                                        "/device:CPU:1"]
    with pytest.raises(RuntimeError, match="Virtual devices cannot be modified after being "
                                           "initialized"):
        tf.config.set_logical_device_configuration(cpu, two[:1])
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        tf.config.get_logical_device_configuration("x")


def test_experimental_switches_as_tf(fresh_config):
    ex = tf.config.experimental
    for policy, shown in ((None, "silent"), ("explicit", "explicit"), ("warn", "warn"),
                          ("silent_for_int32", "silent_for_int32")):
        ex.set_device_policy(policy)
        assert ex.get_device_policy() == shown
    with pytest.raises(ValueError, match="Invalid argument `device_policy`: 'x'"):
        ex.set_device_policy("x")
    assert ex.get_synchronous_execution() is True
    assert ex.tensor_float_32_execution_enabled() is True
    ex.enable_tensor_float_32_execution(False)
    assert ex.tensor_float_32_execution_enabled() is False
    ex.enable_op_determinism()
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert ex.get_device_details(cpu) == {}
    assert ex.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    assert ex.get_memory_usage("CPU:0") == 0
    with pytest.raises(ValueError, match="No matching devices found for 'GPU:0'"):
        ex.get_memory_info("GPU:0")
    ex.ClusterDeviceFilters().set_device_filters("worker", 0, ["/job:ps"])


def test_optimizer_defaults_and_jit():
    options = tf.config.optimizer.get_experimental_options()
    assert options == {"disable_model_pruning": False, "disable_meta_optimizer": False}
    assert tf.config.optimizer.get_jit() == ""
    try:
        tf.config.optimizer.set_jit(True)
        assert tf.config.optimizer.get_jit() == "autoclustering"
    finally:
        tf.config.optimizer.set_jit(False)
    assert tf.config.optimizer.get_jit() == ""
    tf.config.experimental_run_functions_eagerly(True)
    try:
        assert tf.config.experimental_functions_run_eagerly() is True
    finally:
        tf.config.run_functions_eagerly(False)
