"""One rewrite per module. Each exports `transform(node, ctx)` taking and
returning a gast FunctionDef; its docstring shows the rewrite. The order they
run in is fixed by `autograph.impl.conversion.convert_tree`."""
