"""Bermuda's state notation: one line that builds a position.

    bermuda round=1 phase=dive now=12500 hold=0,1,2 dive_at=- t0=9000 hands=371984/?11/?12 columns=345,-,9
    layout=T05,T12,T21 shown=1 deck=? won=- keeper=- aside=? signals=2,-,- last=- end=- dives=0 found=0
    layouts=0 rng=7:2

Fields are ``name=value`` separated by spaces, in this order. Diver cards are digits (a hand ``371984`` holds a 3, a
7, a 1 ... in deal order; a column ``345`` has 3 on top and 5 laid last); per-seat and per-column lists are
separated by ``/`` or ``,`` as shown, and ``-`` is empty. Treasures are their ids; the deck lists them bottom to top.
``hold`` lists the seats holding their breath; ``dive_at`` is the end of the countdown, ``t0`` the dive's start
(``-``: none). ``shown=0`` while the layout's treasures are face down (BRM-V1). ``last`` is the last resolved
layout, each column as ``treasure:cards``; ``end`` says how it ended (``release.2@31000``: seat 2 breathed at
31000; ``time@...``, ``empty@...``, ``full@...``). ``dives``, ``found`` and ``layouts`` are the single-breath
challenge's counters (BRM-V3).

A seat's copy writes what it cannot see as unknown: ``?12`` for a hand of twelve unseen cards, ``deck=?18``,
``aside=?15``, ``?`` for each face-down treasure and ``rng=?``. When parsing, ``?N`` (or ``?`` for "all the rest")
is filled with unused cards in order (values from 1 up, treasures in file order), which gives one state consistent
with that seat's knowledge. Only ``hands`` is required (and ``layout`` before the game is over); every other field
has the value of a fresh round.
"""

from __future__ import annotations

import re

from ...engine.errors import MalformedInput
from ...engine.notation import (
    CardPool,
    NotationFields,
    config_for_seats,
    format_cards,
    read_rng,
    read_state_line,
    rng_field,
    unknown_count,
    write_state_line,
)
from .cards import DIVER_DECK, VALUES
from .config import BermudaConfig
from .state import DIVE, END_REASONS, GAME_OVER, NONE, PHASES, PREPARE, BermudaState

FIELDS = ("round", "phase", "now", "hold", "dive_at", "t0", "hands", "columns", "layout", "shown", "deck", "won",
          "keeper", "aside", "signals", "last", "end", "dives", "found", "layouts", "rng")
_END = re.compile(r"^([a-z]+)(?:\.(\d+))?@(\d+)$")
_DIVERS = {str(value): value for value in VALUES}


def _digits(cards: tuple[int, ...]) -> str:
    return "".join(map(str, cards)) or "-"


def _time(value: int) -> str:
    return "-" if value == NONE else str(value)


def format_state(state: BermudaState, seat: int | None = None, *, masked: bool = False) -> str:
    """The notation; with ``masked`` it is the copy for ``seat`` (``None``: a spectator)."""
    n = len(state.hands)
    names = state.table.ids

    def ids(cards: tuple[int, ...]) -> str:
        return format_cards(cards, names.__getitem__)

    hands = [f"?{len(hand)}" if masked and other != seat and hand else _digits(hand)
             for other, hand in enumerate(state.hands)]
    hidden_layout = masked and not state.shown
    layout = (",".join("?" for _ in state.layout) or "-") if hidden_layout else ids(state.layout)
    last = "/".join(f"{names[t]}:{_digits(cards)}" for t, cards in state.last) or "-"
    end = "-"
    if state.end is not None:
        reason, who, t = state.end
        end = f"{reason}{'' if who == NONE else f'.{who}'}@{t}"
    return write_state_line("bermuda", {
        "round": str(state.round),
        "phase": state.phase,
        "now": str(state.now),
        "hold": ",".join(str(s) for s in range(n) if state.is_holding(s)) or "-",
        "dive_at": _time(state.dive_at),
        "t0": _time(state.t0),
        "hands": "/".join(hands),
        "columns": ",".join(_digits(cards) for cards in state.columns) or "-",
        "layout": layout,
        "shown": "1" if state.shown else "0",
        "deck": f"?{len(state.deck)}" if masked else ids(state.deck),
        "won": ids(state.won),
        "keeper": ids(state.keeper),
        "aside": f"?{len(state.aside)}" if masked else _digits(state.aside),
        "signals": ",".join("-" if c == NONE else str(c + 1) for c in state.signals),
        "last": last,
        "end": end,
        "dives": str(state.dives),
        "found": str(state.found),
        "layouts": str(state.layouts),
        "rng": rng_field(state.rng, masked),
    })


