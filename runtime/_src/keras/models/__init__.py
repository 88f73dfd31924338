"""`Model`, `Sequential` and the functional graph."""
