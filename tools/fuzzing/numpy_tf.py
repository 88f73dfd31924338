"""The numpy stand-in for `tf` that --variables programs run on natively:
reads are copies (Python semantics, the reference), with a tape of its own
for gradients.

    tf = _NativeTF      # Variable, constant, matmul, GradientTape, keras SGD, ...
"""


def _np_value(x):
    import numpy as np
    if isinstance(x, _NativeVariable):
        return x._value.copy()
    if isinstance(x, _Traced):
        return x.value
    return np.asarray(x)


class _Traced:
    """A value computed from Variables read under a native GradientTape: its
    parents and their vector-Jacobian products, for the stand-in's gradient."""

    __array_ufunc__ = None       # ndarray * _Traced defers to _Traced.__rmul__

    def __init__(self, value, parents=(), variable=None):
        self.value, self.parents, self.variable = value, parents, variable

    def numpy(self):
        return self.value

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        return np.asarray(self.value, dtype=dtype)

    def _op(self, other, f, vjp_self, vjp_other):
        """f(self, other), recorded with the vjps (g, a, b) -> gradient of a or b."""
        a, b = self.value, _np_value(other)
        if not _NativeTF.tapes:
            return f(a, b)
        parents = [(self, lambda g: vjp_self(g, a, b))]
        if isinstance(other, _NativeVariable):
            other = other.read_value()
        if isinstance(other, _Traced):
            parents.append((other, lambda g: vjp_other(g, a, b)))
        return _Traced(f(a, b), parents)

    def __add__(self, o):
        return self._op(o, lambda a, b: a + b, lambda g, a, b: g, lambda g, a, b: g)

    def __radd__(self, o):
        return self + o

    def __sub__(self, o):
        return self._op(o, lambda a, b: a - b, lambda g, a, b: g, lambda g, a, b: -g)

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        return self._op(o, lambda a, b: a * b, lambda g, a, b: g * b, lambda g, a, b: g * a)

    def __rmul__(self, o):
        return self * o

    def __neg__(self):
        return self * -1.0


def _unbroadcast(g, shape):
    import numpy as np
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    return g


class _NativeTape:
    def __init__(self, persistent=False):
        self.persistent = persistent

    def __enter__(self):
        _NativeTF.tapes.append(self)
        return self

    def __exit__(self, *exc):
        _NativeTF.tapes.remove(self)

    def gradient(self, target, sources):
        import numpy as np
        many = isinstance(sources, (list, tuple))
        sources = list(sources) if many else [sources]
        grads = {id(s): None for s in sources}
        if isinstance(target, _Traced):
            order, seen = [], set()

            def visit(t):              # reverse topological order from the target
                if id(t) in seen:
                    return
                seen.add(id(t))
                for parent, _ in t.parents:
                    visit(parent)
                order.append(t)
            visit(target)
            upstream = {id(target): np.ones_like(target.value)}
            for t in reversed(order):
                g = upstream.get(id(t))
                if g is None:
                    continue
                if t.variable is not None and id(t.variable) in grads:
                    old = grads[id(t.variable)]
                    grads[id(t.variable)] = g if old is None else old + g
                for parent, vjp in t.parents:
                    pg = _unbroadcast(vjp(g), np.shape(parent.value))
                    old = upstream.get(id(parent))
                    upstream[id(parent)] = pg if old is None else old + pg
        out = [grads[id(s)] for s in sources]
        return out if many else out[0]


