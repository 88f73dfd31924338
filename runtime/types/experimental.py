"""`tf.types.experimental`: the types of traced functions (defined in
runtime/_src/function/types.py, function_type.py and trace_type.py)."""

from runtime._src.function.function_type import FunctionType
from runtime._src.function.trace_type import SupportsTracingProtocol, TraceType
from runtime._src.function.types import (AtomicFunction, Callable, ConcreteFunction,
                                         GenericFunction, PolymorphicFunction)

__all__ = ["AtomicFunction", "Callable", "ConcreteFunction", "FunctionType", "GenericFunction",
           "PolymorphicFunction", "SupportsTracingProtocol", "TraceType"]
