"""Snorkeling's components, SNK-C1..C4: the deck, its colours and values, and the data file they come from."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib.resources import files
from pathlib import Path

import pytest

from divedeck.engine import ConfigError, Match

from .helpers import FACES, GAME, act, all_cards, config, hand, legal, position


def card_file(directory: Path, *, name: str = "cards.toml", count: int = 6, copies: int = 3,
              colors: tuple[tuple[str, str], ...] = (("yellow", "Y"), ("red", "R"), ("green", "G"),
                                                      ("blue", "B"), ("purple", "P"))) -> Path:
    """A card data file like the default one, with the Lanternfish count, copies and colours given."""
    lines = ["hand_size = 5", ""]
    for color, letter in colors:
        lines += ["[[colors]]", f'name = "{color}"', f'letter = "{letter}"', ""]
    for value, value_name in enumerate(["Beach", "School of Fish", "Clownfish", "Turtle", "Ray"]):
        lines += ["[[values]]", f"value = {value}", f'name = "{value_name}"', f"copies = {copies}", ""]
    lines += ["[lanternfish]", 'name = "Lanternfish"', f"count = {count}"]
    path = directory / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_SNK_C1_deck_is_75_cards_five_colours_five_values_three_copies() -> None:
    """SNK-C1: the deck is 75 reef cards, 5 colours x 5 values (0..4) x 3 copies; no Lanternfish is in it."""
    for seed in (1, 2):
        state = GAME.new(config(), seed)
        found = all_cards(state)
        assert GAME.card_count(state) == 75
        assert sum(found.values()) == 75
        assert found == Counter({face: 3 for face in FACES})


def test_SNK_C2_colours_are_yellow_red_green_blue_purple() -> None:
    """SNK-C2: the five default colours are yellow, red, green, blue and purple (letters Y, R, G, B, P)."""
    option = {row["name"]: row for row in GAME.options()}
    assert "cards" in option
    letters = {face[0] for face in all_cards(GAME.new(config(), 3))}
    assert letters == set("YRGBP")
    # A card is named by its colour letter and value in every notation.
    assert GAME.format_action(GAME.parse_action("c y3")) == "c Y3"


def test_SNK_C2_C4_card_names_come_from_the_data() -> None:
    """SNK-C2/C4 (SNK-A14): colour names and value names (Beach = 0 ... Ray = 4) are data, not code."""
    from divedeck.games.snorkeling.cards import load_cards

    table = load_cards(None)
    assert [c.name for c in table.colors] == ["yellow", "red", "green", "blue", "purple"]
    assert list(table.value_names) == ["Beach", "School of Fish", "Clownfish", "Turtle", "Ray"]
    assert table.lanternfish_name == "Lanternfish"


def test_SNK_C3_max_players_is_the_lanternfish_count(tmp_path: Path) -> None:
    """SNK-C3: the maximum player count is derived from the Lanternfish count in the card data file."""
    three = str(card_file(tmp_path, count=3))
    assert GAME.make_config({"cards": three, "num_players": 3}).num_players == 3
    with pytest.raises(ConfigError, match="2 to 3 players"):
        GAME.make_config({"cards": three, "num_players": 4})
    with pytest.raises(ConfigError):
        Match.start("snorkeling", {"cards": three, "num_players": 4})
    eight = str(card_file(tmp_path, name="eight.toml", count=8))
    assert GAME.make_config({"cards": eight, "num_players": 7}).num_players == 7
    with pytest.raises(ConfigError):
        GAME.make_config({"num_players": 7})  # the default data has 6 Lanternfish


def test_SNK_C3_copies_and_colours_come_from_the_data_file(tmp_path: Path) -> None:
    """SNK-C3: copy counts and colour names live in the data file; changing them changes the deck, not code."""
    path = card_file(tmp_path, count=4, copies=2, colors=(("orange", "O"), ("teal", "T"), ("red", "R")))
    cfg = GAME.make_config({"cards": str(path), "num_players": 2})
    state = GAME.new(cfg, 4)
    assert GAME.card_count(state) == 3 * 5 * 2
    state = GAME.parse_state("snorkeling hands=O1,T4,O2/?5 center=O3 deck=?", cfg)
    assert sorted(legal(state)) == ["c O1", "c O2", "c T4", "pass"]
    act(state, "c O1")
    assert hand(state, 0) == ["O2", "T4"]  # sorted by face: colours in data-file order
    assert legal(state) == ["end", "c O2", "p T4>1"]


@pytest.mark.parametrize(("text", "reason"), [
    ("this is = not [ toml", "TOML"),
    ("hand_size = 5\n", "colors"),
    ('[[colors]]\nname = "yellow"\nletter = "Y"\n[[values]]\nvalue = 1\ncopies = 3\n'
     '[[values]]\nvalue = 0\ncopies = 3\n[lanternfish]\ncount = 6\n', "values"),
    ('[[colors]]\nname = "yellow"\nletter = "Y"\n[[values]]\nvalue = 0\ncopies = -1\n'
     '[[values]]\nvalue = 1\ncopies = 3\n[lanternfish]\ncount = 6\n', "copies"),
    ('[[colors]]\nname = "yellow"\nletter = "Y"\n[[colors]]\nname = "gold"\nletter = "Y"\n'
     '[[values]]\nvalue = 0\ncopies = 9\n[[values]]\nvalue = 1\ncopies = 9\n[lanternfish]\ncount = 2\n', "unique"),
    ('[[colors]]\nname = "yellow"\nletter = "y"\n[[values]]\nvalue = 0\ncopies = 9\n'
     '[[values]]\nvalue = 1\ncopies = 9\n[lanternfish]\ncount = 2\n', "letter"),
    ('[[colors]]\nname = "yellow"\nletter = "Y"\n[[values]]\nvalue = 0\ncopies = 9\n'
     '[[values]]\nvalue = 1\ncopies = 9\n[lanternfish]\ncount = 1\n', "lanternfish"),
    ('[[colors]]\nname = "yellow"\nletter = "Y"\n[[values]]\nvalue = 0\ncopies = 9\n'
     '[[values]]\nvalue = 1\ncopies = 9\n', "lanternfish"),
    ('[[colors]]\nname = "yellow"\nletter = "Y"\n[[values]]\nvalue = 0\ncopies = 1\n'
     '[[values]]\nvalue = 1\ncopies = 1\n[lanternfish]\ncount = 6\n', "cannot deal"),
])
def test_SNK_C3_invalid_card_files_are_config_errors(tmp_path: Path, text: str, reason: str) -> None:
    """SNK-C3: a card data file that cannot describe a deck is rejected with a ConfigError saying why."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=f"(?i){reason}"):
        GAME.make_config({"cards": str(path)})


