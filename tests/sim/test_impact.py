"""Card and action impact (issue 25 item 11; Jaffe et al., AIIDE 2012): each game declares its kinds of card or
action; a report counts their plays and the win share of those who play them, and ``report --impact`` bars one
side at a time from each kind, on the same deals, and shows the change in its win share. Small runs, seconds."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.engine import get_game
from divedeck.sim import GameResult, SimulationSpec, simulate
from divedeck.sim import report as rp
from divedeck.sim.impact import BarredBot, card_impact, card_kinds, kind_change
from divedeck.sim.sides import Sides

HYH_SMALL = {"deck_size": 16}


def _plays(game: str, action_text: str, options: dict | None = None) -> tuple[str, ...]:
    g = get_game(game)
    kinds = g.metrics.card_kinds
    return tuple(kinds.of_action(g.make_config(options or {}), g.parse_action(action_text)))


def test_each_game_declares_the_kinds_the_issue_names_and_what_each_action_plays() -> None:
    assert card_kinds("snorkeling", {}) == ["yellow", "red", "green", "blue", "purple",
                                            "value 0", "value 1", "value 2", "value 3", "value 4"]
    assert _plays("snorkeling", "p R2>1") == ("red", "value 2")
    assert _plays("snorkeling", "c Y0") == ("yellow", "value 0")
    assert _plays("snorkeling", "pass") == () and _plays("snorkeling", "end") == ()
    assert card_kinds("hold-your-breath", {}) == ["draw", "discard", "calm", "panic", "shark", "kraken", "mass",
                                                  "Shark card", "Kraken card", "Dolphin card"]
    assert _plays("hold-your-breath", "panic A5P>1") == ("panic",)
    assert _plays("hold-your-breath", "kraken KR>2") == ("kraken", "Kraken card")
    assert _plays("hold-your-breath", "air DO 10") == ("Dolphin card",)
    assert _plays("hold-your-breath", "air A5D") == () and _plays("hold-your-breath", "gasp S5D") == ()
    assert card_kinds("hold-your-hat", {}) == ["binoculars", "raid", "theft", "skip", "extra time"]
    assert _plays("hold-your-hat", "raid B") == ("raid",) and _plays("hold-your-hat", "start") == ()
    assert card_kinds("bermuda", {}) == []


def test_a_barred_bot_never_plays_its_kind_while_it_has_another_choice() -> None:
    plain = simulate(SimulationSpec("snorkeling", ("greedy",) * 4, {}, 1, measure=True), 2, workers=1)
    barred = simulate(SimulationSpec("snorkeling", ("greedy",) * 4, {}, 1, measure=True, barred=((0,), "red")), 2,
                      workers=1)
    for before, after in zip(plain, barred, strict=True):
        assert before.details["metrics"]["plays"][0].get("red", 0) > 0  # it plays red when it may
        assert after.details["metrics"]["plays"][0].get("red", 0) == 0
        assert after.details["metrics"]["plays"][1].get("red", 0) > 0  # the others play as usual


def test_a_real_time_team_barred_from_a_special_waits_instead_both_its_seats_barred() -> None:
    spec = SimulationSpec("hold-your-hat", ("words",) * 4, HYH_SMALL, 0, measure=True)
    plain = simulate(spec, 3, workers=1)
    assert sum(p.get("raid", 0) for r in plain for p in r.details["metrics"]["plays"][2:]) > 0
    barred = simulate(SimulationSpec("hold-your-hat", ("words",) * 4, HYH_SMALL, 0, measure=True,
                                     barred=((2, 3), "raid")), 3, workers=1)
    assert sum(p.get("raid", 0) for r in barred for p in r.details["metrics"]["plays"][2:]) == 0
    assert [r.scores for r in barred] != [r.scores for r in plain]


def test_the_bar_lifts_when_the_kind_is_all_a_turn_based_bot_may_do() -> None:
    class First:
        name = "first"

        def choose(self, decision):
            return decision.legal[0]

    from divedeck.engine.decision import Decision

    bot = BarredBot(First(), "red", lambda action: ("red",) if action.startswith("R") else ())
    decision = Decision(None, 0, {}, ["R1", "pass"], lambda rng: None)  # type: ignore[arg-type]
    assert bot.choose(decision) == "pass"
    assert bot.choose(Decision(None, 0, {}, ["R1", "R2"], lambda rng: None)) == "R1"  # type: ignore[arg-type]
    assert not hasattr(bot, "plan")  # a turn-based bot stays one


def test_the_change_is_the_barred_sides_share_against_the_same_deal_unbarred() -> None:
    sides = Sides(("seat 0", "seat 1"), ((0,), (1,)))

    def game(i: int, winner: int) -> GameResult:
        return GameResult(i, ("b", "b"), (winner,), (0.0, 0.0), 10 + winner, {})

    baseline = [game(i, i % 2) for i in range(40)]  # each seat wins half the deals
    # Barred seat 0 loses every deal; barred seat 1 still wins its deals.
    barred = [[game(i, 1) for i in range(40)], [game(i, i % 2) for i in range(40)]]
    row = kind_change(baseline, barred, sides)
    assert row["change"] == pytest.approx(-25.0)  # (-50 + 0) / 2 points, per deal on average
    assert row["ci95_high"] < 0 and row["p_value"] < 0.01
    assert row["barred_share"] == pytest.approx(0.25) and row["unbarred_share"] == pytest.approx(0.5)
    assert row["changed_games"] == pytest.approx(0.25)  # 20 of the 80 barred games came out different


def test_barring_a_colour_costs_a_snorkeling_seat_and_the_report_shows_it(tmp_path) -> None:
    impact = card_impact("snorkeling", {"num_players": 2}, ["greedy", "greedy"], 12, seed=2, workers=1)
    assert impact["applies"] and impact["games_played"] == 10 * 2 * 12
    rows = {row["kind"]: row for row in impact["kinds"]}
    assert list(rows) == card_kinds("snorkeling", {})
    assert rows["purple"]["ci95_high"] < 0  # a seat that may never play purple can never empty its hand
    spec = SimulationSpec("snorkeling", ("greedy", "greedy"), {"num_players": 2}, 2, measure=True)
    results = simulate(spec, 12, workers=1)
    built = rp.build(spec, results, {"num_players": 2}, impact=impact)
    assert built["command"].endswith("--impact 12")
    assert {f["id"] for f in built["figures"]} >= {"plays", "impact"}
    names = {q["name"] for q in built["quantities"]}
    assert {"plays.red", "plays.value 4", "plays.red.win"} <= names
    page = rp.render_html(built)
    assert "Card and action impact" in page and "change when a seat is barred" in page
    assert "win share (unbarred)" in page
    assert "(nearly every player played it)" in page  # every seat plays every colour: its share says nothing


def test_report_impact_prints_the_table_and_without_it_the_page_says_how(tmp_path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["report", "hold-your-breath", "--games", "6", "--workers", "1", "--symmetry", "0",
                               "--impact", "2", "--out", str(tmp_path / "r.html")])
    assert done.exit_code == 0, done.output
    assert "Card and action impact" in done.output and "barred in turn" in done.output
    assert "Dolphin card" in done.output
    built = json.loads((tmp_path / "r.json").read_text())
    assert [row["kind"] for row in built["impact"]["kinds"]][:2] == ["draw", "discard"]
    plain = runner.invoke(app, ["report", "hold-your-breath", "--games", "6", "--workers", "1", "--symmetry", "0",
                                "--out", str(tmp_path / "p.html")])
    assert plain.exit_code == 0, plain.output
    assert "--impact DEALS" in (tmp_path / "p.html").read_text()
    assert "impact" not in json.loads((tmp_path / "p.json").read_text())


def test_a_cooperative_game_has_no_impact_to_measure() -> None:
    impact = card_impact("bermuda", {}, ["diver", "diver", "diver"], 2, workers=1)
    assert not impact["applies"] and "cooperative" in impact["why"]
