"""`tf.nn.compute_average_loss` and `tf.nn.scale_regularization_loss`
under a strategy: the loss of one replica's examples is divided by the
global batch (the replica's batch times the replicas), so that the
replicas' gradients, all-reduced by SUM, are the gradient of the global
batch's mean loss. Called in cross-replica context: TF's RuntimeError.
"""

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.distribute import context as _ctx
from runtime._src.ops import conv_more_ops, math_ops

__all__ = ["compute_average_loss", "scale_regularization_loss"]


def _replicas(what):
    if _ctx.in_cross_replica_context():
        raise RuntimeError(f"You are calling `{what}` in cross replica context, while it was "
                           "expected to be called in replica context.")
    return _ctx.get_replica_context().num_replicas_in_sync


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None,
                         name=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (default:
    this replica's batch times the number of replicas)."""
    n = _replicas("compute_average_loss")
    loss = conv_more_ops.compute_average_loss(per_example_loss, sample_weight,
                                              global_batch_size)
    if global_batch_size is None and n > 1:
        loss = loss / math_ops.cast(n, loss.dtype)
    return loss


def scale_regularization_loss(regularization_loss, name=None):
    """The summed regularization loss divided by the number of replicas."""
    n = _replicas("scale_regularization_loss")
    loss = conv_more_ops.scale_regularization_loss(convert_to_tensor(regularization_loss))
    return loss if n == 1 else loss / math_ops.cast(n, loss.dtype)