def test_SNK_C3_unreadable_card_files_are_config_errors(tmp_path: Path) -> None:
    """SNK-C3: a missing card file or one that is not UTF-8 text is a ConfigError, not a crash."""
    with pytest.raises(ConfigError):
        GAME.make_config({"cards": str(tmp_path / "missing.toml")})
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage\x80")
    with pytest.raises(ConfigError):
        GAME.make_config({"cards": str(binary)})


def test_SNK_C1_no_card_outside_the_deck_can_be_named() -> None:
    """SNK-C1: only the 25 faces exist; a notation naming another card (or a fourth copy) is rejected."""
    from divedeck.engine import MalformedInput

    with pytest.raises(MalformedInput):
        position("hands=Z3/?5 center=Y3 deck=?")
    with pytest.raises(MalformedInput):
        position("hands=Y5/?5 center=Y3 deck=?")
    with pytest.raises(MalformedInput):
        position("hands=Y1,Y1,Y1/Y1 center=Y3 deck=?")


def test_SNK_C4_the_values_are_named_beach_school_of_fish_clownfish_turtle_ray_in_order() -> None:
    """SNK-C4: the shipped card data names the values in the rulebook's order, Beach = 0, School of Fish = 1,
    Clownfish = 2, Turtle = 3, Ray = 4; they are value names, not colour names (SNK-A14). The Ray is the highest
    reef value, so the centre climbs from a Ray to a Beach of any colour (SNK-R6's wrap)."""
    data = tomllib.loads((files("divedeck.games.snorkeling") / "data" / "cards.toml").read_text(encoding="utf-8"))
    named = [(row["value"], row["name"]) for row in data["values"]]
    assert named == [(0, "Beach"), (1, "School of Fish"), (2, "Clownfish"), (3, "Turtle"), (4, "Ray")]
    assert not {name for _, name in named} & {row["name"] for row in data["colors"]}
    state = position("hands=Y0,R2,G3/?5/?5/?5 center=B4 deck=?")
    assert sorted(legal(state)) == ["c Y0", "pass"]
