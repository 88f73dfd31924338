"""`tf.distribute`: one training step run on several devices at once, on
JAX's multi-device engine.

    values.py      PerReplica values, ReduceOp, InputContext and friends
    variables.py   MirroredVariable and SyncOnReadVariable (what scope() makes)
    context.py     the strategy and replica context a thread is in, and the
                   two collective ops (ReplicaAllReduce, ReplicaId) with their
                   JAX rules (psum / axis_index over the replica axis)
    threaded.py    `strategy.run` a thread per replica on the executor, where XLA
                   cannot run the replica function (string ops, uneven batches)
    replicated.py  `strategy.run`: the replica function traced once, lowered
                   to JAX (runtime/_src/jit) and run by `jax.shard_map` over a
                   mesh of the strategy's devices
    strategy.py    the default strategy, OneDeviceStrategy, MirroredStrategy
    input.py       distributed datasets (a global batch split across replicas)
    losses.py      tf.nn.compute_average_loss / scale_regularization_loss
    multi_worker.py  MultiWorkerMirroredStrategy (TF_CONFIG, jax.distributed)

The default strategy and OneDeviceStrategy run the replica function as
plain Python (one replica); the others need JAX (the `[jax]` extra).
"""
