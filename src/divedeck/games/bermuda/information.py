"""What each seat may know in Bermuda, in one place: its view, and determinization for search.

Public: the columns and every card in them, the face-up treasures, both piles, hand sizes, who holds their breath,
the times (the last input's, the countdown's end, the dive's start and limit), gestures, and the last round's
result. Private: each hand (its owner alone sees it, BRM-R3.3), the Diver cards set aside (nobody), the order of the
treasure deck (nobody), and face-down treasures before the dive (nobody, BRM-V1).

The view carries what changes; what a config fixes (the treasure table, the options) is the game's static data.
A column's treasure is in the view because which treasure lies there changes every round, and the bots and the
terminal read its depth from the view alone.
"""

from __future__ import annotations

import random
from typing import Any, NotRequired, TypedDict, cast

from ...engine.rng import SeededRng
from .cards import DIVER_DECK
from .presentation import Score, column_words, end_words, failure_words, scoreboard
from .rules import column_result, column_status, deadline, protection, treasures_won
from .state import NONE, BermudaState


class TreasureView(TypedDict):
    id: str
    name: str
    depth: int
    protection: int


class ColumnView(TypedDict):
    column: int  # from 1
    treasure: TreasureView | None  # None while face down (BRM-V1)
    cards: list[int]  # first laid first
    status: str  # hidden, empty, building, complete, too_long, broken
    accepts: list[int]  # the values that keep it winnable
    words: str  # how it stands, for people: "3 more · next 4 or 6"


class ResultColumnView(TypedDict):
    column: int
    treasure: TreasureView
    cards: list[int]
    won: bool
    reasons: list[str]
    bad_steps: list[int]
    why: str  # why it failed, for people: "too short: 8 of 10 cards"; empty when won


class LastResultView(TypedDict):
    reason: str  # release, time, empty, full
    seat: int | None  # who breathed
    how: str  # how the dive ended, for people, after the name of whoever breathed: "breathed", "time ran out"
    title: str  # "2 of 3 treasures won"
    t: int
    columns: list[ResultColumnView]


class BermudaView(TypedDict):
    game: str
    seat: int | None
    players: int
    phase: str  # prepare, dive, over
    round: int
    rounds: int
    challenge: str | None  # chained, one_round (BRM-V3), or None
    now: int
    holding: list[bool]
    dive_at: int | None
    t0: int | None
    deadline: int | None
    columns: list[ColumnView]
    hand_sizes: list[int]
    signals: list[int | None]  # the column each seat points at
    deck_size: int
    won: list[str]  # treasure ids (the static data names them)
    keeper: list[str]
    treasures_won: int
    protection: int
    last_result: LastResultView | None
    sorting_allowed: bool
    scoreboard: list[Score]  # the scores as a page shows them, first the game's form
    dives: NotRequired[int]
    layouts: NotRequired[int]
    hand: NotRequired[list[int]]


def _treasure(state: BermudaState, index: int) -> TreasureView:
    treasure = state.table.treasures[index]
    return {"id": treasure.id, "name": treasure.name, "depth": treasure.depth, "protection": treasure.protection}


def _time(value: int) -> int | None:
    return None if value == NONE else value


def _column(state: BermudaState, index: int, cards: tuple[int, ...]) -> ColumnView:
    treasure = _treasure(state, state.layout[index]) if state.shown else None
    depth = treasure["depth"] if treasure else None
    status, accepts = column_status(depth, cards)
    return {"column": index + 1, "treasure": treasure, "cards": list(cards), "status": status,
            "accepts": list(accepts), "words": column_words(status, depth, len(cards), accepts)}


def _last_result(state: BermudaState) -> LastResultView | None:
    if not state.last or state.end is None:
        return None
    reason, who, t = state.end
    columns: list[ResultColumnView] = []
    for i, (treasure, cards) in enumerate(state.last):
        result = column_result(state, treasure, cards)
        columns.append({"column": i + 1, "treasure": _treasure(state, treasure), "cards": result["cards"],
                        "won": result["won"], "reasons": result["reasons"], "bad_steps": result["bad_steps"],
                        "why": failure_words(result)})
    won = sum(column["won"] for column in columns)
    title = f"{won} of {len(columns)} treasure{'' if len(columns) == 1 else 's'} won"
    return {"reason": reason, "seat": _time(who), "how": end_words(reason), "title": title, "t": t,
            "columns": columns}


# The last public picture built: (config, table, key, picture, column keys). Every seat's view of one moment shares
# it, and the next moment reuses its columns and last result where they did not change: a real-time table asks
# every seat's view after every action. One tuple, read and replaced whole, so threads never see half of it.
_last: tuple[Any, ...] = (None, None, None, None, ())


def _key(state: BermudaState) -> tuple[Any, ...]:
    """Everything the public picture is made of (the config and table are compared by identity)."""
    return (state.phase, state.round, state.now, state.hold, state.dive_at, state.t0, state.columns, state.layout,
            state.shown, tuple(map(len, state.hands)), state.signals, len(state.deck), state.won, state.keeper,
            state.found, state.dives, state.layouts, state.last, state.end)


def view(state: BermudaState, seat: int | None) -> BermudaView:
    """What ``seat`` sees. The views of one moment share their nested lists and dicts (the public picture): read
    them, never change them."""
    global _last
    config, table = state.config, state.table
    key = _key(state)
    last = _last
    if last[0] is config and last[1] is table and last[2] == key:
        public = last[3]
    else:
        previous = last if last[0] is config and last[1] is table else None
        if previous is not None and _only_lays_since(previous[2], key):
            public, columns = _after_lays(state, previous)
        else:
            public, columns = _public(state, previous)
        _last = (config, table, key, public, columns)
    shown = cast(BermudaView, public.copy())
    shown["seat"] = seat
    if seat is not None:
        shown["hand"] = list(state.hands[seat])
    return shown


