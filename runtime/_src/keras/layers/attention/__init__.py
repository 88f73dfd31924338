"""Attention layers (`Attention`, `MultiHeadAttention`, `GroupedQueryAttention`, ...)."""
