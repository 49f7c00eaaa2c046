"""Hold your Hat behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...engine.declaration import BotEntry, DataFile, Frontend, Levels, Preset
from ...engine.events import Event
from ...engine.game import Game
from ...engine.records import ActionRecord, LogPart
from . import information, notation, rules
from . import words as data_words
from .actions import Action, Tick, format_action, parse_action
from .bots import StandInBot, TeamBot
from .config import HoldYourHatConfig
from .guide import GUIDE, hint
from .meaning_bots import word_bot
from .metrics import METRICS
from .presentation import action_record, log_parts, static_data
from .state import HoldYourHatState


class HoldYourHat(Game[HoldYourHatState, Action]):
    name = "hold-your-hat"
    title = "Hold your Hat"
    config_type = HoldYourHatConfig
    realtime = True
    move_clock = False  # the sand timer is the game's own clock: no clock per move
    seat_rule = "HYH-R1"
    over_rule = "HYH-R42"
    # The word bots give clues and guess by what words mean and from the association data (meaning_bots.py; the
    # association data alone without the ``words`` extra); ``team`` models a whole team without words (for quick
    # simulations), the stand-in keeps a table moving when a person has left.
    bots = {"words": BotEntry(word_bot("medium"), "gives clues and guesses by what words mean"),
            "words-easy": BotEntry(word_bot("easy"), "slower, knows less about the words"),
            "words-hard": BotEntry(word_bot("hard"), "quick, knows the words well"),
            "team": BotEntry(TeamBot, "plays its specials, gives no clues", offered=False),
            "standin": BotEntry(StandInBot, offered=False)}
    levels = Levels(easy="words-easy", medium="words", hard="words-hard", hard_iterations=None, stand_in="standin")
    frontends = frozenset({Frontend.BROWSER, Frontend.SHARED_SCREEN})
    presets = (
        Preset("Party (one screen)", "everyone in one room passes this screen round: the clue-giver holds it and "
               "confirms the words the team says aloud", Frontend.SHARED_SCREEN, {"party": True}),
        Preset("Online teams", "each player on their own device with an invite link: the clue-giver reads the word, "
               "teammates type their guesses (use a video call for the mime round)", Frontend.BROWSER,
               {"party": False}),
    )
    guide = GUIDE  # the guided first game: one describing round with three word bots (guide.py)
    metrics = METRICS  # what a designer's report measures (divedeck report)
    # The data file designers edit: `divedeck data show hold-your-hat`, `divedeck data check FILE`.
    data_files = (DataFile(option="cards", what=data_words.WHAT, package=__package__ or "", default="words.toml",
                           parse=data_words.parse_file, summary=data_words.describe,
                           keys=frozenset({"format", "version", "language", "card"}), text_format=True),)
    summary = ("a team word-guessing party game in real time for 4 to 36 players in 2 to 6 teams: describe, one "
               "word, mime; about 30 minutes")

    def num_players(self, config: HoldYourHatConfig) -> int:
        return config.num_players

    def new_with_events(self, config: HoldYourHatConfig, seed: int) -> tuple[HoldYourHatState, list[Event]]:
        return rules.new_state(config, seed)

    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.check)
    perform = staticmethod(rules.perform)
    outcome = staticmethod(rules.outcome)

    def all_actions(self, config: HoldYourHatConfig) -> Sequence[Action]:
        return rules.all_actions(config)

    # -- time (HYH-R6) -------------------------------------------------------------------------------------------
    def at(self, action: Action, t: int) -> Action:
        return action.stamped(t)

    def deadline(self, state: HoldYourHatState) -> int | None:
        return rules.deadline(state)

    def tick(self, t: int) -> Action:
        return Tick(t=t)

    def leave_action(self, state: HoldYourHatState, seat: int, t: int) -> Action | None:
        """Losing the connection changes nothing at once: the timer runs on, and after the server's grace period
        a stand-in bot plays the seat."""
        return None

    # -- information -----------------------------------------------------------------------------------------------
    def view(self, state: HoldYourHatState, seat: int | None) -> dict[str, Any]:
        return dict(information.view(state, seat))

    def determinize(self, state: HoldYourHatState, seat: int, rng: random.Random) -> HoldYourHatState:
        return information.determinize(state, seat, rng)

    # -- notation --------------------------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def state_notation(self, state: HoldYourHatState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: HoldYourHatState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: HoldYourHatConfig | None = None) -> HoldYourHatState:
        return notation.parse_state(text, config)

    def card_count(self, state: HoldYourHatState) -> int:
        """Word cards of the round (HYH-I1) plus special cards (HYH-I2)."""
        words = (len(state.deck) + (state.current >= 0) + len(state.aside) + len(state.extra)
                 + sum(map(len, state.won)))
        return words + len(state.specials) + len(state.discard) + sum(map(len, state.held))

    # -- presentation ----------------------------------------------------------------------------------------------
    def action_record(self, state: HoldYourHatState, seat: int, action: Action) -> ActionRecord:
        return action_record(state, seat, action)

    def log_parts(self, event: Event, seat: int | None = None) -> list[LogPart]:
        return log_parts(event.for_seat(seat))

    def static_data(self, config: HoldYourHatConfig) -> dict[str, Any]:
        return static_data(config)

    def guide_hint(self, state: HoldYourHatState, seat: int) -> dict[str, Any] | None:
        return hint(self, state, seat)
