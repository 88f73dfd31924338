"""Merge layers (`Add`, `Concatenate`, `Dot`, ...)."""
