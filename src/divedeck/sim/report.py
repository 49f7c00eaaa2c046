"""``divedeck report``: one game's balance report for a designer, from many simulated games.

A report is plain data first (``build``: JSON-safe, every figure's numbers included), then drawn (``render_html``:
one self-contained HTML page, its figures inline SVG from matplotlib) and exported per game (``per_game_csv``).
What is measured beyond seats, length and scores is the game's own declaration (``Game.metrics``, each game's
``metrics.py``); this module names no game. The same seed, options, seats, data files and version give the same
bytes: nothing in a report reads a clock or a path of the machine.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import html
import io
import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.declaration import Metric, MetricKind, Metrics, Pace
from ..engine.game import Game
from ..engine.registry import get_game
from . import figures as fig
from . import flags
from .impact import card_kinds, impact_lines, verdict
from .ladder import ladder_lines
from .options import full_config, option_text, options_text, typed_options
from .runner import GameResult, SimulationSpec
from .sides import side_shares, sides_of
from .stats import distribution, mean_interval, summarize, wilson_interval, win_shares
from .symmetry import symmetry_lines

FORMAT = "divedeck-report"
DRAMA = ("lead_changes", "comeback", "attacks_on_leader", "attacks_on_leader.chance")


# -- data files -----------------------------------------------------------------------------------------------------


def sha256_text(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def data_files(game_name: str, options: dict[str, Any]) -> list[dict[str, str]]:
    """Every data file the games read, with its sha256: a file option's file (named as the person gave it, or by
    its file name for a file a sweep wrote), else the game's own default data."""
    game = get_game(game_name)
    config = game.make_config(options)
    files: list[dict[str, str]] = []
    for option in game.options():
        if not option.get("file"):
            continue
        path = getattr(config, option["name"])
        if path:
            files.append({"option": option["name"], "file": Path(path).name,
                          "sha256": sha256_text(Path(path).read_bytes())})
    if not files:
        package = type(game).__module__.rpartition(".")[0]
        folder = resources.files(package).joinpath("data")
        if folder.is_dir():
            for entry in sorted(folder.iterdir(), key=lambda e: e.name):
                if entry.is_file() and not entry.name.startswith((".", "_")):
                    files.append({"option": "(default)", "file": f"{package.rpartition('.')[2]}/data/{entry.name}",
                                  "sha256": sha256_text(entry.read_bytes())})
    return files


# -- the quantities a report, a sweep and a tuning run measure ---------------------------------------------------


@dataclass
class Quantity:
    """One number a report estimates: the mean of per-game ``values`` (with a normal interval), or a pooled rate
    ``successes / trials``. ``scale`` is how it is shown (100 for a share in %)."""

    name: str
    label: str
    unit: str = ""
    values: list[float] = field(default_factory=list)
    successes: float = 0.0
    trials: float = 0.0
    pooled: bool = False
    group: str = ""

    def estimate(self) -> tuple[float, float, float]:
        if self.pooled:
            p = self.successes / self.trials if self.trials else 0.0
            low, high = wilson_interval(self.successes, self.trials)
            return p, low, high
        return mean_interval(self.values)

    def to_json(self) -> dict[str, Any]:
        mean, low, high = self.estimate()
        out: dict[str, Any] = {"name": self.name, "label": self.label, "unit": self.unit, "value": mean,
                               "ci95_low": low, "ci95_high": high}
        if self.pooled:
            out.update(successes=self.successes, trials=self.trials)
        else:
            out["games"] = len(self.values)
        return out


def _share(name: str, label: str, per_game: Sequence[float], group: str) -> Quantity:
    """A share of games (a shared win counts its part): a pooled rate, whose Wilson interval stays within 0-100%."""
    return Quantity(name, label, "share", list(per_game), successes=sum(per_game), trials=len(per_game),
                    pooled=True, group=group)


def minutes_of(pace: Pace, result: GameResult) -> float:
    return pace.minutes(result.decisions, int(result.details.get("rounds", 0)),
                        float(result.details.get("seconds", 0.0)))


def _metrics_of(game: Game[Any, Any]) -> Metrics:
    return game.metrics or Metrics(measure=lambda state, outcome, events: {})


def quantities(spec: SimulationSpec, results: Sequence[GameResult]) -> dict[str, Quantity]:
    """Everything a sweep compares and a tuning run may aim at, by name (``--target NAME=...``)."""
    game = get_game(spec.game)
    metrics = _metrics_of(game)
    seats = len(spec.bots)
    out: dict[str, Quantity] = {}

    def add(q: Quantity) -> None:
        out[q.name] = q

    shares = [win_shares(r, seats) for r in results]
    sides = sides_of(spec.game, spec.options, seats)
    if metrics.cooperative:
        add(_share("win.team", "the team's win rate", [1.0 if r.winners else 0.0 for r in results], "win"))
    elif sides.teams:
        per_team = [side_shares(r, sides) for r in results]
        for team, name in enumerate(sides.names):
            add(_share(f"win.{_team_key(name)}", f"{name}'s win share", [s[team] for s in per_team], "win"))
        add(Quantity("first_team_advantage", "first team's advantage: its win share minus 1/teams", "points",
                     [100 * (s[0] - 1 / len(sides.names)) for s in per_team], group="advantage"))
    else:
        for seat in range(seats):
            add(_share(f"win.s{seat}", f"seat {seat}'s win share", [s[seat] for s in shares], "win"))
        if seats > 1:
            add(Quantity("first_seat_advantage", "first seat's advantage: its win share minus 1/seats",
                         "points", [100 * (s[0] - 1 / seats) for s in shares], group="advantage"))
    add(Quantity("decisions", "decisions per game", "decisions", [float(r.decisions) for r in results],
                 group="length"))
    for key, label in (("turns", "turns per game"), ("rounds", "rounds per game"),
                       ("seconds", "simulated seconds per game")):
        if results and all(key in r.details for r in results):
            add(Quantity(key, label, key, [float(r.details[key]) for r in results], group="length"))
    add(Quantity("minutes", "estimated minutes at a human pace", "min", [minutes_of(metrics.pace, r) for r in results],
                 group="length"))
    if metrics.cooperative:
        add(Quantity("score", "the team's score", "points", [r.scores[0] for r in results], group="score"))
    elif sides.teams:
        for members, name in zip(sides.seats, sides.names, strict=True):
            add(Quantity(f"score.{_team_key(name)}", f"{name}'s score", "points",
                         [r.scores[members[0]] for r in results], group="score"))
    else:
        for seat in range(seats):
            add(Quantity(f"score.s{seat}", f"seat {seat}'s score", "points", [r.scores[seat] for r in results],
                         group="score"))
    measured = [r.details.get("metrics", {}) for r in results]
    # A player's share of a game: their side's (a team's, in a team game: 1 for a win alone, not 1/2 per seat).
    side_of = {seat: side for side, members in enumerate(sides.seats) for seat in members}
    player_shares = [[shared[side_of[seat]] for seat in range(seats)]
                     for shared in (side_shares(r, sides) for r in results)]
    endings = sorted({str(m["ending"]) for m in measured if "ending" in m})
    for ending in endings:
        add(_share(f"ending={ending}", f"games ending {ending}",
                   [1.0 if m.get("ending") == ending else 0.0 for m in measured], "ending"))
    for metric in metrics.declared:
        for q in _metric_quantities(metric, measured, player_shares, seats):
            add(q)
    for q in _drama_quantities([m["drama"] for m in measured if "drama" in m]):
        add(q)
    for q in _play_quantities(card_kinds(spec.game, spec.options), measured, results, sides):
        add(q)
    return out


