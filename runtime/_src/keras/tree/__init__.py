"""`keras.tree`: nested-structure utilities."""
