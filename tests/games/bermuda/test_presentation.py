"""Bermuda in player words: the one log writer (browser and terminal alike), the legal actions' records and the
static data a page gets once."""

from __future__ import annotations

import re

from divedeck.engine import Event
from tests.conformance import playout

from .helpers import GAME, config, diving, play, position

TREASURE_ID = re.compile(r"\bT\d\d\b")


def every_event() -> list[tuple[Event, int]]:
    """The events of seeded games under every variant, and of a chained layout closing full, with player counts."""
    found: list[tuple[Event, int]] = []
    for options, seed in (({"num_players": 2, "sorting": "every_round", "countdown_ms": 2250}, 1),
                          ({"num_players": 3, "hidden_treasures": True, "max_dive_ms": 9000}, 2),
                          ({"num_players": 1}, 3),
                          ({"num_players": 2, "single_breath_challenge": True}, 4),
                          ({"num_players": 2, "single_breath_challenge": True, "single_breath_mode": "one_round"}, 5)):
        cfg = config(**options)
        opening = GAME.new_with_events(cfg, seed)[1]
        events = list(opening) + [e for step in playout(GAME, cfg, seed)[0] for e in step.events]
        found += [(event, cfg.num_players) for event in events]
    chained = position("phase=dive t0=0 hands=12345?3/98765?3 layout=T01,T02", single_breath_challenge=True)
    found += [(event, 2) for event in play(chained, *(f"0 lay {v} c1 @{v}" for v in range(1, 6)),
                                           *(f"1 lay {v} c2 @{20 - v}" for v in range(9, 4, -1)))]
    return found


def test_every_kind_of_event_reads_as_words_naming_treasures_never_by_id() -> None:
    """The log writer covers every event kind, for every seat and a spectator, and names treasures (BRM-C3)."""
    events = every_event()
    assert {event.kind for event, _ in events} == {
        "round_start", "hold", "countdown", "release", "dive_start", "sort", "lay", "signal", "time_up",
        "round_end", "layout_end", "layout_start", "game_over"}
    for event, players in events:
        for viewer in (None, *range(players)):
            line = GAME.format_event(event, viewer)
            assert line and not line.startswith(event.kind + " "), line
            assert not TREASURE_ID.search(line), line


def test_a_hand_in_the_log_is_shown_to_its_owner_alone() -> None:
    """BRM-R3.3: the deal's line shows each seat its own hand, as card parts; a spectator reads no hand."""
    state, opening = GAME.new_with_events(config(num_players=2), 9)
    (deal,) = opening
    own = [part["card"] for part in GAME.log_parts(deal, 0) if "card" in part]
    assert [int(value) for value in own] == GAME.view(state, 0)["hand"]
    assert "your hand" not in GAME.format_event(deal, None)
    assert not [part for part in GAME.log_parts(deal, None) if "card" in part]


def test_seats_are_parts_so_each_page_names_them() -> None:
    state = diving("12/34", "T05,T21")
    (lay,) = play(state, "1 lay 3 c2 @10")
    assert GAME.log_parts(lay, 0)[0] == {"seat": 1}
    assert GAME.format_event(lay, 0, ["Ann", "Bo"]) == "Bo laid 3 under the Chest of doubloons (column 2)"
    assert GAME.format_event(lay, 1) == "you laid 3 under the Chest of doubloons (column 2)"


def test_legal_actions_are_records_with_cards_targets_and_labels_in_player_words() -> None:
    """BRM-R12, BRM-R14: a lay names its card and column (the target), a gesture its column."""
    state = diving("12/34", "T05,T21")
    records = {r["notation"]: r for r in (GAME.action_record(state, 0, a) for a in GAME.legal_actions(state, 0))}
    assert records["lay 2 c1"] == {"notation": "lay 2 c1", "kind": "lay", "cards": ["2"], "target": 1,
                                   "label": "lay 2 under the Pearl necklace (column 1)"}
    assert records["signal c2"]["label"] == "point at the Chest of doubloons (column 2)"
    assert records["release"]["label"] == "breathe: the dive ends for everyone"


def test_static_data_holds_the_treasure_table_and_the_meaning_of_the_boards_symbols() -> None:
    """BRM-C3: the page draws treasures from the config's own table; the view keeps only what changes."""
    static = GAME.static_data(config())
    assert len(static["treasures"]) == 28 and static["treasures"][4]["name"] == "Pearl necklace"
    assert {"⇣", "♆"} <= set(static["symbols"])
    view = GAME.view(GAME.new(config(), 1), 0)
    assert not {"countdown_ms", "max_dive_ms", "sorting", "hidden_treasures", "placement_check"} & set(view)
