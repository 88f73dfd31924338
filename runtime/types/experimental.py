"""`tf.types.experimental`: the types of traced functions (defined in
runtime/_src/function/types.py and function_type.py)."""

from runtime._src.function.function_type import FunctionType
from runtime._src.function.types import (Callable, ConcreteFunction, GenericFunction,
                                         PolymorphicFunction)

__all__ = ["Callable", "ConcreteFunction", "FunctionType", "GenericFunction",
           "PolymorphicFunction"]
