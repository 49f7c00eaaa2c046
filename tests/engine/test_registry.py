"""The registry of games by name."""

from __future__ import annotations

import pytest

from divedeck.engine import ConfigError, Game, UnknownGame, game_names, get_game


def test_snorkeling_is_registered() -> None:
    assert "snorkeling" in game_names()
    game = get_game("snorkeling")
    assert isinstance(game, Game)
    assert game.name == "snorkeling"
    assert get_game("snorkeling") is game


@pytest.mark.parametrize("name", ["nope", "", "Snorkeling", "snorkeling "])
def test_an_unknown_game_name_raises_unknown_game_listing_the_games(name: str) -> None:
    with pytest.raises(UnknownGame, match="snorkeling") as caught:
        get_game(name)
    assert isinstance(caught.value, ConfigError)


def test_every_registered_game_has_a_name_and_title() -> None:
    for name in game_names():
        game = get_game(name)
        assert game.name == name
        assert game.title
        assert game.num_players(game.make_config()) >= 1
