"""`graph.as_graph_def()`: TensorFlow's GraphDef, structured, printed as
protobuf text format. Expected op names, attrs and text come from
TensorFlow 2.21 (`tf.function(...).get_concrete_function(...).graph.as_graph_def()`)."""

import textwrap

import numpy as np
import pytest

import runtime as tf


def _graph(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs).graph


def _add_one(x):
    return x + 1


def test_nodes_are_structured_like_tensorflow():
    gd = _graph(_add_one, tf.TensorSpec([], tf.int32)).as_graph_def()
    assert [(n.op, list(n.input)) for n in gd.node] == [
        ("Placeholder", []), ("Const", []), ("AddV2", ["x", "Const"])]
    assert len(gd.node) == 3 and gd.node[0].name == "x" and gd.node[0].device == ""
    assert gd.node[0].attr["dtype"].type == 3           # DT_INT32
    assert gd.node[0].attr["dtype"].WhichOneof("value") == "type"
    assert gd.node[1].attr["value"].tensor.int_val == [1]
    assert gd.node[2].attr["T"].type == 3
    assert not gd.library.function


def test_text_is_protobuf_text_format_as_tensorflow_prints_it():
    text = str(_graph(_add_one, tf.TensorSpec([], tf.int32)).as_graph_def())
    # TensorFlow 2.21 prints these blocks the same way (its Placeholder also
    # has a `_user_specified_name` attr; attrs print here sorted by key).
    assert text.startswith(textwrap.dedent("""\
        node {
          name: "x"
          op: "Placeholder"
          attr {
            key: "dtype"
            value {
              type: DT_INT32
            }
          }
          attr {
            key: "shape"
            value {
              shape {
              }
            }
          }
        }
        """))
    assert (
        '  attr {\n    key: "value"\n    value {\n      tensor {\n        dtype: DT_INT32\n'
        '        tensor_shape {\n        }\n        int_val: 1\n      }\n    }\n  }\n') in text
    assert text.endswith("versions {\n  producer: 1\n}\n")


def _cond_and_loop(x):
    y = tf.cond(x > 0.0, lambda: x * 2.0, lambda: x - 1.0)
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0),
                         [tf.constant(0), y])[1]


def test_cond_and_while_bodies_are_library_functions():
    gd = _graph(_cond_and_loop, tf.TensorSpec([], tf.float32)).as_graph_def()
    ops = {n.op: n for n in gd.node}
    # TensorFlow 2.21: StatelessIf (then_branch/else_branch, Tcond/Tin/Tout) and
    # StatelessWhile (cond/body, T a list of the loop-variable types)
    assert "StatelessIf" in ops and "StatelessWhile" in ops
    if_node, while_node = ops["StatelessIf"], ops["StatelessWhile"]
    assert if_node.attr["Tcond"].type == 10 and list(if_node.attr["Tout"].list.type) == [1]
    assert list(while_node.attr["T"].list.type) == [3, 1]
    names = [f.signature.name for f in gd.library.function]
    assert sorted(names) == sorted([if_node.attr["then_branch"].func.name,
                                    if_node.attr["else_branch"].func.name,
                                    while_node.attr["cond"].func.name,
                                    while_node.attr["body"].func.name])
    body = next(f for f in gd.library.function
                if f.signature.name == while_node.attr["body"].func.name)
    assert [a.type for a in body.signature.input_arg] == [3, 1]
    assert len(body.signature.output_arg) == 2
    # inside a function, a node's output is named "node:output:index"
    assert all(":output:" in v or v in {a.name for a in body.signature.input_arg}
               for v in body.ret.values())
    assert "library {\n  function {\n    signature {\n" in str(gd)


def test_a_cond_with_a_side_effect_is_if_and_a_variable_is_a_resource():
    v = tf.Variable(1.0, name="counter")

    def f(x):
        tf.cond(x > 0.0, lambda: v.assign_add(1.0), lambda: v.assign_add(2.0))
        return v.read_value()

    gd = _graph(f, tf.TensorSpec([], tf.float32)).as_graph_def()
    ops = [n.op for n in gd.node]
    assert "If" in ops and "StatelessIf" not in ops
    read = next(n for n in gd.node if n.op == "ReadVariableOp")
    resource = next(n for n in gd.node if n.name == read.input[0])
    assert resource.op == "Placeholder" and resource.attr["dtype"].type == 20  # DT_RESOURCE


def test_add_shapes_and_large_constants():
    def f(x):
        return x * np.arange(4, dtype=np.float32)

    gd = _graph(f, tf.TensorSpec([None, 4], tf.float32)).as_graph_def(add_shapes=True)
    mul = gd.node[-1]
    shape = mul.attr["_output_shapes"].list.shape[0]
    assert [d.size for d in shape.dim] == [-1, 4]
    const = next(n for n in gd.node if n.op == "Const")
    assert const.attr["value"].tensor.tensor_content == np.arange(4, dtype="<f4").tobytes()


def test_to_proto_builds_tensorflows_graphdef():
    pytest.importorskip("tensorboard",
                        reason="tensorboard is not installed (pip install -e '.[tensorboard]')")
    from google.protobuf import text_format
    gd = _graph(_cond_and_loop, tf.TensorSpec([], tf.float32)).as_graph_def(add_shapes=True)
    proto = gd.to_proto()
    assert type(proto).__name__ == "GraphDef"
    assert [n.name for n in proto.node] == [n.name for n in gd.node]
    assert len(proto.library.function) == 4
    # the same message, printed by protobuf itself (which writes floats as "2.0")
    assert text_format.MessageToString(proto).replace(".0\n", "\n") == \
        str(gd).replace(".0\n", "\n")


def test_type_attrs_of_cast_and_variable_ops_as_tensorflow():
    v = tf.Variable([1.0, 2.0])

    def f(i):
        v.assign_add(tf.cast(i, tf.float32) * tf.ones([2]))
        return v.read_value()

    gd = _graph(f, tf.TensorSpec([], tf.int32)).as_graph_def()
    nodes = {n.op: n for n in gd.node}
    # TensorFlow 2.21: Cast has SrcT, DstT, Truncate; variable ops have dtype
    assert sorted(nodes["Cast"].attr) == ["DstT", "SrcT", "Truncate"]
    assert (nodes["Cast"].attr["SrcT"].type, nodes["Cast"].attr["DstT"].type) == (3, 1)
    assert sorted(nodes["AssignAddVariableOp"].attr) == ["dtype"]
    assert nodes["ReadVariableOp"].attr["dtype"].type == 1
