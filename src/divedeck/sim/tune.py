"""``divedeck tune``: search the variants of a game for those whose measured quantities meet targets.

The candidates are the grid of the ``--vary`` values (a range ``LOW..HIGH`` gives at most ``points`` evenly spread
values). Successive halving spends the games: every candidate plays a first batch; after each round a candidate is
dropped when even the best case of its 95% intervals misses the targets by more than the worst case of the best
candidate, and at most half of the rest (the worse half by the targets' miss) go on to play twice as many games
on fresh deals. Rounds stop when one candidate is left, at ``max_rounds``, or when the game budget is spent.

A target is ``NAME=VALUE`` (aim at the value) or ``NAME=A..B`` (anywhere in the range), ``NAME`` any quantity of the
report, as its last table names it (``first_seat_advantage``, ``minutes``, ``win.s0``, ``ending=distance``,
``played.panic``, a game's metric); one that happened in none of a candidate's games counts 0 per game. A
candidate's miss is the sum over targets of its distance to the target, in units of the target's width (or of
``max(|VALUE|, 1)`` for a value).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..engine.errors import ConfigError
from ..engine.registry import get_game
from . import report as rp
from .ntbea import NTBEA
from .options import option_text, options_text, typed_options
from .runner import GameResult, SimulationSpec, simulate
from .sweep import round_seed, variant_name


@dataclass(frozen=True)
class Target:
    name: str
    low: float
    high: float

    @property
    def is_range(self) -> bool:
        return self.high > self.low

    @property
    def scale(self) -> float:
        return self.high - self.low if self.is_range else max(abs(self.low), 1.0)

    def miss(self, x: float) -> float:
        return max(self.low - x, 0.0, x - self.high) / self.scale

    def miss_bounds(self, low: float, high: float) -> tuple[float, float]:
        """The least and the most miss of a value anywhere in ``[low, high]``."""
        best = 0.0 if low <= self.high and high >= self.low else min(self.miss(low), self.miss(high))
        return best, max(self.miss(low), self.miss(high))

    def text(self) -> str:
        return f"{self.name}={self.low:g}" + (f"..{self.high:g}" if self.is_range else "")


def parse_target(text: str) -> Target:
    """``NAME=VALUE`` or ``NAME=LOW..HIGH``; a name may hold ``=`` itself (``ending=distance``), the value never
    does."""
    name, sep, value = text.rpartition("=")
    name = name.strip()
    try:
        if not sep or not name:
            raise ValueError
        if ".." in value:
            low_text, _, high_text = value.partition("..")
            low, high = float(low_text), float(high_text)
        else:
            low = high = float(value)
    except ValueError:
        raise ConfigError(f"--target needs NAME=VALUE or NAME=LOW..HIGH, not {text!r}") from None
    if high < low or not math.isfinite(low) or not math.isfinite(high):
        raise ConfigError(f"--target {text}: the range's end is below its start")
    return Target(name, low, high)


@dataclass
class Candidate:
    variant: dict[str, str]
    options: dict[str, Any]
    results: list[GameResult] = field(default_factory=list)
    rounds: int = 0
    dropped_after: int | None = None
    same_as: str | None = None  # a candidate whose games were these, deal for deal: its measures stand for both

    @property
    def name(self) -> str:
        return variant_name(self.variant)


def _spec(game: str, bots: Sequence[str], options: dict[str, Any], seed: int, rotate: bool) -> SimulationSpec:
    return SimulationSpec(game, tuple(bots), options, seed, rotate, measure=True)


def evaluate(candidate: Candidate, game: str, bots: Sequence[str], targets: Sequence[Target],
             rotate: bool) -> dict[str, Any]:
    """A candidate's target quantities with intervals, and its miss (estimate and the bounds of its intervals)."""
    spec = _spec(game, bots, candidate.options, 0, rotate)
    measured = rp.quantities(spec, candidate.results)
    values = []
    miss = best = worst = 0.0
    for target in targets:
        found = rp.quantity_named(spec, candidate.results, measured, target.name)
        if found is None:
            known = ", ".join(rp.quantity_names(spec, measured))
            raise ConfigError(f"--target {target.name}: not a quantity of this game's report (those are: {known})")
        q = found.to_json()
        values.append(q)
        miss += target.miss(q["value"])
        low, high = target.miss_bounds(q["ci95_low"], q["ci95_high"])
        best += low
        worst += high
    return {"variant": candidate.name, "games": len(candidate.results), "rounds": candidate.rounds,
            "dropped_after": candidate.dropped_after, "quantities": values, "miss": miss, "miss_best": best,
            "miss_worst": worst, "meets": all(t.miss(q["value"]) == 0 for t, q in zip(targets, values, strict=True)),
            "surely_meets": all(t.miss_bounds(q["ci95_low"], q["ci95_high"])[1] == 0
                                for t, q in zip(targets, values, strict=True))}


