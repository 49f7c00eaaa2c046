"""Snorkeling in player words: the one log writer, action records, static data and the move table."""

from __future__ import annotations

from pathlib import Path

from divedeck.engine.records import render_parts
from divedeck.tui.snorkeling import describe_snorkeling_action

from .helpers import GAME, act, config, position
from .test_components import card_file


def line(events: list, kind: str, seat: int | None, names: list[str] | None = None) -> str:
    event = next(event for event in events if event.kind == kind)
    return render_parts(GAME.log_parts(event, seat), seat, names)


def test_SNK_R4_a_draw_reads_as_its_card_to_the_drawer_alone() -> None:
    """SNK-R4: the log line of a draw names the card for the seat that drew it, and ``??`` for every other."""
    state = position("hands=Y1,B3/?5/?5 center=Y3 deck=?,G4")
    events = act(state, "pass")
    draw = next(event for event in events if event.kind == "draw")
    assert {"card": "G4"} in GAME.log_parts(draw, 0)
    for viewer in (None, 1, 2):
        assert all("card" not in part for part in GAME.log_parts(draw, viewer))
    assert line(events, "draw", 0) == "you drew G4"
    assert line(events, "draw", 1, ["Ana", "Ben", "Cleo"]) == "Ana drew ??"


def test_SNK_R14_the_round_summary_names_the_beached_seat_and_every_top_card() -> None:
    """SNK-R10, SNK-R14: the round's end says whose pile got the Beach, what each seat scores and with which top card
    (a bare Lanternfish scores its value), from the event's own fields."""
    state = position("hands=Y1,G0/?5/?5/?5 center=Y3 piles=R4/R4,R3,R2,R1/-/- deck=?")
    events = act(state, "c Y1", "p G0>1")
    end = next(event for event in events if event.kind == "round_end")
    assert (end.beached, end.tops, end.gains) == (1, ("R4", "G0", None, None), (4, 0, 5, 5))
    assert line(events, "round_end", 1, ["Ana", "Ben", "Cleo", "Dan"]) == (
        "round 1 over: a Beach landed on your pile: Ana +4 with R4, you +0 with G0, Cleo +5 with the Lanternfish, "
        "Dan +5 with the Lanternfish. Totals: Ana 4, you 0, Cleo 5, Dan 5")


def test_action_records_name_cards_and_targets_in_player_words() -> None:
    state = position("hands=Y1,Y4,B4/?5/?5 center=Y3 deck=?")
    act(state, "c Y1")
    records = {record["notation"]: record for record in
               (GAME.action_record(state, 0, action) for action in GAME.legal_actions(state, 0))}
    assert records["c Y4"] == {"notation": "c Y4", "kind": "PlayCenter", "cards": ["Y4"], "target": None,
                               "label": "play yellow 4 (Ray) to the centre"}
    assert records["p B4>2"]["target"] == 2  # seats count from 0 in the wire, from 1 in words
    assert records["p B4>2"]["label"] == "play blue 4 (Ray) onto seat 3's pile"
    assert records["end"]["cards"] == [] and records["end"]["kind"] == "EndTurn"
    assert describe_snorkeling_action("p B4>2", ["Ana", "Ben", "Cleo"]) == "play blue 4 (Ray) onto Cleo's pile"


def test_SNK_C3_static_data_comes_from_the_configs_own_card_file(tmp_path: Path) -> None:
    """SNK-C3: a custom deck is drawn with its own colour names and letters, sent once as static data."""
    path = card_file(tmp_path, colors=(("coral", "C"), ("kelp", "K"), ("sand", "S"), ("ink", "I"), ("foam", "F")))
    static = GAME.static_data(config(cards=str(path)))
    assert [color["name"] for color in static["colors"]] == ["coral", "kelp", "sand", "ink", "foam"]
    assert static["cards"]["K3"] == "kelp 3 (Turtle)"
    assert (static["lanternfish_value"], static["target_score"], static["players"]) == (5, 12, 4)
    assert "colors" not in GAME.view(GAME.new(config(cards=str(path)), 1), 0)


def test_the_move_table_lists_pass_end_then_every_centre_and_pile_play() -> None:
    table = GAME.move_table(config(num_players=3))
    assert len(table) == 2 + 25 + 25 * 3
    assert [GAME.format_action(table.action(i)) for i in (0, 1, 2, 27, 28)] == [
        "pass", "end", "c Y0", "p Y0>0", "p Y0>1"]
