"""Hold your Hat's state: scalars, strings and tuples, so a clone copies references and shares every container.

Word cards are positions in the word table (``WordTable.cards``); special cards are letters (``SPECIALS``). Stacks
(the word deck, the special deck) keep their top card last, like every divedeck game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...engine.rng import SeededRng
from ...engine.state import GameStateBase
from .config import HoldYourHatConfig
from .words import COLORS, WordTable

# Phases (HYH "3.2 States"). END_TURN and ROUND_END are automatic: they resolve inside ``apply``.
PRE = "pre"  # PRE_TURN: clock stopped; RAID, BINOCULARS, then the clue-giver starts the timer
MAIN = "main"  # the timer runs
DECISION = "decision"  # TIMEOUT_DECISION: clock stopped; EXTRA TIME or end
EXTRA = "extra"  # EXTRA TIME runs
OVER = "over"  # GAME_OVER
PHASES = (PRE, MAIN, DECISION, EXTRA, OVER)

# The 17 special cards (HYH-C4) by letter, in the order they are listed everywhere.
SPECIALS = {"B": 3, "E": 3, "S": 3, "T": 4, "R": 4}
SPECIAL_NAMES = {"B": "BINOCULARS", "E": "EXTRA TIME", "S": "SKIP", "T": "THEFT", "R": "RAID"}
SPECIAL_ORDER = "BESTR"
ROUND_TYPES = ("describe", "one word", "mime")  # HYH-R3

Cards = tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Context:
    """What every state of one config shares: the config, the word table, the teams."""

    config: HoldYourHatConfig
    table: WordTable
    members: tuple[tuple[int, ...], ...]  # each team's seats in member order
    team_of: tuple[int, ...]  # each seat's team
    turn_ms: int
    window: int
    judging: str  # auto | clue_giver (party mode forces clue_giver)
    party: bool
    # entries[colour][card] = (text, points, alternates)
    entries: tuple[tuple[tuple[str, int, tuple[str, ...]], ...], ...]

    @property
    def teams(self) -> int:
        return len(self.members)

    @property
    def seats(self) -> int:
        return len(self.team_of)


@cache
def context_for(config: HoldYourHatConfig) -> Context:
    table = config.table
    members = config.members()
    team_of = [0] * config.num_players
    for team, seats in enumerate(members):
        for seat in seats:
            team_of[seat] = team
    entries = tuple(tuple((card.entries[c].text, card.entries[c].points, card.entries[c].alternates)
                          for card in table.cards) for c in range(len(COLORS)))
    return Context(config, table, members, tuple(team_of), config.turn_seconds * 1000,
                   config.simultaneous_window_ms, config.judging, config.party, entries)


def special_deck() -> list[str]:
    return [letter for letter in SPECIAL_ORDER for _ in range(SPECIALS[letter])]


def sort_specials(letters: str) -> str:
    return "".join(sorted(letters, key=SPECIAL_ORDER.index))


class HoldYourHatState(GameStateBase):
    """Everything about a game of Hold your Hat at one moment (see the rules specification's state machine)."""

    game_name = "hold-your-hat"

    __slots__ = (
        "context", "rng", "phase", "round", "active", "pointers", "color", "word_set", "deck", "current", "aside",
        "extra", "won", "scores", "specials", "discard", "held", "raiders", "used_binoculars", "used_extra", "peek",
        "claim", "clued", "clues", "guessed", "misses", "now", "timer", "turns",
    )

    context: Context
    rng: SeededRng
    phase: str
    round: int  # 1..rounds
    active: int  # the active team
    pointers: tuple[int, ...]  # each team's clue-giver pointer into its member list (HYH-R4)
    color: int  # index into COLORS (HYH-C2)
    word_set: Cards  # the game's word cards, in table order (HYH-R2)
    deck: Cards  # the word deck, top last
    current: int  # the current word, or -1
    aside: Cards  # the set-aside list, first set aside first (HYH-R22, HYH-R23, HYH-R26)
    extra: Cards  # the extra set's cards not yet current, next first (HYH-R30)
    won: tuple[Cards, ...]  # cards each team won this round, in order
    scores: tuple[tuple[int, ...], ...]  # each team's recorded score for each round (HYH-R41)
    specials: str  # the special deck, top last
    discard: str  # the special discard pile, top last
    held: tuple[str, ...]  # each team's special cards, face up (sorted)
    raiders: int  # bit set of the teams raiding this turn (HYH-R10)
    used_binoculars: bool
    used_extra: bool
    peek: int  # cards on top of the deck the clue-giver is arranging after BINOCULARS (0: none)
    claim: tuple[tuple[int, int], ...]  # the open claim on the current word: (team, time) in order (HYH-R28)
    clued: int  # typed clues given for the current word (HYH-R24, HYH-A21)
    clues: tuple[str, ...]  # their texts, first given first: public, what a guesser reads (HYH-R24)
    guessed: tuple[int, ...]  # each seat's last typed guess (its time), or -1 (HYH-A26)
    misses: tuple[int, ...]  # each seat's wrong typed guesses at the current word since its last clue (HYH-A27)
    now: int  # the time of the last input (HYH-R6)
    timer: int  # the end of the sand timer in MAIN and EXTRA, else -1
    turns: int  # turns ended in the whole game

    @property
    def config(self) -> HoldYourHatConfig:
        return self.context.config

    @property
    def teams(self) -> int:
        return len(self.context.members)

    def clue_giver(self, team: int | None = None) -> int:
        """The seat of ``team``'s clue-giver (default: the active team's) (HYH-R4)."""
        team = self.active if team is None else team
        members = self.context.members[team]
        return members[self.pointers[team] % len(members)]

    def entry(self, card: int) -> tuple[str, int, tuple[str, ...]]:
        """(text, points, alternates) of ``card``'s entry in the game's colour."""
        return self.context.entries[self.color][card]

    def claiming(self) -> int:
        """Bit set of the teams in the open claim."""
        bits = 0
        for team, _ in self.claim:
            bits |= 1 << team
        return bits

    def claim_deadline(self) -> int:
        """When the open claim is resolved (HYH-R28.2), or -1."""
        return self.claim[0][1] + self.context.window + 1 if self.claim else -1

    def round_points(self, team: int) -> int:
        entries = self.context.entries[self.color]
        return sum(entries[card][1] for card in self.won[team])

    def total(self, team: int) -> int:
        """The team's game total so far, this round's cards included (HYH-R28.2, HYH-R42).

        Once the game is over the last round is recorded in ``scores`` (its cards stay on the table)."""
        recorded = sum(self.scores[team])
        return recorded if self.phase == OVER else recorded + self.round_points(team)

    def round_complete(self) -> bool:
        return not self.deck and not self.aside and not self.extra and self.current < 0
