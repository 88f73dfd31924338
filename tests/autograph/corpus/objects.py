"""Objects and classes: attributes set in branches (some in one branch
only), classes defined inside the converted function, methods, properties,
dunder methods, and objects passed in as arguments and mutated."""

import collections
import dataclasses

from tests.autograph.corpus.registry import Box, case


@case((3,), (0,))
def local_class_counter(n):
    class Counter:
        def __init__(self):
            self.n = 0

        def inc(self, by=1):
            self.n += by
    c = Counter()
    for i in range(n):
        if i == 1:
            c.inc(10)
        else:
            c.inc()
    return c.n


@case((1,), (-1,))
def attr_one_branch(x):
    o = Box(x)
    if x > 0:
        o.flag = "pos"
    for i in range(2):
        o.v += i
    return getattr(o, "flag", "none"), vars(o)


@case((2,), (-2,), (0,))
def hasattr_after_branch(x):
    class Rec:
        pass
    r = Rec()
    if x > 0:
        r.a = x
    elif x < -1:
        r.b = x
    i = 0
    while i < 2:
        if hasattr(r, "a"):
            r.a += 1
        i += 1
    return r


@case((Box(3),), (Box(-1),))
def mutate_box_arg(b):
    while b.v < 5:
        if b.v < 0:
            b.v = 0
            b.reset = True
            continue
        b.v += 2
    return b.v


@case((3,), (0,))
def local_class_classattr(n):
    class Node:
        count = 0

        def __init__(self, v):
            self.v = v
            Node.count += 1
    nodes = []
    for i in range(n):
        if i % 2:
            continue
        nodes.append(Node(i))
    return Node.count, [x.v for x in nodes]


@case((2,), (0,))
def local_dataclass(n):
    @dataclasses.dataclass
    class P:
        x: int
        y: int = 0
    pts = []
    for i in range(n + 1):
        if i == 0:
            pts.append(P(i))
        else:
            pts.append(P(i, i * i))
    return [(p.x, p.y) for p in pts], pts[0] == P(0)


@case((1,), (-1,))
def local_subclass_super(x):
    class Base:
        def describe(self):
            return "base"

    class Child(Base):
        def describe(self):
            return "child+" + super().describe()
    obj = Child() if x > 0 else Base()
    out = []
    for _ in range(2):
        out.append(obj.describe())
    return out


@case((2,), (0,))
def print_local_objects(n):
    class Item:
        def __init__(self, k):
            self.k = k

        def __repr__(self):
            return f"Item({self.k})"
    items = []
    while len(items) < n:
        items.append(Item(len(items)))
    if not items:
        print("empty")
    else:
        print(items)
    return len(items)


@case(([1, 2, 1],), ([],))
def local_class_in_set(xs):
    class K:
        def __init__(self, v):
            self.v = v

        def __eq__(self, other):
            return self.v == other.v

        def __hash__(self):
            return hash(self.v)
    s = set()
    for v in xs:
        if K(v) in s:
            print("dup", v)
            continue
        s.add(K(v))
    return len(s)


@case((4,), (-4,))
def local_property(x):
    class Temp:
        def __init__(self, c):
            self._c = c

        @property
        def f(self):
            return self._c * 9 // 5 + 32
    t = Temp(x)
    if t.f > 32:
        label = "warm"
    else:
        label = "cold"
    for step in range(3):
        t._c += step
    return label, t.f


@case((3,), (0,))
def local_iterable(n):
    class Countdown:
        def __init__(self, start):
            self.start = start

        def __iter__(self):
            k = self.start
            while k > 0:
                yield k
                k -= 1
    seen = []
    for v in Countdown(n):
        if v == 1:
            break
        seen.append(v)
    else:
        seen.append("exhausted")
    return seen


@case((["a", "b"],), ([],))
def dynamic_attrs(names):
    class Bag:
        pass
    bag = Bag()
    for i, name in enumerate(names):
        if i == 0:
            setattr(bag, name, i)
        else:
            setattr(bag, name, getattr(bag, names[0]) + i)
    return sorted(vars(bag).items())


@case((1,), (-1,))
def missing_attribute_raises(x):
    o = Box(x)
    if x > 0:
        o.extra = 1
    total = 0
    for _ in range(2):
        total += o.extra
    return total


@case((4,), (0,))
def stack_class(n):
    class Stack:
        def __init__(self):
            self.items = []

        def push(self, v):
            self.items.append(v)

        def pop(self):
            return self.items.pop()
    s = Stack()
    for i in range(n):
        s.push(i)
    out = []
    while s.items:
        v = s.pop()
        if v == 1:
            continue
        out.append(v)
    return out


@case((2,), (0,))
def slots_class(n):
    class P:
        __slots__ = ("a",)
    p = P()
    if n > 0:
        p.a = n
    for i in range(n):
        p.a += i
    try:
        p.b = 1
    except AttributeError:
        print("no b")
    return p.a if n > 0 else None


@case((3,), (1,))
def local_classmethod(n):
    class Shape:
        @classmethod
        def make(cls, k):
            obj = cls()
            obj.k = k
            return obj

        @staticmethod
        def name(k):
            return "tri" if k == 3 else "other"
    shapes = []
    for k in range(1, n + 1):
        shapes.append(Shape.make(k))
    return [Shape.name(s.k) for s in shapes]


@case((2,), (1,))
def object_aliasing(n):
    a = Box(0)
    b = a
    for i in range(n):
        if i == 0:
            b.v += 1
        else:
            b = Box(10)
    return a.v, b.v, a is b


@case((3,), (0,))
def callable_object(n):
    class Adder:
        def __init__(self, k):
            self.k = k

        def __call__(self, v):
            return v + self.k
    add = Adder(n)
    total = 0
    for i in range(3):
        if add(i) % 2 == 0:
            total += add(i)
    return total


