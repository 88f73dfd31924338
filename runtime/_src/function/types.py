"""`tf.types.experimental`: the abstract types of traced functions.

TensorFlow code checks `isinstance(f, tf.types.experimental.PolymorphicFunction)`
(what `tf.function` returns) and `isinstance(cf, tf.types.experimental.ConcreteFunction)`
(what `get_concrete_function` returns). `Function` and `ConcreteFunction`
derive from these; `GenericFunction` is TensorFlow's older name of
`PolymorphicFunction`. `FunctionType` is in function_type.py.
"""

__all__ = ["Callable", "PolymorphicFunction", "GenericFunction", "ConcreteFunction",
           "AtomicFunction"]


class Callable:
    """Base of traced callables (`tf.types.experimental.Callable`)."""

    __slots__ = ()


class PolymorphicFunction(Callable):
    """A function that traces one ConcreteFunction per input signature."""

    __slots__ = ()


GenericFunction = PolymorphicFunction


class ConcreteFunction(Callable):
    """One traced graph with a fixed input signature."""

    __slots__ = ()


class AtomicFunction(Callable):
    """A traced graph called with its flat inputs (`ConcreteFunction.inference_fn`)."""

    __slots__ = ()
