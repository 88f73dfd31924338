"""`tf.keras.preprocessing.text` (Keras 3.15's legacy Keras 2 text tools).

    text_to_word_sequence(text, filters=FILTERS, lower=True, split=" ")
        lower-cased, every filter character turned into `split`, split on it,
        empty pieces dropped
    hashing_trick(text, n, hash_function=None, ...)
        each word's hash % (n - 1) + 1; hash_function None is Python's `hash`
        (salted per process for str), "md5" the md5 digest as an integer
    one_hot(text, n, ...)
        hashing_trick with Python's `hash`
    Tokenizer(num_words=None, filters=FILTERS, lower=True, split=" ",
              char_level=False, oov_token=None, analyzer=None)
        word_index: 1 for the most frequent word (oov_token first when given;
        ties in first-seen order); texts_to_sequences keeps indices below
        num_words; texts_to_matrix modes binary, count, freq, tfidf
    tokenizer_from_json(json_string)
"""

import collections
import hashlib
import json
import warnings

import numpy as np

__all__ = ["Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence",
           "tokenizer_from_json"]

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=FILTERS, lower=True, split=" "):
    """The words of `input_text`: filters become separators, no empty words."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans(dict.fromkeys(filters, split)))
    return [word for word in input_text.split(split) if word]


def _md5(word):
    return int(hashlib.md5(word.encode()).hexdigest(), 16)


def hashing_trick(text, n, hash_function=None, filters=FILTERS, lower=True, split=" ",
                  analyzer=None):
    """Each word of `text` hashed into [1, n - 1]."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = _md5
    words = analyzer(text) if analyzer is not None else \
        text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    return [hash_function(word) % (n - 1) + 1 for word in words]


def one_hot(input_text, n, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """`hashing_trick` with Python's `hash`."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower,
                         split=split, analyzer=analyzer)


def _tfidf(count, doc_count, docs_with):
    return (1 + np.log(count)) * np.log(1 + doc_count / (1 + docs_with))


class Tokenizer:
    """`tf.keras.preprocessing.text.Tokenizer`: a word (or character) index
    fitted on texts, and texts turned into index sequences or matrices."""

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ",
                 char_level=False, oov_token=None, analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed "
                          "`num_words`.")
            num_words = kwargs.pop("nb_words")
        self.document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.num_words, self.filters, self.lower, self.split = num_words, filters, lower, split
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.index_docs = collections.defaultdict(int)
        self.word_index, self.index_word = {}, {}

    def _tokens(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                return [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, self.filters, self.lower, self.split)

    def fit_on_texts(self, texts):
        """Count the words of `texts` and rebuild word_index by frequency."""
        for text in texts:
            self.document_count += 1
            tokens = self._tokens(text)
            for token in tokens:
                self.word_counts[token] = self.word_counts.get(token, 0) + 1
            for token in set(tokens):
                self.word_docs[token] += 1
        ranked = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + \
            [word for word, _ in ranked]
        self.word_index = {word: i for i, word in enumerate(vocabulary, start=1)}
        self.index_word = {i: word for word, i in self.word_index.items()}
        for word, count in list(self.word_docs.items()):
            self.index_docs[self.word_index[word]] = count

    def fit_on_sequences(self, sequences):
        """Count, per index, the sequences it occurs in (for tfidf)."""
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def _kept(self, i):
        """i as texts_to_sequences keeps it: itself, the oov index, or None."""
        oov = self.word_index.get(self.oov_token)
        if i is None or (self.num_words and i >= self.num_words):
            return oov if self.oov_token is not None else None
        return i

    def texts_to_sequences_generator(self, texts):
        """One list of word indices per text."""
        for text in texts:
            kept = (self._kept(self.word_index.get(t)) for t in self._tokens(text))
            yield [i for i in kept if i is not None]

    def texts_to_sequences(self, texts):
        return list(self.texts_to_sequences_generator(texts))

    def sequences_to_texts_generator(self, sequences):
        """One space-joined text per sequence of indices."""
        for seq in sequences:
            words = []
            for num in seq:
                i = self._kept(num if num in self.index_word else None)
                if i is not None:
                    words.append(self.index_word[i])
            yield " ".join(words)

    def sequences_to_texts(self, sequences):
        return list(self.sequences_to_texts_generator(sequences))

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def _width(self):
        if self.num_words:
            return self.num_words
        if self.word_index:
            return len(self.word_index) + 1
        raise ValueError("Specify a dimension (`num_words` argument), or fit on some text "
                         "data first.")

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A (len(sequences), num_words) float64 matrix: per row, each index's
        count, frequency, presence or tf-idf weight."""
        width = self._width()
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        out = np.zeros((len(sequences), width))
        for row, seq in enumerate(sequences):
            counts = collections.Counter(j for j in seq if j < width)
            for j, c in counts.items():
                out[row, j] = self._weight(mode, c, len(seq), j)
        return out

    def _weight(self, mode, count, length, j):
        if mode == "count":
            return count
        if mode == "freq":
            return count / length
        if mode == "binary":
            return 1
        if mode == "tfidf":
            return _tfidf(count, self.document_count, self.index_docs.get(j, 0))
        raise ValueError("Unknown vectorization mode:", mode)

    def get_config(self):
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower,
                "split": self.split, "char_level": self.char_level,
                "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts),
                "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs),
                "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """The config as JSON: {"class_name": "Tokenizer", "config": ...}."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


def tokenizer_from_json(json_string):
    """The Tokenizer a `Tokenizer.to_json()` string describes."""
    config = dict(json.loads(json_string).get("config"))
    tables = {key: json.loads(config.pop(key)) for key in
              ("word_counts", "word_docs", "index_docs", "index_word", "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts, tokenizer.word_docs = tables["word_counts"], tables["word_docs"]
    tokenizer.index_docs = {int(k): v for k, v in tables["index_docs"].items()}
    tokenizer.index_word = {int(k): v for k, v in tables["index_word"].items()}
    tokenizer.word_index = tables["word_index"]
    return tokenizer
