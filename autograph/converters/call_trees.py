"""Calls: user functions are converted when called; builtins that tensors
need are overloaded; everything else is called as it is.

    n = len(xs)              ->  n = ag__.len(xs)
    y = helper(x)            ->  y = ag__.call(helper, x)
    z = np.sum(x)            ->  z = np.sum(x)            (a library)
    acc.append(x)            ->  acc = ag__.list_append(acc, x)   (a local list)
    acc.extend(xs)           ->  acc = ag__.list_extend(acc, xs)
    super().f(x)             ->  super(__class__, self).f(x)

`print(x)` becomes `ag__.print(x)`: Python's print, which while tracing runs
once and shows symbolic tensors (`Tensor("x:0", shape=(), dtype=int32)`), as
in TensorFlow; with Feature.BUILTIN_FUNCTIONS it prints tensors' values when
the graph runs, as TensorFlow's converted print does.

Callees are resolved when the function is converted, from its globals,
closure and builtins. A callee that cannot be resolved (a local variable, a
method of an argument) goes through `ag__.call`, which decides when it runs.
With `recursive=False` no call is wrapped.
"""

import builtins

import gast

from ..pyct import inspect_utils
from ..pyct import ast_util, templates
from ..pyct.static_analysis import activity

OVERLOADED = ("len", "range", "int", "float", "abs", "min", "max", "sum", "enumerate", "zip",
              "print")

# Methods of builtin types and tensors: calling them through ag__.call would
# only add noise.
PLAIN_METHODS = frozenset("""append extend insert pop remove index count copy clear sort
reverse items keys values get update setdefault format join split strip lstrip rstrip
replace startswith endswith lower upper encode decode add discard numpy reshape astype
tolist item assign assign_add assign_sub read_value write read stack unstack size
get_shape ref deref""".split())


class _Calls(ast_util.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx
        self.first_params = []
        # Per enclosing function, innermost last: [node, its local names, its
        # aliased lists (see _aliased_lists)], the names computed on first need.
        self.functions = []

    def visit_Expr(self, node):
        call = node.value
        # Only a list local to *this* function is rebound: `log.append(v)` in a
        # closure appends to the enclosing function's list, in place; so does
        # an aliased list (`m = lst`), which a tensor loop then refuses to
        # change instead of making `lst` a new tensor list that `m` misses.
        if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
                and call.func.attr in ("append", "extend")
                and isinstance(call.func.value, gast.Name)
                and len(call.args) == 1 and not call.keywords
                and self._appendable(call.func.value.id)):
            self.generic_visit(call)
            lst, op = call.func.value.id, f"list_{call.func.attr}"
            new = templates.replace(f"lst = ag__.{op}(lst, item)", lst=lst, item=call.args[0])
            return ast_util.located(new, ast_util.user_line(node))
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node):
        a = node.args.posonlyargs + node.args.args
        self.first_params.append(a[0].id if a else None)
        self.functions.append([node, None, None])
        self.generic_visit(node)
        self.functions.pop()
        self.first_params.pop()
        return node

    def _appendable(self, name):
        """`name.append(x)` may become `name = ag__.list_append(name, x)`."""
        if not self.functions:
            return False
        scope = self.functions[-1]
        if scope[1] is None:
            scope[1] = activity.local_names(scope[0])
            scope[2] = _aliased_lists(scope[0], self.ctx)
        return name in scope[1] and name not in scope[2]

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, gast.Name) and func.id == "super" and not node.args \
                and self.first_params and self.first_params[-1]:
            # Zero-argument super() needs its method's frame; the converted
            # body may run in a nested function, so the arguments are explicit.
            node.args = [ast_util.name("__class__"), ast_util.name(self.first_params[-1])]
            return node
        if isinstance(func, gast.Name) and func.id in OVERLOADED and self._is_builtin(func.id):
            node.func = templates.replace_as_expression(f"ag__.{func.id}")
            return node
        if not self.ctx.recursive or self._plain(func):
            return node
        call = templates.replace_as_expression("ag__.call(func)", func=func)
        call.args += node.args
        call.keywords = node.keywords
        return call

    def _is_builtin(self, name):
        found, value = self.ctx.resolve(ast_util.name(name))
        return found and value is getattr(builtins, name, None)

    def _plain(self, func):
        """Calls left as they are: library functions, builtins, classes, ag__."""
        if isinstance(func, gast.Attribute) and func.attr in PLAIN_METHODS:
            return True
        if isinstance(func, gast.Name) and func.id == "super":
            return True
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
                and func.value.id == "ag__":
            return True
        found, value = self.ctx.resolve(func)
        if not found or self.ctx.from_closure(func):
            # A callee held in a closure cell is decided when called: closures of
            # one code object share one conversion, and another closure's cell may
            # hold a user function where this one holds a library function.
            return False
        if isinstance(value, type) or inspect_utils.is_builtin(value):
            return True
        return not inspect_utils.is_user_function(value)


def _aliased_lists(fn_node, ctx):
    """Names appended to (`lst.append(x)`) in `fn_node` whose object another
    name or container may share by then: stored by an assignment
    (`m = lst`, `d['k'] = lst`, `t = (lst, 1)`, `(m := lst)`) before an
    append, or in a loop around one."""
    appends, stores = {}, {}
    generated = ctx.return_names | ctx.flag_names

    def where(node):
        return (ast_util.user_line(node) or getattr(node, "lineno", 0) or 0,
                getattr(node, "col_offset", 0) or 0)

    def visit(node, loops):
        if isinstance(node, gast.Expr) and isinstance(node.value, gast.Call):
            func = node.value.func
            if isinstance(func, gast.Attribute) and func.attr in ("append", "extend") \
                    and isinstance(func.value, gast.Name):
                appends.setdefault(func.value.id, []).append((where(node), loops))
        value, targets = None, []
        if isinstance(node, (gast.Assign, gast.AnnAssign, gast.NamedExpr)):
            value = node.value
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
        if value is not None and not all(isinstance(t, gast.Name) and t.id in generated
                                         for t in targets):
            for name in _stored_names(value):
                stores.setdefault(name, []).append((where(node), loops))
        inner = loops | {id(node)} if isinstance(node, ast_util.LOOPS) else loops
        for child in ast_util.children(node):
            if not isinstance(child, ast_util.FUNCTIONS):
                visit(child, inner)

    for s in fn_node.body:
        visit(s, frozenset())
    return {name for name, found in stores.items() if name in appends
            and any(at < appended_at or loops & appended_loops
                    for at, loops in found for appended_at, appended_loops in appends[name])}


def _stored_names(value):
    """Names whose objects `value` stores as they are (not copies)."""
    if isinstance(value, gast.Name):
        return {value.id}
    if isinstance(value, (gast.Tuple, gast.List, gast.Set)):
        return set().union(*(_stored_names(e) for e in value.elts))
    if isinstance(value, gast.Starred):
        return _stored_names(value.value)
    if isinstance(value, gast.Dict):
        return set().union(*(_stored_names(v) for v in value.values + value.keys if v))
    if isinstance(value, gast.IfExp):
        return _stored_names(value.body) | _stored_names(value.orelse)
    if isinstance(value, gast.NamedExpr):
        return _stored_names(value.value) | {value.target.id}
    return set()


def transform(node, ctx):
    return _Calls(ctx).visit(node)
