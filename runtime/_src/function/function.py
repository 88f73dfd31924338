"""`function`: trace a Python function into graphs, one per call signature.

    @function
    def f(x, y):
        print("Tracing!")            # runs only while tracing
        return x * 2 + y

    f(constant(1), constant(2))      # traces (prints), then runs the graph
    f(constant(3), constant(4))      # same dtypes and shapes: runs the graph only
    f(constant(1.0), constant(2.0))  # new dtypes: traces a second graph

A `Function` keeps a cache of `ConcreteFunction`s (a traced `Graph` plus how
to feed it and how to rebuild the Python result). Cache keys come from
`runtime._src.function.signature`: tensors (and numpy arrays) by dtype and shape, Python
scalars/strings/None by value (`f(x, 2)` and `f(x, 2.0)` share a trace, but
`True` and `1` do not, so a traced bool never comes back as an int32),
Variables and other objects by identity (held weakly), containers by
structure; keyword, positional and default-filled calls share a key.

Tracing makes a placeholder per tensor leaf of the arguments (named after
the parameter), calls the (autograph-converted) Python function with the
graph as default, and turns the result into graph outputs: tensors stay,
Python `int`/`float`/`bool`/`str` become int32/float32/bool/string tensors,
`None` stays `None`, lists/tuples/dicts keep their structure.

Options:
* `input_signature`: one graph for the given `TensorSpec`s; Python values
  convert to the spec dtype; a mismatch raises `InputSignatureMismatchError`
  (both a `TypeError` and a `ValueError`) naming the argument.
* `reduce_retracing` (alias `experimental_relax_shapes`): a call whose
  tensor shapes differ from an earlier trace traces once more with the
  differing dimensions relaxed to `None`, and that graph serves later shapes.
* `experimental_explain_retracing()` says which argument made the last trace
  happen and how it changed; tracing 5 times warns (`RetracingWarning`) with
  the same text and the fix.

Under an eager `GradientTape` a call takes the same trace and runs it as one
op the tape records (runtime/_src/autodiff/function_call.py): the Python
body does not run again, and the gradient is a graph built from the trace.

Two hooks are the only places other parts plug in: `_autograph_convert`
(the transpiler) and `_finalize_graph` (the optimizer).
"""

from __future__ import annotations

import functools
import threading
import warnings
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from autograph.integration import filtered as _filtered

from runtime._src.core import context as _context
from runtime._src.function import call_signature as _calls
from runtime._src.function.binder import make_binder
from runtime._src.function.call_arguments import CallArguments
from runtime._src.function import config as _config
from runtime._src.function import trace_errors as _errors
from runtime._src.function import function_type as _function_type
from runtime._src.function import types as _types
from runtime._src.function import signature as _sig
from runtime._src.function import variables as _variables
from runtime._src.function.concrete_function import (ConcreteFunction, _OutputPlan,
                                                     traced_graph_def)
from runtime._src.graph.graph import Graph, current_graph
from runtime._src.core.tensor import TensorSpec
from runtime._src import optimizer
import autograph
from autograph.integration import optional_features as _optional_features

__all__ = ["function", "Function", "ConcreteFunction", "RetracingWarning",
           "InputSignatureMismatchError"]

InputSignatureMismatchError = _sig.InputSignatureMismatchError
_new_object = object.__new__
RETRACING_WARNING_THRESHOLD = 5   # traces of one Function before it warns (once)
_MAX_MEMO = 4096                  # exact-key memo entries kept before a reset
_EXPLAIN_WINDOW = 64              # recent traces a retrace explanation compares with


class RetracingWarning(UserWarning):
    """A Function traced many graphs; the message says why and how to avoid it."""


# --- the two hooks ------------------------------------------------------------

def _autograph_convert(python_function, options=None):
    """The Python function to trace when `autograph=True`.

    This is the single place where tracing meets the transpiler:
    `autograph.convert(fn)` returns the converted function (Python `if`,
    `while`, `for` on tensors become cond / while_loop; library functions come
    back unchanged). Conversion of the function the user decorated is strict:
    a construct it cannot convert raises `autograph.ConversionError` naming it,
    the file and the line. `options` (`experimental_autograph_options`) are
    passed on: a dict (e.g. `{"recursive": False}`) or
    `tf.autograph.experimental.Feature`s (accepted; see `autograph.experimental.Feature`).
    """
    return autograph.convert(python_function, options)


