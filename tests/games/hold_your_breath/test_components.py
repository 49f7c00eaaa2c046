"""Hold Your Breath!'s components, HYB-C1..C3 (and the deck readings HYB-A1, HYB-A2): the Dive Deck, the Depth Board
and the tokens, and the data file they come from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from divedeck.engine import ConfigError, Match
from divedeck.games.hold_your_breath.cards import load_deck

from .helpers import DEFAULT_DECK, GAME, act, all_cards, config, legal, numbers, position

ROWS = [(kind, value, icon, 4) for kind in ("air", "swim") for value in (5, 10)
        for icon in ("draw", "discard", "calm", "panic")]
SPECIALS = [("shark", None, None, 1), ("kraken", None, None, 1), ("dolphin", None, None, 2)]


def deck_file(directory: Path, rows: list[tuple[Any, ...]] | None = None, *,
              board: str = "max_depth = 150\nstep = 5\n", name: str = "deck.toml") -> Path:
    """A deck data file like the default one (or with ``rows``: kind, value, icon, count)."""
    lines = ["[board]", board]
    for kind, value, icon, count in ROWS + SPECIALS if rows is None else rows:
        lines += ["[[cards]]", f'kind = "{kind}"']
        if value is not None:
            lines.append(f"value = {value}")
        if icon is not None:
            lines.append(f'icon = "{icon}"')
        lines += [f"count = {count}", ""]
    path = directory / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_HYB_C1_the_dive_deck_is_68_cards_of_the_proposed_composition() -> None:
    """HYB-C1: 68 cards: 4 copies of each Air/Swim value (5, 10) and icon (Draw, Discard, Calm, Panic), 1 Shark,
    1 Kraken and 2 Dolphins."""
    for seed in (1, 2):
        state = GAME.new(config(), seed)
        assert GAME.card_count(state) == 68
        assert all_cards(state) == DEFAULT_DECK
    table = load_deck()
    assert table.deck_size == 68
    assert sum(count for label, count in DEFAULT_DECK.items() if label.startswith("A")) == 32
    assert sum(count for label, count in DEFAULT_DECK.items() if label.startswith("S") and label != "SH") == 32


def test_HYB_C1_the_composition_comes_from_the_data_file(tmp_path: Path) -> None:
    """HYB-C1/HYB-A1: the deck lives in a data file; another file gives another deck without touching code."""
    rows = [("air", 5, "draw", 8)] + ROWS[1:-1] + [("swim", 10, "panic", 0)] + SPECIALS  # 4 Air 5 (Draw) more,
    # no Swim 10 (Panic)
    path = deck_file(tmp_path, rows)
    cfg = GAME.make_config({"cards": str(path), "num_players": 2})
    state = GAME.new(cfg, 4)
    found = all_cards(state)
    assert found["A5D"] == 8 and found["S10P"] == 0 and found["DO"] == 2
    assert GAME.card_count(state) == 68
    assert Match.start("hold-your-breath", {"cards": str(path), "num_players": 2}, 3).state is not None


@pytest.mark.parametrize(("change", "message"), [
    ({"count": 5}, "must hold 68 cards"),
    ({"count": -1}, "count must be a whole number of 0 or more"),
    ({"icon": "treasure"}, "unknown icon 'treasure'"),
    ({"kind": "mermaid"}, "unknown kind 'mermaid'"),
    ({"value": 7}, "positive multiple of the board's step 5"),
])
def test_HYB_C1_a_bad_deck_file_is_a_clear_config_error(tmp_path: Path, change: dict[str, object],
                                                      message: str) -> None:
    """HYB-C1: the deck file is validated on load: 68 cards, known kinds and icons, no negative count, Air/Swim
    values on the board's step."""
    row = dict(zip(("kind", "value", "icon", "count"), ROWS[0], strict=True)) | change
    path = deck_file(tmp_path, [(row["kind"], row["value"], row["icon"], row["count"])] + ROWS[1:] + SPECIALS)
    with pytest.raises(ConfigError, match=message):
        GAME.make_config({"cards": str(path)})


