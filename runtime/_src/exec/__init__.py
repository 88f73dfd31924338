"""Layer 4, exec: a graph lowered to straight-line Python (`codegen`) and
run (`executor`)."""