def _play_quantities(kinds: Sequence[str], measured: list[dict[str, Any]], results: Sequence[GameResult],
                     sides: Any) -> list[Quantity]:
    """Each declared kind of card or action (``Metrics.card_kinds``, counted from the actions): plays per player
    and game, a game where nobody played it counting 0; and the win share of the players who played it (their
    side's share: a team's, in a team game), over the players who did."""
    plays = [m.get("plays") for m in measured]
    if not kinds or not any(plays):
        return []
    out = []
    side_of = {seat: side for side, members in enumerate(sides.seats) for seat in members}
    for kind in kinds:
        out.append(Quantity(f"plays.{kind}", f"{kind}: plays per player and game", "plays",
                            [sum(seat.get(kind, 0) for seat in p) / len(p) for p in plays if p], group="plays"))
        users = [side_shares(r, sides)[side_of[seat]] for p, r in zip(plays, results, strict=True) if p
                 for seat, played in enumerate(p) if played.get(kind)]
        if users:
            out.append(Quantity(f"plays.{kind}.win", f"{kind}: win share of the players who played it", "share",
                                successes=sum(users), trials=len(users), pooled=True, group="plays.win"))
    return out


def _drama_quantities(drama: list[dict[str, Any]]) -> list[Quantity]:
    """Catch-up and drama (``drama.py``): lead changes per game; the side last at mid-game that wins (over the
    games with one side last); attacks that hit the side in the lead (over the attacks made with a lead to hit),
    beside the share of sides in the lead then (what attacks at random would hit)."""
    if not drama:
        return []
    out = [Quantity("lead_changes", "lead changes per game (the one side ahead changes)", "changes",
                    [float(d["lead_changes"]) for d in drama], group="drama")]
    comebacks = [d["last_at_half_won"] for d in drama if d["last_at_half_won"] is not None]
    if comebacks:
        out.append(_share("comeback", f"the side last at mid-game wins (over the {len(comebacks)} games with one "
                                      "side last)", comebacks, "drama"))
    attacks = sum(d["attacks"] for d in drama)
    if attacks:
        out.append(Quantity("attacks_on_leader", "attacks that hit the side in the lead", "share",
                            successes=sum(d["on_leader"] for d in drama), trials=attacks, pooled=True,
                            group="drama"))
        out.append(Quantity("attacks_on_leader.chance", "the share of sides in the lead when attacked (attacks at "
                            "random would hit the leader this often)", "share",
                            successes=sum(d["leaders_share"] for d in drama), trials=attacks, pooled=True,
                            group="drama"))
    return out


def quantity_names(spec: SimulationSpec, measured: dict[str, Quantity]) -> list[str]:
    """Every name a report lists for this game, and the patterns of those that depend on what happens (a card
    played, an ending reached): what ``--target`` accepts."""
    names = list(measured)
    patterns = ["ending=ENDING"]
    for metric in _metrics_of(get_game(spec.game)).declared:
        if metric.kind is MetricKind.CATEGORY:
            patterns.append(f"{metric.name}=LABEL")
        elif metric.kind in (MetricKind.GROUPED, MetricKind.GROUPED_RATE):
            patterns.append(f"{metric.name}.GROUP")
        elif metric.kind is MetricKind.PLAYED:
            patterns += [f"{metric.name}.KIND", f"{metric.name}.KIND.win"]
    if card_kinds(spec.game, spec.options):
        patterns += ["plays.KIND", "plays.KIND.win"]
    return names + patterns


def quantity_named(spec: SimulationSpec, results: Sequence[GameResult], measured: dict[str, Quantity],
                   name: str) -> Quantity | None:
    """The quantity ``name``, also when its group, label or kind happened in none of these games: then each game
    counts 0 of it (an ending no game reached, a card nobody played). ``None``: the report has no such name, or
    it is a rate over events that never happened (nothing to measure)."""
    if name in measured:
        return measured[name]
    zeros = [0.0] * len(results)
    head, eq, _ = name.partition("=")
    kinds = {m.name: m.kind for m in _metrics_of(get_game(spec.game)).declared}
    if eq and (head == "ending" or kinds.get(head) is MetricKind.CATEGORY):
        return _share(name, f"games ending {name.partition('=')[2]}" if head == "ending" else name, zeros, head)
    parts = name.split(".", 1)
    kind = kinds.get(parts[0])
    if len(parts) == 2 and "." not in parts[1] and kind in (MetricKind.GROUPED, MetricKind.PLAYED):
        return Quantity(name, name, values=zeros, group=parts[0])
    if len(parts) == 2 and parts[0] == "plays" and parts[1] in card_kinds(spec.game, spec.options):
        return Quantity(name, f"{parts[1]}: plays per player and game", "plays", values=zeros, group="plays")
    return None


