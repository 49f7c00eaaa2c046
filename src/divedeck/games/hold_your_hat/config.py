"""Hold your Hat's options, each with the default its rules specification states."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...engine.errors import ConfigError
from .words import WordTable, load_words

MIN_TEAMS, MAX_TEAMS = 2, 6
MAX_PLAYERS = 36
RAIDS = 4  # RAID cards in the box (HYH-C4)

Color = Literal["random", "red", "orange", "yellow", "green", "blue", "purple"]


@dataclass(frozen=True)
class HoldYourHatConfig:
    num_players: int = field(default=4, metadata={"help": "players, at least 2 per team (HYH-R1)"})
    teams: int = field(default=2, metadata={"help": "teams, 2 to 6 (HYH-R1, HYH-A16)"})
    team_sizes: str | None = field(default=None, metadata={
        "help": "players per team in team order, e.g. 3,2,2 (default: as even as possible) (HYH-R1)"})
    seating: Literal["together", "alternate"] = field(default="together", metadata={
        "help": "seats of a team: side by side (seats 0,1 team A...), or alternating A,B,A,B (HYH-R1)"})
    first_team: int = field(default=0, metadata={"help": "team that starts round 1, 0 = team A (HYH-R2, HYH-A18)"})
    rounds: int = field(default=3, metadata={"help": "rounds to play, 1 to 3: describe, one word, mime (HYH-R3)"})
    deck_size: int = field(default=40, metadata={"help": "word cards used in every round (HYH-R2, HYH-A1)"})
    color: Color = field(default="random", metadata={"help": "the colour of the entries played (HYH-C2, HYH-R2)"})
    turn_seconds: int = field(default=60, metadata={"help": "the sand timer, in seconds (HYH-C3)"})
    clue_giver_rotation: Literal["per_turn", "per_round"] = field(default="per_turn", metadata={
        "help": "the next member gives clues every turn, or every round (HYH-R4, HYH-A4)"})
    guess_judging: Literal["auto", "clue_giver"] = field(default="auto", metadata={
        "help": "typed guesses judged by the game, or spoken guesses confirmed by the clue-giver (HYH-R27)"})
    simultaneous_window_ms: int = field(default=300, metadata={
        "help": "correct guesses this close after the first one count as simultaneous (HYH-R28, HYH-A5)"})
    extra_time_words: int = field(default=3, metadata={"help": "words drawn by EXTRA TIME (HYH-R30, HYH-A10)"})
    raid_in_extra_time: bool = field(default=False, metadata={
        "help": "raiders may keep guessing during EXTRA TIME (HYH-R20, HYH-A9)"})
    start_with_raid: bool = field(default=False, metadata={
        "help": "variant: every team starts with a RAID card, up to 4 teams (HYH-V1, HYH-A19)"})
    party: bool = field(default=False, metadata={
        "help": "one shared screen passed around: the clue-giver confirms spoken guesses and enters the other "
                "teams' RAID and THEFT (HYH-R27)"})
    # Named like the other games' data file option, so that the server refuses it from the web like theirs.
    cards: str | None = field(default=None, metadata={
        "help": "a word list file instead of the shipped deck (.toml, or plain text one card a line: see "
                "docs/games/hold-your-hat.md)", "file": True})

    @property
    def table(self) -> WordTable:
        return load_words(self.cards)

    @property
    def judging(self) -> str:
        """The judging in force: party mode always has the clue-giver confirm spoken guesses."""
        return "clue_giver" if self.party else self.guess_judging

    def sizes(self) -> tuple[int, ...]:
        """Players per team, in team order."""
        if self.team_sizes is None:
            base, extra = divmod(self.num_players, self.teams)
            return tuple(base + (1 if team < extra else 0) for team in range(self.teams))
        try:
            sizes = tuple(int(part) for part in self.team_sizes.replace(" ", "").split(","))
        except ValueError:
            raise ConfigError(f"team_sizes must be whole numbers separated by commas, like 3,2,2; got "
                              f"{self.team_sizes!r}") from None
        return sizes

    def members(self) -> tuple[tuple[int, ...], ...]:
        """Each team's seats, in member order (HYH-R1)."""
        sizes = self.sizes()
        if self.seating == "together":
            out, seat = [], 0
            for size in sizes:
                out.append(tuple(range(seat, seat + size)))
                seat += size
            return tuple(out)
        teams: list[list[int]] = [[] for _ in sizes]
        seat, team = 0, 0
        while seat < self.num_players:
            if len(teams[team]) < sizes[team]:
                teams[team].append(seat)
                seat += 1
            team = (team + 1) % len(sizes)
        return tuple(tuple(members) for members in teams)

    def validate(self) -> None:
        if not MIN_TEAMS <= self.teams <= MAX_TEAMS:
            raise ConfigError(f"Hold your Hat is for {MIN_TEAMS} to {MAX_TEAMS} teams (HYH-R1), not {self.teams}")
        if not 2 * self.teams <= self.num_players <= MAX_PLAYERS:
            raise ConfigError(f"{self.teams} teams of at least 2 need {2 * self.teams} to {MAX_PLAYERS} players "
                              f"(HYH-R1), not {self.num_players}")
        sizes = self.sizes()
        if len(sizes) != self.teams:
            raise ConfigError(f"team_sizes lists {len(sizes)} teams but teams={self.teams}")
        if min(sizes) < 2:
            raise ConfigError("every team needs at least 2 players (HYH-R1)")
        if sum(sizes) != self.num_players:
            raise ConfigError(f"team_sizes add up to {sum(sizes)} players, not num_players={self.num_players}")
        if not 0 <= self.first_team < self.teams:
            raise ConfigError(f"first_team must be a team from 0 to {self.teams - 1}")
        if not 1 <= self.rounds <= 3:
            raise ConfigError(f"rounds must be 1, 2 or 3 (HYH-R3), not {self.rounds}")
        if not 1 <= self.turn_seconds <= 3600:
            raise ConfigError(f"turn_seconds must be from 1 to 3600, not {self.turn_seconds}")
        if not 0 <= self.simultaneous_window_ms <= 10_000:
            raise ConfigError("simultaneous_window_ms must be from 0 to 10000")
        if not 1 <= self.extra_time_words <= 20:
            raise ConfigError("extra_time_words must be from 1 to 20")
        if self.start_with_raid and self.teams > RAIDS:
            raise ConfigError(f"the start_with_raid variant needs at most {RAIDS} teams: there are only {RAIDS} "
                              "RAID cards (HYH-V1, HYH-A19)")
        table = self.table
        if not 1 <= self.deck_size <= len(table):
            raise ConfigError(f"deck_size must be from 1 to {len(table)} (the cards in the word list), "
                              f"not {self.deck_size}")

