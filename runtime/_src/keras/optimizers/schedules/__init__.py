"""`keras.optimizers.schedules`: learning-rate schedules."""