def _finalize_graph(graph):
    """Called once on each newly traced graph before its first run.

    Returns the graph to execute: `graph` itself, optimized in place by
    `runtime._src.optimizer.optimize` with the options from
    `config.optimizer.set_experimental_options` (what it did is kept as
    `graph.optimization_report`). Passes may replace entries of
    `graph.outputs`; results are mapped back by position.
    """
    optimizer.optimize(graph, _config.optimizer.get_experimental_options())
    return graph


# --- the decorator ------------------------------------------------------------

def function(func: Callable | None = None, *,
             input_signature: Sequence[TensorSpec] | None = None, autograph: bool = True,
             reduce_retracing: bool = False, experimental_relax_shapes: bool | None = None,
             jit_compile: bool | None = None, experimental_autograph_options: Any = None,
             name: str | None = None) -> Function | Callable[[Callable], Function]:
    """Make `func` run as traced graphs (`tf.function`).

    Usable as `@function`, `@function(...)` and `function(f)`. `jit_compile=True`
    compiles each traced graph with XLA through JAX (the `[jax]` extra;
    runtime/_src/jit), Variables passed in and written back; a graph XLA
    cannot take runs on the executor after a `JitCompileWarning` naming the
    ops. `experimental_autograph_options`:
    a `tf.autograph.experimental.Feature`, a tuple or list of them, or a dict
    of options for `autograph.convert` (`{"recursive": False}`).
    """
    if not isinstance(experimental_autograph_options, dict):
        _optional_features(experimental_autograph_options,
                           "function: experimental_autograph_options")
    if experimental_relax_shapes is not None:
        reduce_retracing = reduce_retracing or bool(experimental_relax_shapes)

    def decorate(f):
        if not callable(f):
            raise TypeError(f"function: expected a callable to trace, got "
                            f"{type(f).__name__} {f!r}")
        return Function(f, input_signature=input_signature, autograph=autograph,
                        reduce_retracing=reduce_retracing, jit_compile=jit_compile,
                        autograph_options=experimental_autograph_options, name=name)

    return decorate if func is None else decorate(func)


