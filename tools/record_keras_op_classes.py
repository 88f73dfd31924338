"""Record Keras 3.15's op classes (keras.src.ops.*: `ExpandDims`, `Mean`, ...),
which a functional model's config names for each `keras.ops` call: per class
its module, the `keras.ops` function it implements, the arguments its
constructor takes (saved in the config) and those its call takes (the node's
arguments).

    $BENCH_TF_PYTHON tools/record_keras_op_classes.py
    # writes runtime/_src/keras/saving/keras_op_classes.py
"""

import importlib
import inspect
import pathlib

OUT = (pathlib.Path(__file__).resolve().parent.parent / "runtime" / "_src" / "keras" / "saving"
       / "keras_op_classes.py")
MODULES = ("numpy", "nn", "math", "core", "image", "linalg")
_SKIP = ("self", "name", "args", "kwargs")


def record():
    import keras
    from keras.src.ops.operation import Operation
    found = {}
    for short in MODULES:
        module = importlib.import_module(f"keras.src.ops.{short}")
        public = getattr(keras.ops, short, keras.ops)   # math and core: keras.ops itself
        functions = {f.replace("_", ""): f for f in dir(public) if not f.startswith("_")}
        for name, cls in sorted(vars(module).items()):
            if not (isinstance(cls, type) and issubclass(cls, Operation)
                    and cls.__module__ == module.__name__ and cls is not Operation):
                continue
            function = functions.get(name.lower())
            if function is None:
                continue
            init = tuple(p for p in inspect.signature(cls.__init__).parameters
                         if p not in _SKIP)
            call = tuple(p for p in inspect.signature(cls.call).parameters if p not in _SKIP)
            found[name] = (short, function, init, call)
    return found


def write(found):
    lines = ['"""Keras 3.15\'s op classes (recorded by tools/record_keras_op_classes.py):',
             "class name -> (keras.src.ops module, keras.ops function, the",
             "constructor's arguments, the call's arguments). A functional model's",
             'config names a `keras.ops` call by its class."""', "", "OPS = {"]
    for name, entry in sorted(found.items()):
        lines.append(f"    {name!r}: {entry!r},")
    lines += ["}", ""]
    OUT.write_text("\n".join(lines))


if __name__ == "__main__":
    table = record()
    write(table)
    print(len(table), "op classes written to", OUT)
