"""Each game's rules sheet (sent in the static data) is complete: a goal, turn steps, every card kind of the game's
own static data, a legend for its symbols, the variant in play, and no rule ids or notation codes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from divedeck.engine.game import CLOCK
from divedeck.engine.registry import get_game

GAMES = ("bermuda", "hold-your-breath", "hold-your-hat", "snorkeling")


def sheet_text(sheet: dict[str, Any]) -> str:
    parts = [sheet["goal"], *sheet["variant"]]
    for section in sheet["sections"]:
        parts += [section["title"], *section["items"]]
    for entry in sheet["cards"]:
        parts += [entry["name"], entry["text"]]
    for entry in sheet["legend"]:
        parts += [entry["symbol"], entry["meaning"]]
    return "\n".join(parts)


def card_kinds(name: str, static: dict[str, Any]) -> list[str]:
    """The names of every kind of card the game's static data lists (what the sheet must name)."""
    if name == "bermuda":
        return ["Diver card", "Treasure card", *(t["name"] for t in static["treasures"])]
    if name == "hold-your-breath":
        return [c["name"] for c in static["cards"]]
    if name == "hold-your-hat":
        return ["Word card", *(s["name"] for s in static["specials"])]
    return [*static["value_names"], static["lanternfish_name"]]


@pytest.mark.parametrize("name", GAMES)
def test_sheet_is_complete(name: str) -> None:
    game = get_game(name)
    static = game.static_data(game.make_config())
    sheet = static["rules"]
    assert sheet["title"] == game.title
    assert sheet["goal"] and sheet["sections"] and sheet["variant"] and sheet["legend"]
    assert all(section["items"] for section in sheet["sections"])
    card_names = "\n".join(entry["name"] for entry in sheet["cards"])
    text = sheet_text(sheet)
    for kind in card_kinds(name, static):
        assert kind in text, f"{name}: the sheet does not name {kind}"
    assert card_names
    assert not re.search(r"\b[A-Z]{3}-[A-Z]+\d+\b", text), "rule ids in the sheet"
    assert " ms" not in text and "_" not in text


def test_symbols_have_a_legend() -> None:
    bermuda = get_game("bermuda")
    symbols = bermuda.static_data(bermuda.make_config())["symbols"]
    legend = {e["symbol"] for e in bermuda.static_data(bermuda.make_config())["rules"]["legend"]}
    assert set(symbols) <= legend
    snk = get_game("snorkeling")
    static = snk.static_data(snk.make_config())
    assert {c["symbol"] for c in static["colors"]} <= {e["symbol"] for e in static["rules"]["legend"]}
    hyb = get_game("hold-your-breath")
    static = hyb.static_data(hyb.make_config())
    legend = {e["symbol"] for e in static["rules"]["legend"]}
    assert set(static["icons"].values()) <= legend
    kinds = {c["kind"] for c in static["cards"]} | {c["icon"] for c in static["cards"] if c["icon"]}
    assert kinds <= set(static["icons"])


def test_variant_follows_the_options() -> None:
    game = get_game("snorkeling")
    plain = game.static_data(game.make_config())["rules"]["variant"]
    expert = game.static_data(game.make_config({"expert_diving": True}))["rules"]["variant"]
    assert any("Expert Diving:" in line for line in expert) and not any("Expert Diving:" in line for line in plain)
    brm = get_game("bermuda")
    hidden = brm.static_data(brm.make_config({"hidden_treasures": True}))["rules"]["variant"]
    assert any("face down" in line for line in hidden)


@pytest.mark.parametrize("name", [n for n in GAMES if get_game(n).guide])
def test_guided_game_ends_by_following_the_hints(name: str) -> None:
    """The declared deal, played by doing what each seat's hint says, reaches the end in a short game, and every hint
    that names a move names a legal one, in words."""
    game = get_game(name)
    guide = game.guide
    assert guide is not None and guide["intro"] and guide["seats"][0]["kind"] == "human"
    config = game.make_config(game.with_players(dict(guide["options"]), len(guide["seats"])))
    state = game.new(config, guide["seed"])
    moves = now = 0  # a real-time game's moves come a fifth of a second apart; when nobody acts, time passes
    while game.outcome(state) is None:
        assert moves < 2000, "the guided game does not end"
        for seat in range(len(guide["seats"])):
            hint = game.guide_hint(state, seat)
            assert hint is not None and hint["text"]
            if hint["notation"]:
                legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
                action = game.parse_action(hint["notation"])  # a typed one (a clue, a guess) is checked by apply
                typed = getattr(action, "free_text", False)
                assert (hint["notation"] in legal or typed) and "Good move:" in hint["text"]
                now += 200
                game.apply(state, seat, game.at(action, now))
                moves += 1
                break
        else:
            deadline = game.deadline(state) if game.realtime else None
            if deadline is None:
                pytest.fail(f"no seat has a hinted move: {game.guide_hint(state, 0)}")
            now = max(now, min(deadline, now + 1000))  # a player waits a second, or until the next deadline
            game.apply(state, CLOCK, game.tick(now))
    hint = game.guide_hint(state, 0)
    assert hint is not None and "over" in hint["text"] and hint["notation"] is None
    assert moves > 5
