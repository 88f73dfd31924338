"""`keras.visualization`: drawing on images."""
