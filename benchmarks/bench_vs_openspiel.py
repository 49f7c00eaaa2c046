"""divedeck's ``hard`` bot against OpenSpiel's ``ISMCTSBot``, through the OpenSpiel registration (``divedeck.rl``).

Two-player games, seat-swapped on the same deals: each deal seed is played twice, ``hard`` in seat 0 then in seat 1,
from ``new_initial_state_for_seed(seed)``. Both bots play the same ``pyspiel`` state: OpenSpiel's bot through
OpenSpiel's API (``bot.step(state)``, its own tree, ``resample_from_infostate`` = the game's ``determinize``),
``hard`` through the divedeck decision of its seat (its view and a determinizer, nothing else).

Same wall-clock budget per move: ``hard`` searches until ``--seconds`` (its iteration budget lifted); OpenSpiel's
bot has a simulation budget only, so before each of its moves it is given as many simulations as fit in
``--seconds`` at its measured rate so far (started from a one-move calibration). A move with a single legal action
is played at once by both. The mean seconds per searched move of each side are printed, so the budget can be
checked.

OpenSpiel settings (``--openspiel``):
- ``default``: ``ISMCTSBot``'s defaults (unlimited world samples, max-visit final policy, UCT) with the evaluator
  and exploration constant of OpenSpiel's own MCTS example: ``RandomRolloutEvaluator(1)``, ``uct_c=2``.
- ``tuned``: ``uct_c=0.7`` (the returns are in [-1, 1]) and the max-value final policy, the best of the few
  settings tried (docs/bots.md).

    uv run python benchmarks/bench_vs_openspiel.py --game hold-your-breath --deals 10 --seconds 0.2

Long runs can be cut into chunks run side by side or one after another: ``--first-deal K`` starts at deal K of the
same seed's sequence, ``--json FILE`` rewrites FILE after every game (every finished game is kept if the run is
stopped, Ctrl-C included), and ``--combine FILE...`` adds the games of several such files into one table:

    uv run python benchmarks/bench_vs_openspiel.py --game hold-your-breath --openspiel tuned --seconds 0.5 \
        --deals 25 --first-deal 0 --json a.json
    uv run python benchmarks/bench_vs_openspiel.py --game hold-your-breath --openspiel tuned --seconds 0.5 \
        --deals 25 --first-deal 25 --json b.json
    uv run python benchmarks/bench_vs_openspiel.py --combine a.json b.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from divedeck.bots import levels
from divedeck.engine.decision import decide
from divedeck.rl import openspiel

SETTINGS: dict[str, dict[str, Any]] = {
    "default": {"uct_c": 2.0, "final_policy_type": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT},
    "tuned": {"uct_c": 0.7, "final_policy_type": ismcts.ISMCTSFinalPolicyType.MAX_VALUE},
}


class BudgetedISMCTS:
    """OpenSpiel's ISMCTSBot, given before each move the number of simulations that fit in ``seconds``."""

    def __init__(self, game: Any, seconds: float, seed: int, settings: dict[str, Any]) -> None:
        self.game, self.seconds, self.settings = game, seconds, settings
        self.random_state = np.random.RandomState(seed)
        self.evaluator = mcts.RandomRolloutEvaluator(1, self.random_state)
        self.per_simulation: float | None = None
        self.moves = self.spent = 0.0

    def step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        # Two simulations at least: with one, the bot only creates its root and has no visit to choose by.
        simulations = 8 if self.per_simulation is None else max(2, int(self.seconds / self.per_simulation))
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, max_simulations=simulations,
                               random_state=self.random_state, **self.settings)
        start = time.perf_counter()
        action = int(bot.step(state))
        took = time.perf_counter() - start
        measured = took / simulations
        self.per_simulation = measured if self.per_simulation is None else 0.7 * self.per_simulation + 0.3 * measured
        self.moves += 1
        self.spent += took
        return action


class Hard:
    """divedeck's ``hard`` (ISMCTS with the game's cutoff and evaluator) with a time budget per move only."""

    def __init__(self, game: Any, seconds: float, seed: int, prior: bool | None = None) -> None:
        levels.HARD_SECONDS = seconds
        self.bot = levels.hard_bot(game, seed, iterations=10**9, prior=prior)
        self.game = game
        self.moves = self.spent = 0.0

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        start = time.perf_counter()
        action = decide(self.bot, self.game, state.state, state.current_player())
        self.spent += time.perf_counter() - start
        self.moves += 1
        return state.dd_game.table.index(action)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def summary(game_name: str, settings_name: str, seconds: float, prior: bool, games: list[dict[str, Any]],
            hard: tuple[float, float], theirs: tuple[float, float]) -> dict[str, Any]:
    """One row: ``games`` are per-game records, ``hard`` and ``theirs`` (searched moves, seconds spent), ``prior``
    whether ``hard`` searched with the learned prior."""
    score = sum(g["hard_score"] for g in games)
    low, high = wilson(score, len(games))
    return {"game": game_name, "openspiel": settings_name, "seconds_per_move": seconds, "hard_prior": prior,
            "games": len(games),
            "hard_score": score, "hard_rate": score / max(1, len(games)), "interval95": [low, high],
            "hard_seconds_per_searched_move": hard[1] / max(1, hard[0]),
            "openspiel_seconds_per_searched_move": theirs[1] / max(1, theirs[0]),
            "hard_searched_moves": hard[0], "hard_seconds": hard[1],
            "openspiel_searched_moves": theirs[0], "openspiel_seconds": theirs[1], "per_game": games}