Play = Callable[[Candidate, int, int], list[GameResult]]  # (candidate, games, seed) -> its games


def simulator(game: str, bots: Sequence[str], rotate: bool, workers: int | None,
              progress: Callable[[int], None] | None = None) -> Play:
    """How a search plays a candidate's games: simulated, on the candidate's options."""
    def play(candidate: Candidate, games: int, seed: int) -> list[GameResult]:
        return simulate(_spec(game, bots, candidate.options, seed, rotate), games, workers, progress)
    return play


def _check_targets(game: str, bots: Sequence[str], candidates: list[Candidate], targets: Sequence[Target],
                   seed: int, rotate: bool, play: Play | None) -> None:
    """One game first, so that a target naming no quantity fails before the long run, not after its first round."""
    first = candidates[0]
    games = (play or simulator(game, bots, rotate, 1))(first, 1, seed)
    evaluate(Candidate(first.variant, first.options, games), game, bots, targets, rotate)


def successive_halving(game: str, bots: Sequence[str], candidates: list[Candidate], targets: Sequence[Target],
                       seed: int, first_games: int, budget: int, rotate: bool, workers: int | None,
                       max_rounds: int = 6, progress: Callable[[int], None] | None = None,
                       log: Callable[[str], None] | None = None, play: Play | None = None) -> list[dict[str, Any]]:
    _check_targets(game, bots, candidates, targets, seed, rotate, play)
    play = play or simulator(game, bots, rotate, workers, progress)
    alive = list(candidates)
    spent = 0
    games = first_games
    for round_number in range(max_rounds):
        if spent + games * len(alive) > budget and round_number:
            break
        for candidate in alive:
            candidate.results += play(candidate, games, round_seed(seed, round_number))
            candidate.rounds += 1
            spent += games
        alive = _without_twins(alive, log)
        scored = sorted(((evaluate(c, game, bots, targets, rotate), c) for c in alive), key=lambda e: e[0]["miss"])
        best_worst = min(e["miss_worst"] for e, _ in scored)
        overlapping = [(e, c) for e, c in scored if e["miss_best"] <= best_worst]
        keep = overlapping[:max(1, math.ceil(len(alive) / 2))] if len(alive) > 1 else overlapping
        kept = {id(c) for _, c in keep}
        for _, c in scored:
            if id(c) not in kept:
                c.dropped_after = round_number + 1
        if log:
            log(f"round {round_number + 1}: {len(alive)} candidates x {games} games; {len(keep)} go on "
                f"(best: {scored[0][1].name}, miss {scored[0][0]['miss']:.3g})")
        alive = [c for _, c in keep]
        if len(alive) <= 1:
            break
        games *= 2
    final = [{**evaluate(c, game, bots, targets, rotate), "same_as": c.same_as} for c in candidates]
    # Survivors first (the longest measured), then by miss.
    final.sort(key=lambda e: (-e["rounds"], e["miss"], e["variant"]))
    return final


