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
