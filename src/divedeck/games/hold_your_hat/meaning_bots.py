"""Hold your Hat's word bots with word meaning (``MeaningBot``): clues for any entry, guesses by meaning.

A ``WordBot`` (bots.py) knows only the association data written for a deck. A ``MeaningBot`` also knows what words
mean, from the word vectors of ``meaning.py``, so it plays any word list (a designer's deck, a family's own words)
and understands a person's clue that shares no word with the data ("sea" for "ocean"):

- **guessing** (``MeaningKnowledge.scores``): it ranks every entry of the table in its colour by how near the clues
  so far are to it in meaning (the mean, over the clues, of the cosine between the clue's vector and the entry's),
  plus, where the deck has association data, the old reading of shared words and pictures (``Knowledge``); it reads
  only the clues, never the word. Its levels differ as a ``WordBot``'s do: how many of its list it tries a clue
  (``WordLevel.tries``), how fast, how much of a clue it takes in (``know``) and how blurred its judgement is.
- **giving clues** (``MeaningKnowledge.clue_words``): the words of the clue vocabulary nearest the entry and far
  from every other entry of the table, that pass the game's clue check (HYH-R24) and do not merely look like it
  (no shared token), ordered by how surely its own guesser would then name the entry. Round 1: three of them
  together, then one more at a time; round 2: the best one (HYH-A21); round 3 (mime): the pictures of the
  association data, or none (it passes the word). An entry the data describes is clued with the data first, then
  with the words of meaning (``MeaningBot.clues_for``).

Without the vectors (the ``words`` extra not installed), ``word_bot`` makes plain ``WordBot``s.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ...engine.decision import Decision
from . import judging
from .actions import Action
from .associations import Associations
from .bots import Knowledge, WordBot
from .meaning import WordVectors, clue_vocabulary, load_vectors, one_thread, telling_words
from .words import COLORS, WordTable

CLOSENESS = 0.05  # cosine a candidate's score falls by a factor e: how sharply a guesser prefers the nearest entry
AVOID_OTHERS = 0.7  # how much a clue word's nearness to other entries counts against it (1: as much as to its own)
CLUE_CANDIDATES = 16  # vocabulary words a clue-giver weighs for an entry before ranking them by its guesser
ROUND_ONE_FIRST = 3  # words of the first round 1 clue; then one word a clue
ROUND_ONE_WORDS = 6  # words of meaning a round 1 clue-giver has for an entry


class MeaningKnowledge:
    """What a ``MeaningBot`` knows of a word table in one colour: each entry's meaning (its vector, and where the
    deck has association data, the vector of its description and clue words too) and the old reading of shared
    words (``Knowledge``). Same interface as ``Knowledge`` (``scores``, ``rate``, ``telling``), and ``clue_words``."""

    def __init__(self, table: WordTable, associations: Associations, color: int, vectors: WordVectors) -> None:
        with one_thread():
            self._learn(table, associations, color, vectors)

    def _learn(self, table: WordTable, associations: Associations, color: int, vectors: WordVectors) -> None:
        import numpy as np

        self.vectors = vectors
        self.words = Knowledge(table, associations, color)
        self.entries = self.words.entries
        self.index = {entry.text: index for index, entry in enumerate(self.entries)}
        matrix = vectors.embed([entry.text for entry in self.entries])
        data = {index: " ".join((found.describe, *found.clues)) for index, entry in enumerate(self.entries)
                if (found := associations.get(entry.text)) is not None}
        if data:
            matrix[list(data)] += vectors.embed(list(data.values()))
        self.matrix = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
        self._clue_words: dict[tuple[int, int], list[str]] = {}
        self._vocabulary_near: Any = None

    # -- guessing --------------------------------------------------------------------------------------------------
    def nearness(self, clues: Sequence[str], rng: random.Random | None = None, know: float = 1.0) -> Any:
        """Each entry's mean cosine to the clues that have words (pictures carry no meaning here), or ``None``.
        A guesser takes in each word of a clue with the chance ``know`` (one at least), afresh each time."""
        texts = []
        for clue in clues:
            found = [w for w in telling_words(clue) if w.isascii()] if judging.words(clue) else []
            if rng is not None and len(found) > 1:
                kept = [w for w in found if rng.random() < know]
                found = kept or [found[rng.randrange(len(found))]]
            if found:
                texts.append(" ".join(found))
        if not texts:
            return None
        with one_thread():
            return (self.matrix @ self.vectors.embed(texts).T).mean(axis=1)

    def scores(self, clues: Sequence[str], excluded: set[str], rng: random.Random | None = None,
               know: float = 1.0) -> list[tuple[float, str]]:
        """The entries the clues bring to mind, with how strongly: by meaning, 1 for the nearest entry and less by a
        factor e for each ``CLOSENESS`` of cosine further; plus the shared words' reading scaled to at most 1."""
        totals = [0.0] * len(self.entries)
        near = self.nearness(clues, rng, know)
        if near is not None:
            allowed = [i for i, entry in enumerate(self.entries) if entry.text not in excluded]
            best = max((float(near[i]) for i in allowed), default=0.0)
            for i in allowed:
                totals[i] += math.exp((float(near[i]) - best) / CLOSENESS)
        shared = self.words.scores(clues, excluded, rng, know)
        top = max((score for score, _ in shared), default=0.0)
        for score, text in shared:
            totals[self.index[text]] += score / top if top else 0.0
        return [(total, self.entries[i].text) for i, total in enumerate(totals)
                if total > 0 and self.entries[i].text not in excluded]

    def rate(self, entry: str, clues: Sequence[str]) -> float:
        totals = {text: score for score, text in self.scores(clues, set())}
        own = totals.pop(entry, 0.0)
        best = max(totals.values(), default=0.0)
        return own / (own + best) if own + best > 0 else 0.0

    def telling(self, words_: Sequence[str]) -> list[str]:
        return self.words.telling(words_)

    # -- giving clues ----------------------------------------------------------------------------------------------
    def clue_words(self, entry: str, round_number: int) -> list[str]:
        """Words of the clue vocabulary that point at ``entry`` and not at the table's other entries, each passing
        the clue check for ``round_number`` (HYH-R24), the one its own guesser reads best first."""
        index = self.index.get(entry)
        if index is None:
            return []
        key = (index, round_number)
        if key not in self._clue_words:
            with one_thread():
                self._clue_words[key] = self._choose_clue_words(index, round_number)
        return self._clue_words[key]

    def _choose_clue_words(self, index: int, round_number: int) -> list[str]:
        import numpy as np

        vocabulary = clue_vocabulary(self.vectors)
        if self._vocabulary_near is None:
            near_all = vocabulary.matrix @ self.matrix.T  # every word's nearness to every entry
            top_two = np.argsort(-near_all, axis=1)[:, :2] if len(self.entries) > 1 else None
            self._vocabulary_near = (near_all, top_two)
        near_all, top_two = self._vocabulary_near
        near = near_all[:, index]
        if top_two is None:
            others = np.zeros((len(near), 1), dtype=np.float32)
        else:  # each word's nearness to the nearest other entry
            nearest_other = np.where(top_two[:, 0] == index, top_two[:, 1], top_two[:, 0])
            others = near_all[np.arange(len(near)), nearest_other][:, None]
        entry = self.entries[index]
        pieces = self.vectors.pieces(entry.text)  # "good" is near "badge" only through "bad"
        if pieces:
            others = np.concatenate([others, vocabulary.matrix @ self.vectors.embed(pieces).T], axis=1)
        margin = near - AVOID_OTHERS * others.max(axis=1)
        picked: list[str] = []
        for candidate in np.argsort(-margin, kind="stable"):
            word = vocabulary.words[int(candidate)]
            if judging.clue_problem(word, entry.text, entry.alternates, round_number) is None \
                    and not any(self.vectors.look_alike(word, text) for text in (entry.text, *entry.alternates)):
                picked.append(word)
                if len(picked) == CLUE_CANDIDATES:
                    break
        if not picked:
            return []
        read = self.matrix @ self.vectors.embed(picked).T  # how its own guesser reads each word alone
        own = read[index].copy()
        read[index] = -np.inf
        lead = own - (read.max(axis=0) if len(self.entries) > 1 else 0.0)
        return [picked[i] for i in np.argsort(-lead, kind="stable")]

    def script(self, entry: str, round_number: int) -> list[str]:
        """The clues of meaning for ``entry`` in round ``round_number`` (none in round 3: pictures are the data's)."""
        if round_number >= 3:
            return []
        found = self.clue_words(entry, round_number)
        if round_number == 2:
            return found[:1]
        found = found[:ROUND_ONE_WORDS]
        return [" ".join(found[:ROUND_ONE_FIRST]), *found[ROUND_ONE_FIRST:]] if found else []


