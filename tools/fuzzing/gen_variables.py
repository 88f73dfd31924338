"""--variables: float64 vectors and tf.Variables, reads held across updates."""

from .gen_default import _indent
from .gen_modes import _ModeGenerator


class VariableGenerator(_ModeGenerator):
    """--variables: float64 vectors (length 3) and tf.Variables (module-level
    `v0`, `v1`, a 3x3 `m`, and `w` passed in): reads held in locals across
    later assign/assign_add/assign_sub in branches and tensor loops, chained
    arithmetic whose temporaries the graph reuses, matmul, gradient tapes
    with an assignment between the forward pass and `tape.gradient`. Values
    are dyadic (k/4) and every value assigned in a loop is floored to a
    quarter and clipped, so float results are exact and compared with ==."""

    VECS = ["x", "y", "h0", "h1", "h2", "t0"]          # main's float64 vector locals
    VARS = ["v0", "v1", "w"]                            # vector Variables (m: 3x3)
    SPECIAL = 0.5

    def __init__(self, seed):
        super().__init__(seed)
        self.loop_vars = []

    def quarter(self):
        return f"{self.rng.randint(-8, 8) / 4!r}"

    def const_vec(self):
        return f"tf.constant([{', '.join(self.quarter() for _ in range(3))}], dtype=tf.float64)"

    def read(self, var=None):
        var = var or self.rng.choice(self.VARS)
        return self.rng.choice([
            f"{var}.read_value()", f"{var} + 0", f"tf.identity({var})", f"{var}.value()",
            f"(np.asarray({var}) if EAGER else {var}.read_value())"])

    def atom(self, names):
        r = self.rng.random()
        if r < 0.45:
            return self.rng.choice(self.VECS)
        if r < 0.6:
            return self.rng.choice(self.VARS)            # a Variable as an operand
        if r < 0.75:
            return self.read()
        if r < 0.85 and self.loop_vars:
            return f"tf.cast({self.rng.choice(self.loop_vars)}, tf.float64)"
        if r < 0.9:                                   # times a scalar Variable or local
            return f"({self.rng.choice(self.VECS)} * {self.rng.choice(['sv', 'c0'])})"
        return self.const_vec()

    def expr(self, names, depth=0):
        r = self.rng.random()
        if depth >= 2 or r < 0.25:
            a = self.atom(names)
            if a.startswith("tf.cast"):              # a scalar: made a vector
                return f"({a} + {self.rng.choice(self.VECS)})"
            # a whole expression is a value, never the Variable object itself
            return f"{a}.read_value()" if depth == 0 and a in self.VARS else a
        a, b = self.expr(names, depth + 1), self.expr(names, depth + 1)
        forms = [  # (up to this r, the expression): chains whose temporaries are reused
            (0.4, lambda: f"({a} + {b})"),
            (0.5, lambda: f"({a} - {b})"),
            (0.6, lambda: f"({a} * {b})"),
            (0.68, lambda: f"({a} * {self.rng.choice(['2.0', '0.5', '-1.0', '0.25'])})"),
            (0.72, lambda: f"({a} {self.rng.choice(['+', '-'])} {self.quarter()})"),
            (0.8, lambda: f"(({a} * 2.0 + {b}) - {self.rng.choice(self.VECS)})"),
            (0.9, lambda: f"tf.reshape(tf.matmul(m, tf.reshape({a}, [3, 1])), [3])"),
            (0.95, lambda: f"tf.reshape(tf.matmul(tf.reshape({a}, [1, 3]), m), [3])"),
            (1.0, lambda: f"(-{a})")]
        return next(make for bound, make in forms if r < bound)()

    def tame(self, e, in_loop):
        """`e` floored to a quarter and clipped: loops cannot grow values past
        exact float64 arithmetic. Outside loops only sometimes."""
        if in_loop or self.rng.random() < 0.75:
            return f"tf.clip_by_value(tf.floor(({e}) * 4.0) * 0.25, -64.0, 64.0)"
        return e

    def test(self, names, depth=0):
        cmp = self.rng.choice(["<", "<=", ">", ">="])
        return f"tf.reduce_sum({self.expr(names, 1)}) {cmp} {self.quarter()}"

    def statement(self, names, depth, in_loop):
        r = self.rng.random()
        if r < self.SPECIAL or depth >= 3:
            return self.special(names, depth, in_loop)
        if r < 0.68:
            return self.if_stmt(names, depth, in_loop)
        if r < 0.78:
            return self.while_stmt(names, depth)
        if r < 0.93:
            return self.for_stmt(names, depth)
        if in_loop:
            return [f"if {self.test(names)}:", "    " + self.rng.choice(["break", "continue"])]
        return self.tape(names, depth, in_loop)

    def while_stmt(self, names, depth):
        counter = f"i{depth}"
        head = f"while {counter} < n:" if self.rng.random() < 0.6 else \
            f"while {counter} < {self.rng.randint(1, 3)} and {self.test(names)}:"
        lines = [f"{counter} = 0", head, f"    {counter} = {counter} + 1"]
        lines += _indent(self.block(names, depth + 1, True, 3))
        return lines

    def for_stmt(self, names, depth):
        var = f"j{depth}"
        head = self.rng.choice([f"for {var} in tf.range(n):", f"for {var} in range(2):",
                                f"for {var} in tf.range({self.rng.randint(0, 3)}):"])
        self.loop_vars.append(var)
        try:
            body = self.block(names, depth + 1, True, 3)
        finally:
            self.loop_vars.pop()
        return [head] + _indent(body)

    def special(self, names, depth, in_loop):
        r = self.rng.random()
        var = self.rng.choice(self.VARS)
        if r < 0.25:                       # hold a read across what follows
            return [f"{self.rng.choice(['h0', 'h1', 'h2'])} = {self.read()}"]
        if r < 0.55:
            op = self.rng.choice(["assign_add", "assign_sub", "assign_add", "assign"])
            value = self.tame(self.expr(names), in_loop)
            r = self.rng.random()
            if r < 0.15:                   # the update's result, used at once (as TF's
                target = self.rng.choice(["h0", "h1", "h2"])    # lazily read result)
                return [f"{target} = {var}.{op}({value}) {self.rng.choice(['+ 0', '* 1.0'])}"]
            flag = ", read_value=False" if r < 0.3 else ""
            return [f"{var}.{op}({value}{flag})"]
        if r < 0.6:                        # one Variable's value into another
            return [f"{var}.{self.rng.choice(['assign', 'assign_add'])}"
                    f"({self.rng.choice(self.VARS + ['h0', 'h1'])})"]
        if r < 0.63:                       # the scalar Variable and the scalar local
            return self.rng.choice([
                lambda: [f"c0 = {self.read('sv')}"],
                lambda: [f"sv.{self.rng.choice(['assign_add', 'assign_sub', 'assign'])}("
                         f"tf.clip_by_value(tf.floor(tf.reduce_sum({self.expr(names, 1)})) * 0.25,"
                         f" -64.0, 64.0))"],
                lambda: [f"c0 = {self.tame('c0 * 2.0 + sv', True)}"],
                lambda: ["sv.assign_sub(c0 * 0.5)"]])()
        if r < 0.65:                       # the matrix: an outer product update
            return [f"m.{self.rng.choice(['assign_add', 'assign_sub'])}(tf.clip_by_value("
                    f"tf.floor(tf.matmul(tf.reshape({self.expr(names, 1)}, [3, 1]), "
                    f"tf.reshape({self.expr(names, 1)}, [1, 3])) * 0.25), -2.0, 2.0))"]
        if r < 0.75:                       # a temporary used twice
            return [f"t0 = {self.tame(self.expr(names), in_loop)}",
                    f"{self.rng.choice(self.VECS[:3])} = "
                    f"{self.tame(f'(t0 * 0.5 + t0) - {self.atom(names)}', in_loop)}"]
        if r < 0.8 or depth >= 2:
            target = self.rng.choice(self.VECS)
            return [f"{target} = {self.tame(self.expr(names), in_loop)}"]
        if r < 0.83:                       # two locals, one array
            a, b = self.rng.sample(self.VECS, 2)
            return [f"{a} = {b}"]
        if r < 0.85 and not in_loop:       # a length only known when the graph runs
            target = self.rng.choice(self.VECS)
            return [f"{target} = tf.reshape({target}, [n * 0 + 3])"]
        if r < 0.88:                       # a nested tf.function that reads and updates
            target = self.rng.choice(["h0", "h1", "h2"])
            return [f"{target} = step({self.tame(self.expr(names, 1), True)})"]
        if r < 0.92:                       # a Keras optimizer step
            grads = [self.tame(self.expr(names, 1), True) for _ in range(2)]
            pair = self.rng.sample(self.VARS, 2)
            return [f"opt.apply_gradients(zip([{grads[0]}, {grads[1]}], [{pair[0]}, {pair[1]}]))"]
        return self.tape(names, depth, in_loop)

    def tape(self, names, depth, in_loop):
        """A GradientTape over Variables, the gradient taken after an update."""
        if self.rng.random() < 0.35:
            return self.dense_tape(in_loop)
        sources = self.rng.sample(self.VARS, self.rng.randint(1, 2))
        terms = []
        for src in sources:
            other = self.rng.choice(self.VECS + ["2.0"])
            terms.append(self.rng.choice([
                f"{src} * {src}", f"{src} * {other}", f"{other} * {src}",
                f"({src} * 2.0 - {other}) * {src}", f"{src} - {other}"]))
        persistent = self.rng.random() < 0.25
        lines = [f"with tf.GradientTape({'persistent=True' if persistent else ''}) as tape:",
                 f"    loss = tf.reduce_sum({' + '.join(terms)})"]
        if persistent:                     # a gradient before and after an update
            lines += [f"h0 = tape.gradient(loss, {sources[0]})",
                      f"{sources[0]}.assign_sub(h0 * 0.25)"]
        lines += self.rng.choice([
            [f"{sources[0]}.assign_sub({self.rng.choice(self.VECS)} * 0.25)"],
            [f"{sources[-1]}.assign_add({self.const_vec()})"],
            [f"{sources[0]}.assign({self.rng.choice(self.VECS)})"],
            []])
        if len(sources) == 1:
            lines.append(f"{self.rng.choice(['h1', 'h2'])} = tape.gradient(loss, {sources[0]})")
        else:
            lines += [f"g = tape.gradient(loss, [{sources[0]}, {sources[1]}])",
                      "h1 = g[0]", "h2 = g[1]"]
        lines.append(f"x = {self.tame('x + loss * 0.25', in_loop)}")
        return lines

    def dense_tape(self, in_loop):
        """A training step's shape: loss through a matmul with the matrix `m`,
        the gradient of m applied in place (by hand or by the optimizer)."""
        var, other = self.rng.choice(self.VARS), self.rng.choice(self.VECS)
        lines = ["with tf.GradientTape() as tape:",
                 f"    z = tf.reshape(tf.matmul(m, tf.reshape({var}, [3, 1])), [3])",
                 f"    loss = tf.reduce_sum(z * {other} + {var} * {var})",
                 f"g = tape.gradient(loss, [m, {var}])",
                 "h1 = g[1]"]
        step = "tf.clip_by_value(tf.floor(g[0]) * 0.25, -2.0, 2.0)"
        lines.append(self.rng.choice([f"m.assign_sub({step})",
                                      f"opt.apply_gradients(zip([{step}], [m]))"]))
        lines.append(f"h2 = {self.tame('z * 0.5 + h1', in_loop)}")
        return lines

    def program(self):
        lines = ["# `tf` is runtime, or (the native run) tools/fuzz.py's numpy stand-in;",
                 "# EAGER is True except in the graph run.", "import numpy as np", ""]
        for name, shape in (("v0", 3), ("v1", 3), ("m", 9)):
            vals = [self.quarter() for _ in range(shape)]
            if shape == 9:
                vals = [f"[{', '.join(vals[k:k + 3])}]" for k in (0, 3, 6)]
            lines.append(f"a_{name} = np.array([{', '.join(vals)}])")
            lines.append(f"{name} = tf.Variable(a_{name})")
        lines.append(f"sv = tf.Variable({self.quarter()}, dtype=tf.float64)")
        momentum = self.rng.choice(["0.0", "0.5"])
        nesterov = ", nesterov=True" if momentum != "0.0" and self.rng.random() < 0.5 else ""
        rate = self.rng.choice(["0.5", "0.25"])
        lines.append(f"opt = tf.keras.optimizers.SGD(learning_rate={rate}, "
                     f"momentum={momentum}{nesterov})")
        var = self.rng.choice(["v0", "v1"])
        lines += ["", "", "@tf.function", "def step(d):", f"    r = {var}.read_value()",
                  f"    {var}.{self.rng.choice(['assign_add', 'assign_sub'])}(d * 0.5)",
                  "    " + self.rng.choice(["return r", f"return {var}.read_value() - r",
                                             "return (r + d) * 0.5", f"return {var} * 1.0"])]
        body = ["h0 = v0.read_value()", "h1 = tf.identity(v1)", "h2 = x * 1.0", "t0 = y + 0.0",
                "c0 = sv + 0"]
        if self.rng.random() < 0.4:        # the graph knows x's length only when it runs
            body.insert(0, "x = tf.reshape(x, [n * 0 + 3])")
        body += self.block(["x"], 0, False, 6)
        body += ["out = []"]
        body += [f"out.append({name})" for name in self.VECS + ["c0"]]
        body += [f"out.append({var}.read_value())" for var in ("v0", "v1", "w", "m", "sv")]
        body += [f"out.append({self.expr(['x'])})", "return out"]
        lines.append("")
        lines.append("def main(x, y, n, w):")
        lines += _indent(body)
        return "\n".join(lines) + "\n"