def play(game_name: str, deals: int, seconds: float, settings_name: str, seed: int, first_deal: int = 0,
         progress: Callable[[dict[str, Any]], None] | None = None, prior: bool | None = None) -> dict[str, Any]:
    """Play deals ``first_deal`` .. ``first_deal + deals - 1`` twice each; ``progress`` gets the row after every
    game. Stopped by Ctrl-C, it returns the games finished so far."""
    openspiel.register()
    os_game = pyspiel.load_game(openspiel.short_name(game_name), {"num_players": 2})
    dd = os_game.game
    hard = Hard(dd, seconds, seed, prior)
    theirs = BudgetedISMCTS(os_game, seconds, seed, SETTINGS[settings_name])
    games: list[dict[str, Any]] = []

    def row() -> dict[str, Any]:
        return summary(game_name, settings_name, seconds, hard.bot.prior is not None, games, (hard.moves, hard.spent),
                       (theirs.moves, theirs.spent))

    try:
        for deal in range(first_deal, first_deal + deals):
            for hard_seat in (0, 1):
                state = os_game.new_initial_state_for_seed(seed * 1_000_003 + deal)
                while not state.is_terminal():
                    side = hard if state.current_player() == hard_seat else theirs
                    state.apply_action(side.step(state))
                returns = state.returns()
                mine, other = returns[hard_seat], returns[1 - hard_seat]
                # A win counts 1, a shared win 0.5.
                won = 1.0 if mine > other else 0.5 if mine == other else 0.0
                games.append({"deal": deal, "hard_seat": hard_seat, "hard_score": won})
                current = row()
                low, high = current["interval95"]
                result = "won" if won == 1.0 else "shared" if won == 0.5 else "lost"
                print(f"{game_name} deal {deal} hard in seat {hard_seat}: {result}; "
                      f"hard {current['hard_score']:g}/{len(games)} = {current['hard_rate']:.0%} "
                      f"[{low:.0%}, {high:.0%}]", file=sys.stderr, flush=True)
                if progress is not None:
                    progress(current)
    except KeyboardInterrupt:
        print(f"stopped: {len(games)} finished games kept", file=sys.stderr)
    return row()


def combine(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of the same game, setting and budget (from several chunked runs) added into one each."""
    merged: dict[tuple[str, str, float, bool], dict[str, Any]] = {}
    for r in rows:
        key = (r["game"], r["openspiel"], r["seconds_per_move"], r.get("hard_prior", False))
        if key in merged:
            m = merged[key]
            seen = {(g["deal"], g["hard_seat"]) for g in m["per_game"]}
            if any((g["deal"], g["hard_seat"]) in seen for g in r["per_game"]):
                raise SystemExit(f"{key}: the same deal appears in two files (use --first-deal offsets)")
            merged[key] = summary(*key, m["per_game"] + r["per_game"],
                                  (m["hard_searched_moves"] + r["hard_searched_moves"],
                                   m["hard_seconds"] + r["hard_seconds"]),
                                  (m["openspiel_searched_moves"] + r["openspiel_searched_moves"],
                                   m["openspiel_seconds"] + r["openspiel_seconds"]))
        else:
            merged[key] = r
    return list(merged.values())


def table(results: list[dict[str, Any]]) -> None:
    print("| game | OpenSpiel ISMCTS | hard's prior | s/move | games | hard wins | 95% interval "
          "| s/searched move (hard, OpenSpiel) |")
    print("|---|---|---|--:|--:|--:|---|---|")
    for r in results:
        low, high = r["interval95"]
        prior = "learned" if r.get("hard_prior") else "none"
        print(f"| {r['game']} | {r['openspiel']} | {prior} | {r['seconds_per_move']:g} | {r['games']} "
              f"| {r['hard_rate']:.0%} "
              f"({r['hard_score']:g}) | {low:.0%}–{high:.0%} | {r['hard_seconds_per_searched_move']:.2f}, "
              f"{r['openspiel_seconds_per_searched_move']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["snorkeling", "hold-your-breath", "both"], default="both")
    parser.add_argument("--deals", type=int, default=50, help="deals per game, each played twice (seats swapped)")
    parser.add_argument("--first-deal", type=int, default=0, help="start at this deal of the seed's sequence")
    parser.add_argument("--seconds", type=float, default=1.0, help="wall-clock budget per move, both bots")
    parser.add_argument("--openspiel", choices=[*SETTINGS, "both"], default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prior", choices=["game", "on", "off"], default="game",
                        help="hard's learned prior: as the game declares it (Levels.hard_prior), or on, or off")
    parser.add_argument("--json", help="write the results to this file (rewritten after every game)")
    parser.add_argument("--combine", nargs="+", metavar="FILE", help="add up the rows of these --json files")
    args = parser.parse_args()
    if args.combine:
        rows = [r for name in args.combine for r in json.loads(Path(name).read_text())]
        table(combine(rows))
        return
    games = ["snorkeling", "hold-your-breath"] if args.game == "both" else [args.game]
    settings = list(SETTINGS) if args.openspiel == "both" else [args.openspiel]
    results: list[dict[str, Any]] = []

    def save(current: dict[str, Any] | None = None) -> None:
        if args.json:
            with open(args.json, "w") as out:
                json.dump(results + ([current] if current is not None else []), out, indent=2)

    for g in games:
        for s in settings:
            prior = {"game": None, "on": True, "off": False}[args.prior]
            results.append(play(g, args.deals, args.seconds, s, args.seed, args.first_deal, save, prior))
            save()
    table(results)


if __name__ == "__main__":
    main()
