"""Layer 4, exec: a graph lowered to straight-line Python (`codegen`) and
run (`executor`; a graph's first run is interpreted, `interpreter`), and the
control-flow ops `If` / `While` (`control_flow_ops`), whose kernels run
subgraphs with the executor."""
