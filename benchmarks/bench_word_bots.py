"""Hold your Hat word bots: how many words bot teams guess, at each level, in simulated time.

Every game is four word bots of one level (two teams of two), 40 word cards, three rounds, 60-second turns, played
by the real-time driver on a simulated clock (no waiting). The deck is the shipped one cut to the cards whose six
entries all have associations (a bot cannot clue an entry without them), written to a temporary folder with the
matching part of the association file. Reported per level and round:

* **words/min**: words won per minute of running sand timer (from START to the end of the turn);
* **words/turn**: words won per turn;
* **solved**: the share of the words a bot clue was given for that a bot guesser then guessed in the same turn;

the special cards the bots played (every team starts with a RAID here, HYH-V1, so that raids are measured): SKIPs
(``rated``: before any clue, on a word the clue-giver rated hard; the others pass a word it had no more to say
about), RAIDs and how many of them won the raiders a word that turn, THEFTs and how many were right; and how many
of a few clues written as a person would type them (``HUMAN_CLUES``, not from the association data)
a guesser of each level solves with the guesses it makes at one clue.

    uv run python benchmarks/bench_word_bots.py            # the table in docs/bots.md
    uv run python benchmarks/bench_word_bots.py --games 2  # quick look
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
import tomllib
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

from divedeck.engine import IllegalAction, get_game
from divedeck.games.hold_your_hat.actions import Clue, Start
from divedeck.games.hold_your_hat.associations import load_associations
from divedeck.games.hold_your_hat.bots import WordBot
from divedeck.games.hold_your_hat.judging import normalize
from divedeck.games.hold_your_hat.words import load_words
from divedeck.sim.driver import RealtimeDriver

GAME = get_game("hold-your-hat")
LEVELS = ("easy", "medium", "hard")


def covered_deck(folder: Path) -> tuple[str, int]:
    """The shipped deck cut to its first cards whose entries are all covered, with their associations."""
    table, associations = load_words(None), load_associations(None)
    count = next((i for i, card in enumerate(table.cards)
                  if not all(associations.covers(e.text) for e in card.entries)), len(table))
    data = resources.files("divedeck.games.hold_your_hat").joinpath("data")
    words = data.joinpath("words.toml").read_text(encoding="utf-8")
    headers = [m.start() for m in re.finditer(r"^\[\[card\]\]", words, re.MULTILINE)]
    cut = words[:headers[count]] if count < len(headers) else words
    keep = {normalize(e.text) for card in table.cards[:count] for e in card.entries}
    raw = tomllib.loads(data.joinpath("associations.toml").read_text(encoding="utf-8"))["entry"]
    lines = ['format = "divedeck-associations"', "version = 1", "", "[entry]"]
    for name, fields in raw.items():
        if normalize(name) in keep:
            lines.append(f"{json.dumps(name, ensure_ascii=False)} = {{ describe = "
                         f"{json.dumps(fields['describe'], ensure_ascii=False)}, clues = "
                         f"{json.dumps(fields['clues'], ensure_ascii=False)}, mime = "
                         f"{json.dumps(fields['mime'], ensure_ascii=False)} }}")
    (folder / "covered.toml").write_text(cut, encoding="utf-8")
    (folder / "covered.associations.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(folder / "covered.toml"), count


def play(cards: str, level: str, seed: int, totals: dict[tuple[str, int], dict[str, float]]) -> None:
    config = GAME.make_config({"cards": cards, "deck_size": 40, "start_with_raid": True})
    state = GAME.new(config, seed)
    driver = RealtimeDriver(GAME)
    for seat in range(4):
        driver.seat_bot(seat, WordBot(seed * 10 + seat, level), state, 0)
    started = 0
    clued: set[str] = set()
    specials = totals[(level, 0)]
    raiders: set[int] = set()
    clues_now = 0  # typed clues given for the current word
    while GAME.outcome(state) is None:
        due = driver.due(state)
        assert due is not None and due.t < 6 * 3600 * 1000
        round_number = state.round
        if isinstance(due.action, Clue) and state.current >= 0:
            clued.add(state.entry(state.current)[0])
        try:
            events = GAME.apply(state, due.seat, due.action)
        except IllegalAction:  # out of date by the time it came (a race, as at a real table): think again
            driver.refused(state, due.seat, due.t)
            continue
        row = totals[(level, round_number)]
        if isinstance(due.action, Start):
            started = due.t
        clues_now += isinstance(due.action, Clue)
        for event in events:
            if event.kind in ("word", "skip", "foul", "won"):
                if event.kind == "skip":
                    specials["skips"] += 1
                    specials["skips_rated"] += clues_now == 0
                clues_now = 0
            if event.kind == "raid":
                specials["raids"] += 1
                raiders.add(event.team)
            elif event.kind == "theft":
                specials["thefts"] += 1
                specials["thefts_right"] += event.result == "right"
            if event.kind == "won":
                if event.team in raiders:
                    specials["raids_won"] += 1
                    raiders.discard(event.team)
                row["words"] += 1
                row["solved"] += event.word in clued
            elif event.kind == "turn_end":
                raiders = set()
                row["turns"] += 1
                row["ms"] += due.t - started
                row["clued"] += len(clued)
                clued = set()
        driver.applied(state, due.seat, due.t)


# Clues as a person might type them (written for this benchmark, not taken from the association data), by entry.
HUMAN_CLUES = {
    "anchor": ["heavy thing a boat throws down so it stays put"], "lighthouse": ["tall building that warns ships"],
    "jellyfish": ["wobbly see-through thing in the sea that stings"], "compass": ["tells you which way is north"],
    "kitten": ["young cat"], "tornado": ["very strong spinning wind storm"], "pony": ["little horse"],
    "tomato": ["red thing in ketchup"], "ostrich": ["biggest bird, can't fly"],
    "squid": ["sea animal that squirts ink"],
    "rocket": ["goes to the moon with fire underneath"], "pancake": ["flat breakfast you flip, with syrup"],
    "giant": ["really huge man in fairy tales"], "piano": ["instrument with black and white keys"],
    "lobster": ["red sea animal with big claws"], "kangaroo": ["jumps around australia with a baby in a pouch"],
    "witch": ["flies on a broom with a black cat"], "robot": ["metal machine man"],
    "pineapple": ["spiky yellow fruit"], "tent": ["you sleep in it when camping"],
}


def human_clues(level: str, seeds: int) -> tuple[int, int]:
    """How many of HUMAN_CLUES a guesser of ``level`` solves within its guesses at one clue, over ``seeds`` bots."""
    from divedeck.engine.decision import Decision
    from divedeck.games.hold_your_hat.words import COLORS

    colour = {normalize(e.text): COLORS[i] for card in load_words(None).cards for i, e in enumerate(card.entries)}
    solved = total = 0
    for seed in range(seeds):
        for entry, clues in HUMAN_CLUES.items():
            state = GAME.new(GAME.make_config({"deck_size": 40, "color": colour[entry]}), seed)
            GAME.apply(state, 0, GAME.at(Start(), 1000))
            view = GAME.view(state, 1)
            bot = WordBot(seed, level)
            seen = dict(view, clues=clues)
            now, guesses = 1000, []
            for _ in range(5):
                decision = Decision(GAME, 1, seen, GAME.legal_actions(state, 1),
                                    lambda rng, s=state: GAME.determinize(s, 1, rng), now)
                planned = bot.plan(decision)
                if planned is None:
                    break
                now += planned[0]
                guesses.append(getattr(planned[1], "text", None))
                bot.plan(Decision(GAME, 1, seen, decision.legal, decision.determinize, now))
            total += 1
            solved += entry in guesses
    return solved, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per level (default 6)")
    args = parser.parse_args()
    began = time.perf_counter()
    totals: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    with tempfile.TemporaryDirectory() as folder:
        cards, count = covered_deck(Path(folder))
        for level in LEVELS:
            for seed in range(args.games):
                play(cards, level, seed + 1, totals)
    print(f"{args.games} games a level, deck: the first {count} shipped cards (all entries covered), "
          f"{time.perf_counter() - began:.1f} s")
    print("| level | round | words/min | words/turn | solved |")
    print("|---|---|---|---|---|")
    for level in LEVELS:
        for round_number in (1, 2, 3):
            row: Any = totals[(level, round_number)]
            minutes = row["ms"] / 60_000 or 1
            print(f"| {level} | {round_number} | {row['words'] / minutes:.1f} | "
                  f"{row['words'] / (row['turns'] or 1):.1f} | {row['solved'] / (row['clued'] or 1):.0%} |")
    print()
    print("| level | SKIP (rated) | RAID (won a word) | THEFT (right) |")
    print("|---|---|---|---|")
    for level in LEVELS:
        sp: Any = totals[(level, 0)]
        print(f"| {level} | {sp['skips']:.0f} ({sp['skips_rated']:.0f}) | {sp['raids']:.0f} ({sp['raids_won']:.0f}) | "
              f"{sp['thefts']:.0f} ({sp['thefts_right']:.0f}) |")
    print()
    print("Typed human clues (round 1, one clue a word, the guesses a bot makes at it):")
    for level in LEVELS:
        solved, total = human_clues(level, 3)
        print(f"- {level}: {solved} of {total} solved ({solved / total:.0%})")


if __name__ == "__main__":
    main()
