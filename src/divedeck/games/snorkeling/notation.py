"""Snorkeling's state notation: one line that builds a position, like FEN does for chess.

    snorkeling round=1 starter=0 active=1 phase=center scores=0,0,0,0 hands=Y3,R2/B1,B1,G4/?5/?5
    known=-/-/-/- center=Y1,Y3 deck=? piles=Y4/-/-/- played=0 hit=- turns=1 total_turns=1 stall=0 rng=7:1

Fields are ``name=value`` separated by spaces, in this order; lists are comma-separated, per-seat lists are
separated by ``/`` and ``-`` is an empty list. Stacks list their cards bottom to top (the last is the top). Cards
are faces (``Y3``); personal piles list only reef cards, the Lanternfish below them being implied. ``played`` is
the number of centre cards played this turn (the last ones of ``center``), ``hit`` the seats whose piles received
a card this turn, ``turns`` the turns taken this round and ``total_turns`` in the whole game.

A seat's copy writes what it cannot see as unknown: ``?5`` in a hand is five unseen cards after the listed known
ones, ``deck=?40`` is forty unseen cards and ``rng=?`` hides the shuffle seed. In a test position, ``deck=?,G0``
is every card not named elsewhere with G0 on top. Parsing a copy with unknowns fills
them with the unseen cards in card order, which gives one state consistent with that seat's knowledge.
Only ``hands`` and ``center`` are required when parsing; every other field has the value of a fresh round.
"""

from __future__ import annotations

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
from .config import SnorkelingConfig
from .context import context_for
from .rules import refresh_acceptance
from .state import CENTER, GAME_OVER, OPPONENTS, SnorkelingState

FIELDS = ("round", "starter", "active", "phase", "scores", "hands", "known", "center", "deck", "piles", "played",
          "hit", "turns", "total_turns", "stall", "rng")


def format_state(state: SnorkelingState, seat: int | None = None, *, masked: bool = False) -> str:
    """The notation; with ``masked`` it is the copy for ``seat`` (``None``: a spectator)."""
    label = state.context.table.label
    n = len(state.hands)
    hands = []
    for other, hand in enumerate(state.hands):
        if masked and other != seat:
            known = state.known[other]
            hands.append(format_cards(known, label, len(hand) - len(known)))
        else:
            hands.append(format_cards(hand, label))
    fields = {
        "round": str(state.round),
        "starter": str(state.starter),
        "active": str(state.active),
        "phase": state.phase,
        "scores": ",".join(map(str, state.scores)),
        "hands": "/".join(hands),
        "known": "/".join(format_cards(known, label) for known in state.known),
        "center": format_cards(state.center, label),
        "deck": format_cards((), label, len(state.deck)) if masked else format_cards(state.deck, label),
        "piles": "/".join(format_cards(pile, label) for pile in state.piles),
        "played": str(state.played),
        "hit": ",".join(str(s) for s in range(n) if state.hit >> s & 1) or "-",
        "turns": str(state.turns),
        "total_turns": str(state.total_turns),
        "stall": str(state.stall),
        "rng": rng_field(state.rng, masked),
    }
    return write_state_line("snorkeling", fields)


def _ints(text: str, name: str) -> list[int]:
    if text == "-":
        return []
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise MalformedInput(f"{name}= must be whole numbers separated by commas, not {text!r}") from None


def parse_state(text: str, config: SnorkelingConfig | None = None) -> SnorkelingState:
    fields = read_state_line(text, "snorkeling", FIELDS, ("hands", "center"))
    hand_texts = fields["hands"].split("/")
    n = len(hand_texts)
    config = config_for_seats(SnorkelingConfig, config, n)
    return _Builder(config, fields, hand_texts).build()