def _metric_quantities(metric: Metric, measured: list[dict[str, Any]], shares: list[list[float]],
                       seats: int) -> list[Quantity]:
    values = [m.get(metric.name) for m in measured]
    kind, name, label, unit = metric.kind, metric.name, metric.label, metric.unit
    if kind is MetricKind.NUMBER and unit == "share":  # a share per game (0 or 1, or 1/k): a pooled rate
        return [_share(name, label, [float(v) for v in values if v is not None], name)]
    if kind is MetricKind.NUMBER:
        return [Quantity(name, label, unit, [float(v) for v in values if v is not None], group=name)]
    if kind is MetricKind.PER_SEAT:
        return [Quantity(f"{name}.s{seat}", f"{label}: seat {seat}", unit,
                         [float(v[seat]) for v in values if v is not None], group=name) for seat in range(seats)]
    if kind is MetricKind.CATEGORY:
        labels = sorted({str(v) for v in values if v is not None})
        return [_share(f"{name}={lab}", f"{label}: {lab}",
                       [1.0 if str(v) == lab else 0.0 for v in values if v is not None], name) for lab in labels]
    if kind is MetricKind.GROUPED:  # per game: a game without the group had none of it (0), not no game
        groups = _sorted_groups({g for v in values if v for g in v})
        return [Quantity(f"{name}.{g}", f"{label}: {g}, per game", unit,
                         [float(v.get(g, 0)) if v else 0.0 for v in values if v is not None], group=name)
                for g in groups]
    if kind is MetricKind.GROUPED_RATE:
        groups = _sorted_groups({g for v in values if v for g in v})
        return [Quantity(f"{name}.{g}", f"{label}: {g}", "share",
                         successes=sum(v[g][0] for v in values if v and g in v),
                         trials=sum(v[g][1] for v in values if v and g in v), pooled=True, group=name)
                for g in groups]
    if kind is MetricKind.PLAYED:
        kinds = sorted({k for v in values if v for per_seat in v for k in per_seat})
        out = []
        for k in kinds:
            out.append(Quantity(f"{name}.{k}", f"{k}: {unit or 'uses'} per player and game", unit,
                                [sum(per_seat.get(k, 0) for per_seat in v) / len(v) for v in values if v],
                                group=name))
            users = [(share[seat]) for v, share in zip(values, shares, strict=True) if v
                     for seat, per_seat in enumerate(v) if per_seat.get(k)]
            out.append(Quantity(f"{name}.{k}.win", f"{k}: win share of the players who used it", "share",
                                successes=sum(users), trials=len(users), pooled=True, group=f"{name}.win"))
        return out
    return []


def _team_key(name: str) -> str:
    """``team_A`` for ``team A``: a quantity's name has no spaces."""
    return name.replace(" ", "_")


def _sorted_groups(groups: set[str]) -> list[str]:
    return sorted(groups, key=lambda g: (0, float(g), g) if _is_number(g) else (1, 0.0, g))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# -- the report's data -----------------------------------------------------------------------------------------------


