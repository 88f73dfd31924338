"""Preprocessing layers (`Normalization`, lookups, `TextVectorization`, `Discretization`, `Hashing`, image layers)."""
