"""Hold your Hat's state notation: one line that builds a position.

    hold-your-hat round=1 phase=main active=0 pointers=0,0 color=red now=5000 timer=65000 set=W003,W017,...
    deck=W017,W003 current=W042 aside=- extra=- won=W009/- scores=0,0,0/0,0,0 specials=TRSBE... discard=S
    held=B/RT raiders=B used=- peek=0 claim=- clued=0 clues=- guessed=- misses=- turns=0 rng=7:4

Fields are ``name=value`` separated by spaces, in this order. Word cards are their ids (``W042``), lists are
comma-separated, per-team lists are separated by ``/`` and ``-`` is an empty list. Stacks (``deck``, ``specials``)
list their cards bottom to top. ``set`` is the game's word set (table order), ``aside`` the set-aside list (first
set aside first), ``extra`` the EXTRA TIME cards still to come (next first), ``won`` this round's cards per team,
``scores`` each team's recorded round scores. Special cards are letters: B BINOCULARS, E EXTRA TIME, S SKIP,
T THEFT, R RAID. ``timer`` is the end of the sand timer (``-`` when it is not running), ``raiders`` the raiding
teams, ``used`` ``b`` and/or ``e`` for BINOCULARS and EXTRA TIME used this turn, ``peek`` how many top cards the
clue-giver is arranging, ``claim`` the open claim as ``A@1200,B@1350`` (team@time), ``clued`` the typed clues given
for the current word, ``clues`` their texts (URL-quoted, comma-separated), ``guessed`` each seat's last typed guess
(its time; ``-`` for none, alone when no seat has guessed) and ``misses`` each seat's wrong guesses at the
current word since its last clue (HYH-A26, HYH-A27).

A seat's copy writes what it cannot see as unknown: ``deck=?38`` (``deck=?33,W005,W001`` when the clue-giver is
arranging the top five), ``current=?``, ``aside=?2``, ``extra=?1``, ``set=?40`` in round 1, ``specials=?12``,
``rng=?``. Parsing a copy fills the unknowns with unused cards in table order, which gives one state consistent
with that seat's knowledge.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from ...engine.errors import ConfigError, MalformedInput
from ...engine.notation import (
    CardPool,
    NotationFields,
    read_rng,
    read_state_line,
    rng_field,
    unknown_count,
    write_state_line,
)
from .actions import TEAM_LETTERS, team_letter
from .config import HoldYourHatConfig
from .information import sees_peek, sees_turn_words
from .state import DECISION, EXTRA, MAIN, OVER, PHASES, PRE, SPECIAL_ORDER, SPECIALS, HoldYourHatState, context_for
from .words import COLORS

NAME = "hold-your-hat"
FIELDS = ("round", "phase", "active", "pointers", "color", "now", "timer", "set", "deck", "current", "aside",
          "extra", "won", "scores", "specials", "discard", "held", "raiders", "used", "peek", "claim", "clued",
          "clues", "guessed", "misses", "turns", "rng")
_CLAIM = re.compile(r"^([A-F])@(\d+)$")


def _ids(state: HoldYourHatState, cards: tuple[int, ...]) -> str:
    table = state.context.table.cards
    return ",".join(table[card].id for card in cards) or "-"


def _teams(bits: int, teams: int) -> str:
    return ",".join(team_letter(t) for t in range(teams) if bits >> t & 1) or "-"


def format_state(state: HoldYourHatState, seat: int | None = None, *, masked: bool = False) -> str:
    """The notation; with ``masked`` it is the copy for ``seat`` (``None``: a spectator)."""
    teams = state.teams
    turn_words = not masked or sees_turn_words(state, seat)
    peeked = state.peek if (masked and sees_peek(state, seat)) else 0
    if not masked:
        deck = _ids(state, state.deck)
    elif peeked:
        deck = f"?{len(state.deck) - peeked}," + _ids(state, state.deck[-peeked:])
    else:
        deck = f"?{len(state.deck)}"
    current = "-" if state.current < 0 else _ids(state, (state.current,)) if turn_words else "?"
    return write_state_line(NAME, {
        "round": str(state.round),
        "phase": state.phase,
        "active": str(state.active),
        "pointers": ",".join(map(str, state.pointers)),
        "color": COLORS[state.color],
        "now": str(state.now),
        "timer": str(state.timer) if state.timer >= 0 else "-",
        "set": f"?{len(state.word_set)}" if masked and state.round == 1 else _ids(state, state.word_set),
        "deck": deck,
        "current": current,
        "aside": _ids(state, state.aside) if turn_words or not state.aside else f"?{len(state.aside)}",
        "extra": _ids(state, state.extra) if not masked or not state.extra else f"?{len(state.extra)}",
        "won": "/".join(_ids(state, pile) for pile in state.won),
        "scores": "/".join(",".join(map(str, row)) for row in state.scores),
        "specials": (f"?{len(state.specials)}" if masked else state.specials) or "-",
        "discard": state.discard or "-",
        "held": "/".join(hand or "-" for hand in state.held),
        "raiders": _teams(state.raiders, teams),
        "used": ("b" if state.used_binoculars else "") + ("e" if state.used_extra else "") or "-",
        "peek": str(state.peek),
        "claim": ",".join(f"{team_letter(team)}@{t}" for team, t in state.claim) or "-",
        "clued": str(state.clued),
        "clues": ",".join(quote(text, safe="") for text in state.clues) or "-",
        "guessed": ",".join(str(t) if t >= 0 else "-" for t in state.guessed) if any(
            t >= 0 for t in state.guessed) else "-",
        "misses": ",".join(map(str, state.misses)) if any(state.misses) else "-",
        "turns": str(state.turns),
        "rng": rng_field(state.rng, masked),
    })


# -- parsing -------------------------------------------------------------------------------------------------------


def _letters(text: str, name: str) -> str:
    if text == "-":
        return ""
    if any(c not in SPECIAL_ORDER for c in text):
        raise MalformedInput(f"{name}= lists special cards by letter (B, E, S, T, R), not {text!r}")
    return text


def _team_bits(text: str, teams: int, name: str) -> int:
    if text == "-":
        return 0
    bits = 0
    for part in text.split(","):
        if len(part) != 1 or part not in TEAM_LETTERS[:teams]:
            raise MalformedInput(f"{name}= lists team letters A to {TEAM_LETTERS[teams - 1]}, not {text!r}")
        bits |= 1 << TEAM_LETTERS.index(part)
    return bits


class _Cards(CardPool):
    """Reads card lists from every card of the word list (each at most once, HYH-I1), leaving the unknowns to be
    filled from the game's unused words afterwards."""

    def __init__(self, state: HoldYourHatState) -> None:
        table = state.context.table
        super().__init__(range(len(table)), lambda card: table.cards[card].id,
                         {card.id: i for i, card in enumerate(table.cards)}, "card of the word list")
        self.located: list[int] = []

    def read(self, text: str, name: str, allow_unknown_prefix: bool = False) -> tuple[list[int], int]:
        """The listed cards and how many unknown ones (``?N``) come first."""
        if text == "-":
            return [], 0
        parts = text.split(",")
        unknown = 0
        if parts[0].startswith("?") and (allow_unknown_prefix or len(parts) == 1):
            unknown = unknown_count(parts.pop(0)) or 0
            if unknown < 0:
                if name != "current":
                    raise MalformedInput(f"{name}=? needs a count, like ?5")
                unknown = 1
        cards = []
        for part in parts:
            if part in self.by_label and self.left[self.by_label[part]] <= 0:
                raise MalformedInput(f"card {part} appears twice in the notation (HYH-I1)")
            cards.append(self.take(part))
        self.located += cards
        return cards, unknown


