"""`tf.test`: `TestCase` (unittest's, with TensorFlow's assertions on tensors
and nested structures), `main`, `compute_gradient`, `Benchmark`, and the
build queries (no GPU, CUDA, ROCm or XLA). Defined in runtime/_src/testing.

    class SquareTest(tf.test.TestCase):
        def test_square(self):
            self.assertAllClose(tf.square([2.0, 3.0]), [4.0, 9.0])
"""

import types as _types

from runtime._src.testing.test_case import TestCase
from runtime._src.testing.test_util import (Benchmark, assert_equal_graph_def,
                                            benchmark_config, compute_gradient,
                                            disable_with_predicate, gpu_device_name,
                                            is_built_with_cuda, is_built_with_gpu_support,
                                            is_built_with_rocm, is_built_with_xla,
                                            is_cpu_target_available, is_gpu_available, main,
                                            sync_devices, with_eager_op_as_function)

experimental = _types.SimpleNamespace(sync_devices=sync_devices)
del sync_devices

__all__ = ["TestCase", "Benchmark", "assert_equal_graph_def", "benchmark_config", "compute_gradient",
           "disable_with_predicate", "experimental", "gpu_device_name", "is_built_with_cuda",
           "is_built_with_gpu_support", "is_built_with_rocm", "is_built_with_xla",
           "is_cpu_target_available", "is_gpu_available", "main", "with_eager_op_as_function"]
