"""Bermuda's rules (BRM-R1..R30, variants BRM-V1..V4): setup, time, legality, and what each action does.

Time enters only as the timestamps the caller gives (BRM-R5). The state remembers the last one (``now``) and its
next deadline: the end of the countdown that starts the dive once everyone holds their breath (BRM-R11, option
``countdown_ms``), or the dive's time limit (BRM-R13, option ``max_dive_ms``). A deadline fires when the caller's
clock ticks past it, or just before any input stamped at or after it. ``check`` and ``apply`` judge an input in the
state as it is at the input's time, so a rejected input changes nothing, not even by firing a deadline. The
engine's frame has already refused a finished game and a seat that does not exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.errors import IllegalAction, MalformedInput
from ...engine.events import Event
from ...engine.game import CLOCK
from ...engine.outcome import Outcome, Termination
from ...engine.rng import SeededRng
from ...engine.state import replaced
from .actions import HOLD, RELEASE, SORT, Action, Hold, Lay, Release, Signal, Sort, Tick
from .cards import DIVER_DECK, HAND_SIZE, MAX_PLAYERS, NEIGHBOURS, VALUES, adjacent
from .config import BermudaConfig
from .events import (
    ColumnResult,
    CountdownStarted,
    DiveStarted,
    GameOver,
    Held,
    Laid,
    LayoutEnded,
    LayoutStarted,
    Released,
    RoundEnded,
    RoundStarted,
    Signalled,
    Sorted,
    TimeUp,
)
from .state import (
    DIVE,
    END_EMPTY,
    END_FULL,
    END_RELEASE,
    END_TIME,
    GAME_OVER,
    NONE,
    PREPARE,
    BermudaState,
    Cards,
)


class Ending(Termination):
    """How a game of Bermuda ends, and the rule that says so."""

    DIVERS_WIN = ("divers_win", "BRM-R30")  # W >= P: the team brought up enough treasures (a tie is theirs)
    KEEPER_WINS = ("keeper_wins", "BRM-R30")  # W < P: Kusalochka protects more than the team won
    BREATH_OVER = ("breath_over", "BRM-V3")  # the chained single-breath challenge: someone breathed, or time ran out
    CHALLENGE_ROUND_OVER = ("challenge_round_over", "BRM-V3")  # the one-round single-breath challenge was judged


# One action object per (value, column) and per column, so listing legal actions allocates none. There are never
# more columns than players (BRM-R3.1).
LAYS = {(value, column): Lay(value, column) for value in VALUES for column in range(1, MAX_PLAYERS + 1)}
SIGNALS = {column: Signal(column) for column in range(1, MAX_PLAYERS + 1)}


def all_actions(config: BermudaConfig) -> list[Action]:
    """Every action a seat may ever take under ``config``, unstamped (the clock's tick is no seat's)."""
    columns = range(1, config.num_players + 1)
    return [HOLD, RELEASE, SORT, *(LAYS[value, column] for value in VALUES for column in columns),
            *(SIGNALS[column] for column in columns)]

# -- judging a column (BRM-R20, BRM-R21): a pure function of the depth and the cards in order (BRM-I6) -------------


def bad_steps(cards: Sequence[int]) -> list[int]:
    """Positions (from 1) of the cards that are not adjacent to the card above them (BRM-R20)."""
    return [i + 1 for i in range(1, len(cards)) if not adjacent(cards[i - 1], cards[i])]


def judge(depth: int, cards: Sequence[int]) -> tuple[bool, list[str], list[int]]:
    """BRM-R21: a column wins iff it holds exactly ``depth`` cards and every step is adjacent.

    Returns (won, reasons, bad steps). ``reasons`` says why a column fails: ``bad_step`` (at the positions of the
    bad steps), then ``empty``, ``too_short`` or ``too_long``; a column may fail for two reasons at once (the
    rulebook's column 2).
    """
    steps = bad_steps(cards)
    reasons = ["bad_step"] if steps else []
    if not cards:
        reasons.append("empty")
    elif len(cards) < depth:
        reasons.append("too_short")
    elif len(cards) > depth:
        reasons.append("too_long")
    return not reasons, reasons, steps


def column_result(state: BermudaState, treasure: int, cards: Cards) -> ColumnResult:
    info = state.table.treasures[treasure]
    won, reasons, steps = judge(info.depth, cards)
    return {"treasure": info.id, "name": info.name, "depth": info.depth, "cards": list(cards), "won": won,
            "reasons": reasons, "bad_steps": steps}


def column_status(depth: int | None, cards: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """How a column stands during a dive, and the values that would keep it winnable (shown to the players).

    ``hidden`` (its treasure is face down), ``empty``, ``building``, ``complete`` (exactly deep enough, every step
    right), ``too_long`` or ``broken`` (a bad step: it can no longer win).
    """
    if depth is None:
        return "hidden", ()
    if bad_steps(cards):
        return "broken", ()
    if len(cards) > depth:
        return "too_long", ()
    if len(cards) == depth:
        return "complete", ()
    if not cards:
        return "empty", VALUES
    return "building", NEIGHBOURS[cards[-1]]


def strict_fits(depth: int, cards: Cards, card: int) -> bool:
    """BRM-R12 strict: the card follows the column's last card and the column is not yet deep enough."""
    return len(cards) < depth and (not cards or adjacent(cards[-1], card))


# -- setup (BRM-R2, BRM-R3) ------------------------------------------------------------------------------------


def new_state(config: BermudaConfig, seed: int) -> tuple[BermudaState, list[Event]]:
    state = object.__new__(BermudaState)
    state.config = config
    state.table = config.table
    n = config.num_players
    deck = list(range(len(state.table)))
    state.rng = SeededRng(seed).shuffle(deck)  # BRM-R2: the treasure deck, shuffled once
    state.deck = tuple(deck)
    state.won = state.keeper = ()
    state.round = 1
    state.now = 0
    state.last = ()
    state.end = None
    state.dives = state.found = state.layouts = 0
    state.hands = ((),) * n
    state.columns = state.layout = ()
    state.aside = DIVER_DECK
    state.signals = (NONE,) * n
    events: list[Event] = []
    _setup_round(state, events)
    return state, events


def _reveal(state: BermudaState) -> None:
    """BRM-R3.1: treasures from the top of the deck into columns 1..n (fewer if fewer remain, BRM-A7)."""
    n = len(state.hands)
    if state.config.challenge == "chained" and len(state.deck) < n:
        # BRM-V3: the won and lost piles go back into the treasure deck with what remains, shuffled.
        cards = list(state.deck + state.won + state.keeper)
        state.rng = state.rng.shuffle(cards)
        state.deck = tuple(cards)
        state.won = state.keeper = ()
    take = min(n, len(state.deck))
    state.layout = tuple(reversed(state.deck[len(state.deck) - take:]))  # the top card goes to column 1
    state.deck = state.deck[:len(state.deck) - take]
    state.columns = ((),) * take


def _deal(state: BermudaState) -> dict[int, list[int]]:
    """BRM-R3.2, BRM-A8: all 63 Diver cards shuffled, twelve dealt to each player one at a time from seat 0; the
    rest are set aside for the round. Hands keep deal order (BRM-R3.3). Returns each seat's new hand."""
    n = len(state.hands)
    cards = list(DIVER_DECK)
    state.rng = state.rng.shuffle(cards)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[i % n].append(cards.pop())
    state.aside = tuple(sorted(cards))
    state.hands = tuple(tuple(hand) for hand in hands)
    state.signals = (NONE,) * n
    return dict(enumerate(hands))


def _layout_ids(state: BermudaState) -> tuple[str, ...]:
    return tuple(state.table.treasures[t].id for t in state.layout)


def _layout_names(state: BermudaState) -> tuple[str, ...]:
    return tuple(state.table.treasures[t].name for t in state.layout)


def _name(state: BermudaState, index: int) -> str:
    """The name of the treasure of column ``index`` (from 0)."""
    return state.table.treasures[state.layout[index]].name


def _setup_round(state: BermudaState, events: list[Event]) -> None:
    """BRM-R3 and BRM-R10: reveal the round's treasures, deal, and wait for everyone to hold their breath."""
    if not state.deck and state.config.challenge != "chained":  # BRM-A7: no treasure left, the game ends
        _game_over(state, events)
        return
    _reveal(state)
    hands = _deal(state)
    state.phase = PREPARE
    state.hold = 0
    state.dive_at = state.t0 = NONE
    state.shown = not state.config.hidden_treasures  # BRM-V1: face down until the dive
    events.append(RoundStarted(state.round, len(state.layout), _layout_ids(state) if state.shown else None,
                               _layout_names(state) if state.shown else None, len(state.deck), hands))


# -- time (BRM-R5, BRM-R11, BRM-R13) --------------------------------------------------------------------------------


def deadline(state: BermudaState) -> int | None:
    """The next deadline: the countdown's end in PREPARE, the dive's time limit in DIVE."""
    if state.phase == PREPARE:
        return state.dive_at if state.dive_at != NONE else None
    if state.phase == DIVE and state.config.max_dive_ms is not None:
        return state.t0 + state.config.max_dive_ms
    return None


def _fire_until(state: BermudaState, t: int, events: list[Event]) -> None:
    """Let every deadline up to ``t`` pass, each at its own time."""
    while (due := deadline(state)) is not None and due <= t:
        state.now = max(state.now, due)
        if state.phase == PREPARE:
            _start_dive(state, due, events)
        else:
            events.append(TimeUp(due))
            _end_dive(state, END_TIME, NONE, due, events)


def at_time(state: BermudaState, t: int) -> BermudaState:
    """The state as it is at ``t``: ``state`` itself if no deadline falls due by then, else a clone after them."""
    due = deadline(state)
    if due is None or due > t:
        return state
    copy = state.clone()
    _fire_until(copy, t, [])
    return copy


def _start_dive(state: BermudaState, t: int, events: list[Event]) -> None:
    """BRM-R11: the dive starts at ``t``; face-down treasures are turned over now (BRM-V1, BRM-A20)."""
    state.phase = DIVE
    state.t0 = t
    state.dive_at = NONE
    hidden = not state.shown
    state.shown = True
    limit = state.config.max_dive_ms
    events.append(DiveStarted(t, _layout_ids(state), _layout_names(state), hidden,
                              None if limit is None else t + limit))


# -- who may act, and what ------------------------------------------------------------------------------------------


_EVERYONE = tuple(frozenset(range(n)) for n in range(MAX_PLAYERS + 1))
_NOBODY: frozenset[int] = frozenset()


def actors(state: BermudaState) -> frozenset[int]:
    """Everyone acts at once (the game is real-time), until the game is over."""
    return _NOBODY if state.phase == GAME_OVER else _EVERYONE[len(state.hands)]


def _may_sort(state: BermudaState, seat: int) -> bool:
    hand = state.hands[seat]
    return (state.phase == PREPARE and state.config.sorting_allowed(state.round)
            and any(hand[i] > hand[i + 1] for i in range(len(hand) - 1)))


# The dive's legal actions by what they depend on: the hand and the number of columns; with the strict placement
# check, the columns' cards and the depth of each column's treasure too. Every seat asks for them after every action
# of a real-time table; the list a caller gets is its own copy.
_DIVE_LEGAL: dict[tuple[Any, ...], tuple[Action, ...]] = {}
_DIVE_LEGAL_BY_VALUES: dict[tuple[frozenset[int], int], tuple[Action, ...]] = {}  # at most 2^9 x 5 entries


def legal_actions(state: BermudaState, seat: int) -> list[Action]:
    if state.phase == GAME_OVER or not 0 <= seat < len(state.hands):
        return []
    if state.phase == PREPARE:
        actions: list[Action] = [RELEASE if state.is_holding(seat) else HOLD]
        if _may_sort(state, seat):
            actions.append(SORT)
        return actions
    strict = state.config.placement_check == "strict"
    if strict:
        treasures = state.table.treasures
        key: tuple[Any, ...] = (state.hands[seat], state.columns,
                                tuple(treasures[treasure].depth for treasure in state.layout))
    else:
        key = (state.hands[seat], len(state.columns))
    listed = _DIVE_LEGAL.get(key)
    if listed is None:
        if len(_DIVE_LEGAL) > 50_000:
            _DIVE_LEGAL.clear()
        if strict:
            listed = tuple(_dive_actions(state, seat, strict))
        else:  # the values in the hand decide: hands of the same values share one list
            values = (frozenset(state.hands[seat]), len(state.columns))
            listed = _DIVE_LEGAL_BY_VALUES.get(values)
            if listed is None:
                listed = _DIVE_LEGAL_BY_VALUES[values] = tuple(_dive_actions(state, seat, strict))
        _DIVE_LEGAL[key] = listed
    return list(listed)


def _dive_actions(state: BermudaState, seat: int, strict: bool) -> list[Action]:
    actions: list[Action] = []
    columns = state.columns
    treasures = state.table.treasures
    for value in sorted(set(state.hands[seat])):
        for index, cards in enumerate(columns):
            if not strict or strict_fits(treasures[state.layout[index]].depth, cards, value):
                actions.append(LAYS[value, index + 1])
    actions.append(RELEASE)
    actions.extend(SIGNALS[column] for column in range(1, len(columns) + 1))
    return actions


def check(state: BermudaState, seat: int, action: Action) -> None:
    """Raise ``IllegalAction`` with the reason and rule ID if ``seat`` may not take ``action`` at its time."""
    t = _time(state, seat, action)
    _validate(at_time(state, t), seat, action)


def _time(state: BermudaState, seat: int, action: Action) -> int:
    """The action's time, checked against the last input's (BRM-R5); only the clock ticks, and it only ticks."""
    if not isinstance(action, Hold | Release | Sort | Lay | Signal | Tick):
        raise MalformedInput(f"not a Bermuda action: {action!r}")
    if (seat == CLOCK) != isinstance(action, Tick):
        raise IllegalAction("the clock only ticks; players act for themselves" if seat == CLOCK
                            else "only the caller's clock ticks", "BRM-R5")
    t = state.now if action.t is None else action.t
    if t < state.now:
        raise IllegalAction(f"time {t} is earlier than the last input's ({state.now}): times never go back",
                            "BRM-R5")
    return t


def _validate(state: BermudaState, seat: int, action: Action) -> None:
    """Check ``action`` completely in ``state`` (already at the action's time, so a deadline that passed before
    it may have ended the dive, or even the game)."""
    if isinstance(action, Tick):
        return
    phase = state.phase
    if phase == GAME_OVER:
        raise IllegalAction("the game is over", "BRM-R30")
    match action:
        case Hold():
            if phase == DIVE:
                raise IllegalAction("everyone is already holding their breath: the dive is on", "BRM-R11")
            if state.is_holding(seat):
                raise IllegalAction("you are already holding your breath", "BRM-R10")
        case Release():
            if phase == PREPARE and not state.is_holding(seat):
                raise IllegalAction("you are not holding your breath", "BRM-R10")
        case Sort():
            _validate_sort(state, seat)
        case Signal(column=column):
            if phase != DIVE:
                raise IllegalAction("gestures are for the dive, when nobody can talk", "BRM-R14")
            _column_index(state, column, "BRM-R14")
        case Lay():
            _validate_lay(state, seat, action)


def _validate_sort(state: BermudaState, seat: int) -> None:
    config = state.config
    if state.phase != PREPARE:
        raise IllegalAction("hands may be sorted only before the dive", "BRM-R3")
    if config.hidden_treasures:
        raise IllegalAction("experienced divers never sort their hand", "BRM-V1")
    if not config.sorting_allowed(state.round):
        when = {"never": "not in this game", "first_round": "only before the first round"}[config.sorting]
        raise IllegalAction(f"sorting is allowed {when} (option sorting={config.sorting})", "BRM-A11")
    if not _may_sort(state, seat):
        raise IllegalAction("your hand is already sorted", "BRM-R3")


def _validate_lay(state: BermudaState, seat: int, action: Lay) -> None:
    if state.phase != DIVE:
        if state.end is not None and not state.hold:
            raise IllegalAction("the dive is over: somebody breathed or time ran out; no more cards until the next "
                                "dive", "BRM-R13")
        raise IllegalAction("cards are laid only during the dive, once everyone holds their breath", "BRM-A16")
    index = _column_index(state, action.column, "BRM-R12")
    if action.card not in state.hands[seat]:
        raise IllegalAction(f"you have no {action.card} in your hand", "BRM-R12")
    if state.config.placement_check == "strict":
        depth = state.table.treasures[state.layout[index]].depth
        cards = state.columns[index]
        if len(cards) >= depth:
            raise IllegalAction(f"column c{action.column} already holds its {depth} cards (placement check strict)",
                                "BRM-R12")
        if cards and not adjacent(cards[-1], action.card):
            raise IllegalAction(f"{action.card} does not follow {cards[-1]}: each card must differ by one, 9 and 1 "
                                "included (placement check strict)", "BRM-R12")


def _column_index(state: BermudaState, column: int, rule: str) -> int:
    if not 1 <= column <= len(state.columns):
        raise IllegalAction(f"there is no column c{column}: the columns are c1 to c{len(state.columns)}", rule)
    return column - 1


# -- effects --------------------------------------------------------------------------------------------------------


def apply(state: BermudaState, seat: int, action: Action) -> list[Event]:
    t = _time(state, seat, action)
    events: list[Event] = []
    due = deadline(state)
    if due is not None and due <= t:
        # The deadline fires first (BRM-R5); work on a copy so a rejected input leaves the state as it was.
        work = state.clone()
        _fire_until(work, t, events)
        _validate(work, seat, action)
        _perform(work, seat, action, t, events)
        state.copy_from(work)
        return events
    _validate(state, seat, action)
    _perform(state, seat, action, t, events)
    return events


def _perform(state: BermudaState, seat: int, action: Action, t: int, events: list[Event]) -> None:
    state.now = t
    match action:
        case Lay():
            _lay(state, seat, action, t, events)
        case Hold():  # BRM-R10
            state.hold |= 1 << seat
            events.append(Held(seat, t))
            if state.everyone_holds():  # BRM-R11: the count of three, then the dive
                if state.config.countdown_ms == 0:
                    _start_dive(state, t, events)
                else:
                    state.dive_at = t + state.config.countdown_ms
                    events.append(CountdownStarted(t, state.dive_at))
        case Release() if state.phase == PREPARE:  # BRM-R10: it only takes back the hold (and stops the count)
            state.hold &= ~(1 << seat)
            cancelled = state.dive_at != NONE
            state.dive_at = NONE
            events.append(Released(seat, t, cancelled))
        case Release():  # BRM-R13.1: somebody breathed, the dive ends now for everyone
            events.append(Released(seat, t, False))
            _end_dive(state, END_RELEASE, seat, t, events)
        case Sort():  # BRM-R3.4
            state.hands = replaced(state.hands, seat, tuple(sorted(state.hands[seat])))
            events.append(Sorted(seat, {seat: list(state.hands[seat])}))
        case Signal(column=column):  # BRM-R14: no effect on the rules
            state.signals = replaced(state.signals, seat, column - 1)
            events.append(Signalled(seat, column, _name(state, column - 1), t))


def _lay(state: BermudaState, seat: int, action: Lay, t: int, events: list[Event]) -> None:
    """BRM-R12: the card leaves the hand and goes under the column's last card, for good (BRM-A12)."""
    hand = state.hands[seat]
    i = hand.index(action.card)
    state.hands = replaced(state.hands, seat, hand[:i] + hand[i + 1:])
    index = action.column - 1
    column = state.columns[index] + (action.card,)
    state.columns = replaced(state.columns, index, column)
    events.append(Laid(seat, action.card, action.column, _name(state, index), t, len(column)))
    empty = not any(state.hands)
    if state.config.challenge == "chained":  # BRM-V3: a full layout, or empty hands, close the layout
        treasures = state.table.treasures
        full = all(len(cards) >= treasures[state.layout[k]].depth for k, cards in enumerate(state.columns))
        if full or empty:
            _close_layout(state, END_FULL if full else END_EMPTY, t, events)
    elif empty and state.config.auto_end_on_empty_hands:  # BRM-R13.3, BRM-A18
        _end_dive(state, END_EMPTY, NONE, t, events)


def _resolve(state: BermudaState, reason: str, seat: int, t: int) -> tuple[int, tuple[ColumnResult, ...]]:
    """BRM-R21, BRM-R22: judge every column; won treasures to the won pile, the others to the Keeper's (or lost)
    pile. Returns the number won and each column's result."""
    results = tuple(column_result(state, treasure, cards)
                    for treasure, cards in zip(state.layout, state.columns, strict=True))
    won = tuple(t for t, result in zip(state.layout, results, strict=True) if result["won"])
    state.won += won
    state.keeper += tuple(t for t, result in zip(state.layout, results, strict=True) if not result["won"])
    state.last = tuple(zip(state.layout, state.columns, strict=True))
    state.end = (reason, seat, t)
    state.layout = state.columns = ()
    # BRM-R22: every Diver card goes back to the deck (the next deal shuffles all 63 again).
    state.hands = ((),) * len(state.hands)
    state.aside = DIVER_DECK
    state.signals = (NONE,) * len(state.hands)
    return len(won), results


def treasures_won(state: BermudaState) -> int:
    """W of BRM-R30 (the single-breath challenge counts apart from its piles, which it may reshuffle)."""
    return state.found if state.config.challenge == "chained" else len(state.won)


def protection(state: BermudaState) -> int:
    """P of BRM-R30: the protection points of the treasures in the Keeper's pile."""
    if state.config.challenge is not None:
        return 0
    treasures = state.table.treasures
    return sum(treasures[t].protection for t in state.keeper)


def _end_dive(state: BermudaState, reason: str, seat: int, t: int, events: list[Event]) -> None:
    """BRM-R13: the dive ends at ``t`` for everyone; resolve (BRM-R21/R22), then the next round or the end."""
    challenge = state.config.challenge
    won, results = _resolve(state, reason, seat, t)
    state.phase = PREPARE  # until the next round is set up, or the game ends
    state.t0 = NONE
    state.hold = 0
    if challenge == "chained":  # BRM-V3: the breath is over; the open layout's winning columns still count
        state.found += won
        state.layouts += 1
        events.append(LayoutEnded(state.layouts, reason, seat, t, results, False, state.dives, state.found))
        _game_over(state, events)
        return
    events.append(RoundEnded(state.round, reason, seat, t, results, treasures_won(state), protection(state)))
    state.round += 1
    if challenge == "one_round" or state.round > state.config.rounds:
        _game_over(state, events)
    else:
        _setup_round(state, events)


def _close_layout(state: BermudaState, reason: str, t: int, events: list[Event]) -> None:
    """BRM-V3 chained: resolve the layout, count it, and lay out the next one at the same moment."""
    won, results = _resolve(state, reason, NONE, t)
    dive = won == len(results)
    state.dives += dive
    state.found += won
    state.layouts += 1
    events.append(LayoutEnded(state.layouts, reason, NONE, t, results, dive, state.dives, state.found))
    _reveal(state)
    hands = _deal(state)
    events.append(LayoutStarted(state.layouts + 1, t, _layout_ids(state), _layout_names(state), len(state.deck),
                                hands))


def _game_over(state: BermudaState, events: list[Event]) -> None:
    state.phase = GAME_OVER
    state.hold = 0
    state.dive_at = state.t0 = NONE
    state.shown = True
    state.hands = ((),) * len(state.hands)
    state.columns = state.layout = ()
    state.aside = DIVER_DECK
    state.signals = (NONE,) * len(state.hands)
    events.append(GameOver(**_result(state)))


def ending(state: BermudaState) -> Ending:
    """How a finished game ended (BRM-R30, BRM-V3)."""
    challenge = state.config.challenge
    if challenge == "chained":
        return Ending.BREATH_OVER
    if challenge == "one_round":
        return Ending.CHALLENGE_ROUND_OVER
    return Ending.DIVERS_WIN if treasures_won(state) >= protection(state) else Ending.KEEPER_WINS  # BRM-A17


def _result(state: BermudaState) -> dict[str, Any]:
    """The game's result as the game-over record's fields (and the outcome's details)."""
    challenge = state.config.challenge
    end = ending(state)
    if challenge == "chained":
        return {"termination": str(end), "challenge": challenge, "dives": state.dives, "treasures": state.found,
                "layouts": state.layouts}
    if challenge == "one_round":
        return {"termination": str(end), "challenge": challenge, "treasures": treasures_won(state)}
    return {"termination": str(end), "treasures": treasures_won(state), "protection": protection(state),
            "verdict": "players" if end is Ending.DIVERS_WIN else "keeper"}


def leave_action(state: BermudaState, seat: int, t: int) -> Action | None:
    """A seat that loses its connection breathes (BRM-A5): it releases if it is holding."""
    if state.phase == DIVE or (state.phase == PREPARE and state.is_holding(seat)):
        return Release(t)
    return None


def outcome(state: BermudaState) -> Outcome | None:
    """BRM-R30: the team wins iff W >= P (BRM-A17); the single-breath challenge has no winner, only counts."""
    if state.phase != GAME_OVER:
        return None
    n = len(state.hands)
    end = ending(state)
    details = {key: value for key, value in _result(state).items() if key != "termination"}
    details["rounds"] = 1 if state.config.challenge == "chained" else state.round - 1
    score = float(state.dives if end is Ending.BREATH_OVER else details["treasures"])
    winners = tuple(range(n)) if end is Ending.DIVERS_WIN else ()
    return Outcome(winners, (score,) * n, end, details)
