"""Layer 6, function: tracing Python into graphs (`Function`,
`ConcreteFunction`, signatures), functional control flow (`cond`,
`while_loop`), `TensorArray`, `Variable`, `Module`, process-wide switches
(`config`) and the backend that autograph's operators call."""
