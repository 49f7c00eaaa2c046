"""Hold Your Breath!'s state notation: one line that builds a position, like FEN does for chess.

    hold-your-breath round=ascent first=1 active=1 phase=play hands=A5D,S10P,DO/?5 deck=?,SH
    discard=A10C piles=pA5P,dS5C/- depths=40,15 anchors=40,15 surfaced=- air=0 swim=0 final=- kraken=-
    turns=22 ended=- rng=7:3

Fields are ``name=value`` separated by spaces, in this order; lists are comma-separated, per-seat lists are
separated by ``/`` and ``-`` is an empty list. Stacks (``deck``, ``discard``) list their cards bottom to top, so
the last is the top. Cards are labels (``A5D`` = Air 5 with the Draw icon; ``SH``, ``KR``, ``DO``).

- ``piles``: each seat's Swim Pile, bottom first. An item is a letter and a card: ``p`` a Panic face up, ``h`` a
  Shark, ``d`` a face-down Panic its owner laid from their hand (the owner knows it), ``b`` a face-down Panic laid
  blind from the deck top (nobody knows it). ``pA5P`` is an A5P played as a Panic, ``hDO`` a Dolphin as the Shark.
- ``depths`` and ``anchors``: feet; ``anchors=-`` until the Descent ends. ``surfaced``: seats in surfacing order.
- ``air``/``swim``: this turn's totals. ``final``: ``-`` before the final turns, else ``seat:turns left``.
- ``kraken`` (phase ``kraken`` only): per seat ``-`` (not a victim), ``?`` (still to choose) or the card set
  aside. ``ended``: the rule that ended the game (``HYB-R22`` or ``HYB-R41``).

A seat's copy writes what it cannot see as unknown: ``?5`` is five unseen cards in a hand, ``deck=?40`` forty
unseen cards, ``d?``/``b?`` a face-down Panic whose face it does not know, ``*`` a card another Kraken victim set
aside, and ``rng=?`` hides the shuffle seed. In a test position, ``deck=?`` is every card not named elsewhere and
``deck=?,SH`` the same with the Shark on top. Parsing fills unknowns with the unused cards in card order (hands
first, then Swim Piles, then Kraken cards, then the deck), which gives one state consistent with that copy.
Only ``hands`` is required when parsing; every other field has the value of a fresh Descent.
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
from .config import HoldYourBreathConfig
from .rules import winners_at_end
from .state import (
    ASCENT,
    BLIND,
    DESCENT,
    DOWN,
    KRAKEN,
    NOT_INVOLVED,
    OVER,
    PANIC,
    PHASES,
    SHARK,
    WAITING,
    HoldYourBreathState,
    context_for,
    item,
    item_face,
    item_how,
)

NAME = "hold-your-breath"
FIELDS = ("round", "first", "active", "phase", "hands", "deck", "discard", "piles", "depths", "anchors",
          "surfaced", "air", "swim", "final", "kraken", "turns", "ended", "rng")
_HOW_LETTER = {PANIC: "p", SHARK: "h", DOWN: "d", BLIND: "b"}
_LETTER_HOW = {letter: how for how, letter in _HOW_LETTER.items()}
_ENDINGS = ("HYB-R22", "HYB-R41")
# A Kraken card another victim set aside, in a seat's copy: filled once the known cards are taken.
_SET_ASIDE_UNSEEN = -3


def _numbers(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values)) or "-"


def format_state(state: HoldYourBreathState, seat: int | None = None, *, masked: bool = False) -> str:
    """The notation; with ``masked`` it is the copy for ``seat`` (``None``: a spectator)."""
    label = state.context.table.face_label.__getitem__
    hands = []
    for other, hand in enumerate(state.hands):
        if masked and other != seat:
            hands.append(format_cards((), label, len(hand)))
        else:
            hands.append(format_cards(hand, label))
    piles = []
    for owner, pile in enumerate(state.piles):
        items = []
        for entry in pile:
            how = item_how(entry)
            hidden = masked and (how == BLIND or (how == DOWN and owner != seat))
            items.append(_HOW_LETTER[how] + ("?" if hidden else label(item_face(entry))))
        piles.append(",".join(items) or "-")
    kraken = "-"
    if state.kraken:
        parts = []
        for other, chosen in enumerate(state.kraken):
            if chosen == NOT_INVOLVED:
                parts.append("-")
            elif chosen == WAITING:
                parts.append("?")
            else:
                parts.append("*" if masked and other != seat else label(chosen))
        kraken = "/".join(parts)
    return write_state_line(NAME, {
        "round": state.round,
        "first": str(state.first),
        "active": str(state.active),
        "phase": state.phase,
        "hands": "/".join(hands),
        "deck": format_cards((), label, len(state.deck)) if masked else format_cards(state.deck, label),
        "discard": format_cards(state.discard, label),
        "piles": "/".join(piles),
        "depths": _numbers(state.depths),
        "anchors": _numbers(state.anchors),
        "surfaced": _numbers(state.surfaced),
        "air": str(state.air),
        "swim": str(state.swim),
        "final": f"{state.trigger}:{state.final_left}" if state.trigger >= 0 else "-",
        "kraken": kraken,
        "turns": str(state.turns),
        "ended": state.ended or "-",
        "rng": rng_field(state.rng, masked),
    })


def parse_state(text: str, config: HoldYourBreathConfig | None = None) -> HoldYourBreathState:
    fields = read_state_line(text, NAME, FIELDS, required=("hands",))
    hand_texts = fields["hands"].split("/")
    n = len(hand_texts)
    config = config_for_seats(HoldYourBreathConfig, config, n)
    return _Builder(config, fields, hand_texts).build()


class _Builder(NotationFields):
    """Turns parsed fields into a state, counting copies and filling unknowns from the unused cards."""

    def __init__(self, config: HoldYourBreathConfig, fields: dict[str, str], hand_texts: list[str]) -> None:
        self.config = config
        self.context = context_for(config)
        self.table = self.context.table
        self.fields = fields
        self.hand_texts = hand_texts
        self.n = len(hand_texts)
        self.pool = CardPool(self.table.deck, self.table.face_label.__getitem__, self.table.face_by_label)

    def fill(self, what: str) -> int:
        """The first unused card in card order, for an unknown one."""
        if not self.pool.remaining():
            raise MalformedInput(f"{what} has more unknown cards than remain unused")
        return self.pool.fill(1)[0]

    def cards(self, text: str) -> list[int]:
        return [] if text == "-" else [self.pool.take(part.upper()) for part in text.split(",")]
    def numbers(self, name: str, default: str) -> list[int]:
        text = self.fields.get(name, default)
        if text == "-":
            return []
        try:
            return [int(part) for part in text.split(",")]
        except ValueError:
            raise MalformedInput(f"{name}= must be whole numbers separated by commas, not {text!r}") from None

    def feet(self, name: str, default: str) -> tuple[int, ...]:
        values = self.numbers(name, default)
        if not values:
            return ()
        step, deepest = self.table.step, self.context.max_depth
        if len(values) != self.n or any(v < 0 or v > deepest or v % step for v in values):
            raise MalformedInput(f"{name}= must give {self.n} depths, multiples of {step} from 0 to {deepest} "
                                 "(HYB-I3)")
        return tuple(values)

    def build(self) -> HoldYourBreathState:
        n = self.n
        state = object.__new__(HoldYourBreathState)
        state.context = self.context
        # Known cards first, so that unknowns are filled from what is left.
        hands: list[list[int]] = []
        unknown_hands: list[int] = []
        for text in self.hand_texts:
            count = unknown_count(text)
            if count == -1:
                raise MalformedInput("a hand's unknown cards need a count, like ?5")
            hands.append([] if count is not None else self.cards(text))
            unknown_hands.append(count or 0)
        discard = self.cards(self.fields.get("discard", "-"))
        raw_piles: list[list[tuple[int, str]]] = []
        for text in self.per_seat("piles", "-"):
            entries = []
            for part in [] if text == "-" else text.split(","):
                how = _LETTER_HOW.get(part[:1])
                if how is None or len(part) < 2:
                    raise MalformedInput(f"a Swim Pile item is p, h, d or b and a card (like pA5P), not {part!r}")
                entries.append((how, part[1:]))
            raw_piles.append(entries)
        known_piles = [[(how, -1 if card == "?" else self.pool.take(card.upper())) for how, card in raw]
                       for raw in raw_piles]
        for known in known_piles:
            for how, face in known:
                if face < 0 and how not in (DOWN, BLIND):
                    raise MalformedInput("only a face-down Panic (d or b) may be unknown: the others lie face up")
        kraken_texts = None if self.fields.get("kraken", "-") == "-" else self.per_seat("kraken", "-")
        kraken: list[int] = []
        for text in kraken_texts or []:
            if text == "-":
                kraken.append(NOT_INVOLVED)
            elif text == "?":
                kraken.append(WAITING)
            elif text == "*":
                kraken.append(_SET_ASIDE_UNSEEN)
            else:
                kraken.append(self.pool.take(text.upper()))
        deck_text = self.fields.get("deck", "?")
        deck_parts = [] if deck_text == "-" else deck_text.split(",")
        deck_unknown = None
        deck: list[int] = []
        for i, part in enumerate(deck_parts):
            count = unknown_count(part)
            if count is None:
                deck.append(self.pool.take(part.upper()))
            elif i != 0:
                raise MalformedInput("in deck=, the unknown cards ('?') must come first (the bottom)")
            else:
                deck_unknown = count
        # Then the unknowns, in a fixed order: hands, Swim Piles, Kraken cards, the deck.
        for seat, count in enumerate(unknown_hands):
            hands[seat].extend(self.fill(f"seat {seat}'s hand") for _ in range(count))
        piles = tuple(tuple(item(self.fill("piles=") if face < 0 else face, how) for how, face in known)
                      for known in known_piles)
        kraken = [self.fill("kraken=") if chosen == _SET_ASIDE_UNSEEN else chosen for chosen in kraken]
        rest = self.pool.fill(-1)
        if deck_unknown is not None:
            if deck_unknown not in (-1, len(rest)):
                raise MalformedInput(f"deck=?{deck_unknown} but {len(rest)} cards remain unused")
            deck = rest + deck
        elif rest:
            raise MalformedInput(f"{len(rest)} cards are nowhere in the notation: list them in deck= or write "
                                 "deck=? for the rest")
        state.hands = tuple(tuple(sorted(hand)) for hand in hands)
        state.deck = tuple(deck)
        state.discard = tuple(discard)
        state.piles = piles
        state.round = self.fields.get("round", DESCENT)
        if state.round not in (DESCENT, ASCENT):
            raise MalformedInput(f"round= must be {DESCENT} or {ASCENT}")
        state.first = self.seat("first", self.config.first_player)
        state.active = self.seat("active", state.first)
        state.phase = self.fields.get("phase", "play")
        if state.phase not in PHASES:
            raise MalformedInput(f"phase= must be one of {', '.join(PHASES)}")
        state.depths = self.feet("depths", ",".join(["0"] * n))
        if not state.depths:
            raise MalformedInput("depths= needs one depth per seat")
        state.anchors = self.feet("anchors", "-")
        if (state.round == ASCENT) != bool(state.anchors):
            raise MalformedInput("anchors= are set when the Descent ends (HYB-R31): given in the Ascent only")
        surfaced = self.numbers("surfaced", "-")
        if len(set(surfaced)) != len(surfaced) or any(not 0 <= s < n for s in surfaced):
            raise MalformedInput(f"surfaced= must list different seats from 0 to {n - 1}")
        if surfaced and state.round != ASCENT:
            raise MalformedInput("players surface during the Ascent only (HYB-R21)")
        if any(state.depths[s] or state.piles[s] for s in surfaced):
            raise MalformedInput("a surfaced player is at depth 0 with an empty Swim Pile (HYB-I6)")
        state.surfaced = tuple(surfaced)
        state.air = self.number("air", 0)
        state.swim = self.number("swim", 0)
        final = self.fields.get("final", "-")
        if final == "-":
            state.trigger, state.final_left = -1, 0
        else:
            trigger, sep, left = final.partition(":")
            if not (sep and trigger.isdigit() and left.isdigit()) or int(trigger) >= n or int(left) > n:
                raise MalformedInput(f"final= is '-' or seat:turns-left (0 to {n}), not {final!r}")
            state.trigger, state.final_left = int(trigger), int(left)
        if (state.phase == KRAKEN) != bool(kraken):
            raise MalformedInput("kraken= lists every seat during phase=kraken, and is '-' otherwise")
        if kraken and WAITING not in kraken:
            raise MalformedInput("during phase=kraken at least one seat is still to choose ('?')")
        state.kraken = tuple(kraken)
        state.turns = self.number("turns", 0)
        state.rng = read_rng(self.fields)
        ended = self.fields.get("ended", "-")
        if (state.phase == OVER) != (ended != "-") or (ended != "-" and ended not in _ENDINGS):
            raise MalformedInput(f"phase=over goes with ended= {' or '.join(_ENDINGS)}, any other phase with "
                                 "ended=-")
        state.ended = "" if ended == "-" else ended
        state.winners = ()
        if ended == "HYB-R22":
            if not state.surfaced:
                raise MalformedInput("ended=HYB-R22 needs the winner in surfaced= (HYB-R22)")
            state.winners = (state.surfaced[-1],)
        elif ended == "HYB-R41":
            state.winners = winners_at_end(state)
        return state
