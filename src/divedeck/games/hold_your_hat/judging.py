"""Judging typed guesses and typed clues (HYH-R24, HYH-R27, HYH-A20, HYH-A21).

**Guesses.** Both the guess and the entry are normalized: Unicode NFKC, case folded, accents stripped, apostrophes
dropped and every other punctuation mark read as a space, a leading "a", "an" or "the" dropped. A guess is right
when, word for word, each of its words is the entry's word or a simple plural of it (``-s``, ``-es``, ``-ies`` for
``-y``), spaces aside ("sea-horse", "seahorse" and "Sea Horses" all name the entry "sea horse"), for the entry's
text or any of its listed alternate spellings.

**Clues** (rounds 1 and 2, when the clue-giver types them): no word of a clue may share a stem with a word of the
entry (Snowball's English stemmer, via PyStemmer: "protect" for "protection", "defens" for "defensive"), be one of
its plurals, or be a part of a compound entry word ("fish" in "jellyfish") or contain one ("starfish" for "star");
small words ("of", "in", "the", ...) of the entry are not checked. Round 2 clues are a single word, and one per word
card; round 3 has no words at all: a typed round 3 clue is pictures only (emoji and symbols, no letter or digit),
the screen's stand-in for a mime. Direct translations cannot be checked: the players still judge those (a foul).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from itertools import product

import Stemmer

ARTICLES = frozenset({"a", "an", "the"})
# Words of an entry that a clue may use freely: they are not the entry's meaning.
SMALL_WORDS = ARTICLES | frozenset({"of", "in", "on", "at", "to", "for", "with", "by", "from", "and", "or", "as",
                                    "into", "over", "under", "up", "down", "out", "off", "s"})
_NOT_WORD = re.compile(r"[^\w]+")
_MAX_VARIANT_WORDS = 4
MIN_PART = 4  # letters of a compound's part before it counts as the root of the compound
MIN_REST = 3  # letters left over: "start" is not "star" + a word, "starfish" is


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return text.replace("'", "").replace("\u2019", "").replace("_", " ")


def words(text: str) -> list[str]:
    """The normalized words of ``text`` (case, accents and punctuation gone), articles kept."""
    return [w for w in _NOT_WORD.split(_fold(text)) if w]


def normalize(text: str) -> str:
    """The normalized form of a guess or an entry: its words without a leading article, joined by spaces."""
    found = words(text)
    if len(found) > 1 and found[0] in ARTICLES:
        found = found[1:]
    return " ".join(found)


def plural_forms(word: str) -> frozenset[str]:
    """``word`` and what it would be if it were a simple plural: "boxes" -> box, boxe; "cookies" -> cookie."""
    forms = {word}
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
        if word.endswith("es") and len(word) > 4:
            forms.add(word[:-2])
        if word.endswith("ies") and len(word) > 4:
            forms.add(word[:-3] + "y")
    return frozenset(forms)


@cache
def entry_keys(text: str) -> frozenset[str]:
    """Every spelling ``text`` stands for once normalized (its words joined without spaces, each word taken as is
    or as the singular of a simple plural). Two texts name the same thing when their keys meet."""
    found = normalize(text).split()
    if not found:
        return frozenset()
    if len(found) > _MAX_VARIANT_WORDS:
        return frozenset({"".join(found)})
    return frozenset("".join(choice) for choice in product(*(sorted(plural_forms(w)) for w in found)))


def guess_matches(guess: str, entry: str, alternates: tuple[str, ...] = ()) -> bool:
    """HYH-R27 (auto judging): is ``guess`` the entry, once both are normalized?"""
    keys = entry_keys(guess)
    return any(keys & entry_keys(text) for text in (entry, *alternates))


def _one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by exactly one letter: one changed, one missing or one too many."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[i + 1:] == b[i + 1:] if len(a) == len(b) else a[i:] == b[i + 1:]


def guess_is_close(guess: str, entry: str, alternates: tuple[str, ...] = ()) -> bool:
    """HYH-A28: a wrong typed guess one letter away from the entry (or an alternate), once both are normalized
    and spaces aside: one letter changed, missing or added ("crav" or "crabb" for "crab")."""
    keys = entry_keys(guess)
    return any(_one_edit(key, other) for text in (entry, *alternates) for other in entry_keys(text) for key in keys)


# -- clues -----------------------------------------------------------------------------------------------------------

_STEMMER = Stemmer.Stemmer("english")


@cache
def stem(word: str) -> str:
    """The Snowball stem of a normalized word."""
    return str(_STEMMER.stemWord(word))


_stem = stem


def _compound_part(short: str, long: str) -> bool:
    """``short`` is the first or last part of the compound ``long`` ("fish" of "jellyfish")."""
    return (len(short) >= MIN_PART and len(long) - len(short) >= MIN_REST
            and (long.startswith(short) or long.endswith(short)))


def _related(clue_word: str, entry_word: str) -> bool:
    if clue_word == entry_word or _stem(clue_word) == _stem(entry_word):
        return True
    if plural_forms(clue_word) & plural_forms(entry_word):
        return True
    return _compound_part(clue_word, entry_word) or _compound_part(entry_word, clue_word)


def clue_problem(clue: str, entry: str, alternates: tuple[str, ...] = (), round_number: int = 1,
                 clues_given: int = 0) -> str | None:
    """Why the typed ``clue`` breaks HYH-R24 for ``entry`` in round ``round_number``, or ``None`` if it does not.

    The reason may quote the entry: it is meant for the clue-giver alone.
    """
    if round_number >= 3:
        if words(clue):
            return "round 3 is mime: no letters or digits, only pictures and gestures (emoji)"
        return None if clue.strip() else "a mime clue needs pictures"
    if round_number == 2:
        if clues_given:
            return "round 2 allows one clue per word card, and this card has had its clue"
        if len(clue.split()) != 1:
            return "a round 2 clue is a single word"
    entry_words = {w for text in (entry, *alternates) for w in words(text) if w not in SMALL_WORDS}
    for text in (entry, *alternates):  # the whole entry written as one word ("seahorse" for "sea horse")
        joined = "".join(normalize(text).split())
        if len(joined) >= MIN_PART:
            entry_words.add(joined)
    clue_words = words(clue)
    if not clue_words:
        return "a clue needs words"
    for clue_word in clue_words:
        for entry_word in sorted(entry_words):
            if _related(clue_word, entry_word):
                return (f"{clue_word!r} is a form or a part of {entry_word!r} from the entry: root forms and "
                        "derivatives are not allowed")
    joined_clue = "".join(clue_words)  # "sea horse" for "seahorse"
    if len(clue_words) > 1 and any(entry_keys(joined_clue) & entry_keys(text) for text in (entry, *alternates)):
        return "the clue spells out the entry"
    return None
