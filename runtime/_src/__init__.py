"""The engine behind `runtime`'s public namespaces, one package per layer.

Each layer imports only the layers below it (enforced by import-linter, see
.importlinter and docs/architecture.md):

    train        tf.train: checkpoints
    check        the eager-vs-graph equivalence mode, wrapping Function calls
    keras        tf.keras: layers, models, losses, metrics, optimizers, fit
    onnx         export to ONNX (runtime.onnx)
    testing      tf.test: TestCase and its helpers
    summary      tf.summary: event files for TensorBoard
    saved_model  save traced functions and Variables; load them back
    data         tf.data: datasets, iterators, staged dataset loops
    autodiff     GradientTape, the backward pass, control-flow gradients
    io           tf.io: Example protos, TFRecord files, gfile, parse and
                 decode ops
    function     tracing, Function, ConcreteFunction, signatures, cond /
                 while_loop, TensorArray, Variable, Module, config, the
                 autograph backend
    optimizer    graph rewrite passes
    exec         codegen (a graph as Python source) and the executor
    ragged       RaggedTensor and the ragged string ops
    sparse       SparseTensor, tf.sparse, tf.sets
    extension    ExtensionType and API dispatch
    jit          jit_compile=True: graphs compiled by XLA through JAX
    ops          the op families, registering into the op registry
    graph        Graph / Node, the op registry, text, DOT, the viewer
    core         dtypes, shapes, errors, nest, the tensor classes, the
                 protocols, the protocol buffer wire format

docs/architecture.md has the layer map (which of these sit side by side).

Nothing here is public API: `import runtime as tf` and use `tf.*`.
"""
