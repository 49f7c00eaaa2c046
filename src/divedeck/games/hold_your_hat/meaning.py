"""Word meaning for Hold your Hat's word bots: word vectors that ship inside a package (see docs/bots.md).

The vectors are WordLlama's (the ``wordllama`` package, MIT: 256-dimension token embeddings distilled from a large
language model's, about 16 MB inside the wheel), read from the installed package with downloads disabled: nothing is
fetched at run time. A text's vector is the normalized mean of its tokens' vectors, after the words that tell a
guesser nothing ("the", "is", "you", ...) are dropped. Without the package (``pip install "divedeck[words]"``)
``load_vectors`` returns ``None`` and the bots play from the association data alone.

Token vectors carry spelling as well as meaning: "kitten" and "kite" share the token "▁k". So a word's vector is
*spread* over its meaning: the mean of its own vector and of the vectors of the clue-vocabulary words closest to it
that share none of its tokens (``SPREAD``), which keeps "cat" near "kitten" and moves "kite" away. The clue
vocabulary (``clue_vocabulary``) is every word of the shipped deck and of its association data (about 3,500 everyday
words, written for divedeck): the words a bot clue-giver may type, and the neighbours a meaning is spread over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from . import judging

# Words that tell a guesser nothing: dropped from a text before its meaning is read.
STOP_WORDS = frozenset(judging.SMALL_WORDS | {
    "is", "it", "its", "that", "you", "your", "who", "which", "where", "what", "when", "are", "be", "has", "have",
    "very", "one", "some", "like", "all", "can", "so", "their", "them", "they", "this", "there", "do", "lots",
    "something", "someone", "thing", "things", "much", "many", "every", "about", "after", "before", "not", "no",
    "but", "if", "than", "then", "was", "were", "been", "being", "would", "could", "should", "will", "just", "really",
    "get", "gets", "got", "make", "makes", "made", "put", "use", "used", "uses", "kind", "sort", "type", "also",
    "these", "those", "our", "we", "he", "she", "his", "her", "him", "my", "me", "i", "im", "dont", "cant", "isnt",
    "doesnt", "other", "another", "same", "more", "most", "too", "does", "did", "go", "goes", "going", "thats"})
SPREAD = 8  # vocabulary neighbours a word's meaning is spread over (none that share a token with it)
SPREAD_SELF = 0.5  # the word's own vector's share of its spread meaning
MIN_CLUE_LETTERS = 3


def _normalized(matrix: Any) -> Any:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.maximum(norms, 1e-9)


def telling_words(text: str) -> list[str]:
    """The words of ``text`` that carry its meaning (normalized, stop words dropped; all of them if none is left)."""
    found = judging.words(text)
    kept = [w for w in found if w not in STOP_WORDS]
    return kept or found


class WordVectors:
    """Text vectors from a WordLlama model: ``embed`` (normalized rows, cached by text), ``tokens`` (the tokenizer's
    pieces, to tell words that only look alike), and ``spread`` (a meaning without its spelling: see above)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self._cache: dict[str, Any] = {}
        self._tokens: dict[str, frozenset[str]] = {}

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        keys = [" ".join(telling_words(text)) or text for text in texts]
        missing = sorted({key for key in keys if key not in self._cache})
        if missing:
            for key, row in zip(missing, _normalized(self.model.embed(missing)), strict=True):
                self._cache[key] = row
        return np.array([self._cache[key] for key in keys], dtype=np.float32).reshape(len(keys), -1)

    def tokens(self, text: str) -> frozenset[str]:
        key = " ".join(judging.words(text))
        if key not in self._tokens:
            pieces = self.model.tokenizer.encode(key, add_special_tokens=False).tokens
            # A word's first piece counts even when it is one letter ("▁p" of "pony" and "pear"): alone it is
            # spelling, nothing else.
            self._tokens[key] = frozenset(piece for piece in pieces if len(piece.lstrip("▁")) > 1 or
                                          piece.startswith("▁") and piece != "▁")
        return self._tokens[key]

    def look_alike(self, first: str, second: str) -> bool:
        """The two texts share a token (a word's first piece, or any of two letters or more): their vectors are
        near by spelling, not meaning."""
        return bool(self.tokens(first) & self.tokens(second))

    def pieces(self, text: str) -> list[str]:
        """The pieces of ``text`` that are words of their own but not of the text ("bad" of "badge", "rain" of
        "rainbow"): their meaning is in the text's vector without being the text's."""
        own = set(judging.words(text))
        found = {piece.lstrip("▁") for piece in self.tokens(text)}
        return sorted(p for p in found if len(p) >= 3 and p.isalpha() and p not in own)

    def spread(self, texts: Sequence[str]) -> Any:
        """Each text's meaning spread over its nearest clue-vocabulary words that do not look like it."""
        import numpy as np

        own = self.embed(texts)
        vocabulary = clue_vocabulary(self)
        near = own @ vocabulary.matrix.T
        rows = []
        for index, text in enumerate(texts):
            picked: list[int] = []
            for candidate in np.argsort(-near[index])[:SPREAD * 6]:
                if len(picked) == SPREAD:
                    break
                word = vocabulary.words[candidate]
                if not self.look_alike(word, text) and word not in telling_words(text):
                    picked.append(int(candidate))
            neighbours = vocabulary.matrix[picked].mean(axis=0) if picked else own[index]
            rows.append(SPREAD_SELF * own[index] + (1 - SPREAD_SELF) * neighbours)
        return _normalized(np.array(rows, dtype=np.float32).reshape(len(texts), -1))


@dataclass(frozen=True)
class ClueVocabulary:
    words: tuple[str, ...]
    matrix: Any  # one normalized row per word


def _shipped_words() -> list[str]:
    from .associations import load_associations
    from .words import load_words

    found: set[str] = set()
    for card in load_words(None).cards:
        for entry in card.entries:
            found.update(judging.words(entry.text))
    for association in load_associations(None).entries.values():
        for part in (association.describe, *association.clues):
            found.update(judging.words(part))
    return sorted(found)


def _one_per_stem(words: Iterable[str]) -> list[str]:
    """One word per stem, the shortest ("cat" rather than "cats"), so that a clue list says new things."""
    chosen: dict[str, str] = {}
    for word in sorted(words, key=lambda w: (len(w), w)):
        chosen.setdefault(judging.stem(word), word)
    return sorted(chosen.values())


@cache
def _vocabulary_of(vectors: WordVectors) -> ClueVocabulary:
    words = tuple(_one_per_stem(w for w in _shipped_words()
                                if w.isalpha() and w.isascii() and len(w) >= MIN_CLUE_LETTERS and w not in STOP_WORDS))
    return ClueVocabulary(words, vectors.embed(words))


def clue_vocabulary(vectors: WordVectors) -> ClueVocabulary:
    """The words a bot may clue with, and their vectors (see the module's docstring)."""
    return _vocabulary_of(vectors)


@cache
def _thread_pools() -> Any:
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


@contextmanager
def one_thread() -> Iterator[None]:
    """The vectors' products are small (a few thousand rows of 256): one BLAS thread does each in microseconds,
    where BLAS's thread pool on a busy machine takes milliseconds (measured: about 50 times as long)."""
    pools = _thread_pools()
    if pools is None:
        yield
        return
    with pools.limit(limits=1, user_api="blas"):
        yield


@cache
def load_vectors() -> WordVectors | None:
    """The shipped word vectors, read offline, or ``None`` when the ``wordllama`` package is not installed."""
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError:
        return None
    model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    return WordVectors(model)
