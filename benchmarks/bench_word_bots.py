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

With the word vectors installed (the ``words`` extra), the same games are played by the meaning bots
(``MeaningBot``) beside the association bots (``WordBot``), and it also measures (issue 29):

* **guessing people's clues** on the evaluation set (``data/hold_your_hat_eval.toml``: 127 entries not in the shipped
  deck, each with round 1 and round 2 clues written as people give them): top-1 and top-3 of the meaning guesser and
  of the association guesser, the candidates being the evaluation entries alone (a list of one's own) or together
  with the whole shipped deck (whose entries the association guesser knows); and the same on ``HUMAN_CLUES`` (shipped
  entries, where the association data covers every entry);
* **the clue-giver**: its clues of meaning (round 1: its first clue of three words; round 2: its one word), given
  without the association data, judged by both guessers: top-1 and top-3;
* **bot-only games on a custom list without associations** (``data/hold_your_hat_custom40.txt``: 40 words, two
  rounds, since round 3 needs pictures): in how many seeds every team won words;
* **time per decision** (``plan``) of the meaning bots in those games, against the association bots' in theirs.

    uv run python benchmarks/bench_word_bots.py            # the tables in docs/bots.md
    uv run python benchmarks/bench_word_bots.py --games 2 --seeds 3  # quick look
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from divedeck.engine import IllegalAction, get_game
from divedeck.games.hold_your_hat.actions import Clue, Start
from divedeck.games.hold_your_hat.associations import NONE, Associations, load_associations
from divedeck.games.hold_your_hat.bots import Knowledge, WordBot
from divedeck.games.hold_your_hat.judging import normalize
from divedeck.games.hold_your_hat.meaning import load_vectors
from divedeck.games.hold_your_hat.meaning_bots import MeaningBot, MeaningKnowledge
from divedeck.games.hold_your_hat.words import COLORS, Entry, WordCard, WordTable, load_words
from divedeck.sim.driver import RealtimeDriver

GAME = get_game("hold-your-hat")
LEVELS = ("easy", "medium", "hard")
DATA = Path(__file__).resolve().parent / "data"
EVALUATION = DATA / "hold_your_hat_eval.toml"
CUSTOM = DATA / "hold_your_hat_custom40.txt"
BOTS: dict[str, Callable[[int, str], Any]] = {"associations": WordBot, "meaning": MeaningBot}


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


def timed(bot: Any, times: list[float]) -> Any:
    """``bot`` with each of its decisions (``plan``) timed into ``times`` (milliseconds)."""
    plan = bot.plan

    def timed_plan(decision: Any) -> Any:
        began = time.perf_counter()
        try:
            return plan(decision)
        finally:
            times.append((time.perf_counter() - began) * 1000)
    bot.plan = timed_plan
    return bot


def play(cards: str, level: str, seed: int, totals: dict[tuple[str, int], dict[str, float]],
         kind: str = "associations", times: list[float] | None = None) -> None:
    config = GAME.make_config({"cards": cards, "deck_size": 40, "start_with_raid": True})
    state = GAME.new(config, seed)
    driver = RealtimeDriver(GAME)
    for seat in range(4):
        driver.seat_bot(seat, timed(BOTS[kind](seed * 10 + seat, level), times if times is not None else []),
                        state, 0)
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


def human_clues(level: str, seeds: int, kind: str = "associations") -> tuple[int, int]:
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
            bot = BOTS[kind](seed, level)
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


def one_colour_table(texts: Sequence[str]) -> WordTable:
    """A word table whose every colour holds ``texts``: what a guesser weighs is one colour of a table."""
    return WordTable(tuple(WordCard(f"E{i:04d}", (Entry(text, False),) * len(COLORS)) for i, text in enumerate(texts)),
                     "en", "evaluation")


def place(scored: list[tuple[float, str]], entry: str) -> int | None:
    """The entry's place among a guesser's candidates (0: first), ties counted against it; ``None``: it does not
    come to mind at all."""
    own = next((score for score, text in scored if text == entry), 0.0)
    if own <= 0:
        return None
    return sum(1 for score, text in scored if text != entry and score >= own)


def accuracy(guesser: Any, cases: Sequence[tuple[str, Sequence[str]]]) -> tuple[float, float]:
    """Top-1 and top-3: the share of the cases (an entry, the clues given for it) where the guesser, knowing every
    link (no level's blur), puts the entry first, or among its first three."""
    places = [place(guesser.scores(clues, set()), entry) for entry, clues in cases]
    return (sum(p is not None and p < 1 for p in places) / len(places),
            sum(p is not None and p < 3 for p in places) / len(places))


def guessers(table: WordTable, associations: Associations, color: int = 0) -> dict[str, Any]:
    vectors = load_vectors()
    assert vectors is not None
    return {"meaning": MeaningKnowledge(table, associations, color, vectors),
            "associations": Knowledge(table, associations, color)}


def evaluation_cases() -> dict[str, list[tuple[str, Sequence[str]]]]:
    entries = tomllib.loads(EVALUATION.read_text(encoding="utf-8"))["entry"]
    return {
        "round 1, one clue": [(text, [clue]) for text, clues in entries.items() for clue in clues["round1"]],
        "round 1, all its clues": [(text, clues["round1"]) for text, clues in entries.items()],
        "round 2, one word": [(text, [clue]) for text, clues in entries.items() for clue in clues["round2"]],
    }


def report_people(print_row: Callable[[str], None]) -> None:
    """Top-1/top-3 of both guessers on people's clues: the evaluation set, and HUMAN_CLUES on the shipped deck."""
    entries = list(tomllib.loads(EVALUATION.read_text(encoding="utf-8"))["entry"])
    shipped_table, shipped = load_words(None), load_associations(None)
    shipped_texts = [entry.text for card in shipped_table.cards for entry in card.entries]
    # Both pools without association data: an entry the data describes would win every clue that shares a word
    # with its description over an evaluation entry, which has none; the association guesser has nothing at all.
    pools = {f"{len(entries)} evaluation entries": guessers(one_colour_table(entries), NONE),
             f"the same + the {len(shipped_texts)} shipped": guessers(one_colour_table(entries + shipped_texts), NONE)}
    print_row("| clues (cases) | candidates | meaning top-1 | top-3 | associations top-1 | top-3 |")
    print_row("|---|---|--:|--:|--:|--:|")
    for label, cases in evaluation_cases().items():
        for pool, found in pools.items():
            new, old = accuracy(found["meaning"], cases), accuracy(found["associations"], cases)
            print_row(f"| {label} ({len(cases)}) | {pool} | {new[0]:.0%} | {new[1]:.0%} | {old[0]:.0%} | "
                      f"{old[1]:.0%} |")
    colour = {normalize(e.text): i for card in shipped_table.cards for i, e in enumerate(card.entries)}
    by_colour: dict[int, list[tuple[str, Sequence[str]]]] = defaultdict(list)
    for entry, clues in HUMAN_CLUES.items():
        by_colour[colour[entry]].append((entry, clues))
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for color, cases in by_colour.items():
        for kind, associations in (("meaning", shipped), ("meaning without the data", NONE), ("associations", shipped)):
            found = guessers(shipped_table, associations, color)["meaning" if "meaning" in kind else "associations"]
            top1, top3 = accuracy(found, cases)
            totals[kind][0] += top1 * len(cases)
            totals[kind][1] += top3 * len(cases)
    row = " | ".join(f"{kind} {top1 / len(HUMAN_CLUES):.0%} / {top3 / len(HUMAN_CLUES):.0%}"
                     for kind, (top1, top3) in totals.items())
    print_row(f"\nHUMAN_CLUES ({len(HUMAN_CLUES)} shipped entries, 147 candidates, top-1 / top-3): {row}")


def report_clue_giver(print_row: Callable[[str], None]) -> None:
    """The meaning clue-giver's clues, given without the association data, judged by both guessers."""
    vectors = load_vectors()
    assert vectors is not None
    shipped_table, shipped = load_words(None), load_associations(None)
    entries = list(tomllib.loads(EVALUATION.read_text(encoding="utf-8"))["entry"])
    print_row("| entries | round | meaning guesser top-1 / top-3 | association guesser top-1 / top-3 |")
    print_row("|---|---|--:|--:|")
    sets = [(f"shipped deck ({len(shipped_table.cards) * len(COLORS)}, each among its colour's "
             f"{len(shipped_table.cards)})", shipped_table, range(len(COLORS))),
            (f"evaluation set ({len(entries)}, among themselves)", one_colour_table(entries), range(1))]
    for label, table, colours in sets:
        for round_number in (1, 2):
            cases: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
            count = 0
            for color in colours:
                giver = MeaningKnowledge(table, NONE, color, vectors)
                judges = guessers(table, shipped if table is shipped_table else NONE, color)
                given = [(card.entries[color].text, giver.script(card.entries[color].text, round_number)[:1])
                         for card in table.cards]
                for name, judge in judges.items():
                    top1, top3 = accuracy(judge, given)
                    cases[name][0] += top1 * len(given)
                    cases[name][1] += top3 * len(given)
                count += len(given)
            print_row(f"| {label} | {round_number} | {cases['meaning'][0] / count:.0%} / "
                      f"{cases['meaning'][1] / count:.0%} | {cases['associations'][0] / count:.0%} / "
                      f"{cases['associations'][1] / count:.0%} |")


def custom_games(level: str, seeds: int, times: list[float]) -> tuple[int, list[list[int]]]:
    """Bot-only games of meaning bots on the custom list without associations (two rounds): in how many every team
    won words, and the team totals."""
    totals = []
    for seed in range(seeds):
        config = GAME.make_config({"cards": str(CUSTOM), "deck_size": 40, "color": "orange", "rounds": 2})
        state = GAME.new(config, seed)
        driver = RealtimeDriver(GAME)
        for seat in range(4):
            driver.seat_bot(seat, timed(MeaningBot(seed * 10 + seat, level), times), state, 0)
        while (outcome := GAME.outcome(state)) is None:
            due = driver.due(state)
            assert due is not None and due.t < 6 * 3600 * 1000
            try:
                events = GAME.apply(state, due.seat, due.action)
            except IllegalAction:
                driver.refused(state, due.seat, due.t)
                continue
            driver.applied(state, due.seat, due.t, events)
        totals.append(list(outcome.details["team_totals"]))
    return sum(all(total > 0 for total in row) for row in totals), totals


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"p50 {statistics.median(ordered):.2f} ms, p95 {ordered[int(0.95 * (len(ordered) - 1))]:.2f} ms, "
            f"longest {ordered[-1]:.1f} ms ({len(ordered)} decisions)")


