"""What the server sends in player words: legal actions as records, log lines as parts, the static data of a config.
The browser renders these as they are, so the rule fragments it used to hold are checked here, in Python."""

from __future__ import annotations

from divedeck.engine.records import render_parts

from .helpers import GAME, T0, act, config, small, started, tick


def records(state: object, seat: int) -> dict[str, dict[str, object]]:
    return {GAME.format_action(a): dict(GAME.action_record(state, seat, a)) for a in GAME.legal_actions(state, seat)}


def line(events: list, kind: str, seat: int | None) -> str:
    event = next(e for e in events if e.kind == kind)
    return render_parts(GAME.log_parts(event, seat), seat)


def test_HYH_R30_the_extra_time_record_counts_the_words_the_deck_still_holds() -> None:
    """HYH-R30: EXTRA TIME draws up to extra_time_words cards, no more than the deck holds: the label says how many."""
    state = started(3, "held=E/-")
    act(state, 0, "got A", 2000)
    tick(state, T0 + 60_000)
    assert records(state, 1)["extra"]["label"] == "Play EXTRA TIME (1 more word)"
    state = started(10, "held=E/-")
    tick(state, T0 + 60_000)
    assert records(state, 1)["extra"] == {"notation": "extra", "kind": "extratime", "cards": [], "target": None,
                                          "label": "Play EXTRA TIME (3 more words)"}


def test_records_name_the_team_a_confirmation_is_for() -> None:
    state = started(5, "raiders=B held=-/T")
    got = records(state, 0)
    assert got["got A"]["label"] == "Got it!" and got["got B"]["label"] == "Team B got it (RAID)"
    assert got["got B"]["target"] == 1
    assert records(state, 2)["theft B ?"]["kind"] == "theft"


def test_HYH_R11_order_records_carry_the_peeked_words_for_the_clue_giver() -> None:
    """HYH-R11: arranging the BINOCULARS cards, each order's record lists the words in their new order."""
    state = small(3, "held=B/-")
    act(state, 1, "binoculars", 0)
    assert records(state, 0)["order 3,1,2"]["cards"] == ["w003-orange", "w001-orange", "w002-orange"]


def test_HYH_R5_log_lines_show_the_word_to_the_clue_giver_alone() -> None:
    """HYH-R5: the log writer reads the event as the seat received it: the word reaches the clue-giver only."""
    state = small(5)
    events = act(state, 0, "start", T0)
    assert line(events, "word", 0) == "your word: \u201cw001-orange\u201d"
    for seat in (None, 1, 2, 3):
        assert "w001" not in line(events, "word", seat)
    right = act(state, 1, 'guess "w001-orange"', 2000)
    assert "w001" in line(right, "guess", 1) and "w001" not in line(right, "guess", 2)
    assert line(events, "timer", 0) == "you started the timer"


def test_static_data_comes_from_the_config() -> None:
    data = GAME.static_data(config(num_players=6, teams=3, rounds=2, deck_size=20))
    assert [t["name"] for t in data["teams"]] == ["Team A", "Team B", "Team C"]
    assert [t["members"] for t in data["teams"]] == [[0, 1], [2, 3], [4, 5]]
    assert [r["name"] for r in data["rounds"]] == ["Describe", "One word"]
    assert data["words"] == {"language": "en", "cards": 147, "in_game": 20}
    assert "party" in data and "turn_ms" not in GAME.view(GAME.new(config(), 1), None)
