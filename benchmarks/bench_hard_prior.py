"""``hard`` with the learned policy as its search prior against ``hard`` without, at the same time per move.

Two-player games, seat-swapped on the same deals: each deal is played twice, the prior side in seat 0 then in seat 1.
Both sides are ``levels.hard_bot`` (the game's rollout cutoff and evaluator), searching until ``--seconds`` with
their iteration budget lifted, so the prior's own cost (a network pass per node it is asked at) comes out of the
prior side's time. ``--depth`` limits the prior to that many actions below the root (0: the root only); the default
uses it at every depth. A shared win counts a half. The mean seconds and iterations per searched move of each side
are printed.

``--first-deal`` and ``--json`` (rewritten after every game; Ctrl-C keeps the finished games) let a run be cut
into chunks; ``--combine FILE...`` adds them up:

    uv run python benchmarks/bench_hard_prior.py --game hold-your-breath --seconds 0.25 --deals 50 --json p.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from divedeck.bots import levels
from divedeck.bots.ismcts import ISMCTSBot
from divedeck.engine.decision import decide
from divedeck.engine.registry import get_game
from divedeck.sim.stats import wilson_interval


class Side:
    """One ``hard`` bot and what its searches cost."""

    def __init__(self, bot: ISMCTSBot) -> None:
        self.bot = bot
        self.moves = 0
        self.seconds = 0.0
        self.iterations = 0

    def choose(self, game: Any, state: Any, seat: int) -> Any:
        start = time.perf_counter()
        action = decide(self.bot, game, state, seat)
        if self.bot.last.stopped != "forced":
            self.seconds += time.perf_counter() - start
            self.moves += 1
            self.iterations += self.bot.last.iterations
        return action


def row(args: argparse.Namespace, games: list[dict[str, Any]], sides: dict[str, dict[str, float]]) -> dict[str, Any]:
    score = sum(g["prior_score"] for g in games)
    low, high = wilson_interval(score, len(games)) if games else (0.0, 1.0)
    return {"game": args.game, "seconds_per_move": args.seconds, "depth": args.depth, "weight": args.weight,
            "games": len(games), "prior_score": score, "prior_rate": score / max(1, len(games)),
            "interval95": [low, high], "sides": sides, "per_game": games}


def play(args: argparse.Namespace) -> dict[str, Any]:
    game = get_game(args.game)
    config = game.make_config({"num_players": 2})
    levels.HARD_SECONDS = args.seconds
    levels.HARD_PRIOR_WEIGHT = args.weight
    with_prior = Side(levels.hard_bot(game, args.seed, iterations=10**9, prior=True))
    with_prior.bot.prior_depth = args.depth
    without = Side(levels.hard_bot(game, args.seed + 1, iterations=10**9, prior=False))
    games: list[dict[str, Any]] = []

    def current() -> dict[str, Any]:
        sides = {name: {"searched_moves": s.moves, "seconds": s.seconds, "iterations": s.iterations,
                        "seconds_per_move": s.seconds / max(1, s.moves),
                        "iterations_per_move": s.iterations / max(1, s.moves)}
                 for name, s in (("prior", with_prior), ("no_prior", without))}
        return row(args, games, sides)

    try:
        for deal in range(args.first_deal, args.first_deal + args.deals):
            for prior_seat in (0, 1):
                state = game.new(config, args.seed * 1_000_003 + deal)
                sides = [without, without]
                sides[prior_seat] = with_prior
                while (outcome := game.outcome(state)) is None:
                    seat = min(game.actors(state))
                    game.apply(state, seat, sides[seat].choose(game, state, seat))
                won = 0.0 if prior_seat not in outcome.winners else 1.0 / len(outcome.winners)
                games.append({"deal": deal, "prior_seat": prior_seat, "prior_score": won})
                r = current()
                print(f"deal {deal} prior in seat {prior_seat}: {won:g}; prior {r['prior_score']:g}/{r['games']} = "
                      f"{r['prior_rate']:.0%} [{r['interval95'][0]:.0%}, {r['interval95'][1]:.0%}]",
                      file=sys.stderr, flush=True)
                if args.json:
                    with open(args.json, "w") as out:
                        json.dump(r, out, indent=2)
    except KeyboardInterrupt:
        print(f"stopped: {len(games)} finished games kept", file=sys.stderr)
    return current()


def combine(rows: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    games = [g for r in rows for g in r["per_game"]]
    if len({(g["deal"], g["prior_seat"]) for g in games}) < len(games):
        raise SystemExit("the same deal appears in two files (use --first-deal offsets)")
    sides = {}
    for name in ("prior", "no_prior"):
        total = {key: sum(r["sides"][name][key] for r in rows) for key in ("searched_moves", "seconds", "iterations")}
        moves = max(1, total["searched_moves"])
        sides[name] = {**total, "seconds_per_move": total["seconds"] / moves,
                       "iterations_per_move": total["iterations"] / moves}
    first = rows[0]
    args.game, args.seconds, args.depth, args.weight = first["game"], first["seconds_per_move"], first["depth"], \
        first["weight"]
    return row(args, games, sides)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="hold-your-breath", help="a game that ships a 2-player learned policy")
    parser.add_argument("--deals", type=int, default=50, help="deals, each played twice (seats swapped)")
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=0.25, help="wall-clock budget per move, both sides")
    parser.add_argument("--depth", type=int, default=None, help="use the prior down to this depth (0: root only)")
    parser.add_argument("--weight", type=float, default=levels.HARD_PRIOR_WEIGHT, help="PUCT's weight on the prior")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the results here (rewritten after every game)")
    parser.add_argument("--combine", nargs="+", metavar="FILE", help="add up the results of these --json files")
    args = parser.parse_args()
    r = combine([json.loads(Path(name).read_text()) for name in args.combine], args) if args.combine else play(args)
    low, high = r["interval95"]
    p, q = r["sides"]["prior"], r["sides"]["no_prior"]
    print(f"{r['game']}, {r['seconds_per_move']:g} s a move, prior depth {r['depth']}, weight {r['weight']:g}: "
          f"hard with prior {r['prior_score']:g}/{r['games']} = {r['prior_rate']:.1%} [{low:.1%}, {high:.1%}]; "
          f"s/searched move {p['seconds_per_move']:.3f} (prior), {q['seconds_per_move']:.3f} (none); "
          f"iterations/move {p['iterations_per_move']:.0f}, {q['iterations_per_move']:.0f}")


if __name__ == "__main__":
    main()