class Function(_types.PolymorphicFunction):
    """A polymorphic traced function: one `ConcreteFunction` per signature
    (`tf.types.experimental.PolymorphicFunction`)."""

    def __init__(self, python_function, input_signature=None, autograph=True,
                 reduce_retracing=False, jit_compile=None, autograph_options=None,
                 name=None, _instance=None, _parent=None):
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", type(python_function).__name__)
        self._autograph = autograph
        self._autograph_options = autograph_options
        self._reduce_retracing = reduce_retracing
        self._jit_compile = jit_compile
        self._parent = _parent
        self._instance_ref = _instance
        self._call_sig = _calls.CallSignature(python_function, drop_first=_instance is not None)
        self._fast_arity = self._call_sig.fast_arity
        self._binder = make_binder(self._bind_slowly)   # the other calls: a plan per shape
        self._direct = set()         # input_signature: call keys that need no check
        self._input_signature = None
        self._signature_template = None
        # A function whose first parameter is `self`/`cls` is taken to be a
        # method: its input_signature describes the parameters after it.
        self._method_like = _instance is None and _calls.first_param_is_self(self._call_sig)
        if input_signature is not None:
            described = (_calls.CallSignature(python_function, drop_first=True)
                         if self._method_like else self._call_sig)
            self._input_signature = _calls.check_input_signature(
                input_signature, described, self._name)
            self._signature_template = _calls.signature_template(
                self._input_signature, described)
        self._lock = threading.RLock()
        self._cache = {}             # exact call key -> ConcreteFunction
        self._concretes = []         # every trace, in order
        self._by_skeleton = {}       # skeleton -> its traces, in order (O(1) lookup)
        self._has_dead = False
        self._on_dead = self._mark_dead
        self._converted = None
        self._explanation = f"{self._name} has not been traced yet."
        self._warned = False
        self._bound = {}             # id(instance) -> its _Binding
        functools.update_wrapper(self, python_function, updated=())

    # --- calling ----------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            if _config._run_eagerly:
                return self._call_python(args, kwargs)
            return self._call_graph(args, kwargs)
        except RecursionError as e:
            if current_graph() is not None:      # the outermost call explains it
                raise
            raise _errors.recursion_error(self._name, _filtered(e)) from e
        except Exception as e:  # noqa: BLE001 - re-raised, traceback filtered
            raise _filtered(e)

    def _call_graph(self, args, kwargs):
        if current_graph() is not None:          # called while tracing: inline it
            return self._traceable()(*args, **kwargs)
        if self._input_signature is not None:
            return self._call_with_signature(args, kwargs)
        given = args, kwargs
        if kwargs or len(args) != self._fast_arity:
            args = self._binder(args, kwargs)
        feeds = []
        key = _sig.call_key(args, feeds, self._on_dead)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._concrete_for(CallArguments(args, key, feeds))
        if _context.state.tapes:     # eager GradientTapes record the call as one op
            return concrete._call_taped(feeds, args, lambda: self._call_python(*given, False))
        return concrete._call_flat(feeds)

    def _bind_slowly(self, args, kwargs):
        """Every parameter's value (`CallSignature.bind`); the binder runs this
        once per shape of the arguments and a plan after that."""
        return self._call_sig.bind(args, kwargs, self._name, self._function_type_now)

    def _function_type_now(self):
        return self.function_type

    def _call_python(self, args, kwargs, check=True):
        hook = _config.call_hook          # installed by the check layer, if on
        if check and hook is not None and not _config._eager_requested:
            return hook(self, args, kwargs)
        fn = self._python_function
        if self._instance_ref is not None:
            return fn(self._instance(), *args, **kwargs)
        return fn(*args, **kwargs)

    def _call_with_signature(self, args, kwargs):
        if self._method_like:         # Class.method(obj, ...): bind to obj first
            if not args:
                raise TypeError(f"{self._name}(): missing the instance argument "
                                f"'{self._call_sig.names[0]}'")
            return self.__get__(args[0])(*args[1:], **kwargs)
        feeds = self._signature_feeds(args, kwargs)
        concrete = self._signature_concrete(feeds)
        if _context.state.tapes:     # eager GradientTapes record the call as one op
            return concrete._call_taped(feeds, (args, kwargs),
                                        lambda: self._call_python(args, kwargs, False))
        return concrete._call_flat(feeds)

    def _signature_feeds(self, args, kwargs):
        """The feeds of a call checked against the input_signature (TensorFlow's
        binding TypeError when it does not fit); a call whose key passed the
        check before skips it (`signature.checked_feeds`)."""
        values = args
        if kwargs or len(args) != self._fast_arity:
            values = self._binder(args, kwargs)
        return _sig.checked_feeds(values, self._direct, self._check_signature, args, kwargs)

    def _check_signature(self, values, args, kwargs):
        feeds = []
        try:
            for template, value, name in zip(self._signature_template, values,
                                             self._call_sig.names):
                _sig.match_template(template, value, name, feeds, self._name)
        except InputSignatureMismatchError as e:
            raise _calls.mismatch_error(e, args, kwargs, self.function_type) from None
        return feeds

    def _signature_concrete(self, feeds=None):
        if self._concretes:
            return self._concretes[0]
        with self._lock:
            if not self._concretes:
                self._trace(self._signature_template, None, [], None, feeds)
            return self._concretes[0]

    # --- the public API ---------------------------------------------------

    @property
    def python_function(self) -> Callable:
        """The Python function this Function traces (bound, for a method)."""
        if self._instance_ref is not None:
            return self._python_function.__get__(self._instance())
        return self._python_function

    @property
    def input_signature(self) -> tuple[TensorSpec, ...] | None:
        return self._input_signature

    @property
    def function_type(self) -> _function_type.FunctionType:
        """The parameters this Function accepts (`tf.types.experimental.FunctionType`):
        `(x, y=<captured_default_value>)`, or with the input_signature's specs."""
        template = self._signature_template
        if template is not None and self._method_like:
            return _function_type.polymorphic_type(
                _calls.CallSignature(self._python_function, drop_first=True), template)
        return _function_type.polymorphic_type(self._call_sig, template)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (tensors or TensorSpecs),
        tracing it if needed."""
        try:
            return self._get_concrete_function(args, kwargs)
        except Exception as e:  # noqa: BLE001 - re-raised, traceback filtered
            raise _filtered(e)

    def _get_concrete_function(self, args, kwargs):
        if self._input_signature is not None:
            if args or kwargs:
                self._signature_feeds(args, kwargs)
            return self._signature_concrete()
        values = self._binder(args, kwargs)
        feeds = []
        key = _sig.call_key(values, feeds, self._on_dead)
        return self._cache.get(key) or self._concrete_for(CallArguments(values, key, feeds))

    def experimental_get_tracing_count(self) -> int:
        """How many graphs this Function has traced."""
        return len(self._concretes)

    def experimental_explain_retracing(self) -> str | None:
        """Why the last trace happened: which argument changed and how
        (old vs new dtype, shape or value), compared with the closest earlier
        trace."""
        return self._explanation

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """Every traced signature: input parameters, output type, captures."""
        return "\n\n".join(c.pretty_printed_signature(verbose) for c in self._concretes)

    def _list_all_concrete_functions(self):
        return list(self._concretes)

    def __get__(self, instance, owner=None):
        """Bind per instance, like a Python bound method.

        Each object gets its own traces (a per-instance Function the class's
        Function keeps only while the object lives). What `obj.method`
        returns is a `_BoundMethod` view of it that holds `obj` strongly, so
        `C().f(x)` works on a temporary object; the same view is returned
        while one is alive, so `obj.f is obj.f`.
        """
        if instance is None or self._instance_ref is not None:
            return self
        entry = self._bound.get(id(instance))
        if entry is None or entry.ref() is not instance:
            entry = self._binding(instance)
        method = entry.method()
        if method is None:       # a new view (in line: this runs on every call)
            method = _new_object(_BoundMethod)
            method.__dict__ = entry.traces.__dict__
            method._self = instance
            entry.method = weakref.ref(method)
        return method

    def _binding(self, instance):
        """The `_Binding` of `instance`, made on its first access."""
        with self._lock:
            entry = self._bound.get(id(instance))
            if entry is None or entry.ref() is not instance:
                ref = _weak_or_strong(instance, self._bound)
                traces = Function(self._python_function,
                                  input_signature=self._input_signature,
                                  autograph=self._autograph,
                                  reduce_retracing=self._reduce_retracing,
                                  jit_compile=self._jit_compile,
                                  autograph_options=self._autograph_options,
                                  name=self._name, _instance=ref, _parent=self)
                entry = _Binding(ref, traces)
                self._bound[id(instance)] = entry
            return entry

    def __repr__(self):
        return f"<runtime.Function {self._name} traced {len(self._concretes)} time(s)>"

    # --- tracing ----------------------------------------------------------

    def _instance(self):
        instance = self._instance_ref()
        if instance is None:
            raise ReferenceError(f"{self._name}: the object this method was bound to "
                                 "has been garbage collected")
        return instance

    def _traceable(self):
        """The (converted) Python function, bound to the instance for a method."""
        owner = self._parent or self
        if owner._converted is None:
            fn = owner._python_function
            owner._converted = (_autograph_convert(fn, owner._autograph_options)
                                if owner._autograph else fn)
        fn = owner._converted
        if self._instance_ref is not None:
            return functools.partial(fn, self._instance())
        return fn

    def _mark_dead(self, _ref):
        self._has_dead = True

    def _concrete_for(self, call):
        """Cache miss: reuse a compatible trace or trace a new graph, for the
        `CallArguments` of the call (its key, feeds, skeleton and shapes)."""
        with self._lock:
            concrete = self._cache.get(call.key)
            if concrete is not None:
                return concrete
            if self._has_dead:
                self._purge_dead()
            concrete = self._find_compatible(call.skeleton, call.shapes)
            if concrete is None:
                concrete = self._trace_call(call)
            if len(self._cache) >= _MAX_MEMO:
                self._cache = {}
            self._cache[call.key] = concrete
            return concrete

    def _trace_call(self, call):
        """Trace the graph for a call no earlier trace accepts: its template has
        the call's shapes, or (reduce_retracing) shapes relaxed against the
        latest trace of the same skeleton."""
        shapes = call.shapes
        exact = call.template(self._call_sig, shapes, self._on_dead)
        template = exact
        if self._reduce_retracing:
            shapes = self._relaxed_shapes(call.skeleton, shapes)
            if shapes != call.shapes:
                template = call.template(self._call_sig, shapes, self._on_dead)
        return self._trace(template, call.skeleton, shapes,
                           _sig.describe(exact, self._call_sig.names), call.feeds)

    def _find_compatible(self, skeleton, shapes):
        """The most specific earlier trace whose shapes accept these shapes."""
        best, best_score = None, -1
        for c in self._by_skeleton.get(skeleton, ()):
            if all(_sig.shape_accepts(g, s) for g, s in zip(c._leaf_shapes, shapes)):
                score = sum(len([d for d in g.dims if d is not None])
                            for g in c._leaf_shapes if g.dims is not None)
                if score >= best_score:
                    best, best_score = c, score
        return best

    def _relaxed_shapes(self, skeleton, shapes):
        """Shapes relaxed against the latest trace of the same dtypes/structure."""
        for c in reversed(self._by_skeleton.get(skeleton, ())):
            return [old.most_specific_compatible_shape(new)
                    for old, new in zip(c._leaf_shapes, shapes)]
        return shapes

    def _purge_dead(self):
        self._has_dead = False
        self._cache = {k: c for k, c in self._cache.items()
                       if not _sig.has_dead_reference(k)}
        self._concretes = [c for c in self._concretes
                           if c._skeleton is None or not _sig.has_dead_reference(c._skeleton)]
        self._by_skeleton = {}
        for c in self._concretes:
            self._by_skeleton.setdefault(c._skeleton, []).append(c)

    def _trace(self, template, skeleton, shapes, description, feeds=None):
        """Build, check and register the graph for one signature. Eager
        gradient tapes do not see the trace (a call under them records the
        graph's run), so a trace is the same with or without them."""
        state = _context.state
        tapes, state.tapes = state.tapes, None
        try:
            return self._trace_untaped(template, skeleton, shapes, description, feeds)
        finally:
            state.tapes = tapes

    def _trace_untaped(self, template, skeleton, shapes, description, feeds):
        graph, outputs = self._trace_graph(template)
        if graph.variables:
            graph, outputs = self._check_variable_creation(graph, template, feeds)
        traced = traced_graph_def(graph)
        run_graph = _finalize_graph(graph)
        concrete = ConcreteFunction(self._name, graph, run_graph, template,
                                    self._call_sig, outputs, skeleton, shapes)
        concrete._traced_graph_def = traced
        concrete._route_variable_arguments(run_graph)
        if self._jit_compile:
            concrete.use_compiler()
        concrete._description = description
        self._record_trace(concrete)
        self._concretes.append(concrete)
        self._by_skeleton.setdefault(skeleton, []).append(concrete)
        return concrete

    def _trace_graph(self, template):
        """Run the (converted) Python function on placeholders for `template`."""
        graph = Graph(self._name)
        fn = self._traceable()
        with graph.as_default():
            inputs = [_sig.map_template(t, lambda spec: graph.add_placeholder(
                spec.dtype, spec.shape, spec.name)) for t in template]
            args, kwargs = self._call_sig.split(inputs)
            try:
                result = fn(*args, **kwargs)
            except TypeError as e:
                if isinstance(self._python_function, np.ufunc):
                    raise _calls.ufunc_error(self._python_function, e) from None
                _errors.explain_unconverted(e)
                raise
            outputs = _OutputPlan(result, graph, self._name)
        graph.outputs = outputs.tensors
        return graph, outputs

    def _check_variable_creation(self, graph, template, feeds):
        """A trace created Variables. As in TensorFlow, that is allowed on the
        first trace only, and the first call traces once more to make sure the
        function does not create them on every call (it then raises
        TensorFlow's ValueError); the graph of that second trace is kept."""
        if not self._concretes:
            numeric = None if feeds is None else [
                None if isinstance(f, TensorSpec) else f for f in _sig.feed_variables(feeds)[0]]
            _variables.lift_initializers(graph, numeric, self._name)
            graph, outputs = self._trace_graph(template)
            if not graph.variables:
                return graph, outputs
            trace = "the second trace of the first call"
        else:
            trace = f"trace #{len(self._concretes) + 1}"
        raise _errors.variable_creation_error(self._name, trace, len(graph.variables))

    def _record_trace(self, concrete):
        """Explain this trace and warn (once) when there have been too many."""
        n = len(self._concretes) + 1
        new = concrete._description
        # Only recent traces: comparing with all of them made N retraces O(N^2).
        earlier = [c for c in self._concretes[-_EXPLAIN_WINDOW:]
                   if c._description is not None]
        if new is None or not earlier:
            self._explanation = (f"{self._name} was traced for the first time "
                                 "(no earlier trace to reuse).")
            return
        diffs = [_sig.explain_difference(c._description, new) for c in earlier]
        lines = min(reversed(diffs), key=len) or [
            "no argument differs from an earlier trace in a way that can be named"]
        self._explanation = (f"{self._name} retraced (trace #{n}) because, compared with "
                             "the closest earlier trace:\n  " + "\n  ".join(lines))
        if n >= RETRACING_WARNING_THRESHOLD and not self._warned:
            self._warned = True
            warnings.warn(RetracingWarning(self._retracing_advice(n, lines, concrete)),
                          stacklevel=_errors.user_stacklevel())

    def _retracing_advice(self, n, lines, concrete):
        specs = [f"TensorSpec(shape={[None] * s.shape.rank if s.shape.dims is not None else None}"
                 f", dtype={s.dtype!r})" for s in concrete._template if isinstance(s, TensorSpec)]
        example = f" (for example input_signature=[{', '.join(specs)}])" if specs else ""
        return (f"{self._name} has been traced {n} times; tracing is expensive. The last "
                "retrace happened because:\n  " + "\n  ".join(lines) +
                "\nTo trace fewer graphs: pass tensors instead of Python values that "
                f"change, give function() an input_signature{example}, or pass "
                "reduce_retracing=True to relax changing shapes to None.")


class _BoundMethod(Function):
    """`obj.method` for a Function defined in a class: the per-instance
    Function seen through a reference that keeps `obj` alive.

    It shares the per-instance Function's attribute dict (its traces,
    counters and options are the same objects), so traces survive when the
    view is dropped and the next `obj.method` makes a new view; the only
    thing of its own is `_self`, the strong reference. The per-instance
    Function itself refers to `obj` weakly, so the class's Function never
    keeps instances alive.
    """

    __slots__ = ("_self",)      # made by Function.__get__ (object.__new__, no __init__)


class _Binding:
    """The class's Function's record of one instance: a weakref to it, its
    per-instance Function, and a weakref to the live `_BoundMethod` view."""

    __slots__ = ("ref", "traces", "method")

    def __init__(self, ref, traces):
        self.ref = ref
        self.traces = traces
        self.method = _dead_reference


def _dead_reference():
    return None


def _weak_or_strong(instance, bound):
    """A callable returning `instance`: a weakref that drops `bound`'s entry
    when the instance dies, or (objects without weakref support) a strong one."""
    key = id(instance)

    def forget(ref):
        entry = bound.get(key)
        if entry is not None and entry.ref is ref:
            del bound[key]
    try:
        return weakref.ref(instance, forget)
    except TypeError:
        return lambda: instance
