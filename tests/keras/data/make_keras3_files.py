"""Writes the Keras 3 files in this folder with TensorFlow 2.21's Keras (run it
with $BENCH_TF_PYTHON, from this folder). The `.keras` zips were then
recompressed with deflate (their members unchanged), to keep them small.
tests/keras/test_keras3_files.py holds what Keras printed."""

import numpy as np
import keras

L = keras.layers


def functional():
    keras.utils.set_random_seed(7)
    i = keras.Input((6, 6, 1), name="image")
    h = L.Conv2D(2, 3, activation="relu", name="conv")(i)
    h = L.BatchNormalization(name="bn")(h)
    h = L.Flatten(name="flat")(h)
    a = L.Dense(3, name="a")(h)
    b = L.Dense(3, activation="tanh", name="b")(h)
    m = keras.Model(i, L.Add(name="sum")([a, b]), name="net")
    m.compile(optimizer="adam", loss="mse")
    x = np.random.RandomState(0).rand(8, 6, 6, 1).astype("float32")
    m.fit(x, np.ones((8, 3), "float32"), epochs=2, verbose=0)
    m.save("keras3_functional.keras")
    print("functional", np.round(m.predict(x[:2], verbose=0), 6).tolist())


class Sub(keras.Model):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.zeta = L.Dense(2)
        self.alpha = L.Dense(2)
        self.blocks = [L.Dense(2), L.BatchNormalization()]

    def call(self, x):
        return self.blocks[1](self.blocks[0](self.alpha(self.zeta(x))))


def subclassed():
    s = Sub()
    xs = np.random.RandomState(1).rand(4, 3).astype("float32")
    s.compile(optimizer="sgd", loss="mse")
    s.fit(xs, xs[:, :2], epochs=2, verbose=0)
    s.save_weights("keras3_subclassed.weights.h5")
    print("subclassed", np.round(s.predict(xs, verbose=0), 6).tolist())


def every_layer():
    keras.utils.set_random_seed(3)
    i = keras.Input((8, 8, 2), name="img")
    t = keras.Input((5,), name="ids", dtype="int32")
    h = L.Conv2D(3, 3, padding="same", activation="relu", kernel_regularizer="l2")(i)
    h = L.Flatten()(L.BatchNormalization()(L.MaxPooling2D(2)(h)))
    h = L.Dense(6, activation="tanh", bias_regularizer=keras.regularizers.l1(0.1))(h)
    h = L.Dropout(0.2)(h)
    e = L.LayerNormalization()(L.Reshape((20,))(L.Embedding(10, 4)(t)))
    e = L.Dense(6)(e)
    m = L.Concatenate()([L.Add()([h, e]), L.Multiply()([h, e]), L.Subtract()([h, e]),
                         L.Average()([h, e]), L.Maximum()([h, e]), L.Minimum()([h, e])])
    m = L.Activation("sigmoid")(L.ReLU(max_value=2.0)(m))
    model = keras.Model([i, t], L.Softmax()(L.Dense(3)(m)))
    model.compile(optimizer=keras.optimizers.RMSprop(0.01), loss="categorical_crossentropy",
                  metrics=["accuracy"])
    x = [np.random.RandomState(0).rand(4, 8, 8, 2).astype("float32"),
         np.random.RandomState(1).randint(0, 10, (4, 5)).astype("int32")]
    y = np.eye(3)[[0, 1, 2, 0]]
    model.fit(x, y, epochs=2, verbose=0)
    model.save("keras3_every_layer.keras")
    print("every_layer", model.predict(x, verbose=0).tolist(),
          float(model.evaluate(x, y, verbose=0)[0]))