def test_HYB_C1_repeated_types_missing_files_and_bad_toml_are_config_errors(tmp_path: Path) -> None:
    """HYB-C1: one row per card type; an unreadable or malformed file says so."""
    path = deck_file(tmp_path, ROWS + SPECIALS + [("air", 5, "draw", 0)])
    with pytest.raises(ConfigError, match="repeats the card type Air 5 \\(Draw\\)"):
        GAME.make_config({"cards": str(path)})
    with pytest.raises(ConfigError, match="cannot read deck data"):
        GAME.make_config({"cards": str(tmp_path / "missing.toml")})
    broken = tmp_path / "broken.toml"
    broken.write_text("[[cards]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        GAME.make_config({"cards": str(broken)})
    shark_with_value = deck_file(tmp_path, ROWS + [("shark", 5, None, 1), *SPECIALS[1:]], name="shark.toml")
    with pytest.raises(ConfigError, match="no value and no icon"):
        GAME.make_config({"cards": str(shark_with_value)})


def test_HYB_C2_the_depth_board_runs_from_the_surface_to_150_feet_in_5_foot_spaces() -> None:
    """HYB-C2: spaces 0, 5, ..., 150; 0 is the surface; all movement is in multiples of 5."""
    table = load_deck()
    assert (table.max_depth, table.step) == (150, 5)
    static = GAME.static_data(config())
    assert (static["max_depth"], static["step"]) == (150, 5)
    assert GAME.view(GAME.new(config(), 1), None)["max_depth"] == 150
    assert {card["value"] for card in static["cards"] if card["value"]} == {5, 10}


def test_HYB_C2_board_length_comes_from_the_data_file_or_option_max_depth(tmp_path: Path) -> None:
    """HYB-C2/HYB-A8: max_depth is read from the data file's board and may be overridden by option max_depth."""
    path = deck_file(tmp_path, board="max_depth = 40\nstep = 5\n")
    state = position("hands=A10D,S10C/?5 depths=35,0 deck=?", cards=str(path))
    act(state, "air A10D", "swim S10C", "end")
    assert numbers(state, "depths") == [40, 0]
    assert GAME.view(position("hands=?5/?5 deck=?", max_depth=60), None)["max_depth"] == 60
    with pytest.raises(ConfigError, match="multiple of the board's step"):
        config(max_depth=42)
    with pytest.raises(ConfigError, match="not a multiple of the step"):
        GAME.make_config({"cards": str(deck_file(tmp_path, board="max_depth = 42\nstep = 5\n", name="b.toml"))})


def test_HYB_C3_each_player_has_a_pirate_and_an_anchor_token() -> None:
    """HYB-C3: pirates (current depth) and anchors (depth at the end of the Descent) are state, not cards; there
    are four pairs, hence at most four players."""
    view = GAME.view(GAME.new(config(num_players=3), 2), None)
    assert view["depths"] == [0, 0, 0]
    assert view["anchors"] is None
    ascent = GAME.view(position("round=ascent hands=?5/?5 anchors=30,15 depths=20,15 deck=?"), None)
    assert ascent["anchors"] == [30, 15]
    assert ascent["depths"] == [20, 15]
    assert load_deck().max_players == 4


def test_HYB_A1_the_proposed_deck_is_data_not_code() -> None:
    """HYB-A1: the rulebook gives no composition; the proposed one is the default data file's, with every card
    type's label, kind, value, icon and count listed for the front ends."""
    info = {card["label"]: card for card in GAME.static_data(config())["cards"]}
    assert {label: card["count"] for label, card in info.items()} == dict(DEFAULT_DECK)
    assert {key: info["S10P"][key] for key in ("label", "kind", "value", "icon", "name", "count")} == {
        "label": "S10P", "kind": "swim", "value": 10, "icon": "panic", "name": "Swim 10 (Panic)", "count": 4}


def test_HYB_A2_shark_kraken_and_dolphin_are_standalone_cards_without_value() -> None:
    """HYB-A2: one Shark, one Kraken and two Dolphins, standalone and valueless; a second Shark can only be a
    Dolphin played as one."""
    info = {card["label"]: card for card in GAME.static_data(config())["cards"]}
    for label, count in (("SH", 1), ("KR", 1), ("DO", 2)):
        assert info[label]["count"] == count
        assert info[label]["value"] is None and info[label]["icon"] is None
    state = position("hands=SH,DO/?5/?5 deck=?")
    assert "air SH" not in legal(state) and "swim SH" not in legal(state)
    act(state, "shark SH>1", "shark DO>2")
    assert GAME.view(state, None)["piles"][2] == [{"kind": "shark", "face_down": False, "card": "DO"}]
