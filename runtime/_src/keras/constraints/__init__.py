"""`keras.constraints`: weight constraints."""
