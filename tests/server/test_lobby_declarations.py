"""What /api/games tells a lobby (issue 14, item 2): presets declared by the games, and only bots that play their
game for people."""

from __future__ import annotations

from divedeck.engine.registry import game_names, get_game

from .conftest import Harness


def test_every_preset_sets_declared_options_to_a_valid_table_and_names_a_frontend_of_its_game(app: Harness) -> None:
    games = app.client.get("/api/games").json()["games"]
    for declared in games:
        game = get_game(declared["name"])
        names = {option["name"] for option in declared["options"]}
        assert len(declared["presets"]) == len(game.presets)
        for preset in declared["presets"]:
            assert preset["title"] and preset["help"] and preset["frontend"] in declared["frontends"]
            assert set(preset["options"]) <= names, preset
            players = preset["players"] or declared["default_players"]
            game.make_config(game.with_players(dict(preset["options"]), players))


def test_hold_your_hat_offers_a_party_and_an_online_preset_and_its_word_bots(app: Harness) -> None:
    """Its word bots give clues and guess: a lobby offers them at three levels; the team bot (no clues) is not
    offered, so a table may not seat it."""
    declared = {g["name"]: g for g in app.client.get("/api/games").json()["games"]}["hold-your-hat"]
    assert [(p["title"], p["frontend"], p["options"]) for p in declared["presets"]] == [
        ("Party (one screen)", "shared-screen", {"party": True}), ("Online teams", "browser", {"party": False})]
    assert declared["bots"][:3] == ["easy", "medium", "hard"] and "team" not in declared["bots"]
    refused = app.client.post("/api/tables", json={"game": "hold-your-hat", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "team"}]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_seats"
    made = app.client.post("/api/tables", json={"game": "hold-your-hat", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "medium"},
        {"kind": "bot", "bot": "easy"}]})
    assert made.status_code in (200, 201), made.text


def test_no_lobby_is_offered_an_internal_bot(app: Harness) -> None:
    """The stand-ins that keep a table moving, and the random bot of a real-time game (it stalls countdowns), are
    accepted by name for simulations but never listed for people."""
    for declared in app.client.get("/api/games").json()["games"]:
        game = get_game(declared["name"])
        unoffered = {name for name, entry in game.bots.items() if not entry.offered}
        assert not unoffered & set(declared["bots"]), declared["name"]
        assert game.levels.stand_in not in unoffered or declared["default_bot"] is None
        if game.realtime:
            assert "random" not in declared["bots"]
    assert {g["name"] for g in app.client.get("/api/games").json()["games"]} == set(game_names())


def test_a_bot_trained_for_some_player_counts_is_declared_with_them(app: Harness) -> None:
    """Issue 28: the lobby learns from /api/games which player counts ``learned`` plays (the ones it was trained
    for); bots that play any count are not listed there."""
    declared = {g["name"]: g for g in app.client.get("/api/games").json()["games"]}
    for name in ("snorkeling", "hold-your-breath"):
        assert declared[name]["bot_players"] == {"learned": sorted(get_game(name).learned)}
        assert "learned" in declared[name]["bots"]
    assert declared["bermuda"]["bot_players"] == {}
