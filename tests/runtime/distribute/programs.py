"""The programs the tf.distribute tests run, written against `tf` (TF 2.21
itself in tools/record_distribute.py, which records their values; the
runtime in tests/runtime/distribute/replicas.py): each returns plain lists/floats.

    custom_loop(tf, strategy)    TF's custom training loop tutorial, small:
                                 losses per epoch, final weights, accuracy
"""

import os
import tempfile

import numpy as np

GLOBAL_BATCH = 16


def data():
    """64 examples of 4 features, 3 classes (fixed)."""
    rng = np.random.RandomState(7)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (x[:, 0] + 2 * x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1).astype(np.int64)
    return x, y


def initial_weights():
    rng = np.random.RandomState(3)
    return [rng.normal(scale=0.5, size=(4, 8)).astype(np.float32),
            np.full(8, 0.1, np.float32),
            rng.normal(scale=0.5, size=(8, 3)).astype(np.float32),
            np.zeros(3, np.float32)]


def _model(tf):
    k1, b1, k2, b2 = (w.tolist() for w in initial_weights())   # lists: a .keras config
    init = tf.keras.initializers.Constant
    return tf.keras.Sequential([
        tf.keras.layers.Input((4,)),
        tf.keras.layers.Dense(8, activation="relu", kernel_initializer=init(k1),
                              bias_initializer=init(b1),
                              kernel_regularizer=tf.keras.regularizers.L2(0.01)),
        tf.keras.layers.Dense(3, kernel_initializer=init(k2), bias_initializer=init(b2))])


