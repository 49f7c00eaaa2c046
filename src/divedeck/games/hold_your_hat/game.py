"""Hold your Hat behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from typing import Any

from ...engine.declaration import BotEntry, Frontend, Levels
from ...engine.events import Event
from ...engine.game import Game
from . import information, notation, rules
from .actions import Act, format_action, parse_action, team_letter
from .bots import StandInBot, TeamBot
from .config import HoldYourHatConfig
from .state import SPECIALS, HoldYourHatState


class HoldYourHat(Game[HoldYourHatState, Act]):
    name = "hold-your-hat"
    title = "Hold your Hat"
    config_type = HoldYourHatConfig
    realtime = True
    seat_rule = "HYH-R1"
    over_rule = "HYH-R42"
    # The stand-in keeps a table moving in tests; neither gives clues, so people are offered no bot here yet.
    bots = {"team": BotEntry(TeamBot, "plays its specials, gives no clues", offered=False),
            "standin": BotEntry(StandInBot, offered=False)}
    levels = Levels(medium="team", hard_iterations=None, stand_in="standin")
    frontends = frozenset({Frontend.BROWSER, Frontend.SHARED_SCREEN})

    def num_players(self, config: HoldYourHatConfig) -> int:
        return config.num_players

    def new_with_events(self, config: HoldYourHatConfig, seed: int) -> tuple[HoldYourHatState, list[Event]]:
        return rules.new_state(config, seed)

    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.check)
    perform = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)

    # -- time (HYH-R6) -------------------------------------------------------------------------------------------
    def at(self, action: Act, t: int) -> Act:
        return action.stamped(t)

    def deadline(self, state: HoldYourHatState) -> int | None:
        return rules.deadline(state)

    def tick(self, t: int) -> Act:
        return Act("tick", t=t)

    def leave_action(self, state: HoldYourHatState, seat: int, t: int) -> Act | None:
        """Losing the connection changes nothing at once: the timer runs on, and after the server's grace period
        a stand-in bot plays the seat."""
        return None

    # -- information -----------------------------------------------------------------------------------------------
    def view(self, state: HoldYourHatState, seat: int | None) -> dict[str, Any]:
        return information.view(state, seat)

    def determinize(self, state: HoldYourHatState, seat: int, rng: random.Random) -> HoldYourHatState:
        return information.determinize(state, seat, rng)

    def public_action(self, action: Act, seat: int | None, actor: int) -> str:
        """The action's notation as ``seat`` may read it: typed text (a guess may be the current word) only for
        the one who typed it. For a server that relays actions to every seat."""
        if seat == actor or action.text is None or action.verb == "clue":
            return format_action(action)
        return format_action(Act(action.verb, action.team, "…", action.verdict, action.order, action.t))

    # -- notation --------------------------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Act:
        return parse_action(text)

    def format_action(self, action: Act) -> str:
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

    def format_event(self, event: Event, seat: int | None = None, names: list[str] | None = None) -> str:
        return describe_event(event.for_seat(seat), seat)


SPECIAL_COUNT = sum(SPECIALS.values())


def _who(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def _team(team: int) -> str:
    return f"team {team_letter(team)}"


def _teams(teams: list[int]) -> str:
    return " and ".join(team_letter(t) for t in teams)


TURN_END_REASONS = {
    "timeout": "time is up",
    "no_words": "no word left to explain this turn",
    "round_complete": "the last word of the round is won",
}


def describe_event(shown: dict[str, Any], viewer: int | None = None) -> str:
    """A log line in words, as ``viewer`` may read it; mirrored by the web page's describeEventParts."""
    kind = shown["kind"]
    if kind == "game_start":
        teams = "; ".join(f"{_team(t)}: seats {', '.join(map(str, seats))}" for t, seats in enumerate(shown["teams"]))
        return f"a game of {shown['words']} words in {shown['color']}, {shown['rounds']} round(s); {teams}"
    if kind == "round_start":
        return f"round {shown['round']} ({shown['type']}) begins with {_team(shown['team'])}"
    if kind == "turn_start":
        giver = "you give" if shown["clue_giver"] == viewer else f"seat {shown['clue_giver']} gives"
        return f"{_team(shown['team'])}'s turn: {giver} the clues"
    if kind == "timer":
        return f"{_who(shown['seat'], viewer)} started the timer"
    if kind == "word":
        if "word" in shown:
            hat = f", {shown['points']} points, {shown['words']} words" if shown["points"] > 1 else ""
            return f"your word: \"{shown['word']}\"{hat}"
        return f"a new word is being explained ({shown['deck']} left in the deck)"
    if kind == "binoculars":
        seen = f": you see {', '.join(shown['cards'])}" if "cards" in shown else ""
        return (f"{_who(shown['seat'], viewer)} played BINOCULARS: the clue-giver looks at the top "
                f"{shown['count']} cards{seen}")
    if kind == "order":
        return f"{_who(shown['seat'], viewer)} put the top cards back in a new order"
    if kind == "raid":
        return f"{_team(shown['team'])} played RAID: they guess too this turn"
    if kind == "guess":
        who = _who(shown["seat"], viewer)
        result = shown["result"]
        if result == "blank":
            return f"{who} guessed nothing"
        if result == "wrong":
            return f"{who} guessed \"{shown['text']}\": no"
        said = f" \"{shown['text']}\"" if "text" in shown else ""
        if result == "ignored":
            return f"{who} guessed{said} again: {_team(shown['team'])} already claims this word"
        return f"{who} guessed{said}: right!"
    if kind == "got":
        return f"{_who(shown['seat'], viewer)} confirmed that {_team(shown['team'])} said it"
    if kind == "theft":
        head = f"{_team(shown['team'])} played THEFT"
        if shown["result"] == "blank":
            return f"{head} without a guess: wrong"
        if "text" in shown:
            return f"{head}: \"{shown['text']}\", {shown['result']}"
        return f"{head}: {shown['result']}"
    if kind == "claim":
        if shown["opened"]:
            return f"{_team(shown['team'])} claims the word"
        return f"{_team(shown['team'])} claims it at the same time"
    if kind == "won":
        points = "1 point" if shown["points"] == 1 else f"{shown['points']} points"
        contest = (f" (claimed by {_teams(shown['claimed_by'])} at once)" if len(shown["claimed_by"]) > 1 else "")
        return f"{_team(shown['team'])} won \"{shown['word']}\", {points}{contest}"
    if kind == "skip":
        word = f" on \"{shown['word']}\"" if "word" in shown else ""
        return f"{_team(shown['team'])} played SKIP{word}: the word is set aside"
    if kind == "foul":
        word = f" on \"{shown['word']}\"" if "word" in shown else ""
        return f"foul{word}: the word is set aside"
    if kind == "clue":
        return f"{_who(shown['seat'], viewer)}: \"{shown['text']}\""
    if kind == "timeout":
        return "time is up!"
    if kind == "extra_time_offer":
        return f"{_team(shown['team'])} may play EXTRA TIME"
    if kind == "extra_time":
        return f"{_team(shown['team'])} played EXTRA TIME: {shown['words']} more word(s) and the timer again"
    if kind == "decline":
        return f"{_team(shown['team'])} ends the turn without EXTRA TIME"
    if kind == "turn_end":
        back = (f"; {shown['returned']} word(s) go under the deck" if shown["returned"] else "")
        return f"{_team(shown['team'])}'s turn is over ({TURN_END_REASONS[shown['reason']]}){back}"
    if kind == "special_reshuffle":
        return f"the used special cards were shuffled into a new deck of {shown['deck']}"
    if kind == "special_draw":
        return f"{_team(shown['team'])} drew {shown['card']}"
    if kind == "no_special":
        return f"no special card left for {_team(shown['team'])}"
    if kind == "round_end":
        points = ", ".join(f"{team_letter(t)} +{p}" for t, p in enumerate(shown["points"]))
        totals = ", ".join(f"{team_letter(t)} {p}" for t, p in enumerate(shown["totals"]))
        return f"round {shown['round']} over: {points} -> totals {totals}"
    if kind == "game_over":
        best = shown["totals"][shown["winners"][0]]
        if len(shown["winners"]) > 1:
            return f"game over: teams {_teams(shown['winners'])} share the victory with {best} points"
        return f"game over: {_team(shown['winners'][0])} won with {best} points"
    return f"{kind} {shown}"
