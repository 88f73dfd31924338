"""`keras.random`: random functions and `SeedGenerator`."""