_SHARED: dict[tuple[int, int, int, int], tuple[Any, ...]] = {}


def shared_knowledge(table: WordTable, associations: Associations, color: int,
                     vectors: WordVectors) -> MeaningKnowledge:
    """One ``MeaningKnowledge`` for every bot of a process that plays the same table, data and colour (tables and
    association data are loaded once and shared, so they are told apart by identity): it only learns, never
    changes its mind, and learning a deck's meanings takes a moment."""
    key = (id(table), id(associations), color, id(vectors))
    found = _SHARED.get(key)
    if found is None:  # the objects are kept with it, so that their ids stay theirs
        found = _SHARED[key] = (MeaningKnowledge(table, associations, color, vectors), table, associations, vectors)
    return found[0]


class MeaningBot(WordBot):
    """A ``WordBot`` that also knows what words mean (module docstring): it guesses by meaning and gives clues for
    any entry, at the pace and with the special cards of its level."""

    def __init__(self, seed: int = 0, level: str = "medium", vectors: WordVectors | None = None) -> None:
        super().__init__(seed, level)
        found = vectors or load_vectors()
        if found is None:
            raise RuntimeError('word meaning needs the wordllama package: pip install "divedeck[words]"')
        self.vectors = found
        self.meaning: dict[int, MeaningKnowledge] = {}
        # Learnt once a process, here rather than at its first move: a real-time table plans its bots' moves as
        # the game runs, and a pause then would be a pause in the game.
        clue_vocabulary(found)

    def _knowledge(self, decision: Decision) -> Any:
        color = COLORS.index(decision.view["color"])
        if color not in self.meaning:
            table, associations, _ = self._source(decision)
            self.meaning[color] = shared_knowledge(table, associations, color, self.vectors)
        return self.meaning[color]

    def clues_for(self, decision: Decision, entry: str) -> list[str]:
        """The association data's clues first where it has them (written by people for people), then the words of
        meaning not given yet; in round 3 the data's pictures or nothing."""
        from_data = super().clues_for(decision, entry)
        round_number = decision.view["round"]
        if round_number >= 3:
            return from_data
        if round_number == 2 and from_data:
            return from_data
        given = {w for clue in from_data for w in judging.words(clue)}
        meaning = [clue for clue in self._knowledge(decision).script(entry, round_number)
                   if not set(judging.words(clue)) <= given]
        return [*from_data, *meaning]

    def _guess(self, decision: Decision, key: tuple[Any, ...], now: int) -> tuple[int, Action] | None:
        """As a ``WordBot`` guesses, a moment later by chance (up to its reading time): a person's reactions vary,
        and two guessers who read the clues alike (a raider and the active team, both sure) must not always tie,
        the lower seat first."""
        planned = super()._guess(decision, key, now)
        if planned is None:
            return None
        return planned[0] + int(self.rng.uniform(0, self.level.read_ms)), planned[1]

    def cannot_clue(self, decision: Decision) -> list[str]:
        """The entries of this table it cannot clue: none in rounds 1 and 2; in round 3 those without pictures."""
        if decision.view.get("round", 1) < 3:
            return []
        return super().cannot_clue(decision)


def word_bot(level: str) -> Any:
    """A factory of word bots at ``level``: ``MeaningBot``s where the word vectors are installed, else ``WordBot``s
    that play from the association data alone."""
    def make(seed: int = 0) -> WordBot:
        vectors = load_vectors()
        return WordBot(seed, level) if vectors is None else MeaningBot(seed, level, vectors)
    return make