class _Builder(NotationFields):
    def __init__(self, fields: dict[str, str], teams: int) -> None:
        self.fields = fields
        self.n = teams

    def time(self, name: str) -> int:
        """A time, or -1 for ``-``."""
        return -1 if self.fields.get(name) == "-" else self.number(name, -1)


def parse_state(text: str, config: HoldYourHatConfig | None = None) -> HoldYourHatState:
    fields = read_state_line(text, NAME, FIELDS)
    if config is None:
        teams = len(fields.get("pointers", "0,0").split(","))
        try:
            config = HoldYourHatConfig(num_players=2 * teams, teams=teams)
            config.validate()
        except ConfigError as error:
            raise MalformedInput(str(error)) from None
    return _build(config, _Builder(fields, context_for(config).teams))


def _build(config: HoldYourHatConfig, read: _Builder) -> HoldYourHatState:
    fields = read.fields
    state = object.__new__(HoldYourHatState)
    context = context_for(config)
    state.context = context
    teams = context.teams
    state.round = read.number("round", 1)
    if not 1 <= state.round <= config.rounds:
        raise MalformedInput(f"round= must be from 1 to {config.rounds}")
    state.phase = fields.get("phase", PRE)
    if state.phase not in PHASES:
        raise MalformedInput(f"phase= must be one of {', '.join(PHASES)}")
    state.active = read.number("active", config.first_team)
    if state.active >= teams:
        raise MalformedInput(f"active= must be a team from 0 to {teams - 1}")
    pointers = fields.get("pointers", ",".join(["0"] * teams)).split(",")
    if len(pointers) != teams or not all(p.isdigit() for p in pointers):
        raise MalformedInput(f"pointers= must have {teams} whole numbers, one per team")
    state.pointers = tuple(int(p) % len(context.members[t]) for t, p in enumerate(pointers))
    color = fields.get("color", COLORS[0] if config.color == "random" else config.color)
    if color not in COLORS:
        raise MalformedInput(f"color= must be one of {', '.join(COLORS)}")
    state.color = COLORS.index(color)
    state.now = read.number("now", 0)
    state.timer = read.time("timer")
    if (state.timer >= 0) != (state.phase in (MAIN, EXTRA)):
        raise MalformedInput("timer= is a time exactly while the timer runs (phase main or extra), else -")
    if state.timer >= 0 and state.timer <= state.now:
        raise MalformedInput("timer= must be after now=: a deadline at or before now has fired (HYH-R6)")
    cards = _Cards(state)
    won_lists = [cards.read(part, "won") for part in read.per_seat("won", "-")]
    if any(unknown for _, unknown in won_lists):
        raise MalformedInput("won cards are face up: won= cannot hold unknown cards")
    deck_known, deck_unknown = cards.read(fields.get("deck", f"?{config.deck_size}"), "deck", True)
    current_list, current_unknown = cards.read(fields.get("current", "-"), "current")
    aside_known, aside_unknown = cards.read(fields.get("aside", "-"), "aside")
    extra_known, extra_unknown = cards.read(fields.get("extra", "-"), "extra")
    if len(current_list) + current_unknown > 1:
        raise MalformedInput("current= is one card, ? or -")
    state.word_set = _word_set(config, cards, fields.get("set", f"?{config.deck_size}"))
    located = set(cards.located)
    unused = CardPool([c for c in state.word_set if c not in located], cards.label, cards.by_label, "word")
    needed = deck_unknown + current_unknown + aside_unknown + extra_unknown
    if needed != unused.remaining():
        raise MalformedInput(f"the notation locates {len(located)} of the {len(state.word_set)} words and leaves "
                             f"{needed} unknown, not {unused.remaining()} (HYH-I1)")
    state.current = current_list[0] if current_list else (unused.fill(1)[0] if current_unknown else -1)
    state.aside = tuple(unused.fill(aside_unknown) + aside_known)
    state.extra = tuple(unused.fill(extra_unknown) + extra_known)
    state.deck = tuple(unused.fill(-1) + deck_known)
    state.won = tuple(tuple(pile) for pile, _ in won_lists)
    if (state.current >= 0) != (state.phase in (MAIN, EXTRA)):
        raise MalformedInput("there is a current word exactly while the timer runs (phase main or extra)")
    scores = []
    for row in read.per_seat("scores", ",".join(["0"] * config.rounds)):
        values = row.split(",")
        if len(values) != config.rounds or not all(v.isdigit() for v in values):
            raise MalformedInput(f"scores= needs {config.rounds} whole numbers per team")
        scores.append(tuple(int(v) for v in values))
    state.scores = tuple(scores)
    state.discard = _letters(fields.get("discard", "-"), "discard")
    state.held = tuple(_letters(hand, "held") for hand in read.per_seat("held", "-"))
    state.specials = _specials(fields.get("specials", "?"), state.discard + "".join(state.held))
    state.raiders = _team_bits(fields.get("raiders", "-"), teams, "raiders")
    used = fields.get("used", "-")
    if used not in ("-", "b", "e", "be"):
        raise MalformedInput("used= is -, b, e or be")
    state.used_binoculars = "b" in used
    state.used_extra = "e" in used
    state.peek = read.number("peek", 0)
    if state.peek and (state.phase != PRE or state.peek > min(5, len(state.deck))):
        raise MalformedInput("peek= counts top cards being arranged before the timer starts (HYH-R11)")
    state.claim = _claim(fields.get("claim", "-"), teams)
    if state.claim and state.current < 0:
        raise MalformedInput("a claim needs a current word (HYH-R28)")
    if state.claim and state.claim_deadline() <= state.now:
        raise MalformedInput("the claim's window has closed: it would have been resolved (HYH-R28)")
    state.clued = read.number("clued", 0)
    clues = fields.get("clues", "-")
    state.clues = () if clues == "-" else tuple(unquote(text) for text in clues.split(","))
    seats = context.seats
    state.guessed = _per_seat(fields.get("guessed", "-"), seats, "guessed", -1)
    state.misses = _per_seat(fields.get("misses", "-"), seats, "misses", 0)
    state.turns = read.number("turns", 0)
    state.rng = read_rng(fields)
    if state.phase == OVER and state.deck:
        raise MalformedInput("phase=over: the last round's words have all been won")
    if state.phase == DECISION and state.current >= 0:
        raise MalformedInput("phase=decision has no current word")
    return state


