"""The browser's log lines for Bermuda are the Python ones: js/games/bermuda.js mirrors describe_event(), checked
with Node on every event of seeded games (every variant's events), as every seat and a spectator read them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from divedeck.games.bermuda.game import describe_event
from tests.conformance import playout

from .helpers import GAME, config, play, position

ROOT = Path(__file__).resolve().parents[3]
MODULE = ROOT / "src" / "divedeck" / "web" / "js" / "games" / "bermuda.js"
SCRIPT = """
const [modulePath, dataPath] = process.argv.slice(1);
const fs = await import("node:fs");
const module = await import(modulePath);
const cases = JSON.parse(fs.readFileSync(dataPath, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([shown, viewer]) => module.describeEvent(shown, viewer))));
"""


def event_cases() -> list[tuple[dict[str, object], int | None]]:
    cases = []
    for options, seed in (({"num_players": 2, "sorting": "every_round", "countdown_ms": 2250}, 1),
                          ({"num_players": 3, "hidden_treasures": True, "max_dive_ms": 9000}, 2),
                          ({"num_players": 1}, 3),
                          ({"num_players": 2, "single_breath_challenge": True}, 4),
                          ({"num_players": 2, "single_breath_challenge": True, "single_breath_mode": "one_round"}, 5)):
        cfg = config(**options)
        state, opening = GAME.new_with_events(cfg, seed)
        events = list(opening) + [e for step in playout(GAME, cfg, seed)[0] for e in step.events]
        for event in events:
            for viewer in (None, *range(cfg.num_players)):
                cases.append((event.for_seat(viewer), viewer))
    # A chained layout closing full, and a win against the Keeper, set up.
    chained = position("phase=dive t0=0 hands=12345?3/98765?3 layout=T01,T02", single_breath_challenge=True)
    won = position("round=5 phase=dive t0=0 hands=1/2 layout=T01,T02 columns=12345,23456", num_players=2)
    for events in (play(chained, *(f"0 lay {v} c1 @{v}" for v in range(1, 6)),
                        *(f"1 lay {v} c2 @{20 - v}" for v in range(9, 4, -1))),
                   play(won, "0 release @4")):
        cases.extend((event.for_seat(viewer), viewer) for event in events for viewer in (None, 0, 1))
    return cases


def test_every_event_reads_the_same_in_the_browser_and_in_python(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    cases = event_cases()
    kinds = {shown["kind"] for shown, _ in cases}
    assert {"round_start", "hold", "countdown", "release", "dive_start", "sort", "lay", "signal", "time_up",
            "round_end", "layout_end", "layout_start", "game_over"} <= kinds
    data = tmp_path / "events.json"
    data.write_text(json.dumps(cases), encoding="utf-8")
    result = subprocess.run([node, "--input-type=module", "-e", SCRIPT, MODULE.as_uri(), str(data)],
                            capture_output=True, text=True, timeout=60, check=True)
    lines = json.loads(result.stdout)
    for (shown, viewer), line in zip(cases, lines, strict=True):
        assert line == describe_event(shown, viewer), shown