def _only_lays_since(old: tuple[Any, ...], key: tuple[Any, ...]) -> bool:
    """Whether only what a lay changes (the time, the columns, the hand sizes) differs between two keys."""
    return old[:2] == key[:2] and old[3:6] == key[3:6] and old[7:9] == key[7:9] and old[10:] == key[10:]


def _after_lays(state: BermudaState, previous: tuple[Any, ...]) -> tuple[BermudaView, tuple[Any, ...]]:
    """``_public`` when only lays happened since the ``previous`` picture: its copy with the time, the changed
    columns and the hand sizes replaced."""
    old_columns = dict(zip(previous[4], previous[3]["columns"], strict=True))
    column_keys = tuple((index, state.layout[index], cards, state.shown) for index, cards in enumerate(state.columns))
    shown = previous[3].copy()
    shown["now"] = state.now
    shown["columns"] = [old_columns.get(ckey) or _column(state, index, cards)
                        for ckey, (index, cards) in zip(column_keys, enumerate(state.columns), strict=True)]
    shown["hand_sizes"] = [len(hand) for hand in state.hands]
    return shown, column_keys


def _public(state: BermudaState, previous: tuple[Any, ...] | None) -> tuple[BermudaView, tuple[Any, ...]]:
    """The picture every seat shares (``seat`` left empty), and each column's key; ``previous`` is the last
    picture of the same config, whose unchanged columns and last result are taken over."""
    config = state.config
    n = len(state.hands)
    old_columns: dict[Any, ColumnView] = {}
    old_result = None
    old: BermudaView | None = None  # the previous picture, if its scores (round, phase, piles, counts) still hold
    if previous is not None:
        old_key = previous[2]
        old_columns = dict(zip(previous[4], previous[3]["columns"], strict=True))
        if old_key[17] is state.last and old_key[18] is state.end:
            old_result = previous[3]["last_result"]
        if old_key[0] == state.phase and old_key[1] == state.round and old_key[12] is state.won \
                and old_key[13] is state.keeper and old_key[14:17] == (state.found, state.dives, state.layouts):
            old = previous[3]
    column_keys = tuple((index, state.layout[index], cards, state.shown) for index, cards in enumerate(state.columns))
    columns = [old_columns.get(ckey) or _column(state, index, cards)
               for ckey, (index, cards) in zip(column_keys, enumerate(state.columns), strict=True)]
    shown: BermudaView = {
        "game": "bermuda",
        "seat": None,
        "players": n,
        "phase": state.phase,
        "round": min(state.round, config.rounds),
        "rounds": config.rounds,
        "challenge": config.challenge,
        "now": state.now,
        "holding": [state.is_holding(s) for s in range(n)],
        "dive_at": _time(state.dive_at),
        "t0": _time(state.t0),
        "deadline": deadline(state),
        "columns": columns,
        "hand_sizes": [len(hand) for hand in state.hands],
        "signals": [None if column == NONE else column + 1 for column in state.signals],
        "deck_size": len(state.deck),
        "won": old["won"] if old else [state.table.ids[t] for t in state.won],
        "keeper": old["keeper"] if old else [state.table.ids[t] for t in state.keeper],
        "treasures_won": old["treasures_won"] if old else treasures_won(state),
        "protection": old["protection"] if old else protection(state),
        "last_result": old_result if old_result is not None else _last_result(state),
        "sorting_allowed": old["sorting_allowed"] if old else config.sorting_allowed(state.round)
        and state.phase == "prepare",
        "scoreboard": old["scoreboard"] if old else scoreboard(state),
    }
    if config.challenge == "chained":
        shown["dives"] = state.dives
        shown["layouts"] = state.layouts
    return shown, column_keys


def unseen_divers(state: BermudaState, seat: int | None) -> list[int]:
    """Diver cards ``seat`` cannot locate, by value: other hands and the cards set aside."""
    remaining = {value: 0 for value in range(1, 10)}
    for value in DIVER_DECK:
        remaining[value] += 1
    seen = [*state.columns] + ([state.hands[seat]] if seat is not None else [])
    for cards in seen:
        for value in cards:
            remaining[value] -= 1
    return [value for value, count in remaining.items() for _ in range(count)]


def unseen_treasures(state: BermudaState) -> list[int]:
    """Treasures nobody can locate: the deck (order unknown) and face-down ones in the layout."""
    seen = set(state.won) | set(state.keeper) | (set(state.layout) if state.shown else set())
    return [t for t in range(len(state.table)) if t not in seen]


def determinize(state: BermudaState, seat: int, rng: random.Random) -> BermudaState:
    """A state ``seat`` cannot tell from the real one: other hands, the set-aside cards, the treasure deck's order
    and face-down treasures dealt at random from what the seat cannot see."""
    sample = state.clone()
    pool = unseen_divers(state, seat)
    rng.shuffle(pool)
    hands = list(state.hands)
    for other, hand in enumerate(hands):
        if other != seat:
            hands[other] = tuple(pool[:len(hand)])
            del pool[:len(hand)]
    sample.hands = tuple(hands)
    sample.aside = tuple(sorted(pool))
    treasures = unseen_treasures(state)
    rng.shuffle(treasures)
    if not state.shown:
        sample.layout = tuple(treasures[:len(state.layout)])
        del treasures[:len(state.layout)]
    sample.deck = tuple(treasures)
    sample.rng = SeededRng(rng.getrandbits(63))  # future shuffles must not be foreseeable either
    return sample
