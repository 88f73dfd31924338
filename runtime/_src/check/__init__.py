"""Layer 11, check: the eager-vs-graph equivalence check, wrapping `Function`
calls from outside (it installs itself into `function.config`'s call hook)."""