def custom_loop(tf, strategy, epochs=2):
    """The tutorial's loop: per-example losses averaged over the global
    batch (compute_average_loss), the regularization scaled by the replicas,
    the step in a tf.function running strategy.run, losses reduced by SUM."""
    x, y = data()
    with strategy.scope():
        model = _model(tf)
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                    reduction=None)
        optimizer = tf.keras.optimizers.Adam(0.05)
        accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
        optimizer.build(model.trainable_variables)   # its slots: mirrored too

    def compute_loss(labels, predictions, model_losses):
        loss = tf.nn.compute_average_loss(loss_object(labels, predictions))
        if model_losses:
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        return loss

    def train_step(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            loss = compute_loss(labels, predictions, model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        accuracy.update_state(labels, predictions)
        return loss

    @tf.function
    def distributed_train_step(dataset_inputs):
        per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)
    losses = []
    for _ in range(epochs):
        total, batches = 0.0, 0
        for batch in dist_dataset:
            total += float(distributed_train_step(batch))
            batches += 1
        losses.append(total / batches)
    return {"losses": losses, "weights": [w.numpy().tolist() for w in model.weights],
            "accuracy": float(accuracy.result()), "iterations": int(optimizer.iterations.numpy())}


def replica_id_of(tf):
    """A function of the replica's id (float32), for replica functions."""
    def replica_id():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
    return replica_id


def _local(tf, strategy, value):
    return [np.asarray(v).tolist() for v in strategy.experimental_local_results(value)]


def checks(tf, strategy):
    """{name: value} of the strategy's small behaviours (plain lists)."""
    out = {"num_replicas": strategy.num_replicas_in_sync,
           "worker_devices": list(strategy.extended.worker_devices)}
    for batch in (10, 5, 8):
        dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(batch))
        out[f"split_{batch}"] = [_local(tf, strategy, x) for x in dist]

    replica_id = replica_id_of(tf)
    ids = strategy.run(lambda: replica_id() * tf.ones([2]))
    out["run_ids"] = _local(tf, strategy, ids)
    out["reduce_sum"] = strategy.reduce("SUM", ids, axis=None).numpy().tolist()
    out["reduce_mean"] = strategy.reduce(tf.distribute.ReduceOp.MEAN, ids, axis=None).numpy().tolist()
    out["reduce_sum_axis0"] = float(strategy.reduce("SUM", ids, axis=0))
    out["reduce_mean_axis0"] = float(strategy.reduce("MEAN", ids, axis=0))
    out["gather"] = strategy.gather(ids, axis=0).numpy().tolist()

    def collectives():
        ctx = tf.distribute.get_replica_context()
        v = (replica_id() + 1.0) * tf.constant([1.0, 2.0])
        return (ctx.all_reduce("SUM", v), ctx.all_reduce(tf.distribute.ReduceOp.MEAN, v),
                ctx.all_gather(v, axis=0), ctx.num_replicas_in_sync)
    s, m, g, count = strategy.run(tf.function(collectives))
    out["all_reduce_sum"] = _local(tf, strategy, s)
    out["all_reduce_mean"] = _local(tf, strategy, m)
    out["all_gather"] = _local(tf, strategy, g)[-1]
    out["ctx_num_replicas"] = _local(tf, strategy, count)
    out["replicated_arg"] = _local(tf, strategy, strategy.run(lambda a: a * 2.0,
                                                               args=(tf.constant(3.0),)))
    agg = tf.VariableAggregation
    with strategy.scope():
        out["in_scope"] = [tf.distribute.get_replica_context() is None,
                           tf.distribute.in_cross_replica_context(),
                           tf.distribute.has_strategy(),
                           tf.distribute.get_strategy() is strategy]
        variables = {"sum_add": tf.Variable(0.0, aggregation=agg.SUM),
                     "mean_assign": tf.Variable(0.0, aggregation=agg.MEAN),
                     "sum_assign": tf.Variable(5.0, aggregation=agg.SUM),
                     "first_assign": tf.Variable(5.0, aggregation=agg.ONLY_FIRST_REPLICA)}

        def updates():
            i = replica_id()
            variables["sum_add"].assign_add(i + 1.0)
            variables["mean_assign"].assign(i)
            variables["sum_assign"].assign(i)
            variables["first_assign"].assign(i + 7.0)
            return i
        strategy.run(updates)
        for name, v in variables.items():
            out[f"aggregation_{name}"] = float(v.numpy())
        out["average_loss"] = _local(tf, strategy, strategy.run(
            lambda: tf.nn.compute_average_loss([1.0, 2.0, 3.0])))
        out["average_loss_global"] = _local(tf, strategy, strategy.run(
            lambda: tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6)))
        out["regularization_loss"] = _local(tf, strategy, strategy.run(
            lambda: tf.nn.scale_regularization_loss(4.0)))
        try:
            tf.nn.compute_average_loss([1.0, 2.0])
            out["cross_replica_loss"] = "no error"
        except RuntimeError as e:
            out["cross_replica_loss"] = str(e)

    def dataset_fn(ctx):
        out["input_context"] = [ctx.num_input_pipelines, ctx.input_pipeline_id,
                                ctx.num_replicas_in_sync]
        return tf.data.Dataset.range(16).batch(ctx.get_per_replica_batch_size(8))
    dist = strategy.distribute_datasets_from_function(dataset_fn)
    out["from_function"] = [_local(tf, strategy, x) for x in dist]
    out["values_from_function"] = _local(tf, strategy, strategy.experimental_distribute_values_from_function(
        lambda c: tf.constant(c.replica_id_in_sync_group * 10)))

    out.update(variable_checks(tf, strategy, replica_id))
    out.update(keras_variable_checks(tf, strategy))
    if strategy.num_replicas_in_sync == 4:         # XLA compiles of Philox: once
        out.update(random_checks(tf, strategy))
    out.update(fallback_checks(tf, strategy, replica_id))

    @tf.function
    def step(x):
        per = strategy.run(lambda v: v * 2.0 + replica_id(), args=(x,))
        return strategy.reduce("SUM", per, axis=0)
    data = tf.data.Dataset.range(16).map(lambda v: tf.cast(v, tf.float32)).batch(16)
    out["in_function"] = [float(step(x)) for x in strategy.experimental_distribute_dataset(data)]

    @tf.function
    def epoch(dataset):          # the loop over the distributed dataset is staged
        total = tf.constant(0.0)
        for x in dataset:
            per = strategy.run(lambda v: tf.reduce_sum(v) * (replica_id() + 1.0), args=(x,))
            total += strategy.reduce("SUM", per, axis=None)
        return total
    batches = data.unbatch().batch(2 * strategy.num_replicas_in_sync)
    out["staged_loop"] = float(epoch(strategy.experimental_distribute_dataset(batches)))
    return out


def _error(fn):
    try:
        fn()
        return "no error"
    except (ValueError, RuntimeError, TypeError) as e:
        return f"{type(e).__name__}: {e}"


