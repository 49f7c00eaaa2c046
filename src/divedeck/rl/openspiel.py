"""divedeck's turn-based games as OpenSpiel Python games, so that OpenSpiel's own algorithms run on them unchanged.

    from divedeck.rl import openspiel
    openspiel.register()                      # once; then through pyspiel as any other game:
    game = pyspiel.load_game("divedeck_snorkeling", {"num_players": 2})

Registered: ``divedeck_snorkeling`` and ``divedeck_hold_your_breath``. Every config option of the game is a game
parameter of the same name (an option without a default, such as a deck file, is a string parameter, ``""`` for
none), plus ``seed``: the games that ``new_initial_state()`` starts draw their seeds from it in turn, so a run is
reproducible; ``game.new_initial_state_for_seed(seed)`` starts one given deal (the same deal for a seat-swapped pair).

- **Actions** are the move table's integers (``game.move_table(config)``); legal actions are the seat's, sorted.
- **Chance** is sampled: shuffles and draws happen inside ``apply_action`` from the state's own seeded RNG, so the
  game declares ``SAMPLED_STOCHASTIC`` and has no chance nodes. ``resample_from_infostate`` is the game's
  ``determinize`` from the acting seat's point of view (with a fresh RNG drawn from OpenSpiel's sampler), which is
  what OpenSpiel's ``ISMCTSBot`` needs.
- **Observations**: the observation tensor is the seat's encoded view (``encoding.py``); the information-state
  tensor is the same encoding (it summarises what the seat knows, but is not perfect recall). The strings are
  perfect recall where asked: the information-state string is the seat's notation (``seat_notation``, unseen cards
  written as unknown) followed by every action so far as that seat may read it (``public_action``); the observation
  string is the seat's notation alone.
- **Returns** are the win/loss rewards of ``rewards.py``: +1 for each winner, -1 for every other seat, at the end.
- **Whole-tree algorithms are refused.** ``state.child(action)`` raises ``GameTreeTooLarge`` with one line saying
  why: OpenSpiel's Python algorithms that call it walk every state of the game (``TabularPolicy``, ``CFRSolver``
  and the rest of the CFR family, ``ExternalSamplingSolver``, exploitability, best response, value iteration,
  minimax), and these games, dealt from 60-odd cards and hundreds of actions long, are far too large for that: they
  ran out of Python's recursion or ran for ever. Search by sampling works: MCTS and ISMCTS (``clone()`` then
  ``apply_action``). Outcome-sampling MCCFR runs, but over hundreds of actions its sampling reach underflows to zero
  and its regrets become infinite.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..engine.game import Game
from ..engine.registry import get_game
from .encoding import Encoder, encoder_for
from .rewards import reward_function

GAMES = ("snorkeling", "hold-your-breath")
# A bound on a game's length for OpenSpiel's GameInfo: far above any real game (a random 2-player Snorkeling game
# takes about 670 actions, Hold Your Breath! about 150); both games also end themselves at their caps.
MAX_GAME_LENGTH = 100_000


class GameTreeTooLarge(RuntimeError):
    """An OpenSpiel algorithm tried to walk a divedeck game's whole tree (``DivedeckState.child``)."""


def short_name(game_name: str) -> str:
    return "divedeck_" + game_name.replace("-", "_")


def _parameters(game: Game[Any, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for row in game.options():
        default = row["default"]
        params[row["name"]] = "" if default is None else default
    params["seed"] = 0
    return params


def _game_type(game: Game[Any, Any]) -> pyspiel.GameType:
    players = game.player_range()
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"divedeck {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players.stop - 1,
        min_num_players=players.start,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game))