def ntbea_search(game: str, bots: Sequence[str], candidates: list[Candidate], targets: Sequence[Target],
                 seed: int, batch: int, budget: int, rotate: bool, workers: int | None,
                 progress: Callable[[int], None] | None = None, log: Callable[[str], None] | None = None,
                 play: Play | None = None, k_explore: float = 0.3) -> list[dict[str, Any]]:
    """NTBEA (``ntbea.py``) over the candidates' grid: each evaluation is ``batch`` games on fresh deals, its
    fitness ``1 / (1 + miss)``; four fifths of the budget search, the last fifth re-measures the recommended
    candidate (TAG's evalGames). Every candidate's games add up, so the report's intervals use all of them."""
    _check_targets(game, bots, candidates, targets, seed, rotate, play)
    play = play or simulator(game, bots, rotate, workers, progress)
    keys = list(candidates[0].variant)
    values = [list(dict.fromkeys(c.variant[key] for c in candidates)) for key in keys]
    at = {tuple(values[i].index(c.variant[key]) for i, key in enumerate(keys)): c for c in candidates}

    def fitness(point: tuple[int, ...], iteration: int) -> float:
        candidate = at[point]
        games = play(candidate, batch, round_seed(seed, iteration))
        candidate.results += games
        candidate.rounds += 1
        return 1 / (1 + evaluate(Candidate(candidate.variant, candidate.options, games), game, bots, targets,
                                 rotate)["miss"])

    iterations = max(1, int(0.8 * budget) // batch)
    search = NTBEA(tuple(len(v) for v in values), seed=seed, k_explore=k_explore)
    best, _, visited = search.search(fitness, iterations)
    chosen = at[best]
    remaining = budget - iterations * batch
    if remaining > 0:
        chosen.results += play(chosen, remaining, round_seed(seed, iterations))
    if log:
        log(f"NTBEA: {iterations} evaluations of {batch} games over {len(set(visited))} of {len(candidates)} "
            f"candidates; recommended {chosen.name}, re-measured on {remaining} more games")
    final = [{**evaluate(c, game, bots, targets, rotate), "same_as": None, "recommended": c is chosen}
             for c in candidates if c.results]
    final.sort(key=lambda e: (not e["recommended"], e["miss"], e["variant"]))
    return final


def _fingerprint(results: Sequence[GameResult]) -> tuple[Any, ...]:
    return tuple((r.winners, r.scores, r.decisions, repr(r.details)) for r in results)


def _without_twins(alive: list[Candidate], log: Callable[[str], None] | None) -> list[Candidate]:
    """Candidates whose games so far are the same games, deal for deal (the same seeds, and the varied value
    changed nothing in them), are one candidate: the first goes on for all, the others are marked ``same_as``."""
    first_of: dict[tuple[Any, ...], Candidate] = {}
    kept = []
    for candidate in alive:
        twin = first_of.setdefault(_fingerprint(candidate.results), candidate)
        if twin is candidate:
            kept.append(candidate)
            continue
        candidate.same_as = twin.name
        if log:
            log(f"{candidate.name} played the same {len(candidate.results)} games as {twin.name}: the varied value "
                "changes nothing here; it stops")
    return kept


def candidates_for(grid: Sequence[dict[str, str]], options_list: Sequence[dict[str, Any]]) -> list[Candidate]:
    return [Candidate(variant, options) for variant, options in zip(grid, options_list, strict=True)]


def build(game_name: str, bots: Sequence[str], base: dict[str, Any], seats_text: str, varies: Sequence[str],
          targets: Sequence[Target], evaluations: list[dict[str, Any]], seed: int, first_games: int,
          budget: int, points: int, search: str = "halving") -> dict[str, Any]:
    game = get_game(game_name)
    options = typed_options(game_name, base)
    command = (f"divedeck tune {game_name} --games {first_games} --budget {budget} --points {points} --seed {seed} "
               f"--seats {seats_text}" + "".join(f" --vary {v}" for v in varies)
               + "".join(f" --target {t.text()}" for t in targets)
               + (f" --search {search}" if search != "halving" else "")
               + "".join(f" -o {name}={option_text(value)}" for name, value in options.items()))
    recommended = next((e for e in evaluations if e.get("recommended")), None)
    if recommended is not None:  # NTBEA: its recommendation, or nothing, is the best
        best = recommended if recommended["meets"] else None
    else:
        best = next((e for e in evaluations if e["meets"] and not e.get("same_as")), None)
    # Candidates whose intervals could come as near the targets as the best one's worst case: not told apart.
    tied = [e["variant"] for e in evaluations if best is not None and e is not best and not e.get("same_as")
            and e["miss_best"] <= best["miss_worst"]]
    tuned = {
        "format": "divedeck-tune", "divedeck": __version__, "game": game_name, "title": game.title, "seed": seed,
        "seats": list(bots), "options": options, "options_text": options_text(options), "command": command,
        "targets": [{"name": t.name, "low": t.low, "high": t.high} for t in targets],
        "games_played": sum(e["games"] for e in evaluations), "candidates": evaluations,
        "search": search, "best": best["variant"] if best else None, "best_tied_with": tied,
        "identical": [[e["variant"], e["same_as"]] for e in evaluations if e.get("same_as")],
    }
    tuned["figures"] = [{
        "id": f"tune_{i}", "kind": "bars", "title": f"{t.text()}: the best candidates (95% intervals; the band: the "
                                                  "target)",
        "ylabel": evaluations[0]["quantities"][i]["unit"] if evaluations else "",
        "labels": [" ".join(value.partition("=")[2] for value in e["variant"].split(" ")) for e in evaluations[:6]],
        "xlabel": " ".join(v.partition("=")[0] for v in evaluations[0]["variant"].split(" ")) if evaluations else "",
        "series": [{"name": "", "values": [e["quantities"][i]["value"] for e in evaluations[:6]],
                    "low": [e["quantities"][i]["ci95_low"] for e in evaluations[:6]],
                    "high": [e["quantities"][i]["ci95_high"] for e in evaluations[:6]]}],
        "reference": None, "band": [t.low, t.high]} for i, t in enumerate(targets)]
    return tuned


def best_lines(tuned: dict[str, Any]) -> list[str]:
    """What the tuning may claim: a best candidate only when no other's intervals reach it; identical variants."""
    lines = []
    best, tied = tuned["best"], tuned["best_tied_with"]
    if best and not tied:
        lines.append(f"Best candidate meeting every target: {best}; no other candidate's intervals come as near.")
    elif best:
        lines.append(f"{best} meets every target with the smallest estimated miss, but it is not shown better than "
                     f"{', '.join(tied)}: their intervals overlap at these games (play more, or judge them alike).")
    for variant, twin in tuned["identical"]:
        lines.append(f"{variant} played exactly the same games as {twin}: the varied value changes nothing with "
                     "these bots and options.")
    return lines


def render_html(tuned: dict[str, Any]) -> str:
    targets = [Target(t["name"], t["low"], t["high"]) for t in tuned["targets"]]
    body = [f"<h1>{html.escape(tuned['title'])}: tuning toward "
            f"{html.escape(', '.join(t.text() for t in targets))}</h1>",
            f"<p>{len(tuned['candidates'])} candidates, {tuned['games_played']} games in all, seed {tuned['seed']}, "
            f"seats <code>{html.escape(','.join(tuned['seats']))}</code>, base options "
            f"<code>{html.escape(tuned['options_text'])}</code>.</p>"]
    for line in best_lines(tuned):
        body.append(f"<p class=\"note\">{html.escape(line)}</p>")
    if not tuned["best"]:
        body.append("<p class=\"note\">No candidate meets every target; the nearest come first.</p>")
    header = ["candidate", "games", *[t.text() for t in targets], "miss", "meets"]
    rows = []
    for e in tuned["candidates"]:
        verdict = "yes, surely" if e["surely_meets"] else "yes" if e["meets"] else "no"
        if e.get("same_as"):
            verdict = f"the same games as {e['same_as']}"
        elif e["dropped_after"]:
            verdict += f" (dropped after round {e['dropped_after']})"
        rows.append([e["variant"], e["games"], *[rp.quantity_text(q) for q in e["quantities"]],
                     f"{e['miss']:.3g}", verdict])
    body.append(rp.table(header, rows))
    how = ("NTBEA (N-Tuple Bandit Evolutionary Algorithm): each evaluation a batch of games on fresh deals, the "
           "next candidate chosen by the statistics of its parameters' values alone, in pairs and together; the "
           "recommended candidate comes first, re-measured on the last fifth of the budget." if
           tuned.get("search") == "ntbea" else
           "Successive halving: candidates whose intervals cannot reach the best one's are dropped, and at most "
           "half go on to each next round, with twice the games.")
    body.append("<p><small>A candidate meets a target when its estimate is inside it, surely when its whole 95% "
                f"interval is. {how}</small></p>")
    body.append("<div class=\"grid\">")
    for figure in tuned["figures"]:
        body.append(f"<figure><figcaption>{html.escape(figure['title'])}</figcaption>\n{rp.draw(figure)}</figure>")
    body.append("</div>")
    body.append("<h2>How to reproduce it</h2>")
    body.append(f"<p><code>{html.escape(tuned['command'])}</code> with divedeck {html.escape(tuned['divedeck'])} "
                "gives this page byte for byte.</p>")
    return rp.page(f"{tuned['title']} tuning", body)


def per_candidate_csv(tuned: dict[str, Any]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = [t["name"] for t in tuned["targets"]]
    writer.writerow(["candidate", "games", "rounds", *[f"{n}{s}" for n in names for s in ("", ".low", ".high")],
                     "miss", "meets", "surely_meets"])
    for e in tuned["candidates"]:
        writer.writerow([e["variant"], e["games"], e["rounds"],
                         *[v for q in e["quantities"] for v in (q["value"], q["ci95_low"], q["ci95_high"])],
                         e["miss"], option_text(e["meets"]), option_text(e["surely_meets"])])
    return buffer.getvalue()
