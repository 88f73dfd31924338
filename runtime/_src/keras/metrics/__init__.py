"""`keras.metrics`: the `Metric` base and the metrics."""