def attention():
    keras.utils.set_random_seed(5)
    q = keras.Input((4, 6), name="q")
    v = keras.Input((3, 5), name="v")
    h = L.MultiHeadAttention(2, 3, name="mha")(q, v)
    g = L.MultiHeadAttention(2, 2, value_dim=3, output_shape=(2, 4), use_gate=True,
                             sliding_window=2, name="gated")(h, h, use_causal_mask=True)
    g = L.Reshape((4, 8))(g)
    g = L.GroupQueryAttention(2, 4, 2, name="gqa")(g, g)
    model = keras.Model([q, v], L.Dense(2, name="head")(L.Flatten()(g)))
    model.compile(optimizer="adam", loss="mse")
    x = [np.random.RandomState(0).rand(3, 4, 6).astype("float32"),
         np.random.RandomState(1).rand(3, 3, 5).astype("float32")]
    model.fit(x, np.ones((3, 2), "float32"), epochs=2, verbose=0)
    model.save("keras3_attention.keras")
    print("attention", np.round(model.predict(x, verbose=0), 6).tolist())


def recurrent_inputs():
    seq = np.random.RandomState(0).rand(2, 5, 3).astype("float32")
    frames = np.random.RandomState(1).rand(2, 2, 6, 6, 3).astype("float32")
    return [seq, frames]


def recurrent():
    keras.utils.set_random_seed(9)
    seq, frames = keras.Input((5, 3), name="seq"), keras.Input((2, 6, 6, 3), name="frames")
    h = L.Bidirectional(L.LSTM(4, return_sequences=True), name="bi")(seq)
    h = L.SimpleRNN(2, name="rnn")(L.TimeDistributed(L.Dense(2), name="td")(h))
    g = L.ConvLSTM2D(2, 3, kernel_regularizer="l2", name="clstm")(frames)
    out = L.Dense(2, name="out")(L.Concatenate()([h, L.Flatten()(g)]))
    model = keras.Model([seq, frames], out)
    model.compile(optimizer="adam", loss="mse")
    model.fit(recurrent_inputs(), np.ones((2, 2), "float32"), epochs=2, verbose=0)
    model.save("keras3_recurrent.keras")
    print("recurrent", np.round(model.predict(recurrent_inputs(), verbose=0), 6).tolist())


TEXTS = ["the cat sat", "a dog ran far", "the dog", "cat and dog"]


def preprocessing():
    text = keras.Input((), dtype="string", name="text")
    word = keras.Input((), dtype="string", name="word")
    number = keras.Input((), dtype="int64", name="number")
    vectorize = L.TextVectorization(max_tokens=10, output_sequence_length=4)
    vectorize.adapt(TEXTS)
    words = L.StringLookup(output_mode="one_hot")
    words.adapt(["b", "a", "b", "c"])
    numbers = L.IntegerLookup(max_tokens=6, output_mode="multi_hot", pad_to_max_tokens=True)
    numbers.adapt([3, 5, 5, 9])
    model = keras.Model([text, word, number], [vectorize(text), words(word),
                                               numbers(keras.ops.expand_dims(number, -1))])
    model.save("keras3_preprocessing.keras")
    out = model([keras.ops.convert_to_tensor(TEXTS), keras.ops.convert_to_tensor(
        ["a", "z", "b", "c"]), keras.ops.convert_to_tensor([5, 3, 7, 9])])
    print("preprocessing", [np.asarray(o).tolist() for o in out])
    print("configs", words.get_config(), numbers.get_config())


def adafactor_data():
    return (np.random.RandomState(0).rand(16, 4).astype("float32"),
            np.random.RandomState(1).rand(16, 2).astype("float32"))


def adafactor():
    keras.utils.set_random_seed(3)
    x, y = adafactor_data()
    model = keras.Sequential([keras.Input((4,)), L.Dense(3, activation="tanh"), L.Dense(2)])
    model.compile(optimizer=keras.optimizers.Adafactor(0.01), loss="mse")
    model.fit(x, y, epochs=2, batch_size=8, verbose=0, shuffle=False)
    model.save("keras3_adafactor.keras")
    history = model.fit(x, y, epochs=2, batch_size=8, verbose=0, shuffle=False)
    print("adafactor", history.history["loss"])


if __name__ == "__main__":
    functional()
    subclassed()
    every_layer()
    attention()
    recurrent()
    preprocessing()
    adafactor()
