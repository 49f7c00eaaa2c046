"""What each seat may know in Hold your Hat (HYH-R5), in one place: its view, and determinization for search.

Public: the won cards (face up), every team's held special cards (face up), the special discard pile, the scores,
how many cards each pile holds, the timer, the raiders and the open claim. Secret: the word deck and the special
deck. The current word is seen by the clue-giver alone, who also remembers the words set aside this turn and, after
BINOCULARS, sees the top cards of the deck until they are arranged (HYH-A12). From round 2 on, every word of the
game has been won face up once, so the game's word set is public; in round 1 it is not.
"""

from __future__ import annotations

import random
from typing import NotRequired, TypedDict

from ...engine.rng import SeededRng
from .state import DECISION, EXTRA, MAIN, OVER, PRE, ROUND_TYPES, SPECIAL_NAMES, SPECIAL_ORDER, HoldYourHatState
from .words import COLORS


def _names(letters: str) -> list[str]:
    return [SPECIAL_NAMES[letter] for letter in letters]


def sees_turn_words(state: HoldYourHatState, seat: int | None) -> bool:
    """``seat`` is the clue-giver of a turn whose words it has seen (the current word and the set-aside ones)."""
    return seat is not None and state.phase in (MAIN, EXTRA, DECISION) and seat == state.clue_giver()


def sees_peek(state: HoldYourHatState, seat: int | None) -> bool:
    return seat is not None and state.phase == PRE and state.peek > 0 and seat == state.clue_giver()


def clue_allowed(state: HoldYourHatState, seat: int | None) -> bool:
    """The clue-giver may type a clue now (HYH-R24: rounds 1 and 2, in round 2 one per word card; round 3 pictures
    only). At a shared screen (party) clues are spoken, and may be typed besides (HYH-A29), for the guessers who
    are not in the room."""
    return (seat is not None and state.phase in (MAIN, EXTRA)
            and seat == state.clue_giver() and (state.round != 2 or state.clued == 0))


class WonCard(TypedDict):
    word: str
    points: int


class TeamView(TypedDict):
    team: int
    clue_giver: int
    held: list[str]
    won: list[WonCard]
    round_points: int
    scores: list[int]
    total: int
    raiding: bool
    claiming: bool


class WordView(TypedDict):
    text: str
    points: int
    words: int


class ClaimView(TypedDict):
    teams: list[int]
    until: int


class View(TypedDict):
    """What one seat (``None``: a spectator) sees; what never changes in a game is in ``static_data``."""

    seat: int | None
    team: int | None
    teams: list[TeamView]
    round: int
    round_type: str
    color: str
    phase: str
    active_team: int | None
    clue_giver: int | None
    now: int
    timer: int | None
    deadline: int | None
    deck_size: int
    set_aside_count: int
    extra_count: int
    has_word: bool
    specials_left: int
    discard: list[str]
    used: dict[str, bool]
    peek_count: int
    claim: ClaimView | None
    clue_allowed: bool
    clues: list[str]
    turns: int
    winners: list[int]
    word: NotRequired[WordView]
    set_aside: NotRequired[list[str]]
    peek: NotRequired[list[str]]


