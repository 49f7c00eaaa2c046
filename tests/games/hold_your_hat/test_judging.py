"""Judging typed guesses (HYH-R27, HYH-A20) and typed clues (HYH-R24, HYH-A21): normalization and the banned forms.

These are the one place the tests use real English words: the judge's job is English morphology, which a
generated deck cannot exercise.
"""

from __future__ import annotations

import pytest

from divedeck.games.hold_your_hat.judging import clue_problem, entry_keys, guess_is_close, guess_matches, normalize


@pytest.mark.parametrize(("guess", "entry"), [
    ("Treasure Map", "treasure map"),
    ("  treasure   map ", "treasure map"),
    ("the treasure map", "treasure map"),
    ("a jellyfish", "jellyfish"),
    ("An anchor!", "anchor"),
    ("crème brûlée", "creme brulee"),
    ("CRÈME BRÛLÉE", "crème brûlée"),
    ("sea-horse", "sea horse"),
    ("seahorse", "sea horse"),
    ("captain's hat", "captains hat"),
    ("anchors", "anchor"),
    ("boxes", "box"),
    ("cookies", "cookie"),
    ("berries", "berry"),
    ("glasses", "glass"),
    ("treasure maps", "treasure map"),
    ("ﬁsh", "fish"),  # NFKC folds the ligature
    ("message in a bottle", "Message in a Bottle"),
])
def test_HYH_R27_a_guess_matches_after_normalization(guess: str, entry: str) -> None:
    """HYH-R27: case, accents, punctuation, spaces, a leading article and simple plurals do not matter."""
    assert guess_matches(guess, entry)


@pytest.mark.parametrize(("guess", "entry"), [
    ("map", "treasure map"),
    ("treasure", "treasure map"),
    ("ancho", "anchor"),
    ("lighthouse keeper", "lighthouse"),
    ("message bottle", "message in a bottle"),
    ("the", "the sea"),
    ("sea", "the sea horse"),
    ("", "anchor"),
])
def test_HYH_R27_other_words_do_not_match(guess: str, entry: str) -> None:
    """HYH-R27: a guess that is not the entry (part of it, more than it) is wrong."""
    assert not guess_matches(guess, entry)


def test_HYH_R27_listed_alternates_are_accepted() -> None:
    """HYH-R27: a guess may match one of the entry's accepted alternates."""
    assert guess_matches("hippo", "hippopotamus", ("hippo",))
    assert not guess_matches("hippo", "hippopotamus")


def test_HYH_R27_normal_form() -> None:
    """HYH-R27: NFKC, case fold, accents off, punctuation gone, spaces collapsed, a leading article dropped."""
    assert normalize("  The  Ÿacht—Club!! ") == "yacht club"
    assert normalize("the") == "the"  # an article alone is kept
    assert entry_keys("Sea Horses") >= {"seahorse", "seahorses"}


@pytest.mark.parametrize(("clue", "entry"), [
    ("like protect", "protection"),
    ("protective", "protection"),
    ("defensive", "defense"),
    ("anchoring", "anchor"),
    ("the fish of jelly", "jellyfish"),  # a part of the compound
    ("a starfish", "star"),  # contains the entry as a part
    ("bottles", "message in a bottle"),
    ("a treasured thing", "treasure map"),
    ("seahorse", "sea horse"),
    ("sea horse", "seahorse"),
])
def test_HYH_R24_root_forms_and_derivatives_are_refused(clue: str, entry: str) -> None:
    """HYH-R24: no root form, derivative or part of the entry in a typed clue."""
    reason = clue_problem(clue, entry)
    assert reason is not None


@pytest.mark.parametrize(("clue", "entry"), [
    ("the opposite of attack", "protection"),
    ("shield", "defense"),
    ("attack", "defense"),
    ("heavy thing that keeps a ship in place", "anchor"),
    ("it starts everything", "star"),  # "start" is not star + a word
    ("a note inside glass thrown into the ocean", "message in a bottle"),
])
def test_HYH_R24_fair_clues_pass(clue: str, entry: str) -> None:
    """HYH-R24: the rulebook's own fair examples ("the opposite of attack" for protection, "shield" or "attack"
    for defense) and other clues that share no root with the entry are allowed."""
    assert clue_problem(clue, entry) is None


def test_HYH_R24_alternates_are_banned_too() -> None:
    """HYH-R24: a clue may not use an alternate spelling's forms either."""
    assert clue_problem("hippos swim", "hippopotamus", ("hippo",)) is not None


def test_HYH_A21_round_two_one_word_once_round_three_nothing() -> None:
    """HYH-A21, HYH-R24: round 2: exactly one word, one clue per card; round 3: no words at all."""
    assert clue_problem("shield", "defense", round_number=2) is None
    assert "single word" in (clue_problem("a shield", "defense", round_number=2) or "")
    assert "one clue" in (clue_problem("shield", "defense", round_number=2, clues_given=1) or "")
    assert clue_problem("shield and more", "defense", round_number=1, clues_given=5) is None
    assert "mime" in (clue_problem("shield", "defense", round_number=3) or "")


@pytest.mark.parametrize(("guess", "entry", "close"), [
    ("crav", "crab", True),  # one letter changed
    ("cab", "crab", True),  # one missing
    ("crabb", "crab", True),  # one too many
    ("Sea-Hors", "sea horse", True),  # normalized first, spaces aside
    ("seahorsez", "sea horse", True),
    ("the anchr", "anchor", True),
    ("crib", "crab", True),
    ("cream", "crab", False),  # two letters off
    ("bcra", "crab", False),
    ("lobster", "crab", False),
    ("map", "treasure map", False),  # a part of the entry is far from it
])
def test_HYH_A28_close_is_one_letter_away_after_normalization(guess: str, entry: str, close: bool) -> None:
    """HYH-A28: one letter changed, missing or added, once normalized as in HYH-R27, spaces aside."""
    assert guess_is_close(guess, entry) is close


def test_HYH_A28_close_to_a_listed_alternate_counts() -> None:
    """HYH-A28: the entry's listed alternates count, as they do for a right guess."""
    assert guess_is_close("colr", "colour", ("color",)) and guess_is_close("colourr", "colour", ("color",))
