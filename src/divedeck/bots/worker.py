"""What a bot worker process runs: one bot's move, from what its seat may know (the server's pool is
``server/bot_workers.py``). Nothing of the server is imported here, so a worker holds the games and the bots only.

A worker is sent the game's name, the config's options, the seat, the state in the game's state notation, and
the bot. It calls ``decide`` as the server would, and ``decide`` gives the bot only the seat's view, legal actions
and a determinizer of the seat's knowledge (bot code never reads the state itself), so a bot in a worker knows
what it would know in the server and no more. It answers the action's notation and the bot as it is after
choosing (its generator moved on), which replaces the caller's copy: a seed plays the same moves in a worker as in
the caller's process.

The bot travels pickled. What a game declares for its searches (a rollout evaluator, often a closure) is built when
the game is imported, in every process alike, so it is sent by name (pickle's persistent ids), not by value.
"""

from __future__ import annotations

import io
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import threading
from functools import cache
from typing import Any

from ..engine.registry import game_names, get_game
from .base import Bot, decide

Options = tuple[tuple[str, Any], ...]


@cache
def _declared() -> dict[tuple[str, str], Any]:
    """What games declare for searches that does not pickle by value, by (game, what)."""
    found: dict[tuple[str, str], Any] = {}
    for name in game_names():
        cutoff = get_game(name).levels.hard_cutoff
        if cutoff is not None:
            found[name, "hard_cutoff.evaluator"] = cutoff.evaluator
    return found


@cache
def _declared_ids() -> dict[int, tuple[str, str]]:
    return {id(value): key for key, value in _declared().items()}


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> tuple[str, str] | None:
        return _declared_ids().get(id(obj))


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        return _declared()[tuple(pid)]  # type: ignore[index]


def dumps(bot: Bot) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, pickle.HIGHEST_PROTOCOL).dump(bot)
    return buffer.getvalue()


def loads(data: bytes) -> Bot:
    bot: Bot = _Unpickler(io.BytesIO(data)).load()
    return bot


def start() -> None:
    """A worker's set-up (a process pool's initializer)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the caller stops us
    parent = multiprocessing.parent_process()
    if parent is not None:
        # A caller killed outright never tells its pool to stop, and a pool's worker would wait for work forever.
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()
    for name in game_names():
        get_game(name)  # imported now rather than during the first move


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


@cache
def _config(game_name: str, options: Options) -> Any:
    return get_game(game_name).make_config(dict(options))


def think(game_name: str, options: Options, notation: str, seat: int, bot_data: bytes) -> tuple[str, bytes]:
    """The notation of the bot's action for ``seat``, and the bot after choosing it."""
    game = get_game(game_name)
    state = game.parse_state(notation, _config(game_name, options))
    bot = loads(bot_data)
    action = decide(bot, game, state, seat)  # the seat's decision, never the state itself
    return game.format_action(action), dumps(bot)