def variable_checks(tf, strategy, replica_id):
    """MirroredVariable / SyncOnReadVariable: their types, copies and reads."""
    agg, on_read = tf.VariableAggregation, tf.VariableSynchronization.ON_READ
    with strategy.scope():
        w = tf.Variable(1.0, name="w")
        m = tf.Variable(1.0, synchronization=on_read, aggregation=agg.SUM, name="m")
        pair = tf.Variable([1.0, 2.0], name="pair")
        out = {"variable_types": [type(w).__name__, type(m).__name__,
                                  isinstance(w, tf.Variable), isinstance(m, tf.Variable),
                                  w.synchronization.name, m.synchronization.name, m.trainable],
               "mirrored_repr": repr(w), "sync_on_read_repr": repr(m),
               "local_copies": [repr(c) for c in strategy.experimental_local_results(w)],
               "copy_names": [c.name for c in strategy.experimental_local_results(m)],
               "on_read_initial": float(m.numpy()),
               "mean_int_error": _error(lambda: tf.Variable(1, aggregation=agg.MEAN))}

    def updates():
        i = replica_id()
        m.assign_add(i + 1.0)
        pair.assign(tf.stack([i, i * 2.0]))
        return m.read_value()
    reads = strategy.run(updates)
    out["on_read_replica_reads"] = _local(tf, strategy, reads)
    out["on_read_sum"] = float(m.numpy())
    out["on_read_copies"] = _local(tf, strategy, m)
    out["none_copies"] = _local(tf, strategy, pair)
    out["none_read"] = pair.numpy().tolist()
    out["on_read_add_error"] = _error(lambda: m.assign_add(1.0))
    m.assign(8.0)
    out["on_read_assigned"] = [float(m.numpy())] + _local(tf, strategy, m)
    w.assign(3.0)
    out["mirrored_assigned"] = _local(tf, strategy, w)
    out["variables_in_function"] = float(tf.function(lambda: w * 2.0 + m)())
    plain = tf.Variable(0.0)
    strategy.run(lambda: plain.assign_add(replica_id() + 1.0))
    out["outside_scope_add"] = float(plain.numpy())
    path = tf.train.Checkpoint(w=w, m=m).write(os.path.join(tempfile.mkdtemp(), "ckpt"))
    w2, m2 = tf.Variable(0.0), tf.Variable(0.0)
    tf.train.Checkpoint(w=w2, m=m2).read(path)
    out["restored_plain"] = [float(w2.numpy()), float(m2.numpy())]
    return out


def keras_variable_checks(tf, strategy):
    """Keras variables made under the scope: `.value` is a MirroredVariable
    (a tf.Variable per replica), the optimizer's too; a step keeps the copies
    equal."""
    with strategy.scope():
        dense = tf.keras.layers.Dense(2, kernel_initializer="ones", name="mirrored_dense")
        dense.build((None, 3))
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9, name="mirrored_sgd")
        opt.build(dense.trainable_variables)
    value = dense.kernel.value
    out = {"keras_value": [type(value).__name__, isinstance(value, tf.Variable), value.name,
                           value.synchronization.name, value.aggregation.name,
                           dense.kernel.aggregation, opt.iterations.aggregation],
           "keras_value_repr": repr(dense.bias.value),
           "keras_local": [[c.name, c.device] for c in strategy.experimental_local_results(value)],
           "keras_local_of_variable": len(strategy.experimental_local_results(dense.kernel)),
           "keras_optimizer_values": [[v.path, type(v.value).__name__, v.value.aggregation.name]
                                      for v in opt.variables]}

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(dense(x) ** 2)
        grads = tape.gradient(loss, dense.trainable_variables)
        opt.apply_gradients(zip(grads, dense.trainable_variables))
        return loss
    x = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 0.25]])
    for _ in range(2):
        strategy.run(step, args=(x,))
    out["keras_after_steps"] = [_local(tf, strategy, dense.kernel.value),
                                _local(tf, strategy, dense.bias.value),
                                _local(tf, strategy, opt.variables[2].value),
                                int(opt.iterations.numpy())]
    strategy.experimental_local_results(dense.bias.value)[-1].assign([5.0, 6.0])
    out["keras_copy_written"] = [_local(tf, strategy, dense.bias.value), dense.bias.numpy().tolist()]
    dense.bias.value.assign([1.0, 2.0])
    out["keras_view_assigned"] = [_local(tf, strategy, dense.bias.value),
                                  dense.bias.numpy().tolist()]
    with strategy.scope():
        layer = tf.keras.layers.Layer(name="mean_layer")
        mean = layer.add_weight(shape=(), initializer="zeros", trainable=False,
                                aggregation="mean", name="mean")
    replica_id = replica_id_of(tf)
    strategy.run(tf.function(lambda: mean.assign(replica_id() + 1.0)))
    out["keras_add_weight_mean"] = [mean.aggregation, mean.value.aggregation.name,
                                    float(mean.numpy())]
    return out