@case((1,), (0,))
def conditional_class_body(flag):
    class Config:
        if flag:
            mode = "fast"
        else:
            mode = "slow"
        levels = [i * 2 for i in range(3)]
    out = []
    for lvl in Config.levels:
        if lvl == 2:
            continue
        out.append(f"{Config.mode}{lvl}")
    return out


@case((3,), (0,))
def shared_class_list(n):
    class Reg:
        items = []

        def __init__(self, v):
            self.items.append(v)
    for i in range(n):
        if i != 1:
            Reg(i)
    r = Reg(-1)
    return r.items, len(Reg.items)


@case((5,), (0,))
def local_sequence(n):
    class Squares:
        def __len__(self):
            return n

        def __getitem__(self, i):
            if i >= n:
                raise IndexError(i)
            return i * i
    total = 0
    for v in Squares():
        if v > 9:
            break
        total += v
    return total, len(Squares())


@case(({"a": 1, "b": 2},), ({},))
def object_from_dict(d):
    class Obj:
        pass
    o = Obj()
    for k, v in d.items():
        if v > 1:
            setattr(o, k, v * 10)
        else:
            o.__dict__[k] = v
    return o


@case((5,), (-5,))
def local_exception_class(x):
    class Negative(ValueError):
        pass

    def check(v):
        if v < 0:
            raise Negative(v)
        return v
    try:
        for i in range(3):
            check(x - i)
    except Negative as e:
        return "neg", e.args[0]
    return "ok"


@case(([3, 1, 2],), ([],))
def sort_local_objects(xs):
    class V:
        def __init__(self, v):
            self.v = v

        def __lt__(self, other):
            return self.v > other.v
    objs = [V(x) for x in xs]
    objs.sort()
    out = []
    for o in objs:
        out.append(o.v)
    else:
        if not out:
            out.append(None)
    return out


@case(([1, 5, 3], 4), ([1, 2], 4))
def finder_class(xs, limit):
    class Finder:
        def __init__(self, data):
            self.data = data

        def first_over(self, k):
            for i, v in enumerate(self.data):
                if v > k:
                    return i
            return None
    f = Finder(xs)
    idx = f.first_over(limit)
    if idx is None:
        xs.append(limit)
    else:
        xs[idx] = limit
    return idx


@case(([Box(1), Box(-2), Box(3)],), ([],))
def clamp_boxes(boxes):
    changed = 0
    for b in boxes:
        if b.v >= 0:
            continue
        b.v = 0
        changed += 1
    if changed:
        boxes.append(Box(changed))
    return changed


@case((2,), (0,))
def mutable_default_in_method(n):
    class Acc:
        def __init__(self, items=[]):
            self.items = items
    a = Acc()
    b = Acc()
    for i in range(n):
        a.items.append(i)
    if b.items:
        return "shared", b.items
    return "separate"


@case((["dog", "cat", "cow"],), ([],))
def polymorphic_speak(kinds):
    class Animal:
        sound = "..."

        def speak(self):
            return self.sound

    class Dog(Animal):
        sound = "woof"

    class Cat(Animal):
        sound = "meow"
    out = []
    for k in kinds:
        if k == "dog":
            a = Dog()
        elif k == "cat":
            a = Cat()
        else:
            a = Animal()
        out.append(a.speak())
    return out


@case(([1, "a", 2.5, None, [1], True],),)
def type_dispatch(values):
    out = []
    for v in values:
        if isinstance(v, bool):
            out.append("bool")
        elif isinstance(v, int):
            out.append(v + 1)
        elif isinstance(v, str):
            out.append(v.upper())
        elif v is None:
            continue
        else:
            out.append(type(v).__name__)
    return out


@case((4,), (0,))
def linked_list(n):
    class Node:
        def __init__(self, v, nxt=None):
            self.v = v
            self.nxt = nxt
    head = None
    for i in range(n):
        head = Node(i, head)
    out = []
    node = head
    while node is not None:
        if node.v == 1:
            node = node.nxt
            continue
        out.append(node.v)
        node = node.nxt
    return out


@case((3,), (0,))
def vector_add(n):
    class Vec:
        def __init__(self, x, y):
            self.x, self.y = x, y

        def __add__(self, o):
            return Vec(self.x + o.x, self.y + o.y)
    acc = Vec(0, 0)
    for i in range(n):
        if i % 2:
            acc = acc + Vec(i, 0)
        else:
            acc += Vec(0, i)
    return acc.x, acc.y


@case((3,), (0,))
def truthy_object(n):
    class Budget:
        def __init__(self, left):
            self.left = left

        def __bool__(self):
            return self.left > 0
    b = Budget(n)
    spent = 0
    while b:
        b.left -= 1
        spent += 1
    if not b:
        print("spent", spent)
    return spent


@case((["x", "y", "x"],), ([],))
def objects_in_dict(keys):
    class Tally:
        def __init__(self):
            self.n = 0
    tallies = {}
    for k in keys:
        if k not in tallies:
            tallies[k] = Tally()
        tallies[k].n += 1
    return {k: t.n for k, t in tallies.items()}


@case((3,), (0,))
def namedtuple_points(n):
    Point = collections.namedtuple("Point", "x y")
    pts = []
    for i in range(n):
        p = Point(i, -i)
        if i == 1:
            p = p._replace(y=100)
        pts.append(p)
    return [tuple(p) for p in pts]


@case((2,), (0,))
def class_decorator(n):
    registry = []

    def register(cls):
        registry.append(cls.__name__)
        return cls

    @register
    class A:
        pass
    if n > 0:
        @register
        class B:
            pass
    for i in range(n):
        registry.append(i)
    return registry
