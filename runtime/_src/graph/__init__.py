"""Layer 2, graph: `Graph` / `Node`, the op registry (kernel and shape rule of
each op, as data), the text form, DOT and the HTML/SVG viewer."""