def random_checks(tf, strategy):
    """tf.random.Generator under the strategy: a stream per replica (one
    replica function of two draws, run twice: one XLA program)."""
    outside = tf.random.Generator.from_seed(2)     # replicas take turns on its state
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)
        out = {"generator_state_type": type(g.state).__name__}
        out["generator_cross_replica"] = g.normal([2]).numpy().tolist()

    def draws():
        return (g.normal([2]), g.uniform([3], minval=0, maxval=100, dtype=tf.int64),
                outside.normal([2]))
    for run in ("first", "second"):
        normal, ints, turns = strategy.run(draws)
        out[f"generator_{run}"] = [_local(tf, strategy, normal), _local(tf, strategy, ints),
                                   _local(tf, strategy, turns)]
    out["generator_state"] = g.state.numpy().tolist() + outside.state.numpy().tolist()
    out["generator_after_scope"] = g.uniform([2]).numpy().tolist()
    return out


def fallback_checks(tf, strategy, replica_id):
    """Steps XLA cannot run as one program: a string op or py_function in
    the replica function, a global batch the replicas do not share evenly."""
    def strings(x):
        ctx = tf.distribute.get_replica_context()
        text = tf.strings.as_string(x * 10.0 + replica_id(), precision=1)
        total = ctx.all_reduce("SUM", tf.cast(tf.strings.length(text), tf.float32))
        doubled = tf.py_function(lambda v: v * 2.0, [x + replica_id()], tf.float32)
        return text, total, doubled
    x = tf.constant([1.5, 2.0])
    text, total, doubled = strategy.run(strings, args=(x,))
    out = {"strings_text": [[t.decode() for t in v.numpy()] for v in
                            strategy.experimental_local_results(text)],
           "strings_total": _local(tf, strategy, total),
           "py_function": _local(tf, strategy, doubled)}
    with strategy.scope():
        w = tf.Variable([[0.5], [-0.25]], name="w")
        step_count = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)

    def uneven(batch):
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as tape:
            per_example = tf.reduce_sum(tf.matmul(batch, w), axis=1) ** 2
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=10)
        grad = ctx.all_reduce("SUM", tape.gradient(loss, w))
        w.assign_sub(0.1 * grad)
        step_count.assign_add(tf.cast(tf.shape(batch)[0], tf.float32))
        return loss, tf.shape(batch)[0], ctx.all_reduce("SUM", tf.reduce_sum(batch))

    data = tf.data.Dataset.range(20).map(lambda v: tf.cast(v, tf.float32) / 10.0)
    data = data.batch(2).batch(7)
    out["uneven"] = []
    for batch in strategy.experimental_distribute_dataset(data):
        loss, rows, total = strategy.run(uneven, args=(batch,))
        out["uneven"].append([_local(tf, strategy, loss), _local(tf, strategy, rows),
                              _local(tf, strategy, total)])
    out["uneven_weights"] = w.numpy().tolist()

    @tf.function
    def epoch(dataset):          # the row counts are known when the graph runs
        total = tf.constant(0.0)
        for x in dataset:
            per = strategy.run(lambda v: tf.reduce_sum(v) * (replica_id() + 1.0)
                               + tf.cast(tf.shape(v)[0], tf.float32) * 100.0, args=(x,))
            total += strategy.reduce("SUM", per, axis=None)
        return total
    rows = tf.data.Dataset.range(10).map(lambda v: tf.cast(v, tf.float32))
    out["uneven_in_function"] = float(epoch(strategy.experimental_distribute_dataset(
        rows.batch(2 * strategy.num_replicas_in_sync + 1))))
    out["uneven_rows"] = float(step_count.numpy())
    return out


def keras_fit(tf, strategy, path):
    """compile/fit/evaluate/predict under strategy.scope(), then the weights
    saved (.keras and .weights.h5) for a model under the default strategy."""
    x, y = data()
    with strategy.scope():
        model = _model(tf)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    history = model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=2, shuffle=False, verbose=0)
    evaluated = model.evaluate(x, y, batch_size=GLOBAL_BATCH, verbose=0)
    predicted = model.predict(x[:20], batch_size=8, verbose=0)
    model.save(path + ".keras")
    model.save_weights(path + ".weights.h5")
    return {"history": {k: [float(v) for v in vs] for k, vs in history.history.items()},
            "evaluate": [float(v) for v in evaluated],
            "predict": np.asarray(predicted).tolist(),
            "weights": [w.numpy().tolist() for w in model.weights]}


def restored(tf, path):
    """The predictions of the saved model, loaded outside any strategy."""
    x, _ = data()
    model = tf.keras.models.load_model(path + ".keras")
    fresh = _model(tf)
    fresh.load_weights(path + ".weights.h5")
    return {"loaded_predict": np.asarray(model.predict(x[:8], verbose=0)).tolist(),
            "weights_predict": np.asarray(fresh.predict(x[:8], verbose=0)).tolist()}
