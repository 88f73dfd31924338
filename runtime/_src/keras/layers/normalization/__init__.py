"""Normalization layers (`BatchNormalization`, `LayerNormalization`, `GroupNormalization`, ...)."""
