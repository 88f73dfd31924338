"""`jit_compile=True`: traced graphs compiled with XLA through JAX (optional).

lower.py walks a graph into jax.numpy / jax.lax calls (one rule per op, in
rules_math.py, rules_nn.py, rules_random.py and rules_tensor_array.py); program.py
compiles it with `jax.jit`,
feeds the Variables in and writes them back, and falls back to the executor
with a `JitCompileWarning` when it cannot."""