class DivedeckGame(pyspiel.Game):
    """One divedeck game under one config, as an OpenSpiel game."""

    divedeck_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = get_game(self.divedeck_name)
        given = {**_parameters(game), **(params or {})}
        options = {name: value for name, value in given.items() if name != "seed" and value != ""}
        self.game = game
        self.config = game.make_config(options)
        self.table = game.move_table(self.config)
        self.encoder: Encoder = encoder_for(game, self.config)
        self.reward_of = reward_function("win_loss")
        self._seeds = random.Random(int(given["seed"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table), max_chance_outcomes=0,
            num_players=game.num_players(self.config), min_utility=-1.0, max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(_game_type(game), info, given)

    def new_initial_state(self) -> DivedeckState:
        """A new game whose seed is the next one drawn from the ``seed`` parameter."""
        return DivedeckState(self, self.game.new(self.config, self._seeds.getrandbits(63)))

    def new_initial_state_for_seed(self, seed: int) -> DivedeckState:
        """A new game dealt from ``seed`` (the divedeck seed: ``game.new(config, seed)``)."""
        return DivedeckState(self, self.game.new(self.config, seed))

    def __deepcopy__(self, memo: dict[int, Any]) -> DivedeckGame:
        # A game is its rules and config, which never change; OpenSpiel copies games along with their states.
        return self

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DivedeckObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return DivedeckObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Position:
    """A divedeck state and the actions taken so far (for the perfect-recall information-state string).

    OpenSpiel clones a Python state by deep-copying its attributes; this copies itself with the state's own cheap
    ``clone`` instead (a state shares its immutable card tables, which ``deepcopy`` cannot copy)."""

    __slots__ = ("state", "actions")

    def __init__(self, state: Any, actions: tuple[tuple[int, Any], ...] = ()) -> None:
        self.state = state
        self.actions = actions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.state.clone(), self.actions)


class DivedeckState(pyspiel.State):
    """An OpenSpiel state over a divedeck state."""

    def __init__(self, game: DivedeckGame, state: Any, actions: tuple[tuple[int, Any], ...] = ()) -> None:
        super().__init__(game)
        self.dd_game = game
        self.position = _Position(state, actions)

    @property
    def state(self) -> Any:
        return self.position.state

    def current_player(self) -> int:
        actors = self.dd_game.game.actors(self.position.state)
        return min(actors) if actors else pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        index = self.dd_game.table.index
        return sorted(index(action) for action in self.dd_game.game.legal_actions(self.position.state, player))

    def _apply_action(self, action: int) -> None:
        position = self.position
        seat = self.current_player()
        move = self.dd_game.table.action(int(action))
        self.dd_game.game.apply(position.state, seat, move)
        position.actions = (*position.actions, (seat, move))

    def child(self, action: int) -> DivedeckState:
        """Refused (module docstring): only the algorithms that walk the whole game tree call it."""
        raise GameTreeTooLarge(
            f"{self.dd_game.game.title}'s game tree is far too large to walk (state.child: CFR, external-sampling "
            "MCCFR, TabularPolicy, exploitability); search by sampling instead (MCTS, ISMCTS), or clone() and "
            "apply_action()")

    def _action_to_string(self, player: int, action: int) -> str:
        return self.dd_game.game.format_action(self.dd_game.table.action(int(action)))

    def is_terminal(self) -> bool:
        return self.dd_game.game.outcome(self.position.state) is not None

    def returns(self) -> list[float]:
        outcome = self.dd_game.game.outcome(self.position.state)
        players = self.dd_game.num_players()
        if outcome is None:
            return [0.0] * players
        return [self.dd_game.reward_of(outcome, seat) for seat in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DivedeckState:
        """A state ``player_id`` cannot tell from this one (the game's ``determinize``), for ISMCTS."""
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = self.dd_game.game.determinize(self.position.state, player_id, rng)
        return DivedeckState(self.dd_game, sample, self.position.actions)

    def __str__(self) -> str:
        return self.dd_game.game.state_notation(self.position.state)


class DivedeckObserver:
    """OpenSpiel's observer: a tensor from the seat's encoded view, strings from the seat's notation."""

    def __init__(self, game: DivedeckGame, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DivedeckState, player: int) -> None:
        dd = self.game.game
        self.game.encoder.encode_into(dd.view(state.state, player), player, self.tensor)

    def string_from(self, state: DivedeckState, player: int) -> str:
        dd = self.game.game
        text = dd.seat_notation(state.state, player)
        if not self.perfect_recall:
            return text
        return text + " | " + "; ".join(f"{actor}:{dd.public_action(action, player, actor)}"
                                        for actor, action in state.position.actions)


def _game_class(game_name: str) -> type[DivedeckGame]:
    return type(f"Divedeck{get_game(game_name).title.replace(' ', '').replace('!', '')}Game", (DivedeckGame,),
                {"divedeck_name": game_name})


def register() -> list[str]:
    """Register every turn-based game with an encoding as an OpenSpiel game (again is harmless); their names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_name in GAMES:
        name = short_name(game_name)
        if name not in registered:
            pyspiel.register_game(_game_type(get_game(game_name)), _game_class(game_name))
        names.append(name)
    return names
