"""`tf.io`: files and tensor serialization (defined in runtime/_src/ops/io_ops.py),
PNG and BMP images (runtime/_src/ops/image_codecs.py).

    tf.io.write_file("out.txt", "hello")
    tf.io.read_file("out.txt")                       # b'hello'
    tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32)   # x again
"""

from runtime._src.ops.image_codecs import (decode_bmp, decode_image, decode_png, encode_png,
                                           is_jpeg)
from runtime._src.ops.io_ops import (parse_tensor, read_file, serialize_tensor,
                                     write_file)

__all__ = ["read_file", "write_file", "serialize_tensor", "parse_tensor", "decode_bmp",
           "decode_image", "decode_png", "encode_png", "is_jpeg"]