def parse_state(text: str, config: BermudaConfig | None = None) -> BermudaState:
    fields = read_state_line(text, "bermuda", FIELDS, required=("hands",))
    n = fields["hands"].count("/") + 1
    config = config_for_seats(BermudaConfig, config, n)
    return _Builder(config, fields, n).build()


class _Builder(NotationFields):
    """Turns parsed fields into a state: named cards first, then unknowns filled from the unused ones."""

    def __init__(self, config: BermudaConfig, fields: dict[str, str], n: int) -> None:
        self.config = config
        self.table = config.table
        self.fields = fields
        self.n = n
        self.divers = CardPool(DIVER_DECK, str, _DIVERS, "Diver card")
        self.treasure_pool = CardPool(range(len(self.table)), self.table.ids.__getitem__, self.table.by_id,
                                      "treasure")

    # -- cards ----------------------------------------------------------------------------------------------------
    def divers_from(self, text: str, name: str) -> tuple[list[int], int | None]:
        """Digits, then optionally ``?N`` or ``?`` (the unknown count, returned as ``-1`` for "the rest")."""
        if text == "-":
            return [], None
        known, mark, count = text.partition("?")
        if (known and not known.isdigit()) or (count and not count.isdigit()):
            raise MalformedInput(f"{name}= must be digits 1-9, '-', '?N' or digits then '?N', not {text!r}")
        cards = [self.divers.take(c) for c in known]
        return cards, unknown_count(mark + count) if mark else None

    def treasures(self, name: str) -> tuple[list[int], int]:
        """Treasure ids; the second value counts unknown entries (``?`` each in a layout, else all the rest, or
        ``?N``; ``-1``: all the rest)."""
        text = self.fields.get(name, "-")
        if text == "-":
            return [], 0
        known: list[int] = []
        unknown = 0
        for part in text.split(","):
            count = unknown_count(part)
            if count is None:
                known.append(self.treasure_pool.take(part.upper()))
            elif count >= 0:
                unknown += count
            elif name == "layout":
                unknown += 1
            else:
                unknown = -1
        return known, unknown

    # -- numbers --------------------------------------------------------------------------------------------------
    def time(self, name: str) -> int:
        text = self.fields.get(name, "-")
        if text == "-":
            return NONE
        if not text.isdigit():
            raise MalformedInput(f"{name}= must be a time in ms or '-', not {text!r}")
        return int(text)

    def seats(self, text: str, name: str) -> list[int]:
        if text == "-":
            return []
        try:
            seats = [int(part) for part in text.split(",")]
        except ValueError:
            raise MalformedInput(f"{name}= must list seats separated by commas, not {text!r}") from None
        if any(not 0 <= s < self.n for s in seats) or len(set(seats)) != len(seats):
            raise MalformedInput(f"{name}= must list distinct seats from 0 to {self.n - 1}")
        return seats

    # -- the state ------------------------------------------------------------------------------------------------
    def build(self) -> BermudaState:
        n = self.n
        state = object.__new__(BermudaState)
        state.config = self.config
        state.table = self.table
        state.phase = self.fields.get("phase", PREPARE)
        if state.phase not in PHASES:
            raise MalformedInput(f"phase= must be one of {', '.join(PHASES)}")
        state.round = self.number("round", 1)
        if state.round < 1:
            raise MalformedInput("round= counts from 1")
        state.now = self.number("now", 0)
        # Known cards first (columns, hands, the last layout's treasures), then unknowns from what is left.
        column_texts = [] if self.fields.get("columns", "-") == "-" else self.fields["columns"].split(",")
        columns = [self.divers_from(text, "columns") for text in column_texts]
        if any(unknown is not None for _, unknown in columns):
            raise MalformedInput("columns= cannot have unknown cards: they are public")
        hand_parts = [self.divers_from(text, "hands") for text in self.fields["hands"].split("/")]
        layout, layout_unknown = self.treasures("layout")
        won, won_unknown = self.treasures("won")
        keeper, keeper_unknown = self.treasures("keeper")
        if won_unknown or keeper_unknown:
            raise MalformedInput("won= and keeper= are public: they cannot have unknown treasures")
        last = self.last()
        aside, aside_unknown = self.divers_from(self.fields.get("aside", "?"), "aside")
        hands = []
        for cards, unknown in hand_parts:
            if unknown == -1:
                raise MalformedInput("a hand's unknown cards need a count, like ?12")
            hands.append(tuple(cards + self.divers.fill(unknown or 0)))
        unused = self.divers.remaining()
        if aside_unknown is not None:
            if aside_unknown not in (-1, unused):
                raise MalformedInput(f"aside=?{aside_unknown} but {unused} Diver cards are unused")
            aside += self.divers.fill(-1)
        elif unused:
            raise MalformedInput(f"{unused} Diver cards are nowhere in the notation: list them in aside= or write "
                                 "aside=?")
        layout += self.treasure_pool.fill(layout_unknown)
        deck, deck_unknown = self.treasures("deck")
        left = self.treasure_pool.remaining()
        if deck_unknown:
            if deck_unknown not in (-1, left):
                raise MalformedInput(f"deck=?{deck_unknown} but {left} treasures are unused")
            deck = self.treasure_pool.fill(-1) + deck
        elif "deck" not in self.fields:
            deck = self.treasure_pool.fill(-1)
        elif left:
            raise MalformedInput(f"{left} treasures are nowhere in the notation: list them in deck= or write deck=?")
        state.hands = tuple(hands)
        state.columns = tuple(tuple(cards) for cards, _ in columns)
        state.layout = tuple(layout)
        state.deck = tuple(deck)
        state.won = tuple(won)
        state.keeper = tuple(keeper)
        state.aside = tuple(sorted(aside))
        state.last = last
        state.end = self.end()
        if self.fields.get("shown", "1") not in ("0", "1"):
            raise MalformedInput("shown= is 1 (treasures face up) or 0 (face down)")
        state.shown = self.fields.get("shown", "1") == "1"
        state.hold = sum(1 << s for s in self.seats(self.fields.get("hold", "-"), "hold"))
        state.dive_at = self.time("dive_at")
        state.t0 = self.time("t0")
        signals = self.fields.get("signals", ",".join(["-"] * n)).split(",")
        if len(signals) != n or any(s != "-" and not s.isdigit() for s in signals):
            raise MalformedInput(f"signals= must have {n} entries, each a column number or '-'")
        state.signals = tuple(NONE if s == "-" else int(s) - 1 for s in signals)
        state.dives = self.number("dives", 0)
        state.found = self.number("found", 0)
        state.layouts = self.number("layouts", 0)
        state.rng = read_rng(self.fields)
        self.check(state)
        return state

    def last(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        text = self.fields.get("last", "-")
        if text == "-":
            return ()
        entries = []
        for part in text.split("/"):
            ident, sep, cards = part.partition(":")
            if not sep or not (cards == "-" or cards.isdigit()):
                raise MalformedInput(f"last= lists columns as treasure:cards, not {part!r}")
            index = self.table.by_id.get(ident.upper())
            if index is None:
                raise MalformedInput(f"there is no treasure {ident!r}")
            values = () if cards == "-" else tuple(int(c) for c in cards)
            if any(v not in VALUES for v in values):
                raise MalformedInput(f"last= holds a card that is not 1-9: {part!r}")
            entries.append((index, values))  # a record of the past: its cards are back in the deck now
        return tuple(entries)

    def end(self) -> tuple[str, int, int] | None:
        text = self.fields.get("end", "-")
        if text == "-":
            return None
        match = _END.match(text)
        if not match or match.group(1) not in END_REASONS:
            raise MalformedInput(f"end= is reason[.seat]@time with a reason among {', '.join(END_REASONS)}, "
                                 f"not {text!r}")
        seat = NONE if match.group(2) is None else int(match.group(2))
        if seat != NONE and not 0 <= seat < self.n:
            raise MalformedInput(f"end= names seat {seat}, which is not in this game")
        return match.group(1), seat, int(match.group(3))

    def check(self, state: BermudaState) -> None:
        """Refuse positions the rules cannot reach (BRM-I3, BRM-I4 and the state machine)."""
        n, config = self.n, self.config
        if len(state.signals) != n:
            raise MalformedInput(f"signals= must have {n} entries")
        if state.phase == GAME_OVER:
            if any(state.hands) or state.columns or state.layout:
                raise MalformedInput("phase=over: hands, columns and layout are empty (every card is back)")
            if state.hold or state.dive_at != NONE or state.t0 != NONE:
                raise MalformedInput("phase=over: nobody holds, no countdown, no dive")
            return
        if not state.layout:
            raise MalformedInput("layout= must name the round's treasures (1 to one per player)")
        if len(state.layout) > n:
            raise MalformedInput(f"layout= has {len(state.layout)} treasures for {n} players")
        if len(state.columns) not in (0, len(state.layout)):
            raise MalformedInput(f"columns= must have one entry per treasure ({len(state.layout)})")
        if not state.columns:
            state.columns = ((),) * len(state.layout)
        if any(len(hand) > len(DIVER_DECK) for hand in state.hands):
            raise MalformedInput("a hand cannot hold that many cards")
        if any(c != NONE and c >= len(state.layout) for c in state.signals):
            raise MalformedInput("signals= points at a column that does not exist")
        if state.phase == PREPARE:
            if any(state.columns):
                raise MalformedInput("phase=prepare: no card is laid before the dive (BRM-A16)")
            if state.t0 != NONE or any(c != NONE for c in state.signals):
                raise MalformedInput("phase=prepare: no dive start (t0=-) and no gestures yet")
            if not state.shown and not config.hidden_treasures:
                raise MalformedInput("shown=0 only with the hidden_treasures variant (BRM-V1)")
            if state.dive_at != NONE:
                if not state.everyone_holds():
                    raise MalformedInput("dive_at= is set only while everyone holds their breath (BRM-R11)")
                if state.dive_at <= state.now:
                    raise MalformedInput("dive_at= must lie after now=: a deadline fires as soon as it passes")
            elif state.everyone_holds() and config.countdown_ms:
                raise MalformedInput("everyone holds their breath: dive_at= gives the countdown's end (BRM-R11)")
            elif state.everyone_holds():
                raise MalformedInput("everyone holds their breath and there is no countdown: the dive is on")
        else:  # DIVE
            if "hold" not in self.fields:
                state.hold = (1 << n) - 1
            if not state.everyone_holds():
                raise MalformedInput("phase=dive: everyone holds their breath (hold= lists every seat)")
            if state.t0 == NONE or state.t0 > state.now:
                raise MalformedInput("phase=dive needs t0= at or before now=")
            if state.dive_at != NONE or not state.shown:
                raise MalformedInput("phase=dive: no countdown (dive_at=-) and the treasures are face up")
            if config.max_dive_ms is not None and state.t0 + config.max_dive_ms <= state.now:
                raise MalformedInput("the dive's time limit has passed: it would have ended")
        if state.phase == DIVE and config.challenge != "chained" and config.auto_end_on_empty_hands \
                and not any(state.hands):
            raise MalformedInput("every hand is empty: the dive would have ended (BRM-R13.3)")
