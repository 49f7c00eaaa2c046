"""Hold your Hat's options, each with the default its rules specification states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...engine.config import option
from ...engine.errors import ConfigError
from .words import WordTable, load_words

MIN_TEAMS, MAX_TEAMS = 2, 6
MAX_PLAYERS = 36
RAIDS = 4  # RAID cards in the box (HYH-C4)
MAX_DECK = 1000  # far more word cards than a game of three rounds can play

Color = Literal["random", "red", "orange", "yellow", "green", "blue", "purple"]


@dataclass(frozen=True)
class HoldYourHatConfig:
    num_players: int = option(4, "players, at least two per team", rules=("HYH-R1",), low=2 * MIN_TEAMS,
                              high=MAX_PLAYERS)
    teams: int = option(2, "how many teams", rules=("HYH-R1", "HYH-A16"), low=MIN_TEAMS, high=MAX_TEAMS)
    team_sizes: str | None = option(None, "players per team in team order, like 3,2,2 (unset: as even as possible)",
                                    rules=("HYH-R1",), advanced=True)
    seating: Literal["together", "alternate"] = option(
        "together", "a team's seats side by side, or taking turns round the table (A, B, A, B...)",
        rules=("HYH-R1",), advanced=True)
    first_team: int = option(0, "the team that starts the first round (0 is team A)", rules=("HYH-R2", "HYH-A18"),
                             low=0, high=MAX_TEAMS - 1, advanced=True)
    rounds: int = option(3, "rounds to play: describe, then one word, then mime", rules=("HYH-R3",), low=1, high=3)
    deck_size: int = option(40, "word cards in the game (the same ones every round)", rules=("HYH-R2", "HYH-A1"),
                            low=1, high=MAX_DECK)
    color: Color = option("random", "the colour of the words played", rules=("HYH-C2", "HYH-R2"))
    turn_seconds: int = option(60, "seconds on the sand timer", rules=("HYH-C3",), low=1, high=3600)
    clue_giver_rotation: Literal["per_turn", "per_round"] = option(
        "per_turn", "the next teammate gives the clues every turn, or every round", rules=("HYH-R4", "HYH-A4"),
        advanced=True)
    guess_judging: Literal["auto", "clue_giver"] = option(
        "auto", "guesses typed and judged by the game, or spoken and confirmed by the clue-giver",
        rules=("HYH-R27", "HYH-A20"))
    simultaneous_window_ms: int = option(
        300, "right guesses this many thousandths of a second after the first one count as at the same time",
        rules=("HYH-R28", "HYH-A5"), low=0, high=10_000, advanced=True)
    extra_time_words: int = option(3, "words drawn by EXTRA TIME", rules=("HYH-R30", "HYH-A10"), low=1, high=20,
                                   advanced=True)
    raid_in_extra_time: bool = option(False, "raiding teams may keep guessing during EXTRA TIME",
                                      rules=("HYH-R20", "HYH-A9"), advanced=True)
    start_with_raid: bool = option(False, "every team starts with a RAID card (up to four teams)",
                                   rules=("HYH-V1", "HYH-A19"))
    party: bool = option(False, "one shared screen passed around: the clue-giver confirms spoken guesses and enters "
                                "the other teams' RAID and THEFT", rules=("HYH-R27",))
    cards: str | None = option(None, "your own word list instead of the game's (.toml, or plain text with one card "
                                     "a line)", rules=("HYH-C5",), file=True, advanced=True)

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
        if self.start_with_raid and self.teams > RAIDS:
            raise ConfigError(f"the start_with_raid variant needs at most {RAIDS} teams: there are only {RAIDS} "
                              "RAID cards (HYH-V1, HYH-A19)")
        table = self.table
        if not 1 <= self.deck_size <= len(table):
            raise ConfigError(f"deck_size must be from 1 to {len(table)} (the cards in the word list), "
                              f"not {self.deck_size}")

