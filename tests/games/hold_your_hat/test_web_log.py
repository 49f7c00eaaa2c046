"""The browser's log lines for Hold your Hat are the Python ones: js/games/hold-your-hat.js mirrors describe_event(),
checked with Node on every event of seeded games (every kind of event), as every seat and a spectator read them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from divedeck.games.hold_your_hat.game import describe_event

from .helpers import GAME, act, config, started, tick
from .test_invariants import OPTIONS, play

ROOT = Path(__file__).resolve().parents[3]
MODULE = ROOT / "src" / "divedeck" / "web" / "js" / "games" / "hold-your-hat.js"
SCRIPT = """
const [modulePath, dataPath] = process.argv.slice(1);
const fs = await import("node:fs");
const module = await import(modulePath);
const cases = JSON.parse(fs.readFileSync(dataPath, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([shown, viewer]) => module.describeEvent(shown, viewer))));
"""


def event_cases() -> list[tuple[dict[str, object], int | None]]:
    cases = []
    for index, options in enumerate(OPTIONS):
        cfg = config(**options)
        seats = (None, *range(cfg.num_players))
        cases += [(event.for_seat(viewer), viewer) for event in GAME.new_with_events(cfg, index)[1] for viewer in seats]
        for _, _, _, _, events in play(options, index + 1):
            cases += [(event.for_seat(viewer), viewer) for event in events for viewer in seats]
    # The rarer events, set up: EXTRA TIME played and declined, a clue, the special deck refilled or empty.
    scripted = []
    state = started(5, "held=EE/- specials=- discard=BBBESSSTTTTRRRR")
    scripted += act(state, 0, 'clue "a fair clue"', 2000) + tick(state, 61_000) + act(state, 1, "extra", 62_000)
    scripted += tick(state, 200_000)
    state = started(5, "specials=- discard=- held=BBBEEESSS/TTTTRRRR")
    scripted += tick(state, 61_000) + act(state, 0, "end", 61_500)
    cases += [(event.for_seat(viewer), viewer) for event in scripted for viewer in (None, 0, 1, 2, 3)]
    return cases


def test_every_event_reads_the_same_in_the_browser_and_in_python(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    cases = event_cases()
    kinds = {shown["kind"] for shown, _ in cases}
    assert {"game_start", "round_start", "turn_start", "timer", "word", "guess", "got", "theft", "claim", "won",
            "skip", "foul", "timeout", "extra_time_offer", "extra_time", "turn_end", "special_draw", "round_end",
            "game_over", "raid", "binoculars", "order"} <= kinds, kinds
    data = tmp_path / "events.json"
    data.write_text(json.dumps(cases), encoding="utf-8")
    result = subprocess.run([node, "--input-type=module", "-e", SCRIPT, MODULE.as_uri(), str(data)],
                            capture_output=True, text=True, timeout=60, check=True)
    lines = json.loads(result.stdout)
    for (shown, viewer), line in zip(cases, lines, strict=True):
        assert line == describe_event(shown, viewer), shown
