"""Activation layers (`LeakyReLU`, `PReLU`, `ELU`, ...)."""
