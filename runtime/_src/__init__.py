"""The engine behind `runtime`'s public namespaces, one package per layer.

Each layer imports only the layers below it (enforced by import-linter, see
.importlinter and docs/architecture.md):

    check        the eager-vs-graph equivalence mode, wrapping Function calls
    saved_model  save traced functions and Variables; load them back
    io           tf.io: Example protos, TFRecord files, gfile, parse and
                 decode ops
    function     tracing, Function, ConcreteFunction, signatures, cond /
                 while_loop, TensorArray, Variable, Module, config, the
                 autograph backend
    optimizer    graph rewrite passes
    exec         codegen (a graph as Python source) and the executor
    ops          the op families, registering into the op registry
    graph        Graph / Node, the op registry, text, DOT, the viewer
    core         dtypes, shapes, errors, nest, the tensor classes, the
                 protocol buffer wire format

Nothing here is public API: `import runtime as tf` and use `tf.*`.
"""
