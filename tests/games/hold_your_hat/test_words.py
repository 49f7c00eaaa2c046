"""The word list loader and validator (HYH-C1, HYH-C5): both file formats, every refusal naming the file, the line
and the card, and the cards option (``--words FILE``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from divedeck.engine import ConfigError
from divedeck.games.hold_your_hat.words import load_words, parse_text, parse_toml

from .deckgen import GENERATED, generated_text, generated_toml
from .helpers import GAME, config, started, word_of


def test_the_committed_generated_deck_is_what_the_generator_writes() -> None:
    """The fixture file cannot drift from deckgen.py."""
    assert GENERATED.read_text(encoding="utf-8") == generated_toml()


def test_HYH_C5_the_generated_deck_is_valid_in_both_formats() -> None:
    """HYH-C5: the generated deck passes every check, as TOML and as plain text, with the same entries."""
    toml = parse_toml(generated_toml(), "generated.toml")
    text = parse_text(generated_text(147), "generated.txt")
    assert len(toml) == len(text) == 147
    assert toml.cards == text.cards


def card(number: int, **fields: str) -> str:
    values = {"red": "r{n} hat", "orange": "o{n}", "yellow": "y{n}", "green": "g{n}", "blue": "b{n}",
              "purple": "p{n}", **fields}
    lines = ["[[card]]", f'id = "W{number:03d}"']
    lines += [line for key, value in values.items()
              for line in ([f"{key} = {value}"] if key == "alternates" else [f'{key} = "{value.format(n=number)}"'])]
    return "\n".join(lines) + "\n"


HEADER = 'format = "divedeck-words"\nversion = 1\nlanguage = "en"\n\n'


@pytest.mark.parametrize(("text", "message"), [
    ('format = "other"\n', 'needs format = "divedeck-words"'),
    ('format = "divedeck-words"\nversion = 2\n', "version 2"),
    (HEADER, "needs [[card]] tables"),
    (HEADER + "[[card\n", "not valid TOML"),
    (HEADER + card(1) + card(3), "line 13 (card 2): card ids must run W001, W002, ... in order: expected W002"),
    (HEADER + card(1) + card(2, red="r2"), "line 13 (card W002): the hat entry (red) 'r2' must have 2 to 4 words"),
    (HEADER + card(1, orange="a b c"), "line 5 (card W001): the orange entry 'a b c' must have 1 or 2 words"),
    (HEADER + card(1, blue=""), "(card W001): the blue entry must be non-empty text"),
    (HEADER + card(1) + card(2, green="O1"), "'O1' is the same as 'o1' of card W001 after normalization"),
    (HEADER + card(1, orange="anchor") + card(2, green="Anchors"), "'Anchors' is the same as 'anchor' of card W001"),
    (HEADER + card(1, hat="pink"), "hat must be one of"),
    (HEADER + card(1, colour="x"), "unknown key 'colour'"),
    (HEADER + card(1, alternates="{ nothing = ['x'] }"), "alternates name 'nothing'"),
    (HEADER + card(1, alternates="{ orange = 'x' }"), "alternates must be lists of non-empty text"),
])
def test_HYH_C5_a_malformed_toml_list_is_refused_naming_the_card_and_line(text: str, message: str) -> None:
    """HYH-C5: every broken rule is a ConfigError naming the file, the line and the card."""
    with pytest.raises(ConfigError) as caught:
        parse_toml(text, "mine.toml")
    assert "word list mine.toml" in str(caught.value) and message in str(caught.value)


def test_HYH_C5_toml_hat_may_be_named_and_alternates_found_by_colour_or_text() -> None:
    """HYH-C5: a card may name its hat colour; alternates are keyed by colour or by entry text."""
    alternates = '{ orange = ["oh one"], "b1 hat" = ["bee"] }'
    text = HEADER + card(1, red="r1", blue="b1 hat", hat="blue", alternates=alternates)
    table = parse_toml(text, "mine.toml")
    entries = table.cards[0].entries
    assert [e.hat for e in entries] == [False, False, False, False, True, False]
    assert entries[1].alternates == ("oh one",) and entries[4].alternates == ("bee",)


@pytest.mark.parametrize(("text", "message"), [
    ("a | b | c | d | e\n", "line 1 (card W001): a line needs 6 entries"),
    ("# two cards\n\nx y* | b | c | d | e | f\nx y | c | d | e | f | g\n",
     "line 4 (card W002): exactly one entry must be marked as the hat entry with '*', found 0"),
    ("a b* | b* | c | d | e | f\n", "found 2"),
    ("a* | b | c | d | e | f\n", "must have 2 to 4 words"),
    ("x y* | b | c | d | e | b\n", "'b' is the same as 'b' of card W001"),
    ("x y* | a b | b | d | e | f\n", "'b' is the same as 'a b'"),
    ("", "has no cards"),
])
def test_HYH_C5_a_malformed_text_list_is_refused_naming_the_line(text: str, message: str) -> None:
    """HYH-C5: the plain-text format is checked the same way, naming the line."""
    with pytest.raises(ConfigError) as caught:
        parse_text(text, "mine.txt")
    assert message in str(caught.value)


def test_the_plain_text_format_reads_hats_and_alternates() -> None:
    """One card per line, red | orange | yellow | green | blue | purple, the hat marked with *, alternates after /."""
    table = parse_text("# my words\n*treasure map | anchor | sea horse/seahorse | jelly fish | crab | moon\n",
                       "mine.txt")
    (only,) = table.cards
    assert only.id == "W001"
    assert [e.text for e in only.entries] == ["treasure map", "anchor", "sea horse", "jelly fish", "crab", "moon"]
    assert only.entries[0].hat and only.entries[0].points == 2
    assert only.entries[2].alternates == ("seahorse",)


def test_the_cards_option_plays_a_custom_list(tmp_path: Path) -> None:
    """The cards option (``--words FILE``) plays a custom list; deck_size must fit it."""
    path = tmp_path / "mine.txt"
    path.write_text(generated_text(12), encoding="utf-8")
    state = started(3, cards=str(path), color="blue")
    assert word_of(state) == "w001-blue"
    cfg = config(cards=str(path), deck_size=12)
    assert GAME.new(cfg, 1) is not None
    with pytest.raises(ConfigError, match="deck_size must be from 1 to 12"):
        config(cards=str(path))  # the default deck_size, 40, is too many for 12 cards
    with pytest.raises(ConfigError, match="cannot read word list"):
        config(cards=str(tmp_path / "missing.txt"))


def test_load_words_reads_toml_by_its_extension(tmp_path: Path) -> None:
    path = tmp_path / "deck.TOML"
    path.write_text(generated_toml(20), encoding="utf-8")
    assert len(load_words(str(path))) == 20
