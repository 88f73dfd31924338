"""`tf.variable_creator_scope` as TF 2.21 runs it (its recorded behaviour):
the innermost creator first, all 13 arguments by name with TF's defaults,
changed arguments passed on, a creator's own return value, and variables
made once inside a tf.function; subclasses of tf.Variable skip the creators."""

import pytest

import runtime as tf

NAMES = ['aggregation', 'caching_device', 'constraint', 'dtype',
         'experimental_enable_variable_lifting', 'import_scope', 'initial_value', 'name',
         'shape', 'synchronization', 'trainable', 'validate_shape', 'variable_def']


def test_creators_run_innermost_first_with_tfs_arguments():
    log = []

    def outer(next_creator, **kw):
        log.append(("outer", sorted(kw), kw["initial_value"], kw["name"], kw["trainable"]))
        return next_creator(**kw)

    def inner(next_creator, **kw):
        log.append(("inner",))
        kw["initial_value"], kw["trainable"] = 5.0, False
        return next_creator(**kw)

    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(inner):
            v = tf.Variable(1.0, name="a")
    # TF 2.21: [('inner',), ('outer', NAMES, 5.0, 'a', False)]; 5.0 False a:0
    assert log == [("inner",), ("outer", NAMES, 5.0, "a", False)]
    assert v.numpy() == 5.0 and v.trainable is False and v.name == "a:0"
    assert tf.Variable(2.0).trainable is True       # the scopes are gone


def test_creator_sees_tfs_defaults_and_positional_arguments():
    seen = []

    def creator(next_creator, **kw):
        seen.append(kw)
        return next_creator(**kw)

    with tf.variable_creator_scope(creator):
        tf.Variable(1.)
        tf.Variable(1., True, False, None, "n", None, tf.float64)
    first, second = seen
    assert first["synchronization"] is tf.VariableSynchronization.AUTO
    assert first["aggregation"] is tf.VariableAggregation.NONE
    assert first["experimental_enable_variable_lifting"] is None
    assert (first["trainable"], first["validate_shape"], first["name"]) == (None, True, None)
    assert (second["trainable"], second["validate_shape"], second["name"],
            second["dtype"]) == (True, False, "n", tf.float64)


def test_a_creator_may_return_anything_and_callables_pass_through():
    with tf.variable_creator_scope(lambda next_creator, **kw: "not a variable"):
        assert tf.Variable(1.) == "not a variable"                 # as TF 2.21
    values = []
    with tf.variable_creator_scope(lambda nc, **kw: values.append(kw["initial_value"]) or nc(**kw)):
        w = tf.Variable(lambda: tf.zeros([2]))
    assert callable(values[0]) and w.numpy().tolist() == [0.0, 0.0]


def test_creator_scope_inside_tf_function():
    log = []

    def creator(next_creator, **kw):
        log.append(kw["initial_value"])
        return next_creator(**kw)

    @tf.function
    def f():
        with tf.variable_creator_scope(creator):
            if not hasattr(f, "v"):
                f.v = tf.Variable(3.)
        return f.v.read_value()

    assert f().numpy() == 3.0 and f().numpy() == 3.0 and log == [3.0]   # TF 2.21: 3.0, [3.0]


def test_subclasses_skip_creators_and_bad_creator():
    class Mine(tf.Variable):
        pass

    calls = []
    with tf.variable_creator_scope(lambda nc, **kw: calls.append(1) or nc(**kw)):
        Mine(1.)
    assert calls == []          # TF 2.21: [] (its abstract subclass then refuses)
    with pytest.raises(TypeError, match="variable_creator must be callable"):
        with tf.variable_creator_scope(3):
            pass
