"""Regularization layers (dropouts and noise, active only in training)."""
