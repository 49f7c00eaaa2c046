"""Hold Your Breath! behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from ...engine.declaration import BotEntry, DataFile, Frontend, Levels
from ...engine.events import Event
from ...engine.game import Game
from ...engine.records import ActionRecord, LogPart
from . import cards as data_cards
from . import information, notation, playout, presentation, rules
from .actions import END, KEEP, PLAIN, TARGETED, VALUED, Action, Air, Calm, Drop, Gasp, Lose, Swim, parse_action
from .bots import GreedyBot
from .config import HoldYourBreathConfig
from .guide import GUIDE, hint
from .metrics import METRICS
from .observation import HoldYourBreathObservation
from .rules_sheet import ICONS, rules_sheet
from .state import HoldYourBreathState


class HoldYourBreath(Game[HoldYourBreathState, Action]):
    name = "hold-your-breath"
    title = "Hold Your Breath!"
    summary = "a diving race for 2 to 4: dive deep, then race back up before your breath runs out; about 20 minutes"
    action_help = ("'air DO 10', 'swim S10C', 'panic A5P>1' (onto seat 1), 'shark SH>1', 'kraken KR>2', "
                   "'calm S5C 0', 'draw A5D', 'mass KR', 'end' (each use of a card is its own move); when asked: "
                   "'gasp S5D', 'drop A5D', 'keep', 'lose A5D'")
    config_type = HoldYourBreathConfig
    move_clock = True  # one seat decides at a time: an online table may give each move a clock
    seat_rule = "HYB-R1"
    turn_rule = "HYB-R26"
    over_rule = "HYB-R40"
    guide = GUIDE
    bots = {"greedy": BotEntry(GreedyBot, "swims as far as it can, hinders the leader")}
    levels = Levels(medium="greedy", hard_iterations=400)
    frontends = frozenset({Frontend.TERMINAL, Frontend.BROWSER, Frontend.HOTSEAT})
    metrics = METRICS  # what a designer's report measures (divedeck report)
    observation = HoldYourBreathObservation  # what a learner observes (divedeck.rl)
    batched = f"{__package__}.batched:HoldYourBreathBatched"  # the rules in JAX, for learning (divedeck.rl.jax)
    learned = {2: "learned-2p.npz"}  # the learned bot's PPO policy (bots/learned.py, examples/train_ppo.py)
    # The data file designers edit: `divedeck data show hold-your-breath`, `divedeck data check FILE`.
    data_files = (DataFile(option="cards", what=data_cards.WHAT, package=__package__ or "", default="deck.toml",
                           parse=data_cards.parse_deck, summary=data_cards.describe,
                           keys=frozenset({"board", "cards"})),)

    def num_players(self, config: HoldYourBreathConfig) -> int:
        return config.num_players

    def new_with_events(self, config: HoldYourBreathConfig, seed: int) -> tuple[HoldYourBreathState, list[Event]]:
        """The new state and the deal as an event (each seat's first hand is private to it)."""
        return rules.new_state(config, seed)

    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    perform = staticmethod(rules.perform)
    outcome = staticmethod(rules.outcome)

    def validate(self, state: HoldYourBreathState, seat: int, action: Action) -> None:
        rules.validate(state, seat, action)

    def random_playout(self, state: HoldYourBreathState, random_float: Callable[[], float], max_actions: int,
                       stop_events: frozenset[str] = frozenset()) -> int:
        """The contract's playout in Hold Your Breath!'s own fast loop, which can stop only at the end of the Descent
        (or of the game)."""
        if stop_events <= playout.ROUND_EVENTS:
            return playout.random_playout(state, random_float, max_actions, stop_events)
        return super().random_playout(state, random_float, max_actions, stop_events)

    def waiting_reason(self, state: HoldYourBreathState, seat: int) -> tuple[str, str | None]:
        if state.kraken:
            waiting = ", ".join(map(str, sorted(self.actors(state))))
            return f"waiting for seat(s) {waiting} to give up a card to the Kraken", "HYB-R12"
        return super().waiting_reason(state, seat)

    def view(self, state: HoldYourBreathState, seat: int | None) -> dict[str, Any]:
        return cast(dict[str, Any], information.view(state, seat))

    def determinize(self, state: HoldYourBreathState, seat: int, rng: random.Random) -> HoldYourBreathState:
        return information.determinize(state, seat, rng)

    def all_actions(self, config: HoldYourBreathConfig) -> Sequence[Action]:
        """Every play of every card type of the deck on every seat and Swim Pile place, then the rest."""
        table = config.table
        n = config.num_players
        # A Swim Pile holds at most one Panic per face-up source, the face-down ones and one Shark: bounded by
        # the deck, so every place a Calm may name is below the deck's size.
        places = range(table.deck_size)
        actions: list[Action] = [END, KEEP]
        for face, label in enumerate(table.face_label):
            verbs = table.face_verbs[face]
            values = table.dolphin_values if table.face_kind[face] == "dolphin" else (0,)
            actions += [kind(label, value) for kind in VALUED if kind.verb in verbs for value in values]
            actions += [kind(label) for kind in PLAIN if kind.verb in verbs]
            actions += [kind(label, target) for kind in TARGETED if kind.verb in verbs for target in range(n)]
            if Calm.verb in verbs:
                actions += [Calm(label, place, target) for place in places for target in range(-1, n)]
            actions += [Gasp(label), Drop(label), Lose(label)]
        return actions

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    def action_record(self, state: HoldYourBreathState, seat: int, action: Action) -> ActionRecord:
        return presentation.action_record(action)

    def log_parts(self, event: Event, seat: int | None = None) -> list[LogPart]:
        return presentation.log_parts(event.for_seat(seat))

    def guide_hint(self, state: HoldYourBreathState, seat: int) -> dict[str, Any] | None:
        return hint(self, state, seat)

    def static_data(self, config: HoldYourBreathConfig) -> dict[str, Any]:
        return {**presentation.static_data(config.table, config.depth_limit), "rules": rules_sheet(config),
                "icons": {name: glyph for name, (glyph, _) in ICONS.items()}}

    def state_notation(self, state: HoldYourBreathState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: HoldYourBreathState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: HoldYourBreathConfig | None = None) -> HoldYourBreathState:
        return notation.parse_state(text, config)

    def undoable(self, before: HoldYourBreathState, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """A card played for Air or Swim during play, when it only moved that card (nothing drawn or revealed)."""
        return isinstance(action, Air | Swim) and all(event.kind in ("air", "swim") for event in events)

    def card_count(self, state: HoldYourBreathState) -> int:
        return (len(state.deck) + len(state.discard) + sum(map(len, state.hands)) + sum(map(len, state.piles))
                + sum(1 for chosen in state.kraken if chosen >= 0))


