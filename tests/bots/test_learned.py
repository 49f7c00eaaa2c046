"""``learned``: the shipped PPO policies, played with numpy from the seat's view (``bots/learned.py``)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from divedeck.bots import bot_descriptions, bot_names, check_bot_players, decide, make_bot
from divedeck.bots.base import RandomBot
from divedeck.bots.learned import LearnedBot, shipped_policy
from divedeck.engine.decision import decision_for
from divedeck.engine.errors import ConfigError
from divedeck.engine.registry import get_game
from divedeck.sim.runner import SimulationSpec, simulate
from divedeck.sim.tournament import make_spec

TRAINED = ["snorkeling", "hold-your-breath"]


@pytest.mark.parametrize("game_name", TRAINED)
def test_learned_is_offered_with_a_line_that_names_its_player_count(game_name: str) -> None:
    assert "learned" in bot_names(game_name)
    assert bot_names(game_name)[:3] == ["easy", "medium", "hard"]
    assert "2 players only" in bot_descriptions(game_name)["learned"]
    policy = shipped_policy(game_name, 2)
    game = get_game(game_name)
    config = game.make_config({"num_players": 2})
    assert policy.meta["game"] == game_name and policy.meta["players"] == 2
    assert policy.arrays["wp"].shape[1] == len(game.move_table(config))


def test_games_without_a_policy_do_not_offer_it() -> None:
    assert "learned" not in bot_names("bermuda")
    assert "learned" not in bot_names("hold-your-hat")


@pytest.mark.parametrize("game_name", TRAINED)
def test_learned_plays_only_legal_moves(game_name: str) -> None:
    """Whole games against random, in both seats: every choice is one of the seat's legal actions."""
    game = get_game(game_name)
    config = game.make_config({"num_players": 2})
    for index in range(2):
        state = game.new(config, 500 + index)
        bots: list[Any] = [RandomBot(index), RandomBot(index + 1)]
        bots[index % 2] = make_bot(game_name, "learned", index)
        moves = 0
        while game.outcome(state) is None:
            for seat in sorted(game.actors(state)):
                decision = decision_for(game, state, seat)
                action = bots[seat].choose(decision)
                assert action in decision.legal
                game.apply(state, seat, action)
                moves += 1
        assert moves > 0


@pytest.mark.parametrize("game_name", TRAINED)
def test_no_peeking_the_choice_is_the_same_on_any_state_the_seat_cannot_tell_from_the_true_one(
        game_name: str) -> None:
    """The other state is a determinization (the hidden cards dealt anew): the bot cannot tell, so it chooses the
    same (it reads only the view, through the observation encoder)."""
    game = get_game(game_name)
    state = game.new(game.make_config({"num_players": 2}), 12)
    rng = random.Random(2)
    mover = RandomBot(7)
    compared = 0
    while game.outcome(state) is None and compared < 8:
        seat = min(game.actors(state))
        if len(game.legal_actions(state, seat)) > 2:
            sample = game.determinize(state, seat, random.Random(rng.getrandbits(32)))
            if game.state_notation(sample) != game.state_notation(state):
                assert game.view(sample, seat) == game.view(state, seat)
                on_true = decide(make_bot(game_name, "learned", compared), game, state, seat)
                assert decide(make_bot(game_name, "learned", compared), game, sample, seat) == on_true
                compared += 1
        for actor in sorted(game.actors(state)):
            game.apply(state, actor, decide(mover, game, state, actor))
    assert compared == 8


@pytest.mark.parametrize("game_name", TRAINED)
def test_other_player_counts_are_refused_with_one_line(game_name: str) -> None:
    title = get_game(game_name).title
    expected = f"the learned bot plays {title} with 2 players only (it was trained for that), not with 3"
    with pytest.raises(ConfigError) as refused:
        check_bot_players(game_name, ["medium", "learned"], 3)
    assert str(refused.value) == expected
    check_bot_players(game_name, ["medium", "learned"], 2)
    with pytest.raises(ConfigError, match="2 players only"):
        make_spec(game_name, ["learned", "medium"], {"num_players": 3})
    with pytest.raises(ConfigError, match="2 players only"):
        simulate(SimulationSpec(game_name, ("learned", "medium", "medium"), {"num_players": 3}), 1, workers=1)
    # Seated at such a table anyway (a bot made by name knows no table), it refuses at its first move.
    game = get_game(game_name)
    state = game.new(game.make_config({"num_players": 3}), 1)
    seat = min(game.actors(state))
    with pytest.raises(ConfigError, match="2 players only"):
        LearnedBot(0).choose(decision_for(game, state, seat))


def test_the_cli_refuses_other_player_counts() -> None:
    command = str(Path(sys.executable).parent / "divedeck")
    result = subprocess.run([command, "simulate", "snorkeling", "--seats",
                             "learned,medium,medium", "--games", "1"], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "the learned bot plays Snorkeling with 2 players only" in result.stdout + result.stderr


def test_playing_needs_no_jax() -> None:
    """The bot loads and plays a whole game with jax absent: importing it fails in the child process."""
    code = """
import sys
class NoJax:
    def find_spec(self, name, path=None, target=None):
        if name == "jax" or name.startswith("jax.") or name in ("optax", "pgx", "jaxlib"):
            raise ImportError("no jax here")
sys.meta_path.insert(0, NoJax())
from divedeck.bots import make_bot
from divedeck.bots.base import RandomBot
from divedeck.engine.registry import get_game
from divedeck.sim.runner import play_bots
for name in ("snorkeling", "hold-your-breath"):
    game = get_game(name)
    outcome, moves, _ = play_bots(game, game.make_config({"num_players": 2}), 3,
                                  [make_bot(name, "learned", 0), RandomBot(1)])
    assert moves > 0
assert not any(m == "jax" or m.startswith("jax.") for m in sys.modules)
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith("ok")