def _per_seat(text: str, seats: int, name: str, none: int) -> tuple[int, ...]:
    """A number per seat (``-`` for ``none``), or ``-`` alone when every seat has none."""
    values = text.split(",") if text != "-" else ["-"] * seats
    if len(values) != seats or not all(v == "-" or v.isdigit() for v in values):
        raise MalformedInput(f"{name}= needs {seats} whole numbers or -, one per seat")
    return tuple(none if v == "-" else int(v) for v in values)


def _word_set(config: HoldYourHatConfig, cards: _Cards, text: str) -> tuple[int, ...]:
    """The game's words: those named, or (``?N``) every located card and the first unlocated ones of the table."""
    located = set(cards.located)
    if text.startswith("?"):
        size = unknown_count(text) or 0
        size = config.deck_size if size < 0 else size
        rest = sorted(cards.left.elements())[:max(0, size - len(located))]
        word_set = sorted(located | set(rest))
    else:
        every = CardPool(cards.by_label.values(), cards.label, cards.by_label, "card of the word list")
        word_set = sorted({every.take(part) for part in text.split(",")})
        if not located <= set(word_set):
            raise MalformedInput("every card in deck=, current=, aside=, extra= and won= must be in set=")
    if len(word_set) != config.deck_size:
        raise MalformedInput(f"set= must hold deck_size={config.deck_size} cards, not {len(word_set)}")
    return tuple(word_set)


