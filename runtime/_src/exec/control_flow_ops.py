"""The control-flow ops `If` and `While`: their graph layout and kernels.

Both ops hold their code as subgraphs (`Graph`s in attrs). A subgraph refers
to tensors of the enclosing graph only through its `captures`; the op passes
those outer tensors as its own inputs, in the same order, so a kernel feeds a
subgraph `[its own inputs..., capture values...]` (the executor's convention).

`If(pred, *captures)` with attrs `then_branch`, `else_branch`:

    then_branch.inputs == []            else_branch.inputs == []
    then_branch.captures[k] and else_branch.captures[k] both stand for the
    If node's input 1 + k (a branch that does not use it has an unused
    placeholder there).
    outputs[i] = (then_branch if pred else else_branch).outputs[i]

    Plain Python meaning:  outs = then_fn(*caps) if pred else else_fn(*caps)

`While(*loop_vars, *captures[, maximum_iterations])` with attrs `cond`,
`body`, `num_loop_vars`, `has_maximum_iterations`:

    cond.inputs and body.inputs: one placeholder per loop variable.
    cond.captures[k] and body.captures[k] stand for input num_loop_vars + k.
    cond.outputs == [pred]; body.outputs: the next value of each loop var.

    Plain Python meaning:
        i = 0
        while (i < maximum_iterations) and cond(*vars, *caps):
            vars = body(*vars, *caps); i += 1
        return vars

    With attr `accumulator=True` (a loop traced under a gradient tape), the
    last loop variable is a list the body appends each iteration's loop
    variables to (runtime/_src/function/control_flow.py); the While gradient
    (runtime/_src/autodiff) reads it back.

The ops have a variable number of outputs (`num_outputs=None`): kernels
return a list. Their output dtypes and shapes come from the subgraphs, so a
pass that rewrites a subgraph keeps them consistent. Both are stateful or
side-effecting exactly when their subgraphs are (see `graph.Node`).
"""

import numpy as np

from runtime._src.exec import executor
from runtime._src.graph.op_registry import define_op

__all__ = ["IF", "WHILE"]

IF = "If"
WHILE = "While"


# --- If --------------------------------------------------------------------

def _infer_if(inputs, attrs):
    then_g, else_g = attrs["then_branch"], attrs["else_branch"]
    if len(then_g.outputs) != len(else_g.outputs):
        raise ValueError(f"the branches return {len(then_g.outputs)} and "
                         f"{len(else_g.outputs)} values")
    specs = []
    for a, b in zip(then_g.outputs, else_g.outputs):
        if a.dtype != b.dtype:
            raise TypeError(f"branch outputs differ in dtype: {a.dtype.name} and {b.dtype.name}")
        specs.append((a.dtype, a.shape.most_specific_compatible_shape(b.shape)))
    return specs


@define_op(IF, infer=_infer_if, num_outputs=None)
def _if_kernel(pred, *captured, then_branch, else_branch):
    if np.ndim(pred) != 0:
        raise ValueError(f"the condition must be a scalar, got a value of shape {np.shape(pred)}")
    branch = then_branch if pred else else_branch
    return executor.run(branch, list(captured))


# --- While -------------------------------------------------------------------

def _infer_while(inputs, attrs):
    return [(t.dtype, t.shape) for t in attrs["body"].inputs]


@define_op(WHILE, infer=_infer_while, num_outputs=None)
def _while_kernel(*args, cond, body, num_loop_vars, has_maximum_iterations, accumulator=False):
    """Iterates in a flat Python loop: no recursion, O(1) memory per step."""
    limit = None
    if has_maximum_iterations:
        limit = int(args[-1])
        args = args[:-1]
    state = list(args[:num_loop_vars])
    captured = list(args[num_loop_vars:])
    run = executor.run
    if limit is None:
        while run(cond, state + captured)[0]:
            state = run(body, state + captured)
        return state
    count = 0
    while count < limit and run(cond, state + captured)[0]:
        state = run(body, state + captured)
        count += 1
    return state
