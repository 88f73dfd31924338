"""Pooling layers (max, average, global and adaptive; 1-D to 3-D)."""
