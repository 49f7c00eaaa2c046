"""Bermuda behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from typing import Any

from ...engine.declaration import BotEntry, DataFile, Frontend, Levels
from ...engine.events import Event
from ...engine.game import Game
from ...engine.records import ActionRecord, LogPart
from . import cards as data_cards
from . import information, notation, presentation, rules
from .actions import Action, Hold, Lay, Release, Sort, Tick, parse_action, stamped
from .bots import PRESET_DESCRIPTIONS, PRESETS, bot_factories
from .config import BermudaConfig
from .guide import GUIDE, hint
from .metrics import METRICS
from .observation import BermudaObservation
from .state import BermudaState


class Bermuda(Game[BermudaState, Action]):
    name = "bermuda"
    title = "Bermuda"
    config_type = BermudaConfig
    realtime = True
    move_clock = False  # the dive runs in real time on its own clock: no clock per move
    seat_rule = "BRM-R1"
    over_rule = "BRM-R30"
    summary = ("Cooperative and real-time, for 1 to 5 divers: lay Diver cards under the treasures while everyone "
               "holds their breath; five short rounds, about 10 minutes")
    # Timed bots: the presets are offered to people; the grid of paces and breaths is for the simulator.
    bots = {name: BotEntry(factory, PRESET_DESCRIPTIONS.get(name, ""), offered=name in PRESETS)
            for name, factory in bot_factories().items()}
    levels = Levels(easy="slow-diver", medium="diver", hard_iterations=None)
    frontends = frozenset({Frontend.TERMINAL, Frontend.BROWSER})
    guide = GUIDE  # the guided first game: one dive with a bot teammate (guide.py)
    metrics = METRICS  # what a designer's report measures (divedeck report)
    observation = BermudaObservation  # what a learner observes (divedeck.rl)
    # The data file designers edit: `divedeck data show bermuda`, `divedeck data check FILE`.
    data_files = (DataFile(option="cards", what=data_cards.WHAT, package=__package__ or "", default="treasures.toml",
                           parse=data_cards.parse_treasures, summary=data_cards.describe,
                           keys=frozenset({"treasure"})),)

    def num_players(self, config: BermudaConfig) -> int:
        return config.num_players

    def new_with_events(self, config: BermudaConfig, seed: int) -> tuple[BermudaState, list[Event]]:
        """The new state and the first deal as events (each seat's hand is private to it)."""
        return rules.new_state(config, seed)

    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.check)
    perform = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)

    def all_actions(self, config: BermudaConfig) -> list[Action]:
        return rules.all_actions(config)

    def view(self, state: BermudaState, seat: int | None) -> dict[str, Any]:
        return dict(information.view(state, seat))

    def determinize(self, state: BermudaState, seat: int, rng: random.Random) -> BermudaState:
        return information.determinize(state, seat, rng)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    def state_notation(self, state: BermudaState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: BermudaState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: BermudaConfig | None = None) -> BermudaState:
        return notation.parse_state(text, config)

    def card_count(self, state: BermudaState) -> int:
        """Diver cards (hands, columns, set aside) plus treasures (deck, layout, both piles): always 63 + 28."""
        divers = sum(map(len, state.hands)) + sum(map(len, state.columns)) + len(state.aside)
        treasures = len(state.deck) + len(state.layout) + len(state.won) + len(state.keeper)
        return divers + treasures

    # -- presentation --------------------------------------------------------------------------------------------
    def action_record(self, state: BermudaState, seat: int, action: Action) -> ActionRecord:
        return presentation.action_record(state, action, self.format_action(action))

    def log_parts(self, event: Event, seat: int | None = None) -> list[LogPart]:
        return presentation.log_parts(event, seat)

    def guide_hint(self, state: BermudaState, seat: int) -> dict[str, Any] | None:
        return hint(self, state, seat)

    def static_data(self, config: BermudaConfig) -> dict[str, Any]:
        return presentation.static_data(config)

    # -- time (BRM-R5) ---------------------------------------------------------------------------------------
    def at(self, action: Action, t: int) -> Action:
        if type(t) is int and t >= 0:  # the usual case, without ``dataclasses.replace``: a real-time table stamps
            kind = type(action)        # every action it applies
            if kind is Lay:
                return Lay(action.card, action.column, t)  # type: ignore[union-attr]
            if kind is Hold or kind is Release or kind is Sort or kind is Tick:
                return kind(t)  # type: ignore[call-arg]
        return stamped(action, t)

    def deadline(self, state: BermudaState) -> int | None:
        return rules.deadline(state)

    def tick(self, t: int) -> Action:
        return Tick(t)

    def leave_action(self, state: BermudaState, seat: int, t: int) -> Action | None:
        return rules.leave_action(state, seat, t)
