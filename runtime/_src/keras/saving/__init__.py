"""`keras.saving`: the config protocol (`serialize_keras_object`), `.keras` files and weights files."""
