"""`tf.VariableSynchronization` and `tf.VariableAggregation`: how a variable
is kept in step across replicas, and how replicas' updates combine.

    Variable(0.0, synchronization=VariableSynchronization.ON_READ,
             aggregation=VariableAggregation.SUM)     # a metric's accumulator

On one device both are recorded and change nothing; a distribution strategy
reads them. As in TF, `ON_READ` makes a variable non-trainable unless
`trainable` says otherwise.
"""

import enum

__all__ = ["VariableSynchronization", "VariableAggregation", "sync_arguments"]


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are brought in step."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregationV2(enum.Enum):   # TF's class name (its repr shows it)
    """How the replicas' updates of a distributed variable combine."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


VariableAggregation = VariableAggregationV2


def sync_arguments(name, trainable, synchronization, aggregation):
    """(trainable, synchronization, aggregation) checked and defaulted as TF's."""
    synchronization = VariableSynchronization.AUTO if synchronization is None \
        else synchronization
    aggregation = VariableAggregation.NONE if aggregation is None else aggregation
    if not isinstance(synchronization, VariableSynchronization):
        raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                         f"variable: {name}")
    if not isinstance(aggregation, VariableAggregation):
        raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                         f"{name}")
    if trainable is None:
        trainable = synchronization is not VariableSynchronization.ON_READ
    return bool(trainable), synchronization, aggregation
