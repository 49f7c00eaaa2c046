"""Balance of Hold Your Breath!'s deck: the numbers docs/games/hold-your-breath.md reports.

``divedeck simulate hold-your-breath`` gives win rates per seat and game length; this script runs the same
simulator (``divedeck.sim``, same seeds, same bots) and adds what that generic summary cannot know, read from each
game's outcome details: how deep the Descent goes, how often someone surfaces, and how games are won.

    uv run python benchmarks/hold_your_breath_balance.py                       # 2, 3 and 4 greedy bots
    uv run python benchmarks/hold_your_breath_balance.py --games 500 --players 2 --bots greedy,random
    uv run python benchmarks/hold_your_breath_balance.py --option cards=my-deck.toml --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

from divedeck.sim import SimulationSpec, simulate, summarize
from divedeck.sim.runner import GameResult


def balance(results: list[GameResult], players: int) -> dict[str, Any]:
    """Depth, surfacing and how-won figures over ``results`` (all games of one player count)."""
    games = len(results)
    anchors = [r.details["anchors"] for r in results]
    every_anchor = [depth for row in anchors for depth in row]
    deepest = [max(row) for row in anchors]
    surfaced_games = sum(1 for r in results if r.details["surfaced"])
    surfacings = sum(len(r.details["surfaced"]) for r in results)
    ways = {way: sum(1 for r in results if r.details["by"] == way) / games
            for way in ("deepest_surfaced", "surfaced", "distance")}
    shared = sum(1 for r in results if len(r.winners) > 1) / games
    return {
        "players": players,
        "games": games,
        "descent_depth_mean": statistics.fmean(every_anchor),
        "descent_depth_sd": statistics.pstdev(every_anchor),
        "deepest_dive_mean": statistics.fmean(deepest),
        "deepest_over_135": sum(1 for depth in deepest if depth > 135) / games,
        "never_dived": sum(1 for depth in every_anchor if depth == 0) / len(every_anchor),
        "someone_surfaced": surfaced_games / games,
        "surfacings_per_game": surfacings / games,
        "won_by": ways,
        "shared_victory": shared,
        "turns_mean": statistics.fmean(r.details["turns"] for r in results),
        "hindrances_left_mean": statistics.fmean(h for r in results for h in r.details["hindrances"]) if games else 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per player count (default 2000)")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated (default 2,3,4)")
    parser.add_argument("--bots", default="greedy", help="one bot name for every seat, or one per seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value (repeatable)")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    options: dict[str, Any] = dict(pair.split("=", 1) for pair in args.option)
    bots = args.bots.split(",")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        seating = tuple(bots * players)[:players] if len(bots) == 1 else tuple(bots)
        spec = SimulationSpec("hold-your-breath", seating, {**options, "num_players": players}, args.seed)
        results = simulate(spec, args.games, args.workers)
        summary = summarize(spec, results)
        row = balance(results, players)
        row["bots"] = list(seating)
        row["seat_win_rates"] = [
            {"seat": s["seat"], "win_rate": s["win_rate"], "ci95": [s["ci95_low"], s["ci95_high"]]}
            for s in summary["seats"]]
        rows.append(row)
        print_row(row)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as sink:
            json.dump({"options": options, "seed": args.seed, "rows": rows}, sink, indent=2)
    return 0


def print_row(row: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"\n{row['players']} players, {row['games']} games, bots {','.join(row['bots'])}\n")
    rates = "  ".join(f"seat {s['seat']} {s['win_rate']:.1%} ({s['ci95'][0]:.1%}-{s['ci95'][1]:.1%})"
                      for s in row["seat_win_rates"])
    out.write(f"  win rates        {rates}\n")
    out.write(f"  Descent depth    mean {row['descent_depth_mean']:.1f} ft (sd {row['descent_depth_sd']:.1f}); "
              f"deepest diver {row['deepest_dive_mean']:.1f} ft on average, over 135 ft in "
              f"{row['deepest_over_135']:.1%} of games; anchor 0 for {row['never_dived']:.1%} of players\n")
    out.write(f"  surfacing        someone surfaced in {row['someone_surfaced']:.1%} of games "
              f"({row['surfacings_per_game']:.2f} surfacings per game)\n")
    ways = row["won_by"]
    out.write(f"  won by           the deepest surfacing {ways['deepest_surfaced']:.1%}, another surfaced player "
              f"{ways['surfaced']:.1%}, total distance {ways['distance']:.1%} (shared {row['shared_victory']:.1%})\n")
    out.write(f"  length           {row['turns_mean']:.1f} turns; {row['hindrances_left_mean']:.2f} hindrances left "
              "per player at the end\n")


if __name__ == "__main__":
    raise SystemExit(main())
