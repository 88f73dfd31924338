"""Core layers (`Dense`, `EinsumDense`, `Embedding`, `Input`, `Identity`, `Masking`, ...)."""
