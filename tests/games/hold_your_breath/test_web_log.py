"""The browser's log lines for Hold Your Breath! are the Python ones: js/games/hold-your-breath.js mirrors
describe_event(), checked with Node on every event of seeded games, as every seat and a spectator read them."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from divedeck.games.hold_your_breath.game import describe_event

from .helpers import GAME, act, config, position, with_deck

ROOT = Path(__file__).resolve().parents[3]
MODULE = ROOT / "src" / "divedeck" / "web" / "js" / "games" / "hold-your-breath.js"
SCRIPT = """
const [modulePath, dataPath] = process.argv.slice(1);
const fs = await import("node:fs");
const module = await import(modulePath);
const cases = JSON.parse(fs.readFileSync(dataPath, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([shown, viewer]) => module.describeEvent(shown, viewer))));
"""


def event_cases() -> list[tuple[dict[str, object], int | None]]:
    """Every event of a few random games (with the options that make rarer events), for every reader."""
    cases = []
    for options, seed in (({"num_players": 2}, 1), ({"num_players": 3}, 2), ({"num_players": 4}, 3),
                          ({"num_players": 3, "kraken_discard": "random", "forced_breath": False}, 4),
                          ({"num_players": 2, "winner_rule": "distance"}, 5)):
        cfg = config(**options)
        state, events = GAME.new_with_events(cfg, seed)
        rng = random.Random(seed)
        while True:
            for event in events:
                for viewer in (None, *range(cfg.num_players)):
                    cases.append((event.for_seat(viewer), viewer))
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.actors(state)))
            events = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))))
    # Rarer endings, set up: the deepest diver surfacing, and a tie for the Ascent's first player.
    surfacing = position("round=ascent hands=A10D,S10C/?5 anchors=60,40 depths=10,30 deck=?")
    tie = with_deck("hands=?5/?5/A5D,S5C active=2 first=2 phase=discard depths=20,20,30 final=2:1", [],
                    num_players=3)
    for events in (act(surfacing, "air A10D", "swim S10C", "end"), act(tie, "keep")):
        cases.extend((event.for_seat(viewer), viewer) for event in events for viewer in (None, 0, 1))
    return cases


def test_every_event_reads_the_same_in_the_browser_and_in_python(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    cases = event_cases()
    kinds = {shown["kind"] for shown, _ in cases}
    assert {"deal", "play", "draw", "end_play", "move", "gasp", "replenish", "final_turns", "descent_end",
            "ascent_start", "game_over", "kraken_discards", "lose", "surface", "drop"} <= kinds
    assert {shown["by"] for shown, _ in cases if shown["kind"] == "game_over"} == {"deepest_surfaced", "surfaced",
                                                                                 "distance"}
    data = tmp_path / "events.json"
    data.write_text(json.dumps(cases), encoding="utf-8")
    result = subprocess.run([node, "--input-type=module", "-e", SCRIPT, MODULE.as_uri(), str(data)],
                            capture_output=True, text=True, timeout=60, check=True)
    lines = json.loads(result.stdout)
    for (shown, viewer), line in zip(cases, lines, strict=True):
        assert line == describe_event(shown, viewer), shown
