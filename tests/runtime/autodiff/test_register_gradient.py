"""`tf.RegisterGradient` and `tf.no_gradient` as TF 2.21 runs them (recorded):
a gradient for an op type that has none (Unique, in TF too), eagerly and in
tf.function; no_gradient; TF's KeyError for a second registration and
TypeError for a name that is not a string. Each test restores the registry."""

import pytest

import runtime as tf
from runtime._src.autodiff import register_gradient
from runtime._src.graph.op_registry import OPS


@pytest.fixture
def restore():
    saved = {name: (OPS[name].grad, OPS[name].grad_takes_none) for name in ("Unique", "AdjustHue")}
    others = dict(register_gradient._OTHERS)
    yield
    for name, (grad, takes_none) in saved.items():
        OPS[name].grad, OPS[name].grad_takes_none = grad, takes_none
    register_gradient._OTHERS.clear()
    register_gradient._OTHERS.update(others)


def _unique_loss(x):
    return tf.reduce_sum(tf.unique(x).y * [1., 2., 3.])


def _gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = _unique_loss(x)
    return tape.gradient(loss, x)


def test_register_gradient_for_unique(restore):
    x = tf.constant([3., 1., 3., 2.])
    with pytest.raises(LookupError, match="Unique"):    # TF 2.21: LookupError too
        _gradient(x)

    @tf.RegisterGradient("Unique")
    def _unique_grad(op, grad_y, grad_idx):
        assert op.type == "Unique"
        return tf.gather(grad_y, op.outputs[1])

    assert _gradient(x).numpy().tolist() == [1.0, 2.0, 1.0, 3.0]             # TF 2.21
    assert tf.function(_gradient)(x).numpy().tolist() == [1.0, 2.0, 1.0, 3.0]
    with pytest.raises(KeyError, match="Registering two gradient with name 'Unique'"):
        tf.RegisterGradient("Unique")(_unique_grad)


def test_no_gradient_and_errors(restore):
    x = tf.constant([[[0.2, 0.5, 0.9]]])
    tf.no_gradient("AdjustHue")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.adjust_hue(x, 0.1)
    assert tape.gradient(tf.reduce_sum(y), x) is None                         # TF 2.21: None
    for name in ("AddV2", "MatMul", "AdjustHue"):                             # TF: KeyError
        with pytest.raises(KeyError, match=f"Registering two gradient with name '{name}'"):
            tf.no_gradient(name)
    assert tf.no_gradient("MyNewOp") is None          # any name, as TF; once
    with pytest.raises(KeyError, match="'MyNewOp'"):
        tf.RegisterGradient("MyNewOp")(lambda op, grad: grad)
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.no_gradient(3)
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.RegisterGradient(3)
