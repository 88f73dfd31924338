"""The training loop (`compile`, `fit`, `evaluate`, `predict`) and its data adapters."""