class _NativeVariable:
    """The stand-in tf.Variable: reads and `np.asarray` return copies."""

    __array_ufunc__ = None

    def __init__(self, initial_value, dtype=None):
        import numpy as np
        self._value = np.array(_np_value(initial_value), dtype=np.float64)

    def read_value(self):
        value = self._value.copy()
        return _Traced(value, variable=self) if _NativeTF.tapes else value

    value = read_value

    def numpy(self):
        return self._value.copy()

    def __array__(self, dtype=None, copy=None):
        return self._value.copy()

    def assign(self, value, read_value=True):
        import numpy as np
        new = np.array(_np_value(value), dtype=np.float64)
        if new.shape != self._value.shape:
            raise ValueError(f"Variable.assign: shape {new.shape} != {self._value.shape}")
        self._value = new
        return self.read_value() if read_value else None

    def assign_add(self, delta, read_value=True):
        return self.assign(self._value + _np_value(delta), read_value)

    def assign_sub(self, delta, read_value=True):
        return self.assign(self._value - _np_value(delta), read_value)

    def __add__(self, o):
        return self.read_value() + o

    def __radd__(self, o):
        return o + self.read_value()

    def __sub__(self, o):
        return self.read_value() - o

    def __rsub__(self, o):
        return o - self.read_value()

    def __mul__(self, o):
        return self.read_value() * o

    def __rmul__(self, o):
        return o * self.read_value()

    def __neg__(self):
        return -self.read_value()


class _NativeSGD:
    """Keras 3's SGD: m = momentum * m - lr * g; var += m (nesterov:
    var += momentum * m - lr * g); without momentum var -= lr * g."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False):
        self.lr, self.momentum, self.nesterov = learning_rate, momentum, nesterov
        self.slots = {}

    def apply_gradients(self, pairs):
        for grad, var in pairs:
            g = _np_value(grad)
            if not self.momentum:
                var.assign_sub(g * self.lr)
                continue
            m = self.slots.setdefault(id(var), _NativeVariable(var._value * 0.0))
            m.assign(m._value * self.momentum - g * self.lr)
            var.assign_add(m._value * self.momentum - g * self.lr if self.nesterov
                           else m._value)


class _NativeTF:
    """The names the --variables programs use from `tf`, on numpy values."""

    tapes = []
    float64 = "float64"
    Variable = _NativeVariable
    GradientTape = _NativeTape

    class keras:
        class optimizers:
            SGD = _NativeSGD

    @staticmethod
    def function(fn):
        return fn

    @staticmethod
    def constant(value, dtype=None):
        import numpy as np
        return np.array(value, dtype=np.float64)

    @staticmethod
    def identity(x):
        return _np_value(x).copy()

    @staticmethod
    def range(n):
        return range(int(n))

    @staticmethod
    def cast(x, dtype):
        import numpy as np
        return np.float64(x)

    @staticmethod
    def reshape(x, shape):
        import numpy as np
        value = np.reshape(_np_value(x), [int(d) for d in shape])
        if isinstance(x, _NativeVariable) and _NativeTF.tapes:
            x = x.read_value()
        if isinstance(x, _Traced) and _NativeTF.tapes:
            return _Traced(value, [(x, lambda g: np.reshape(g, np.shape(x.value)))])
        return value

    @staticmethod
    def matmul(a, b):
        import numpy as np
        if not _NativeTF.tapes:
            return np.matmul(_np_value(a), _np_value(b))
        a, b = [x.read_value() if isinstance(x, _NativeVariable) else x for x in (a, b)]
        av, bv = _np_value(a), _np_value(b)
        parents = [(t, vjp) for t, vjp in ((a, lambda g: g @ bv.T), (b, lambda g: av.T @ g))
                   if isinstance(t, _Traced)]
        return _Traced(av @ bv, parents) if parents else av @ bv

    @staticmethod
    def floor(x):
        import numpy as np
        return np.floor(_np_value(x))

    @staticmethod
    def clip_by_value(x, lo, hi):
        import numpy as np
        return np.clip(_np_value(x), lo, hi)

    @staticmethod
    def reduce_sum(x):
        import numpy as np
        if isinstance(x, _Traced) and _NativeTF.tapes:
            return _Traced(np.sum(x.value), [(x, lambda g: g * np.ones_like(x.value))])
        return np.sum(_np_value(x))
