"""`tf.io`: files, TFRecord files, Example parsing and decoding (defined in
runtime/_src/io/ and runtime/_src/ops/io_ops.py), PNG and BMP images
(runtime/_src/ops/image_codecs.py).

    tf.io.write_file("out.txt", "hello")
    tf.io.read_file("out.txt")                       # b'hello'
    tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32)   # x again
    with tf.io.TFRecordWriter("data.tfrecord") as w:
        w.write(example.SerializeToString())
    tf.io.parse_single_example(record, {"x": tf.io.FixedLenFeature([2], tf.int64)})
"""

from runtime._src.io import gfile
from runtime._src.io.decode_ops import (decode_base64, decode_compressed, decode_csv,
                                        decode_raw, encode_base64, match_filenames_once,
                                        matching_files)
from runtime._src.io.json_example import decode_json_example
from runtime._src.io.parsing_config import (FixedLenFeature, FixedLenSequenceFeature,
                                            RaggedFeature, SparseFeature,
                                            VarLenFeature)
from runtime._src.io.parsing_ops import parse_example, parse_single_example
from runtime._src.io.parsing_sequence import (parse_sequence_example,
                                              parse_single_sequence_example)
from runtime._src.io.tfrecord import TFRecordOptions, TFRecordWriter
from runtime._src.io.write_graph import write_graph
from runtime._src.sparse.sparse_serialize import (deserialize_many_sparse, serialize_many_sparse,
                                                  serialize_sparse)
from runtime._src.ops.image_codecs import (decode_bmp, decode_image, decode_png, encode_png,
                                           is_jpeg)
from runtime._src.ops.image_gif import decode_gif
from runtime._src.ops.image_jpeg import (decode_and_crop_jpeg, decode_jpeg, encode_jpeg,
                                        extract_jpeg_shape)
from runtime._src.ops.io_ops import (parse_tensor, read_file, serialize_tensor,
                                     write_file)

__all__ = ["decode_gif", "decode_and_crop_jpeg", "decode_jpeg", "encode_jpeg", "extract_jpeg_shape",
           "serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse",
           "FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature", "VarLenFeature",
           "TFRecordOptions", "TFRecordWriter", "decode_base64", "decode_compressed",
           "decode_csv", "decode_json_example", "decode_raw", "encode_base64", "gfile",
           "match_filenames_once", "matching_files", "parse_example", "parse_sequence_example",
           "parse_single_example", "parse_single_sequence_example", "parse_tensor",
           "read_file", "serialize_tensor", "write_file", "write_graph", "decode_bmp",
           "decode_image", "decode_png", "encode_png", "is_jpeg"]
