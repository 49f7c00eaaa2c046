"""The shipped English deck (data/words.toml) passes the loader's validation (HYH-C1, HYH-C5).

This is the only test that reads the shipped words; every other test plays with the generated deck.
"""

from __future__ import annotations

from collections import Counter

from divedeck.games.hold_your_hat.words import COLORS, hat_color, load_words


def test_HYH_C5_the_shipped_deck_is_valid() -> None:
    """HYH-C1, HYH-C5: 147 cards W001..W147, six entries each, the hat entry in its colour by card number,
    entries distinct after normalization (the loader refuses anything else)."""
    table = load_words(None)
    assert len(table) == 147
    assert table.language == "en"
    assert [card.id for card in table.cards] == [f"W{n:03d}" for n in range(1, 148)]
    for number, card in enumerate(table.cards, 1):
        hats = [COLORS[i] for i, entry in enumerate(card.entries) if entry.hat]
        assert hats == [hat_color(number)], card.id
    assert Counter(hat_color(n) for n in range(1, 148)) == {"red": 25, "orange": 25, "yellow": 25, "green": 24,
                                                              "blue": 24, "purple": 24}


def test_HYH_R24_every_bot_clue_for_the_shipped_deck_passes_the_clue_check() -> None:
    """Every clue a word bot would type for an entry the shipped associations cover passes the game's own clue
    judge (HYH-R24) in its round, as a person's typed clue must; each covered entry has a clue for every round."""
    from divedeck.games.hold_your_hat.associations import MIN_CLUES, load_associations
    from divedeck.games.hold_your_hat.bots import clue_script
    from divedeck.games.hold_your_hat.judging import clue_problem

    table = load_words(None)
    associations = load_associations(None)
    covered = [entry for card in table.cards for entry in card.entries if associations.covers(entry.text)]
    assert len(covered) == len(associations) == 147 * 6  # the whole shipped deck
    for entry in covered:
        found = associations.get(entry.text)
        assert found is not None and len(found.clues) >= MIN_CLUES
        for round_number in (1, 2, 3):
            script = clue_script(found, round_number)
            assert script, (entry.text, round_number)
            for given, clue in enumerate(script):
                assert clue_problem(clue, entry.text, entry.alternates, round_number, given) is None, (entry, clue)
