"""Snorkeling behind the engine contract: the one object every caller talks to."""

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
from .actions import END_TURN, PASS, Action, PlayCenter, PlayPile, parse_action
from .bots import SEARCH_CUTOFF, GreedyBot
from .config import SnorkelingConfig
from .context import context_for
from .guide import GUIDE, hint
from .metrics import METRICS
from .observation import SnorkelingObservation
from .rules_sheet import rules_sheet
from .state import SnorkelingState


class Snorkeling(Game[SnorkelingState, Action]):
    name = "snorkeling"
    title = "Snorkeling"
    summary = ("Shed your cards onto the centre and push the other divers towards the beach: 2 to 6 players, "
               "first to 12 points, about 20 minutes")
    action_help = "'c Y3' plays the yellow 3 to the centre, 'p R2>1' the red 2 onto the pile of seat 1, 'pass', 'end'"
    config_type = SnorkelingConfig
    move_clock = True  # one seat decides at a time: an online table may give each move a clock
    seat_rule = "SNK-R1"
    turn_rule = "SNK-R5"
    over_rule = "SNK-R15"
    guide = GUIDE
    bots = {"greedy": BotEntry(GreedyBot, "plays its highest card, keeps its pile safe")}
    levels = Levels(medium="greedy", hard_iterations=4000, hard_cutoff=SEARCH_CUTOFF)
    frontends = frozenset({Frontend.TERMINAL, Frontend.BROWSER, Frontend.HOTSEAT})
    metrics = METRICS  # what a designer's report measures (divedeck report)
    observation = SnorkelingObservation  # what a learner observes (divedeck.rl)
    batched = f"{__package__}.batched:SnorkelingBatched"  # the rules in JAX, for learning (divedeck.rl.jax)
    learned = {2: "learned-2p.npz"}  # the learned bot's PPO policy (bots/learned.py, examples/train_ppo.py)
    # The data file designers edit: `divedeck data show snorkeling`, `divedeck data check FILE`.
    data_files = (DataFile(option="cards", what=data_cards.WHAT, package=__package__ or "", default="cards.toml",
                           parse=data_cards.parse_cards, summary=data_cards.describe,
                           keys=frozenset({"colors", "values", "lanternfish", "hand_size"})),)

    def num_players(self, config: SnorkelingConfig) -> int:
        return config.num_players

    def new_with_events(self, config: SnorkelingConfig, seed: int) -> tuple[SnorkelingState, list[Event]]:
        """The new state and the deal as events (each seat's first hand is private to it)."""
        return rules.new_state(config, seed)

    # The hot calls are the rules' functions themselves: one Python call less per decision for every caller.
    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.validate)
    perform = staticmethod(rules.perform)
    outcome = staticmethod(rules.outcome)

    def random_playout(self, state: SnorkelingState, random_float: Callable[[], float], max_actions: int,
                       stop_events: frozenset[str] = frozenset()) -> int:
        """The contract's playout in Snorkeling's own fast loop, which can stop only at the end of a round."""
        if stop_events <= playout.ROUND_EVENTS:
            return playout.random_playout(state, random_float, max_actions, stop_events)
        return super().random_playout(state, random_float, max_actions, stop_events)

    def all_actions(self, config: SnorkelingConfig) -> list[Action]:
        """Pass, end, then a centre play per face, then a pile play per face and target seat."""
        context = context_for(config)
        piles = [action for per_face in context.pile_actions for action in per_face]
        return [PASS, END_TURN, *context.center_actions, *piles]

    def view(self, state: SnorkelingState, seat: int | None) -> dict[str, Any]:
        return cast(dict[str, Any], information.view(state, seat))

    def views(self, state: SnorkelingState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], information.views(state, seats))

    def determinize(self, state: SnorkelingState, seat: int, rng: random.Random) -> SnorkelingState:
        return information.determinize(state, seat, rng)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    def state_notation(self, state: SnorkelingState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: SnorkelingState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: SnorkelingConfig | None = None) -> SnorkelingState:
        return notation.parse_state(text, config)

    def undoable(self, before: SnorkelingState, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """A play to the centre or onto a pile before ``end``, when it only moved that card (it drew nothing and
        did not end the round)."""
        return isinstance(action, PlayCenter | PlayPile) and all(
            event.kind in ("play_center", "play_pile") for event in events)

    def card_count(self, state: SnorkelingState) -> int:
        return (len(state.deck) + len(state.center) + sum(map(len, state.hands))
                + sum(map(len, state.piles)))

    # -- presentation ----------------------------------------------------------------------------------------
    records_fixed = True  # a record names the action's card and target in the config's card table

    def action_record(self, state: SnorkelingState, seat: int, action: Action) -> ActionRecord:
        match action:
            case PlayCenter(card=card):
                cards, target = [card], None
            case PlayPile(card=card, target=target):
                cards = [card]
            case _:
                cards, target = [], None
        label = presentation.action_label(action, state.context.table.name,
                                          lambda owner: "your" if owner == seat else f"seat {owner + 1}'s")
        return {"notation": str(action), "kind": type(action).__name__, "cards": cards, "target": target,
                "label": label}

    def log_parts(self, event: Event, seat: int | None = None) -> list[LogPart]:
        return presentation.log_parts(event.for_seat(seat), seat)

    def shown_event(self, event: Event, seat: int | None) -> dict[str, Any]:
        shown = event.for_seat(seat)
        return {**shown, "parts": presentation.log_parts(shown, seat)}

    def shown_events(self, events: Sequence[Event], seats: Sequence[int | None]) -> list[list[dict[str, Any]]]:
        """The seats an event does not single out (``presentation.readers_apart``) share the spectator's copy."""
        shown: list[list[dict[str, Any]]] = [[] for _ in seats]
        for event in events:
            apart = presentation.readers_apart(event)
            public: dict[str, Any] | None = None
            for seat, seen in zip(seats, shown, strict=True):
                if seat is not None and seat in apart:
                    seen.append(self.shown_event(event, seat))
                else:
                    if public is None:
                        public = self.shown_event(event, None)
                    seen.append(public)
        return shown

    def guide_hint(self, state: SnorkelingState, seat: int) -> dict[str, Any] | None:
        return hint(self, state, seat)

    def static_data(self, config: SnorkelingConfig) -> dict[str, Any]:
        """The card table (colours, value names, the Lanternfish) and the config's fixed facts, sent once."""
        table = config.table
        return {
            "colors": [{"name": c.name, "letter": c.letter, "symbol": c.symbol} for c in table.colors],
            "value_names": list(table.value_names),
            "lanternfish_name": table.lanternfish_name,
            "lanternfish_value": table.lanternfish_value,
            "cards": {label: table.name(label) for label in table.face_label},
            "players": config.num_players,
            "target_score": config.target_score,
            "expert_diving": config.expert_diving,
            "rules": rules_sheet(config),
        }
