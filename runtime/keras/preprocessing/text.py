"""`tf.keras.preprocessing.text`: Keras 2's Tokenizer, hashing_trick, one_hot,
text_to_word_sequence and tokenizer_from_json (runtime/_src/keras/legacy/preprocessing/text.py)."""

from runtime._src.keras.legacy.preprocessing.text import (Tokenizer, hashing_trick, one_hot,
                                                           text_to_word_sequence,
                                                           tokenizer_from_json)

__all__ = ["Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence",
           "tokenizer_from_json"]
