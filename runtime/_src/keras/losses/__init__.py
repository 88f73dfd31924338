"""`keras.losses`: the `Loss` base, per-sample loss functions and their classes."""
