"""One rewrite per module; its docstring shows the rewrite. Each converter
exports `transform(node, ctx)` taking and returning a gast FunctionDef, except
the three expression rewrites (conditional_expressions, logical_expressions,
variables), which export their rewriter classes: `expressions` runs them as
one converter. The order converters run in is fixed by
`autograph.impl.conversion.convert_tree`."""
