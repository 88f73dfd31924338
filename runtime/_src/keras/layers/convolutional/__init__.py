"""Convolution layers (`Conv1D`/`2D`/`3D`, their transposes, depthwise and separable ones)."""
