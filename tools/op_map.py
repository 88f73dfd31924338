"""Where each op's pieces live: the module that defines the op (its kernel,
with `define_op`), the module of its shape and dtype rule, and the module of
its gradient rule (`define_grad`; "none" for `not_differentiable`, "-" for an
op with neither).

    python3 tools/op_map.py                 # every op, one row each
    python3 tools/op_map.py --outside-ops   # only the ops defined outside runtime/_src/ops
    python3 tools/op_map.py --summary       # op counts per defining package

The op registry records the defining modules (`OpDef.module`,
`OpDef.grad_module`); tests/runtime/graph/test_op_map.py checks the rules
this map should keep (gradients beside their ops, the packages allowed to
define ops outside ops/).
"""

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OPS_PACKAGE = "runtime._src.ops"


def rows():
    """(op, defining module, rule module, gradient module) for every op, by name."""
    import runtime  # noqa: F401 - registers every op
    from runtime._src.graph.op_registry import NOT_DIFFERENTIABLE, OPS
    table = []
    for name, opdef in sorted(OPS.items()):
        if opdef.grad is NOT_DIFFERENTIABLE:
            grad = "none"
        else:
            grad = opdef.grad_module or "-"
        rule = getattr(opdef.infer, "__module__", None) or "-"
        table.append((name, opdef.module, rule, grad))
    return table


def package(module):
    """`runtime._src.sparse` for `runtime._src.sparse.sparse_ops`."""
    return ".".join(module.split(".")[:3])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outside-ops", action="store_true")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args(argv)
    table = rows()
    if args.outside_ops:
        table = [row for row in table if package(row[1]) != OPS_PACKAGE]
    if args.summary:
        counts = collections.Counter(package(row[1]) for row in table)
        for name, count in counts.most_common():
            print(f"{count:4d}  {name}")
        print(f"{len(table):4d}  ops in all")
        return 0
    width = max(len(row[0]) for row in table)
    for name, module, rule, grad in table:
        print(f"{name:<{width}}  {module}  rule: {rule}  gradient: {grad}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