def load_average() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip().split("load average:")[-1]


def report_load() -> None:
    """How long the vectors take to load and how much memory they add (this process's peak, before and after)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    began = time.perf_counter()
    vectors = load_vectors()
    loaded = time.perf_counter() - began
    if vectors is None:
        print("The word vectors are not installed (uv sync --extra words): association bots only.")
        return
    knowledge = MeaningKnowledge(load_words(None), load_associations(None), 0, vectors)
    knowledge.script("anchor", 1)
    ready = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Word vectors: imported and loaded in {loaded:.2f} s, the shipped deck's meanings and the clue "
          f"vocabulary ready in {ready:.2f} s; peak memory {before:.0f} MB before, {after:.0f} MB after")


def shipped_games(kind: str, games: int, times: list[float]) -> None:
    totals: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    with tempfile.TemporaryDirectory() as folder:
        cards, count = covered_deck(Path(folder))
        for level in LEVELS:
            for seed in range(games):
                play(cards, level, seed + 1, totals, kind, times)
    print(f"\n{kind} bots, {games} games a level, deck: the first {count} shipped cards (all entries covered)")
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
        solved, total = human_clues(level, 3, kind)
        print(f"- {level}: {solved} of {total} solved ({solved / total:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per level on the shipped deck (default 6)")
    parser.add_argument("--seeds", type=int, default=20, help="custom-list games per level (default 20)")
    args = parser.parse_args()
    print(f"load average at the start:{load_average()}")
    began = time.perf_counter()
    report_load()
    kinds = ["associations"] + (["meaning"] if load_vectors() is not None else [])
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for kind in kinds:
        shipped_games(kind, args.games, times[kind])
    if load_vectors() is not None:
        print("\nPeople's clues (top-1 / top-3, each guesser knowing every link):")
        report_people(print)
        print("\nThe meaning clue-giver's clues (without the association data), judged by both guessers:")
        report_clue_giver(print)
        print(f"\nBot-only games on {CUSTOM.name} (no associations, 40 words, two rounds), {args.seeds} seeds a level:")
        print("| level | every team won words | fewest words of a team | words a game |")
        print("|---|--:|--:|--:|")
        custom_times: list[float] = []
        for level in LEVELS:
            scored, totals = custom_games(level, args.seeds, custom_times)
            print(f"| {level} | {scored} of {len(totals)} | {min(min(row) for row in totals)} | "
                  f"{statistics.mean(sum(row) for row in totals):.0f} |")
        print("\nTime per decision (plan):")
        for kind in kinds:
            print(f"- {kind} bots, shipped deck: {spread(times[kind])}")
        print(f"- meaning bots, custom list: {spread(custom_times)}")
    print(f"\n{time.perf_counter() - began:.0f} s; load average at the end:{load_average()}")


if __name__ == "__main__":
    main()