class _Builder(NotationFields):
    """Turns parsed fields into a state, taking each named card from the pool and filling unknowns from the rest."""

    def __init__(self, config: SnorkelingConfig, fields: dict[str, str], hand_texts: list[str]) -> None:
        self.config = config
        self.table = config.table
        self.fields = fields
        self.hand_texts = hand_texts
        self.n = len(hand_texts)
        self.pool = CardPool(self.table.deck, self.table.label, self.table.face_by_label)

    def stack(self, text: str, name: str, unknown_first: bool = False) -> tuple[list[int], int | None]:
        """Cards listed in ``text``; the second value is the unknown count (``None``: none, ``-1``: the rest).

        The unknown part (``?`` or ``?N``) is one entry: the first in a deck (the bottom, under listed cards),
        the last in a hand.
        """
        if text == "-":
            return [], None
        parts = text.split(",")
        unknown_at = 0 if unknown_first else len(parts) - 1
        cards: list[int] = []
        unknown = None
        for i, part in enumerate(parts):
            count = unknown_count(part)
            if count is None:
                cards.append(self.pool.take(part.upper()))
                continue
            if i != unknown_at:
                where = "first (the bottom)" if unknown_first else "last"
                raise MalformedInput(f"in {name}=, the unknown cards ('?') must come {where}")
            unknown = count
        return cards, unknown

    def public_stack(self, text: str, name: str) -> list[int]:
        cards, unknown = self.stack(text, name)
        if unknown is not None:
            raise MalformedInput(f"{name}= cannot have unknown cards: it is public (SNK-R4)")
        return cards

    def build(self) -> SnorkelingState:
        table, n = self.table, self.n
        state = object.__new__(SnorkelingState)
        state.context = context_for(self.config)
        center = self.public_stack(self.fields["center"], "center")
        if not center:
            raise MalformedInput("center= must hold at least one card (SNK-I3)")
        piles = []
        lantern = table.lanternfish_value
        for seat, text in enumerate(self.per_seat("piles", "-")):
            pile = self.public_stack(text, "piles")
            if [table.face_value[c] for c in pile] != list(range(lantern - 1, lantern - 1 - len(pile), -1)):
                raise MalformedInput(f"seat {seat}'s pile must read {lantern - 1}, {lantern - 2}, ... "
                                     "upward from the Lanternfish (SNK-I2)")
            piles.append(tuple(pile))
        hands, unknowns = [], []
        for text in self.hand_texts:
            hand, unknown = self.stack(text, "hands")
            if unknown == -1:
                raise MalformedInput("a hand's unknown cards need a count, like ?5")
            hands.append(hand)
            unknowns.append(unknown or 0)
        known = []
        for seat, text in enumerate(self.per_seat("known", "-")):
            cards = [] if text == "-" else [table.face_by_label.get(part.upper(), -1) for part in text.split(",")]
            pool = list(hands[seat])
            for card in cards:
                if card not in pool:
                    raise MalformedInput(f"known= lists a card seat {seat} does not hold: {text}")
                pool.remove(card)
            known.append(tuple(cards))
        deck, deck_unknown = self.stack(self.fields.get("deck", "?"), "deck", unknown_first=True)
        for seat, unknown in enumerate(unknowns):
            if unknown > self.pool.remaining():
                raise MalformedInput(f"seat {seat}'s hand has more unknown cards than remain unused")
            hands[seat].extend(self.pool.fill(unknown))
        rest = self.pool.remaining()
        if deck_unknown is not None:
            if deck_unknown not in (-1, rest):
                raise MalformedInput(f"deck=?{deck_unknown} but {rest} cards remain unused")
            deck = self.pool.fill(-1) + deck
        elif rest:
            raise MalformedInput(f"{rest} cards are nowhere in the notation: list them in deck= "
                                 "or write deck=? for the rest")
        state.hands = tuple(tuple(sorted(hand)) for hand in hands)
        state.known = tuple(known)
        state.center = tuple(center)
        state.deck = tuple(deck)
        state.piles = tuple(piles)
        state.round = self.number("round", 1)
        state.starter = self.seat("starter", 0)
        state.active = self.seat("active", state.starter)
        state.phase = self.fields.get("phase", CENTER)
        if state.phase not in (CENTER, OPPONENTS, GAME_OVER):
            raise MalformedInput(f"phase= must be {CENTER}, {OPPONENTS} or {GAME_OVER}")
        scores = _ints(self.fields.get("scores", ",".join(["0"] * n)), "scores")
        if len(scores) != n or min(scores) < 0:
            raise MalformedInput(f"scores= must have {n} numbers of 0 or more")
        state.scores = tuple(scores)
        state.played = self.number("played", 0)
        if state.played >= len(state.center):
            raise MalformedInput("played= counts this turn's centre cards, which lie above T0 in center=")
        if state.phase == OPPONENTS and not state.played:
            raise MalformedInput("phase=opponents needs played= of at least 1 (SNK-A19)")
        hit = _ints(self.fields.get("hit", "-"), "hit")
        if any(not 0 <= s < n for s in hit):
            raise MalformedInput(f"hit= must list seats from 0 to {n - 1}")
        state.hit = sum(1 << s for s in set(hit))
        state.turns = self.number("turns", 0)
        state.total_turns = self.number("total_turns", state.turns)
        state.stall = self.number("stall", 0)
        state.rng = read_rng(self.fields)
        state.winners = ()
        if state.phase == GAME_OVER:
            best = max(state.scores)
            leaders = tuple(s for s in range(n) if state.scores[s] == best)
            unique_win = len(leaders) == 1 and best >= self.config.target_score
            if not unique_win and state.round < self.config.round_cap:
                raise MalformedInput("phase=over needs a unique highest score at or above the target (SNK-R15) "
                                     "or the round cap reached (SNK-A27)")
            state.winners = leaders
        refresh_acceptance(state)
        return state
