"""Bots by name: the difficulty levels (``levels.py``) first, for people choosing a bot, then the generic bots,
then the game's own (its ``bots`` declaration). Every name is read from the game's declarations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.errors import ConfigError
from ..engine.game import Game
from ..engine.registry import get_game
from .base import Bot, RandomBot
from .learned import DESCRIPTION as LEARNED_DESCRIPTION
from .learned import NAME as LEARNED
from .learned import LearnedBot, check_players, players_offered
from .levels import DESCRIPTIONS, level_names, make_level

# The generic bots are turn-based: a real-time game accepts them (a simulation may want a baseline) but does not
# offer them, since one that acts at random stalls a table that waits for everyone.
_GENERIC: dict[str, Callable[[int], Bot]] = {"random": RandomBot}
_GENERIC_DESCRIPTIONS = {"random": "plays a random legal move"}


def _level_offered(game: Game[Any, Any], level: str) -> bool:
    """A level played by one of the game's own bots is offered only where that bot is (a bot that cannot play
    the game for people yet is not offered under a level's name either)."""
    name = getattr(game.levels, level, None) if level in ("easy", "medium") else None
    if name is None and game.realtime and level == "medium":
        name = next(iter(game.bots), None)  # a real-time game's medium is its first bot
    entry = game.bots.get(name) if name is not None else None
    return entry is None or entry.offered


def _learned(game: Game[Any, Any]) -> list[str]:
    """``learned`` for a game that ships a trained policy (``Game.learned``), else nothing."""
    return [LEARNED] if game.learned else []


def bot_names(game_name: str) -> list[str]:
    """The bots offered to people for ``game_name``. ``learned`` plays only the player counts it was trained for:
    ``check_bot_players`` says so before a table is made."""
    game = get_game(game_name)
    generic = [] if game.realtime else list(_GENERIC)
    levels = [level for level in level_names(game) if _level_offered(game, level)]
    return [*levels, *_learned(game), *generic, *(name for name, entry in game.bots.items() if entry.offered)]


def bot_player_counts(game_name: str) -> dict[str, list[int]]:
    """The offered bots that play only some player counts, with those counts (the lobby offers them only there)."""
    game = get_game(game_name)
    return {LEARNED: list(players_offered(game))} if LEARNED in bot_names(game_name) else {}


def check_bot_players(game_name: str, bot_names: Any, players: int) -> None:
    """Raise ``ConfigError`` (one line) if one of ``bot_names`` cannot play ``game_name`` with ``players`` players
    (``learned`` plays only the player counts it was trained for)."""
    for name in dict.fromkeys(bot_names):
        check_players(game_name, name, players)


def accepted_bot_names(game_name: str) -> list[str]:
    """Every bot name ``make_bot`` takes for ``game_name``: those offered, then those kept for simulations."""
    game = get_game(game_name)
    offered = bot_names(game_name)
    return [*offered, *(name for name in [*level_names(game), *_GENERIC, *game.bots] if name not in offered)]


def bot_descriptions(game_name: str) -> dict[str, str]:
    """A line per offered bot that has one, for the lobby's choices."""
    game = get_game(game_name)
    counts = " or ".join(str(n) for n in players_offered(game))
    lines = {**DESCRIPTIONS, **_GENERIC_DESCRIPTIONS, LEARNED: f"{LEARNED_DESCRIPTION}; {counts} players only",
             **{name: entry.description for name, entry in game.bots.items() if entry.description}}
    return {name: lines[name] for name in bot_names(game_name) if name in lines}


def make_bot(game_name: str, bot_name: str, seed: int = 0) -> Bot:
    """A new bot called ``bot_name`` for ``game_name``, seeded with ``seed``; unknown names raise ``ConfigError``."""
    game = get_game(game_name)
    entry = game.bots.get(bot_name)
    if entry is not None:
        return entry.factory(seed)  # type: ignore[no-any-return]
    if bot_name in level_names(game):
        return make_level(game, bot_name, seed)
    if bot_name == LEARNED and game.learned:
        return LearnedBot(seed)
    if bot_name in _GENERIC:
        return _GENERIC[bot_name](seed)
    raise ConfigError(f"unknown bot {bot_name!r} for {game.title}; the bots offered are: "
                      f"{', '.join(bot_names(game_name))}")
