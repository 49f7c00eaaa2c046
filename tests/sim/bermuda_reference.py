"""Bermuda simulations whose results are recorded, and the script that records them: ``uv run python -m
tests.sim.bermuda_reference`` rewrites ``bermuda_reference.json``. First recorded from the code before the speed work
(commit a549862); recorded again when the driver began keeping the plans of diver bots that events do not touch
(``DiverBot.notice``), which changed every simulated game once.

Each case is a seating, options and a run seed; each game records its outcome (winners, scores, details, the
simulated length), the number of actions and a digest of the whole action log (seat and stamped action, refused
plans included), so a faster driver, bot or rule that changes any decision shows up.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from divedeck.bots import make_bot
from divedeck.engine import get_game
from divedeck.engine.errors import IllegalAction
from divedeck.sim.driver import RealtimeDriver
from divedeck.sim.runner import SimulationSpec, game_seed, simulate

FIXTURE = Path(__file__).with_name("bermuda_reference.json")
GAMES = 4  # per case

CASES: list[dict[str, Any]] = [
    {"bots": ["diver"] * 4, "options": {"num_players": 4}, "seed": 1},
    {"bots": ["diver"], "options": {"num_players": 1}, "seed": 2},
    {"bots": ["fast-diver", "slow-diver", "diver", "diver-p500-b15", "diver-p3000-b45"],
     "options": {"num_players": 5, "max_dive_ms": 20000, "rounds": 3}, "seed": 3},
    {"bots": ["diver", "fast-diver"], "options": {"num_players": 2, "sorting": "every_round"}, "seed": 4},
    {"bots": ["slow-diver"] * 3, "options": {"num_players": 3, "hidden_treasures": True}, "seed": 5},
    {"bots": ["diver-p1000-b30"] * 4, "options": {"num_players": 4, "placement_check": "strict", "countdown_ms": 0},
     "seed": 6},
    {"bots": ["fast-diver"] * 2, "options": {"num_players": 2, "single_breath_challenge": True}, "seed": 7},
    {"bots": ["diver"] * 3, "options": {"num_players": 3, "single_breath_challenge": True,
                                        "single_breath_mode": "one_round"}, "seed": 8},
    {"bots": ["diver-p500-b45"] * 2, "options": {"num_players": 2, "auto_end_on_empty_hands": False, "rounds": 2},
     "seed": 9},
]


def action_log_digest(case: dict[str, Any], index: int) -> tuple[str, int]:
    """The digest of game ``index``'s log (as ``play_realtime`` plays it) and how many plans were refused."""
    game = get_game("bermuda")
    config = game.make_config(case["options"])
    seed = game_seed(case["seed"], index)
    bots = [make_bot("bermuda", name, game_seed(seed, seat + 1)) for seat, name in enumerate(case["bots"])]
    state = game.new(config, seed)
    driver = RealtimeDriver(game)
    for seat, bot in enumerate(bots):
        driver.seat_bot(seat, bot, state, 0)
    digest = hashlib.sha256()
    refused = 0
    while game.outcome(state) is None:
        due = driver.due(state)
        assert due is not None
        try:
            events = game.apply(state, due.seat, due.action)
        except IllegalAction:
            refused += 1
            digest.update(f"refused {due.seat} {game.format_action(due.action)}\n".encode())
            driver.refused(state, due.seat, due.t)
            continue
        digest.update(f"{due.seat} {game.format_action(due.action)}\n".encode())
        driver.applied(state, due.seat, due.t, events)
    return digest.hexdigest()[:16], refused


def record(case: dict[str, Any]) -> list[dict[str, Any]]:
    spec = SimulationSpec("bermuda", tuple(case["bots"]), case["options"], case["seed"])
    games = []
    for result in simulate(spec, GAMES, workers=1):
        log, refused = action_log_digest(case, result.index)
        games.append({"winners": list(result.winners), "scores": list(result.scores), "actions": result.decisions,
                      "details": result.details, "log": log, "refused": refused})
    return games


def main() -> None:
    fixture = [{**case, "games": record(case)} for case in CASES]
    # One line per game, so that a change shows in a diff as the games it changed.
    cases = []
    for case in fixture:
        games = ",\n   ".join(json.dumps(game) for game in case["games"])
        head = json.dumps({key: value for key, value in case.items() if key != "games"})[:-1]
        cases.append(f' {head}, "games": [\n   {games}]}}')
    FIXTURE.write_text("[\n" + ",\n".join(cases) + "\n]\n")
    print(f"wrote {FIXTURE.name}: {len(fixture)} cases of {GAMES} games")


if __name__ == "__main__":
    main()