def view(state: HoldYourHatState, seat: int | None) -> View:
    context = state.context
    over = state.phase == OVER
    entries = context.entries[state.color]
    teams: list[TeamView] = [{
        "team": team,
        "clue_giver": state.clue_giver(team),
        "held": _names(state.held[team]),
        "won": [{"word": entries[card][0], "points": entries[card][1]} for card in state.won[team]],
        "round_points": state.round_points(team),
        "scores": list(state.scores[team]),
        "total": state.total(team),
        "raiding": bool(state.raiders >> team & 1),
        "claiming": bool(state.claiming() >> team & 1),
    } for team in range(state.teams)]
    shown: View = {
        "seat": seat,
        "team": None if seat is None else context.team_of[seat],
        "teams": teams,
        "round": state.round,
        "round_type": ROUND_TYPES[state.round - 1],
        "color": COLORS[state.color],
        "phase": state.phase,
        "active_team": None if over else state.active,
        "clue_giver": None if over else state.clue_giver(),
        "now": state.now,
        "timer": state.timer if state.timer >= 0 else None,
        "deadline": _deadline(state),
        "deck_size": len(state.deck),
        "set_aside_count": len(state.aside),
        "extra_count": len(state.extra) + (1 if state.phase == EXTRA and state.current >= 0 else 0),
        "has_word": state.current >= 0,
        "specials_left": len(state.specials),
        "discard": _names(state.discard),
        "used": {"binoculars": state.used_binoculars, "extra_time": state.used_extra},
        "peek_count": state.peek,
        "claim": ({"teams": [team for team, _ in state.claim], "until": state.claim_deadline() - 1}
                  if state.claim else None),
        "clue_allowed": clue_allowed(state, seat),
        "clues": list(state.clues),
        "turns": state.turns,
        "winners": _winners(state) if over else [],
    }
    if sees_turn_words(state, seat):
        if state.current >= 0:
            text, points, _ = entries[state.current]
            shown["word"] = {"text": text, "points": points, "words": len(text.split())}
        shown["set_aside"] = [entries[card][0] for card in state.aside]
    if sees_peek(state, seat):
        shown["peek"] = [entries[card][0] for card in reversed(state.deck[-state.peek:])]
    return shown


def _deadline(state: HoldYourHatState) -> int | None:
    from .rules import deadline

    return deadline(state)


def _winners(state: HoldYourHatState) -> list[int]:
    from .rules import winning_teams

    return winning_teams(state)


def known_cards(state: HoldYourHatState, seat: int | None) -> set[int]:
    """Word cards ``seat`` can locate: the won ones, and what a clue-giver sees."""
    known = {card for pile in state.won for card in pile}
    if sees_turn_words(state, seat):
        if state.current >= 0:
            known.add(state.current)
        known.update(state.aside)
    if sees_peek(state, seat):
        known.update(state.deck[-state.peek:])
    return known


def determinize(state: HoldYourHatState, seat: int, rng: random.Random) -> HoldYourHatState:
    """A state ``seat`` cannot tell from the real one: every word it cannot locate dealt again at random.

    In round 1 the hidden words are drawn from every card the seat has not seen (which 40 are in the game is
    secret); from round 2 on, from the game's word set less the located cards. The special deck is reshuffled.
    """
    sample = state.clone()
    known = known_cards(state, seat)
    turn_words = sees_turn_words(state, seat)
    peeked = state.peek if sees_peek(state, seat) else 0
    hidden_current = state.current >= 0 and not turn_words
    slots = (len(state.deck) - peeked) + len(state.extra) + (0 if turn_words else len(state.aside)) + hidden_current
    if state.round == 1:
        pool = sorted(set(range(len(state.context.table))) - known)
        rng.shuffle(pool)
        pool = pool[:slots]
        sample.word_set = tuple(sorted(known | set(pool)))
    else:
        pool = sorted(set(state.word_set) - known)
        rng.shuffle(pool)
    deck_hidden = len(state.deck) - peeked
    sample.deck = tuple(pool[:deck_hidden]) + (state.deck[len(state.deck) - peeked:] if peeked else ())
    del pool[:deck_hidden]
    if hidden_current:
        sample.current = pool.pop()
    if not turn_words:
        sample.aside = tuple(pool[:len(state.aside)])
        del pool[:len(state.aside)]
    sample.extra = tuple(pool[:len(state.extra)])
    specials = sorted(state.specials, key=SPECIAL_ORDER.index)  # which cards is known, their order is not
    rng.shuffle(specials)
    sample.specials = "".join(specials)
    sample.rng = SeededRng(rng.getrandbits(63))  # future shuffles must not be foreseeable either
    return sample
