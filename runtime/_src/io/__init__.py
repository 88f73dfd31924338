"""`tf.io` and the TFRecord format: protocol buffer messages (tf.train.Example),
TFRecord files, gfile, and the parsing and decoding ops."""
