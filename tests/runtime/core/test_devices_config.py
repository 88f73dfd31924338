"""tf.config and devices (runtime/_src/core/devices.py, device_config.py):
device lists, `tf.device` scopes recorded on graph nodes, soft placement,
threading and optimizer options; logical device configurations,
tf.config.experimental's switches and memory queries, optimizer.get_jit /
set_jit and TF's default optimizer options. TF 2.21's answers on a machine
without a GPU (recorded by hand from TF)."""

import copy

import sys

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import device_config, devices


def test_device_lists():
    cpu = tf.config.list_physical_devices("CPU")
    assert repr(cpu) == "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    assert tf.config.list_physical_devices() == cpu
    assert tf.config.list_physical_devices("GPU") == []
    assert repr(tf.config.list_logical_devices()) == \
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU')]"
    assert tf.config.get_visible_devices() == cpu
    assert tf.config.get_visible_devices("GPU") == []
    assert tf.config.experimental.list_physical_devices("CPU") == cpu


def test_visible_devices_and_memory_growth_refuse_as_tensorflow():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_visible_devices([], "GPU")                      # no GPUs: fine
    tf.config.set_visible_devices(tf.config.list_physical_devices())
    with pytest.raises(RuntimeError, match="cannot be modified after being initialized"):
        tf.config.set_visible_devices([], "CPU")
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu)


def test_device_scopes_are_recorded_on_graph_nodes():
    @tf.function
    def f(a):
        with tf.device("/CPU:0"):
            b = a + 1
        with tf.device("/GPU:0"):                  # no GPU: soft placement, runs anyway
            c = b * 2
            with tf.device(None):
                d = c - 1
        with tf.device("gpu:1"):
            e = d * 2
        return e
    assert int(f(tf.constant(1))) == 6
    graph = f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph
    devices = {n.op + ":" + n.name: n.device for n in graph.nodes}
    # TF 2.21 records the same canonical specs
    assert devices["AddV2:AddV2"] == "/device:CPU:0"
    assert devices["Mul:Mul"] == "/device:GPU:0"
    assert devices["Sub:Sub"] == ""
    assert devices["Mul:Mul_1"] == "/device:GPU:1"
    assert devices["Placeholder:a"] == ""


def test_device_eagerly_and_bad_specs():
    with tf.device("/GPU:0"):
        assert float(tf.constant(2.0) * 3) == 6.0
    for spec in ("/XPU:0", "foo"):
        name = spec.strip("/").split(":")[0]
        with pytest.raises(ValueError, match=f"Unknown attribute '{name}' is encountered "
                                             f"while parsing the device spec: '{spec}'"):
            with tf.device(spec):
                pass


def test_log_device_placement(capfd):
    tf.debugging.set_log_device_placement(True)
    try:
        _ = tf.constant([1.0]) * 2
    finally:
        tf.debugging.set_log_device_placement(False)
    err = capfd.readouterr().err
    assert "Executing op Mul in device /job:localhost/replica:0/task:0/device:CPU:0" in err


def test_threading_settings():
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
    tf.config.threading.set_intra_op_parallelism_threads(2)
    tf.config.threading.set_inter_op_parallelism_threads(3)
    try:
        assert tf.config.threading.get_intra_op_parallelism_threads() == 2
        assert tf.config.threading.get_inter_op_parallelism_threads() == 3
        assert float(tf.reduce_sum(tf.matmul(tf.ones([4, 4]), tf.ones([4, 4])))) == 64.0
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
        tf.config.threading.set_inter_op_parallelism_threads(0)
    with pytest.raises(ValueError, match="number of threads"):
        tf.config.threading.set_intra_op_parallelism_threads(-1)


def test_optimizer_options_take_tensorflows_keys():
    tf.config.optimizer.set_experimental_options({"constant_folding": False,
                                                  "layout_optimizer": True})
    try:
        @tf.function
        def f():
            return tf.constant(2) * 3
        assert int(f()) == 6
        graph = f.get_concrete_function().graph
        assert any(n.op == "Mul" for n in graph.nodes)      # not folded
        assert tf.config.optimizer.get_experimental_options()["constant_folding"] is False
    finally:
        tf.config.optimizer.reset_experimental_options()
    assert np.array_equal(tf.function(lambda: tf.constant(2) * 3)().numpy(), 6)


def test_tensor_and_variable_device_names():
    # TensorFlow 2.21 on CPU: eager tensors and variables name the CPU; graph
    # tensors outside a tf.device scope have "".
    cpu = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert tf.constant(1).device == cpu and (tf.constant(1.0) + 1).device == cpu
    assert tf.Variable(1).device == cpu
    seen = []
    tf.function(lambda x: seen.append((x.device, (x + 1).device)) or x)(tf.constant(1))
    assert seen == [("", "")]


# --- logical device configurations, tf.config.experimental, jit and optimizer options

@pytest.fixture
def fresh_config():
    saved = (copy.deepcopy(device_config._state), copy.deepcopy(devices._settings))
    yield
    device_config._state.clear()
    device_config._state.update(saved[0])
    devices._settings.clear()
    devices._settings.update(saved[1])


def _jax_started_with_one_cpu():
    if "jax" not in sys.modules:
        return False
    from jax._src import xla_bridge
    return xla_bridge.backends_are_initialized() and len(sys.modules["jax"].devices("cpu")) < 2


def test_logical_device_configuration_as_tf(fresh_config):
    config = tf.config.LogicalDeviceConfiguration(memory_limit=1024)
    assert repr(config) == ("LogicalDeviceConfiguration(memory_limit=1024, "
                            "experimental_priority=None, experimental_device_ordinal=None)")
    assert tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert tf.config.get_logical_device_configuration(cpu) is None
    two = [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
    if _jax_started_with_one_cpu():
        # another test of this process started JAX: as TF once its runtime has
        # started, the split is refused (tests/runtime/distribute splits in fresh processes)
        with pytest.raises(RuntimeError, match="Virtual devices cannot be modified after "
                                               "being initialized: JAX started with 1 CPU"):
            tf.config.set_logical_device_configuration(cpu, two)
        assert tf.config.get_logical_device_configuration(cpu) is None
        return
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
