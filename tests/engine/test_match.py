"""Matches: starting, acting, saving, loading and replaying, and every way a saved game can be wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from divedeck.engine import ConfigError, IllegalAction, Match, SaveError, get_game

GAME = get_game("snorkeling")


def played(seed: int = 3, actions: int = 40, options: dict[str, Any] | None = None) -> Match:
    """A match with ``actions`` random actions applied."""
    match = Match.start("snorkeling", options or {"num_players": 3}, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        (seat,) = GAME.actors(match.state)
        match.act(seat, rng.choice(list(GAME.legal_actions(match.state, seat))))
    return match


def saved(tmp_path: Path, record: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# -- the happy path ---------------------------------------------------------------------------------------------


def test_a_saved_match_loads_as_the_same_game(tmp_path: Path) -> None:
    match = played()
    path = tmp_path / "game.json"
    match.save(path)
    assert not list(tmp_path.glob("*.tmp"))  # written atomically, no temporary left behind
    loaded = Match.load(path)
    assert GAME.state_notation(loaded.state) == GAME.state_notation(match.state)
    assert loaded.actions == match.actions
    assert (loaded.seed, loaded.config) == (match.seed, match.config)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (record["format"], record["version"], record["game"]) == ("divedeck-game", 2, "snorkeling")
    assert record["options"] == {"num_players": 3}


def test_a_save_records_the_seats_and_a_version_1_save_loads_without_them(tmp_path: Path) -> None:
    match = played(actions=6)
    match.seats = ["you", "you", "random"]
    assert Match.load(saved(tmp_path, match.to_record())).seats == ["you", "you", "random"]
    old = match.to_record()
    old["version"] = 1
    del old["seats"]
    loaded = Match.load(saved(tmp_path, old, "old.json"))
    assert loaded.seats is None and loaded.actions == match.actions


@pytest.mark.parametrize("seats", [["you", "greedy"], "you,you,greedy", ["you", 1, "greedy"], {}])
def test_loading_seats_that_do_not_fit_the_game_fails_clearly(tmp_path: Path, seats: Any) -> None:
    record = played(actions=3).to_record()
    record["seats"] = seats
    with pytest.raises(SaveError, match="seats"):
        Match.load(saved(tmp_path, record))


def test_a_replayed_match_is_the_logged_moves_from_the_seed() -> None:
    match = played(actions=12)
    match.seats = ["you", "greedy", "greedy"]
    again = match.replayed()
    assert again.actions == match.actions and again.digest() == match.digest() and again.seats == match.seats
    assert again.state is not match.state


def test_saving_again_replaces_the_file(tmp_path: Path) -> None:
    match = played(actions=10)
    path = tmp_path / "game.json"
    match.save(path)
    (seat,) = GAME.actors(match.state)
    match.act(seat, GAME.legal_actions(match.state, seat)[0])
    match.save(path)
    assert len(Match.load(path).actions) == 11


def test_a_refused_action_is_not_logged() -> None:
    match = played(actions=5)
    before = (GAME.state_notation(match.state), list(match.actions))
    (seat,) = GAME.actors(match.state)
    with pytest.raises(IllegalAction):
        match.act((seat + 1) % 3, GAME.legal_actions(match.state, seat)[0])
    assert (GAME.state_notation(match.state), match.actions) == before


def test_actions_may_be_given_as_notation() -> None:
    match = Match.start("snorkeling", {}, 1)
    match.act(0, "pass")
    assert match.actions == [(0, GAME.parse_action("pass"))]


# -- a corrupted save --------------------------------------------------------------------------------------------


def test_loading_a_file_that_is_not_json_fails_clearly(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{ this is not json", encoding="utf-8")
    with pytest.raises(SaveError, match="invalid JSON"):
        Match.load(path)


def test_loading_a_file_that_is_not_utf8_fails_clearly(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b'{"format": "divedeck-game", "x": "\xff\xfe\x80"}')
    with pytest.raises(SaveError, match="UTF-8"):
        Match.load(path)


def test_loading_a_missing_file_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot read"):
        Match.load(tmp_path / "nowhere.json")


@pytest.mark.parametrize("record", [[], "a string", 42, None, {}, {"format": "chess-pgn", "version": 1}])
def test_loading_something_that_is_not_a_divedeck_save_fails_clearly(tmp_path: Path, record: Any) -> None:
    with pytest.raises(SaveError, match="not a divedeck saved game"):
        Match.load(saved(tmp_path, record))


@pytest.mark.parametrize("version", [3, 0, "1", "2", True, None])
def test_loading_an_unknown_version_fails_clearly(tmp_path: Path, version: Any) -> None:
    record = played(actions=3).to_record()
    record["version"] = version
    with pytest.raises(SaveError, match="version"):
        Match.load(saved(tmp_path, record))


def test_loading_an_unknown_game_fails_clearly(tmp_path: Path) -> None:
    record = played(actions=3).to_record()
    record["game"] = "nope"
    with pytest.raises(SaveError, match="nope"):
        Match.load(saved(tmp_path, record))


@pytest.mark.parametrize(("change", "words"), [
    ({"options": {"num_players": 9}}, "cannot be set up"),
    ({"options": {"colour": "red"}}, "colour"),
    ({"options": ["num_players", 3]}, "options"),
    ({"seed": -1}, "seed"),
    ({"seed": "7"}, "seed"),
    ({"actions": "pass, pass"}, "actions"),
])
def test_loading_bad_settings_fails_clearly(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    record = played(actions=3).to_record()
    record.update(change)
    with pytest.raises(SaveError, match=words):
        Match.load(saved(tmp_path, record))


def test_loading_an_illegal_action_in_the_log_fails_clearly(tmp_path: Path) -> None:
    record = played(actions=12).to_record()
    seat, _ = record["actions"][5]
    record["actions"][5] = [(seat + 1) % 3, "pass"]  # not that seat's turn
    record.pop("digest")
    with pytest.raises(SaveError, match="action 5"):
        Match.load(saved(tmp_path, record))


@pytest.mark.parametrize("entry", [["0", "pass"], [0], [0, "pass", 1], "pass", [0, 7], [0, "fly away"]])
def test_loading_a_malformed_log_entry_fails_clearly(tmp_path: Path, entry: Any) -> None:
    record = played(actions=6).to_record()
    record["actions"][2] = entry
    with pytest.raises(SaveError, match="action 2"):
        Match.load(saved(tmp_path, record))


def test_loading_a_save_with_a_tampered_digest_fails_clearly(tmp_path: Path) -> None:
    record = played(actions=8).to_record()
    record["digest"] = "0" * 64
    with pytest.raises(SaveError, match="corrupted"):
        Match.load(saved(tmp_path, record))


def test_loading_a_save_whose_actions_were_cut_fails_on_the_digest(tmp_path: Path) -> None:
    record = played(actions=8).to_record()
    record["actions"] = record["actions"][:-1]
    with pytest.raises(SaveError, match="corrupted"):
        Match.load(saved(tmp_path, record))


# -- starting a match ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, -(2**70), 2**63, "7", 1.5, None, True, [1]])
def test_a_seed_must_be_a_whole_number_from_0(seed: Any) -> None:
    with pytest.raises(ConfigError, match="seed"):
        Match.start("snorkeling", {}, seed)


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1])
def test_any_seed_from_0_to_2_63_works(seed: int) -> None:
    assert Match.start("snorkeling", {}, seed).seed == seed


def test_starting_an_unknown_game_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="nope"):
        Match.start("nope", {}, 1)
