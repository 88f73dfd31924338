"""`keras.optimizers`: the `Optimizer` base, the optimizers and their schedules."""