def _specials(text: str, out: str) -> str:
    """The special deck: listed, or (``?N``) every card of the box neither discarded nor held (``out``)."""
    remaining = dict(SPECIALS)
    for letter in out:
        remaining[letter] -= 1
    if any(count < 0 for count in remaining.values()):
        raise MalformedInput("more special cards of one kind than the box holds (HYH-I2)")
    if text.startswith("?"):
        count = unknown_count(text)
        if count is not None and count >= 0 and count != sum(remaining.values()):
            raise MalformedInput("specials=?N must count the special cards that are neither discarded nor held "
                                 "(HYH-I2)")
        return "".join(letter for letter in SPECIAL_ORDER for _ in range(remaining[letter]))
    specials = _letters(text, "specials")
    for letter in specials:
        remaining[letter] -= 1
    if any(remaining.values()):
        raise MalformedInput("the special cards do not add up to the 17 of the box (HYH-I2)")
    return specials


def _claim(text: str, teams: int) -> tuple[tuple[int, int], ...]:
    if text == "-":
        return ()
    claim = []
    for part in text.split(","):
        found = _CLAIM.match(part)
        if not found or TEAM_LETTERS.index(found.group(1)) >= teams:
            raise MalformedInput(f"claim= lists team@time, like A@1200, not {part!r}")
        claim.append((TEAM_LETTERS.index(found.group(1)), int(found.group(2))))
    return tuple(claim)