def histogram(values: Sequence[float], bins: int = 30) -> dict[str, Any]:
    """Counts of ``values`` in bins: one per whole number for whole numbers over a short range, else ``bins``."""
    if not values:
        return {"edges": [], "counts": []}
    scale = _lattice(values)
    if scale > 1:  # values on a grid of 1/scale (the mean of four anchors at 5 ft steps: 1.25 ft): its own bins
        scaled = histogram([round(v * scale) for v in values], bins)
        return {**scaled, "edges": [edge / scale for edge in scaled["edges"]]}
    low, high = min(values), max(values)
    whole = all(float(v).is_integer() for v in values)
    step = math.gcd(*{int(v - low) for v in values}) or 1 if whole else 1
    if whole and (high - low) / step <= 80:
        edges = [low - step / 2 + i * step for i in range(int((high - low) / step) + 2)]
    elif whole:  # counts: bins of a whole number of values each, so that no bin holds more values than another
        width = float(math.ceil((high - low + 1) / bins))
        edges = [low - 0.5 + i * width for i in range(math.ceil((high - low + 1) / width) + 1)]
    else:
        width = (high - low) / bins if high > low else 1.0
        edges = [low + i * width for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    span = edges[-1] - edges[0]
    for v in values:
        index = min(len(counts) - 1, int((v - edges[0]) / span * len(counts))) if span else 0
        counts[index] += 1
    return {"edges": edges, "counts": counts, "discrete": whole}


def _lattice(values: Sequence[float], largest: int = 12) -> int:
    """The smallest ``k`` up to ``largest`` that makes every value a whole number times ``1/k`` (1: whole numbers,
    or no such ``k``): a mean over a few seats of whole numbers lies on such a grid, and bins that ignore it draw
    spikes where two grid points share a bin."""
    for k in range(1, largest + 1):
        if all(abs(v * k - round(v * k)) < 1e-9 for v in values):
            return k
    return 1


def build(spec: SimulationSpec, results: Sequence[GameResult], given_options: dict[str, Any],
          files: list[dict[str, str]] | None = None, seats_text: str | None = None,
          symmetry: dict[str, Any] | None = None, ladder: dict[str, Any] | None = None,
          impact: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole report as JSON-safe data: how to rerun it, its red flags and headline numbers, the summary
    tables, the symmetry check (``symmetry.py``), the skill ladder (``ladder.py``) and the card impact
    (``impact.py``) when they were run, and every figure's numbers."""
    game = get_game(spec.game)
    metrics = _metrics_of(game)
    summary = summarize(spec, results)
    options = typed_options(spec.game, given_options)
    measured = quantities(spec, results)
    seats = len(spec.bots)
    command = (f"divedeck report {spec.game} --games {len(results)} --seed {spec.seed} "
               f"--seats {seats_text or ','.join(spec.bots)}" + (" --rotate" if spec.rotate else "")
               + "".join(f" -o {name}={option_text(value)}" for name, value in options.items()))
    report: dict[str, Any] = {
        "format": FORMAT,
        "divedeck": __version__,
        "game": spec.game,
        "title": game.title,
        "games": len(results),
        "seed": spec.seed,
        "seats": list(spec.bots),
        "rotate": spec.rotate,
        "options": options,
        "options_text": options_text(options),
        "config": full_config(spec.game, given_options),
        "data_files": files if files is not None else data_files(spec.game, given_options),
        "command": command,
        "pace": dataclasses.asdict(metrics.pace),
        "summary": summary,
        "quantities": [q.to_json() for q in measured.values()],
        "notes": list(summary["notes"]) + list(metrics.notes),
    }
    if symmetry is not None:
        report["command"] += f" --symmetry {symmetry['asked']}"
        report["symmetry"] = symmetry
    if ladder is not None:
        report["command"] += (f" --ladder {ladder['games_per_pair']} --ladder-levels {','.join(ladder['levels'])}")
        report["ladder"] = ladder
    if impact is not None:
        report["command"] += f" --impact {impact['deals']}"
        report["impact"] = impact
    report["red_flags"] = (flags.stall_flags(metrics, results, measured["minutes"].values)
                           + flags.win_flags(spec, summary, metrics.cooperative) + flags.symmetry_flags(symmetry)
                           + flags.ladder_flags(ladder))
    report["headline"] = [list(pair) for pair in flags.headline(report)]
    report["figures"] = report_figures(spec, results, summary, measured, metrics, seats) + impact_figures(
        measured, impact)
    return report


def impact_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Per declared kind: its plays per player and game, the win share of those who played it, and its change
    when barred (``impact.py``) when that was measured; JSON-safe, in the game's order."""
    by_name = {q["name"]: q for q in report["quantities"]}
    measured = {row["kind"]: row for row in (report.get("impact") or {}).get("kinds", [])}
    kinds = [q["name"][len("plays."):] for q in report["quantities"] if q["name"].startswith("plays.")
             and not q["name"].endswith(".win")]
    kinds += [kind for kind in measured if kind not in kinds]
    return [{"kind": kind, "plays": by_name.get(f"plays.{kind}"), "win": by_name.get(f"plays.{kind}.win"),
             "barred": measured.get(kind)} for kind in kinds]


def impact_figures(measured: dict[str, Quantity], impact: dict[str, Any] | None) -> list[dict[str, Any]]:
    """How often each kind is played; and, when measured, the change in a barred side's win share."""
    plays = [q for q in measured.values() if q.group == "plays"]
    out: list[dict[str, Any]] = []
    if plays:
        out.append({"id": "plays", "kind": "bars", "title": "Cards and actions played, per player and game "
                    "(95% intervals)", "ylabel": "plays per player and game", "labels": [_short(q) for q in plays],
                    "series": [{"name": "", **_bars_from(plays)}], "reference": None})
    rows = (impact or {}).get("kinds", [])
    if rows:
        word = impact["word"] if impact else "seat"
        out.append({"id": "impact", "kind": "bars",
                    "title": f"The change in a {word}'s win share when barred from each (95% intervals; same deals "
                             "unbarred)", "ylabel": "change (points)", "labels": [row["kind"] for row in rows],
                    "series": [{"name": "", "values": [row["change"] for row in rows],
                                "low": [row["ci95_low"] for row in rows],
                                "high": [row["ci95_high"] for row in rows]}], "reference": 0.0})
    return out


def _bars_from(quantities_: Sequence[Quantity], scale: float = 1.0) -> dict[str, Any]:
    values, lows, highs = [], [], []
    for q in quantities_:
        mean, low, high = q.estimate()
        values.append(mean * scale)
        lows.append(low * scale)
        highs.append(high * scale)
    return {"values": values, "low": lows, "high": highs}


_GROUPS = {"win": "win share by seat", "advantage": "the first seat's advantage", "length": "game length",
           "score": "score by seat", "ending": "how games end",
           "plays": "cards and actions played, per player and game",
           "plays.win": "the win share of the players who played each card or action"}


def group_label(game_name: str, group: str) -> str:
    """Words for a group of quantities: the game's metric label, or the report's own."""
    if group in _GROUPS:
        return _GROUPS[group]
    metrics = get_game(game_name).metrics
    name, _, rest = group.partition(".")
    for metric in metrics.declared if metrics else ():
        if metric.name == name:
            return "the win share of the players who used each" if rest == "win" else metric.label
    return group


def short_name(name: str) -> str:
    """A quantity's name within its group: ``seat 0`` for ``anchor.s0``, ``panic`` for ``played.panic``."""
    parts = name.split(".")
    if len(parts) > 2 and parts[-1] == "win":
        return parts[-2]
    last = parts[-1]
    if last[:1] == "s" and last[1:].isdigit():
        return f"seat {last[1:]}"
    return last.rpartition("=")[2] if ("." in name or "=" in name) else name


def _short(q: Quantity) -> str:
    return short_name(q.name)


def report_figures(spec: SimulationSpec, results: Sequence[GameResult], summary: dict[str, Any],
                   measured: dict[str, Quantity], metrics: Metrics, seats: int) -> list[dict[str, Any]]:
    figures: list[dict[str, Any]] = []
    teams = summary.get("teams")
    rows = teams["rows"] if teams else summary["seats"]
    figures.append({
        "id": "win_by_seat", "kind": "bars",
        "title": "The team's win rate" if metrics.cooperative else
        f"Win share by {'team' if teams else 'seat'} (95% intervals; the line: an equal share)",
        "ylabel": "win rate (%)" if metrics.cooperative else "win share (%)",
        "labels": [row["side"] for row in rows] if teams else
        [str(row["seat"]) if row["seat"] != "team" else "team" for row in rows],
        "series": [{"name": "", "values": [100 * row["win_rate"] for row in rows],
                    "low": [100 * row["ci95_low"] for row in rows], "high": [100 * row["ci95_high"] for row in rows]}],
        "reference": None if metrics.cooperative else 100 / len(rows),
    })
    if "bots_summary" in summary:
        bots = summary["bots_summary"]
        figures.append({
            "id": "win_by_bot", "kind": "bars", "title": "Win share by bot, seats rotated (95% intervals)",
            "ylabel": "win share (%)", "labels": [row["bot"] for row in bots],
            "series": [{"name": "", "values": [100 * row["win_rate"] for row in bots],
                        "low": [100 * row["ci95_low"] for row in bots],
                        "high": [100 * row["ci95_high"] for row in bots]}],
            "reference": 100 / seats,
        })
    length_keys = [key for key in ("decisions", "turns", "rounds", "seconds", "minutes") if key in measured]
    figures.append({"id": "length", "kind": "histograms", "title": "Game length",
                    "panels": [{"title": measured[key].label, "series": [
                        {"name": "", "hist": histogram(measured[key].values)}]} for key in length_keys]})
    if metrics.cooperative:
        score_series = [{"name": "team", "hist": histogram(measured["score"].values)}]
    elif teams:
        score_series = [{"name": row["side"], "hist": histogram(measured[f"score.{_team_key(row['side'])}"].values)}
                        for row in teams["rows"]]
    else:
        score_series = [{"name": f"seat {seat}", "hist": histogram(measured[f"score.s{seat}"].values)}
                        for seat in range(seats)]
    figures.append({"id": "scores", "kind": "histograms", "title": "Score distribution",
                    "panels": [{"title": "score at the end of the game", "series": score_series}]})
    endings = [q for q in measured.values() if q.group == "ending"]
    if len(endings) > 1:
        figures.append({"id": "ending", "kind": "bars",
                        "title": "How games end: the rule that decided them (95% intervals)",
                        "ylabel": "games (%)", "labels": [_short(q) for q in endings],
                        "series": [{"name": "", **_bars_from(endings, 100)}], "reference": None})
    done: set[str] = set()
    for metric in metrics.declared:
        if metric.name in done:
            continue
        together = [m for m in metrics.declared if metric.figure and m.figure == metric.figure] or [metric]
        done.update(m.name for m in together)
        figures.extend(_metric_figures(together, measured, results, len(rows)))
    return figures


def _metric_figures(together: list[Metric], measured: dict[str, Quantity],
                    results: Sequence[GameResult], sides: int) -> list[dict[str, Any]]:
    first = together[0]
    kind = first.kind
    if kind is MetricKind.NUMBER:
        q = measured.get(first.name)
        if q is None or not q.values:
            return []
        if q.pooled:  # a share: one estimate with its interval, not a histogram of 0s and 1s
            mean, low, high = q.estimate()
            seats = len(results[0].scores) if results else 1
            equal = 100 / seats if first.equal_share else None  # a side's win share: beside an equal share
            return [{"id": first.name, "kind": "bars", "title": f"{first.label} (95% interval"
                     + (f"; the line: an equal share, {equal:.3g}%)" if equal is not None else ")"), "ylabel": "%",
                     "labels": [short_name(first.name)], "series": [{"name": "", "values": [100 * mean],
                                                                     "low": [100 * low], "high": [100 * high]}],
                     "reference": equal}]
        out: list[dict[str, Any]] = [{"id": first.name, "kind": "histograms",
                "title": f"{first.label}: mean {quantity_text(q.to_json())}",
                "panels": [{"title": first.unit, "series": [{"name": "", "hist": histogram(q.values)}]}]}]
        if first.win_by:
            out.append(_win_by(first, q.values, results))
        return out
    if kind in (MetricKind.PER_SEAT, MetricKind.CATEGORY, MetricKind.GROUPED, MetricKind.GROUPED_RATE):
        series = []
        labels: list[str] = []
        for metric in together:
            qs = [q for q in measured.values() if q.group == metric.name]
            labels = labels or [_short(q) for q in qs]
            scale = 100 if (qs and qs[0].unit == "share") else 1
            by_label = {_short(q): q for q in qs}
            chosen = [by_label[lab] for lab in labels if lab in by_label]
            series.append({"name": metric.label, **_bars_from(chosen, scale)})
        if not labels:
            return []
        share = kind in (MetricKind.CATEGORY, MetricKind.GROUPED_RATE)
        title = first.label if len(together) == 1 else " vs ".join(m.label for m in together)
        return [{"id": first.name, "kind": "bars", "title": f"{title} (95% intervals)",
                 "ylabel": "%" if share else first.unit, "labels": labels,
                 "series": series if len(together) > 1 else [{**series[0], "name": ""}], "reference": None}]
    if kind is MetricKind.PLAYED:
        uses = [q for q in measured.values() if q.group == first.name]
        wins = [q for q in measured.values() if q.group == f"{first.name}.win"]
        if not uses:
            return []
        seats = len(results[0].scores) if results else 1
        players = seats * len(results)
        # A kind nearly every player used tells nothing: its users' win share is everyone's (1/seats).
        everyone = [q for q in wins if q.trials >= 0.98 * players]
        told = [q for q in wins if q not in everyone]
        out = [{
            "id": f"{first.name}_uses", "kind": "bars", "title": f"{first.label}: how often (95% intervals)",
            "ylabel": f"{first.unit} per player and game", "labels": [_short(q) for q in uses],
            "series": [{"name": "", **_bars_from(uses)}], "reference": None}]
        left_out = (f"; not drawn: {', '.join(q.name.split('.')[1] for q in everyone)}, used by nearly every "
                    "player, so their users' share is everyone's") if everyone else ""
        if told:
            out.append({"id": f"{first.name}_wins", "kind": "bars",
                        "title": "Win share of the players who used each (their team's in a team game; 95% "
                                 f"intervals; the line: an equal share){left_out}",
                        "ylabel": "win share (%)", "labels": [q.name.split(".")[1] for q in told],
                        "series": [{"name": "", **_bars_from(told, 100)}], "reference": 100 / sides})
        return out
    return []


def _win_by(metric: Metric, values: list[float], results: Sequence[GameResult]) -> dict[str, Any]:
    """The win rate of the games in each quartile of ``values`` (one value per game, in game order)."""
    ordered = sorted(values)
    cuts = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else []
    labels, rates, lows, highs = [], [], [], []
    bounds = [-math.inf, *cuts, math.inf]
    for i in range(len(bounds) - 1):
        low, high = bounds[i], bounds[i + 1]
        inside = [r for v, r in zip(values, results, strict=True) if low < v <= high or (i == 0 and v == low)]
        if not inside:
            continue
        won = sum(1 for r in inside if r.winners)
        lo, hi = wilson_interval(won, len(inside))
        shown_low = ordered[0] if low == -math.inf else low
        shown_high = ordered[-1] if high == math.inf else high
        labels.append(f"{shown_low:.3g}-{shown_high:.3g}")
        rates.append(100 * won / len(inside))
        lows.append(100 * lo)
        highs.append(100 * hi)
    return {"id": f"{metric.name}_win", "kind": "bars", "title": f"Win rate by {metric.label} (quartiles)",
            "ylabel": "games won (%)", "labels": labels,
            "series": [{"name": "", "values": rates, "low": lows, "high": highs}], "reference": None}


# -- drawing ---------------------------------------------------------------------------------------------------------


def draw(figure_data: dict[str, Any]) -> str:
    """One figure's SVG from its data."""
    kind = figure_data["kind"]

    def make() -> Any:
        if kind == "bars":
            series = figure_data["series"]
            width = min(7.5, max(5.5 if len(series) > 1 else 4.0, 0.55 * len(figure_data["labels"]) * len(series) + 2))
            figure, (ax,) = fig.new_figure(height=2.8, width=width)
            step = 0.8 / len(series)
            dots = figure_data.get("band") is None and fig.far_from_zero(series)
            for i, one in enumerate(series):
                offset = (i - (len(series) - 1) / 2) * step
                if dots and one.get("low") is not None:
                    fig.points(ax, figure_data["labels"], one["values"], one["low"], one["high"],
                               fig.COLOURS[i % len(fig.COLOURS)], offset=offset, label=one["name"] or None)
                else:
                    fig.bars(ax, figure_data["labels"], one["values"], one.get("low"), one.get("high"),
                             fig.COLOURS[i % len(fig.COLOURS)], offset=offset, width=step * 0.95,
                             label=one["name"] or None)
            band = figure_data.get("band")
            if band is not None:
                if band[1] > band[0]:
                    ax.axhspan(band[0], band[1], color=fig.COLOURS[2], alpha=0.15, linewidth=0)
                else:
                    ax.axhline(band[0], color=fig.COLOURS[2], linewidth=1.5)
            if figure_data.get("reference") is not None:
                ax.axhline(figure_data["reference"], color="#555555", linestyle="--", linewidth=1)
            ax.set_ylabel(figure_data.get("ylabel", ""))
            if figure_data.get("xlabel"):
                ax.set_xlabel(figure_data["xlabel"])
            labels = figure_data["labels"]
            if labels and len(labels) * max(map(len, labels)) > 48:
                fig.slanted(ax)
            if any(one["name"] for one in series):
                figure.legend(loc="outside upper center", ncols=min(2, len(series)), frameon=False, fontsize=9.5)
            return figure
        if kind == "curves":
            return _curves(figure_data)
        panels = figure_data["panels"]
        columns = min(2, len(panels))
        rows = math.ceil(len(panels) / columns)
        figure, axes = fig.new_figure(columns, rows, height=2.3, width=fig.WIDTH if columns > 1 else 4.8)
        for ax, panel in zip(axes, panels, strict=False):
            many = len(panel["series"]) > 1
            for i, one in enumerate(panel["series"]):
                hist = one["hist"]
                if hist["counts"] and hist.get("discrete") and not many:  # whole numbers: separate bars
                    edges = hist["edges"]
                    width = edges[1] - edges[0]
                    ax.bar([e + width / 2 for e in edges[:-1]], hist["counts"], width=width * (0.8 if width == 1 else
                                                                                                 0.95),
                           color=fig.COLOURS[0], alpha=0.85)
                elif hist["counts"]:
                    ax.stairs(hist["counts"], hist["edges"], fill=not many, color=fig.COLOURS[i % 8],
                              alpha=0.85, label=one["name"] or None, linewidth=1.4)
            title = panel["title"]
            hists = [one["hist"] for one in panel["series"] if one["hist"]["counts"]]
            if hists and all(len(hist["counts"]) == 1 for hist in hists):  # one value in every game: say so
                low, high = hists[0]["edges"]
                value = (low + high) / 2
                title = f"{title}: {value:g} in every game"
                ax.set_xlim(value - 2 * (high - low), value + 2 * (high - low))  # not one bar filling the axis
            ax.set_title(title, fontsize=9)
            ax.set_ylabel("games")
            if many:
                ax.legend(frameon=False, fontsize=8)
        for ax in axes[len(panels):]:
            ax.set_visible(False)
        return figure

    return fig.styled(make)


def _curves(figure_data: dict[str, Any]) -> Any:
    """Each series against the swept value, its 95% interval as a band: a sweep read as a curve."""
    figure, (ax,) = fig.new_figure(height=2.8, width=5.5)
    x = figure_data["x"]
    for i, one in enumerate(figure_data["series"]):
        colour = fig.COLOURS[i % len(fig.COLOURS)]
        ax.plot(x, one["values"], marker="o", color=colour, label=one["name"] or None, linewidth=1.5,
                markersize=4)
        ax.fill_between(x, one["low"], one["high"], color=colour, alpha=0.18, linewidth=0)
    if figure_data.get("reference") is not None:
        ax.axhline(figure_data["reference"], color="#555555", linestyle="--", linewidth=1)
    if len(x) <= 12:
        ax.set_xticks(x, [f"{value:g}" for value in x])
    ax.set_xlabel(figure_data["xlabel"])
    ax.set_ylabel(figure_data.get("ylabel", ""))
    if any(one["name"] for one in figure_data["series"]):
        figure.legend(loc="outside upper center", ncols=min(4, len(figure_data["series"])), frameon=False,
                      fontsize=9.5)
    return figure


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;
color:#1d2430;line-height:1.45}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #d5dbe3}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{padding:.25em .7em;text-align:right;
border-bottom:1px solid #e6e9ee}th{background:#f1f4f8}td:first-child,th:first-child{text-align:left}
figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:.3em}svg{max-width:100%;height:auto}
.note{background:#fff7e0;border-left:4px solid #e0a800;padding:.4em .8em;margin:.5em 0}
code{background:#f1f4f8;padding:0 .3em}.sig{color:#b3261e;font-weight:700}.grid{display:flex;flex-wrap:wrap;gap:1em}
.grid figure{flex:1 1 45%;min-width:300px}small{color:#5b6573}
.flags{background:#fdecea;border-left:4px solid #b3261e;padding:.2em 1em;margin:1em 0}.flags h2{margin-top:.4em;
border:0;color:#b3261e}.ok{background:#e8f5e9;border-left:4px solid #2e7d32;padding:.4em .8em}
"""


def page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    lines = ["<table>", f"<tr>{head}</tr>"]
    for row in rows:
        lines.append("<tr>" + "".join(f"<td>{cell if isinstance(cell, Raw) else html.escape(str(cell))}</td>"
                                      for cell in row) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


class Raw(str):
    """Table cell text that is HTML already."""


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _num(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"


def quantity_text(q: dict[str, Any]) -> str:
    shown = _pct if q["unit"] == "share" else _num
    between = " to " if q["ci95_low"] < 0 else "-"
    return f"{shown(q['value'])} ({shown(q['ci95_low'])}{between}{shown(q['ci95_high'])})"


def _file_option(option: str) -> str:
    return "the game's default data" if option == "(default)" else option


def reproduce_section(report: dict[str, Any]) -> list[str]:
    files = report["data_files"]
    return [
        "<h2>How to reproduce it</h2>",
        f"<p><code>{html.escape(report['command'])}</code> with divedeck {html.escape(report['divedeck'])} gives "
        "this page byte for byte.</p>",
        table(["option", "value"], [[name, option_text(value)] for name, value in report["config"].items()]),
        table(["data file (option)", "sha256"], [[f"{f['file']} ({_file_option(f['option'])})", f["sha256"]]
                                                  for f in files])
        if files else "",
        f"<p><small>Pace for the minutes: {report['pace']['decision']:g} s a decision, "
        f"{report['pace']['round']:g} s a round, {report['pace']['game']:g} s to set up, plus the simulated time "
        "of a real-time game.</small></p>",
    ]


def render_html(report: dict[str, Any]) -> str:
    """The report as one self-contained page: inline CSS and SVG, nothing fetched."""
    summary = report["summary"]
    svgs = {f["id"]: draw(f) for f in report["figures"]}
    body = [f"<h1>{html.escape(report['title'])}: balance report</h1>",
            f"<p>{report['games']} games, seed {report['seed']}, seats <code>{html.escape(','.join(report['seats']))}"
            f"</code>{' (rotated one seat a game)' if report['rotate'] else ''}, options "
            f"<code>{html.escape(report['options_text'])}</code>.</p>"]
    body += flags_section(report)
    body += [f"<p class=\"note\">{html.escape(note)}</p>" for note in report["notes"]]
    body.append("<h2>Who wins</h2>")
    teams = summary.get("teams")
    if teams:
        body += _team_section(report, teams)
    rows = []
    for row in summary["seats"]:
        rows.append([row["seat"], row.get("bot", "rotating"),
                     f"{_pct(row['win_rate'])} ({_pct(row['ci95_low'])}-{_pct(row['ci95_high'])})",
                     f"{row['score']['mean']:.2f} ± {row['score']['sd']:.2f}"])
    if not teams:
        body.append(table(["seat", "bot", "win share (95% CI)", "score mean ± sd"], rows))
    test = summary.get("seat_test")
    if test:
        verdict = "a seat advantage" if test["p_value"] < 0.05 else "no seat advantage shown"
        body.append(f"<p>Seat advantage: {html.escape(test['test'])} over the {test['games']} games with one "
                    f"winner: p = {test['p_value']:.3g} ({verdict} at the 5% level).</p>")
        advantage = next((q for q in report["quantities"] if q["name"] == "first_seat_advantage"), None)
        if advantage:
            body.append(f"<p>The first seat's advantage (its win share minus 1/seats): "
                        f"{advantage['value']:+.2f} points ({advantage['ci95_low']:+.2f} to "
                        f"{advantage['ci95_high']:+.2f}).</p>")
    if "bots_summary" in summary:
        balanced = summary.get("seat_balanced", True)
        body.append(f"<h3>Per bot ({'seat-balanced' if balanced else 'rotated, not seat-balanced'})</h3>")
        body.append(table(["bot", "seats played", "win share (95% CI)"],
                          [[r["bot"], r["games"], f"{_pct(r['win_rate'])} ({_pct(r['ci95_low'])}-"
                                                   f"{_pct(r['ci95_high'])})"] for r in summary["bots_summary"]]))
    body.append(_figure(report, svgs, "win_by_seat"))
    if "symmetry" in report:
        body.append("<h3>Symmetry check</h3>")
        body += [f"<p>{html.escape(line)}</p>" for line in symmetry_lines(report["symmetry"])]
    if "win_by_bot" in svgs:
        body.append(_figure(report, svgs, "win_by_bot"))
    if "ladder" in report:
        body += ladder_section(report["ladder"])
    drama = [q for q in report["quantities"] if q["name"] in DRAMA]
    if drama:
        body.append("<h2>Catch-up and drama</h2>")
        body.append(table(["", "value (95% CI)"], [[q["label"], quantity_text(q)] for q in drama]))
        sides = report["summary"].get("teams", {}).get("rows") or report["summary"]["seats"]
        body.append(f"<p><small>The standings each game declares, followed action by action; a side is a seat, or "
                    f"a team. The side last at mid-game wins an equal share if catching up is as likely as not: "
                    f"{_pct(1 / len(sides))}.</small></p>")
    body += impact_section(report, svgs)
    body.append("<h2>How long a game lasts</h2>")
    length_rows = [[q["label"], quantity_text(q)] for q in report["quantities"]
                   if q["name"] in ("decisions", "turns", "rounds", "seconds", "minutes")]
    body.append(table(["per game", "mean (95% CI)"], length_rows))
    body.append(_figure(report, svgs, "length"))
    body.append("<h2>Scores</h2>")
    body.append(_figure(report, svgs, "scores"))
    body.append("<h2>What happens in a game</h2>")
    skip = {"win_by_seat", "win_by_bot", "length", "scores", "plays", "impact"}
    for f in report["figures"]:
        if f["id"] not in skip:
            body.append(_figure(report, svgs, f["id"]))
    body.append("<h3>Every measured quantity</h3>")
    body.append(table(["name (for --target)", "what", "value (95% CI)"],
                      [[q["name"], q["label"], quantity_text(q)] for q in report["quantities"]]))
    body += reproduce_section(report)
    return page(f"{report['title']} balance report", body)


def win_text(report: dict[str, Any], row: dict[str, Any]) -> str:
    """The win share of a kind's players, unless nobody played it or nearly everyone did (then it is everyone's
    share, and says nothing of the card)."""
    win = row["win"]
    if not win:
        return "nobody played it"
    if win["trials"] >= 0.98 * report["games"] * len(report["seats"]):
        return "(nearly every player played it)"
    return quantity_text(win)


def impact_section(report: dict[str, Any], svgs: dict[str, str]) -> list[str]:
    """Card and action impact: per kind the game declares, how often it is played, the win share of those who
    play it, and (with ``--impact``) the change in a side's win share when it may not play it."""
    rows = impact_rows(report)
    impact = report.get("impact")
    if not rows and not impact:
        return []
    out = ["<h2>Card and action impact</h2>"]
    measured = bool(impact and impact.get("applies"))
    if impact:
        out += [f"<p>{html.escape(line)}</p>" for line in impact_lines(impact)]
    word = impact["word"] if measured and impact else "seat"
    header = ["kind", "plays per player and game", "win share of those who played it"]
    if measured:
        header += [f"change when a {word} is barred (points)", f"the barred {word}'s win share (unbarred)",
                   "barred games that changed", "reading"]
    table_rows = []
    for row in rows:
        cells: list[Any] = [row["kind"], quantity_text(row["plays"]) if row["plays"] else "0", win_text(report, row)]
        if measured:
            barred = row["barred"]
            cells += ([f"{barred['change']:+.1f} ({barred['ci95_low']:+.1f} to {barred['ci95_high']:+.1f})",
                       f"{_pct(barred['barred_share'])} ({_pct(barred['unbarred_share'])})",
                       _pct(barred["changed_games"]), verdict(barred, word)] if barred else ["", "", "", ""])
        table_rows.append(cells)
    out.append(table(header, table_rows))
    sides = report["summary"].get("teams", {}).get("rows") or report["summary"]["seats"]
    out.append(f"<p><small>A player's win share is their {'team' if report['summary'].get('teams') else 'seat'}'s "
               f"(an equal share is {_pct(1 / len(sides))}); players who play a card more are often those dealt "
               "it, or already ahead, so read it beside the change when barred, which compares the same deals. "
               + ("" if measured else "<code>--impact DEALS</code> measures that change: each deal played once "
                  "per kind and side with that side barred from the kind.") + "</small></p>")
    if "impact" in svgs:
        out.append(_figure(report, svgs, "impact"))
    if "plays" in svgs:
        out.append(_figure(report, svgs, "plays"))
    return out


def ladder_section(ladder: dict[str, Any]) -> list[str]:
    """The skill ladder: its matrix (the row level's win share against the column level) and its skill gap."""
    out = ["<h2>Skill ladder</h2>"]
    levels = ladder["levels"]
    if ladder["cooperative"]:
        out.append(table(["level in every seat", "the team's win rate (95% CI)"],
                         [[row["level"], _rate_cell(row)] for row in ladder["rows"]]))
    else:
        out.append(f"<p>Each cell: the win share of one {ladder['word']} of the row's level against the column's "
                   f"level everywhere else, the row's {ladder['word']} moved over every {ladder['word']} "
                   f"({ladder['games_per_pair']} games a cell; an equal share is {_pct(ladder['equal_share'])}).</p>")
        out.append(table(["level", *[f"against {level}" for level in levels]],
                         [[level, *[_rate_cell(cell) if cell else "" for cell in row]]
                          for level, row in zip(levels, ladder["matrix"], strict=True)]))
    out += [f"<p>{html.escape(line)}</p>" for line in ladder_lines(ladder)]
    return out


def _rate_cell(cell: dict[str, Any]) -> str:
    return f"{_pct(cell['share'])} ({_pct(cell['ci95_low'])}-{_pct(cell['ci95_high'])})"


def flags_section(report: dict[str, Any]) -> list[str]:
    """The red flags, first on the page, and the headline numbers."""
    out = []
    if report["red_flags"]:
        out.append("<section class=\"flags\"><h2>Red flags</h2><ul>"
                   + "".join(f"<li>{html.escape(flag)}</li>" for flag in report["red_flags"]) + "</ul></section>")
    else:
        out.append("<p class=\"ok\">No red flags: no stall or cap, no win rate near 0% or 100%, no seat or team "
                   "advantage beyond chance" + (", and the symmetry check passed." if "symmetry" in report else
                                                " (no symmetry check was run).") + "</p>")
    out.append("<h2>At a glance</h2>")
    out.append(table(["", "value (95% CI)"], report["headline"]))
    return out


def _team_section(report: dict[str, Any], teams: dict[str, Any]) -> list[str]:
    """A team game, per team: its seats, win share and score; the team-advantage test; the first team's edge."""
    scores = {q["name"]: q for q in report["quantities"] if q["name"].startswith("score.")}
    rows = []
    for row in teams["rows"]:
        score = scores.get(f"score.{row['side'].replace(' ', '_')}")
        rows.append([row["side"], " ".join(map(str, row["seats"])),
                     f"{_pct(row['win_rate'])} ({_pct(row['ci95_low'])}-{_pct(row['ci95_high'])})",
                     quantity_text(score) if score else ""])
    out = [table(["team", "seats", "win share (95% CI)", "score mean (95% CI)"], rows)]
    test = teams.get("test")
    if test:
        verdict = "a team advantage" if test["p_value"] < 0.05 else "no team advantage shown"
        first = teams["first_advantage"]
        out.append(f"<p>Team advantage: {html.escape(test['test'])} over the {test['games']} games one team won "
                   f"alone: p = {test['p_value']:.3g} ({verdict} at the 5% level). The first team's advantage (its "
                   f"win share minus 1/teams): {first['value']:+.2f} points ({first['ci95_low']:+.2f} to "
                   f"{first['ci95_high']:+.2f}).</p>")
    return out


def _figure(report: dict[str, Any], svgs: dict[str, str], figure_id: str) -> str:
    title = next(f["title"] for f in report["figures"] if f["id"] == figure_id)
    return f"<figure><figcaption>{html.escape(title)}</figcaption>\n{svgs[figure_id]}</figure>"


# -- per game --------------------------------------------------------------------------------------------------------


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            _flatten(f"{prefix}.{key}", value[key], out)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _flatten(f"{prefix}.s{index}" if not isinstance(item, dict) else f"{prefix}.s{index}", item, out)
    else:
        out[prefix] = value


def per_game_rows(spec: SimulationSpec, results: Sequence[GameResult]) -> tuple[list[str], list[dict[str, Any]]]:
    """One flat row per game: its index, seating, winners, scores, length and the game's metrics."""
    pace = _metrics_of(get_game(spec.game)).pace
    rows = []
    for r in results:
        row: dict[str, Any] = {"game": r.index, "seating": " ".join(r.seating),
                               "winners": " ".join(map(str, r.winners)), "decisions": r.decisions}
        for seat, score in enumerate(r.scores):
            row[f"score.s{seat}"] = score
        row["minutes"] = round(minutes_of(pace, r), 3)
        for key, value in r.details.items():
            _flatten(key, value, row)
        rows.append(row)
    header: list[str] = []
    seen: set[str] = set()
    for row in rows:
        for key in row:
            if key not in seen:
                seen.add(key)
                header.append(key)
    return header, rows


def per_game_csv(spec: SimulationSpec, results: Sequence[GameResult]) -> str:
    header, rows = per_game_rows(spec, results)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n", restval="")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: option_text(value) if isinstance(value, bool) else value for key, value in row.items()})
    return buffer.getvalue()


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, sort_keys=False, allow_nan=False) + "\n"


__all__ = ["build", "data_files", "distribution", "per_game_csv", "quantities", "render_html", "to_json"]
